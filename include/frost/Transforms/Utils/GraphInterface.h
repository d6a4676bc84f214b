//===- GraphInterface.h - The inputs and outputs a user names ---*- C++ -*-===//
//
// graph_transforms hands every transform the --inputs and --outputs of
// transform_graph; each pass that must not touch them (remove-nodes,
// merge-duplicate-nodes, obfuscate-names, strip-unused-nodes) takes them as
// `inputs`/`outputs` list options and reads them here, once, the same way.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_GRAPHINTERFACE_H
#define FROST_TRANSFORMS_UTILS_GRAPHINTERFACE_H

#include "frost/IR/Graph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>

namespace frost {

/// The node names `Inputs` and `Outputs` stand for ("x", "x:1" and "^x" all
/// name node x). An output must name a node of `G` (NotFound, with close names
/// suggested); an input that is not in `G` is ignored, as graph_transforms
/// ignores it; a malformed name is InvalidArgument.
absl::StatusOr<llvm::StringSet<>> interfaceNodeNames(const Graph &G,
                                                     llvm::ArrayRef<std::string> Inputs,
                                                     llvm::ArrayRef<std::string> Outputs);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_GRAPHINTERFACE_H
