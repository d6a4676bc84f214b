//===- Variables.h - Finding variables and their checkpoint keys -*- C++ -*-===//
//
// What the freezing passes (convert-variables-to-constants, ema-remap,
// rename-variables) share: which nodes are variables, and which checkpoint key
// (and slice) the graph's own Saver restores each of them from. The Saver's
// mapping is read from its restore subgraph: a RestoreV2 / RestoreSlice /
// Restore node's `tensor_names` and `shape_and_slices` constants, followed to
// the Assign / AssignVariableOp that stores output i into a variable.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_VARIABLES_H
#define FROST_TRANSFORMS_VARIABLES_H

#include "frost/Checkpoint/TensorSlice.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"
#include "frost/proto/types.pb.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace frost {

class Model;
class Node;

/// The value dtype of a variable node: its `dtype` attribute without `_REF`;
/// DT_INVALID when the attribute is missing.
tensorflow::DataType variableDType(const Node &N);


/// Where one variable is restored from.
struct RestoreSource {
  std::string Key;
  /// shape_and_slices entry; empty for the whole tensor.
  std::string Slice;
  /// The restore node (or "collection 'variables'") for messages.
  std::string Via;
};

/// The graph's own Saver mapping: variable node name -> source.
struct SaverMapping {
  std::map<std::string, RestoreSource, std::less<>> ByVariable;
  /// Things that looked like a Saver but could not be read (non-constant
  /// tensor names, two different keys for one variable, ...).
  std::vector<std::string> Warnings;
};

/// Reads the restore subgraph. With a MetaGraph whose saver_def names a
/// restore op, only the assignments that op runs count (a graph may hold
/// several Savers); otherwise every restore op's. Then, for partitioned
/// variables the restore subgraph does not cover, the save_slice_info (full
/// name and slice) of the MetaGraph's variable collections is used.
SaverMapping findSaverMapping(const Model &M);

/// The variable node names listed in a MetaGraph collection of VariableDefs
/// (`variables`, `trainable_variables`, `moving_average_variables`), in
/// collection order; `Found` says whether the collection exists.
std::vector<std::string> collectionVariables(const Model &M, llvm::StringRef Collection,
                                             bool *Found = nullptr);

} // namespace frost

#endif // FROST_TRANSFORMS_VARIABLES_H
