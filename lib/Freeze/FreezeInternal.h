//===- FreezeInternal.h - The steps of freeze(), shared in lib/Freeze -----===//
#ifndef FROST_LIB_FREEZE_FREEZEINTERNAL_H
#define FROST_LIB_FREEZE_FREEZEINTERNAL_H

#include "frost/Freeze/Freeze.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace frost {

class AnalysisManager;

/// The model and checkpoint the options name.
struct FreezeInput {
  std::unique_ptr<Model> M;
  std::string GraphPath;
  /// Empty when there is none (an already frozen graph needs none).
  std::string Checkpoint;
};

/// Exactly one input is named (positional, SavedModel or graph flags).
absl::Status checkOneInput(const FreezeOptions &O);

/// Reads the input model and finds its checkpoint; `Analyses` learns how a
/// checkpoint path was resolved, the job's diagnostics how the input was
/// understood where that was not literal.
absl::StatusOr<FreezeInput> loadFreezeInput(const FreezeOptions &O, AnalysisManager &Analyses);

/// The node of a tensor name from a collection or signature ("y:0", "^init").
std::string nodeOfTensor(llvm::StringRef Tensor);

/// The signature a run freezes: --signature, a lone `signature:NAME` output,
/// or the model's default one when no output is named.
std::string requestedSignature(const FreezeOptions &O, const Model &M);

/// In a TF2 SavedModel run without a signature, the signature that holds
/// every name of O.Outputs (an output key, or a node or tensor of the graph
/// its function is instantiated as); "" when the names are not for one (a
/// TF1 SavedModel, `collection:`, nodes of the SavedModel's own graph).
/// Names in several signatures, in none, or in no one signature are errors.
absl::StatusOr<std::string> signatureOfOutputs(const FreezeOptions &O, const Model &M);

/// The output nodes: what O.Outputs names, else the signature's outputs;
/// each node once, in the order first named. An output key of signature
/// `KeySignature` (when not empty) names that output.
absl::StatusOr<std::vector<FreezeOutput>> resolveFreezeOutputs(const FreezeOptions &O,
                                                               const Model &M,
                                                               llvm::StringRef KeySignature,
                                                               std::vector<std::string> &Notes);

/// The initializers of the lookup tables the `Keep` nodes read, and the
/// model's init op when it initializes nothing but tables: TensorFlow's
/// freezing drops them and the frozen graph fails "Table not initialized".
std::vector<std::string> tableInitializers(const Model &M, const std::vector<std::string> &Keep,
                                           AnalysisManager &Analyses);

/// The variables that are Consts now, with what they were read from.
std::vector<FrozenVariable> frozenVariables(const Model &M);
/// The variables still variables, with the keys they would be read from.
std::vector<FreezeResult::LeftVariable> leftVariables(const Model &M);

} // namespace frost

#endif // FROST_LIB_FREEZE_FREEZEINTERNAL_H
