//===- OptimizeForInference.h - optimize_for_inference as passes -*- C++ -*-===//
//
// The pass manager optimize_for_inference's sequence (frost/Transforms/
// Pipelines.h) runs in, told the graph's inputs and outputs: shared by the
// optimize-for-inference tool, freeze-graph --optimize and transform-graph.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_OPTIMIZEFORINFERENCE_H
#define FROST_TRANSFORMS_OPTIMIZEFORINFERENCE_H

#include "frost/IR/Graph.h"
#include "frost/Pass/PassManager.h"
#include "frost/Pass/PassRegistry.h"
#include "frost/Transforms/Pipelines.h"

#include <string>
#include <vector>

namespace frost {

struct OptimizeTargets {
  /// Input and output node names.
  std::vector<std::string> Inputs, Outputs;
  /// TensorFlow type names for inputs that are not Placeholders already:
  /// one for all, or one per input.
  std::vector<std::string> PlaceholderTypes;
  /// Placeholders to bind, NAME=VALUE (bind-placeholders' `bind`).
  std::vector<std::string> Bind;
  /// What folding may spend (fold-constants' eval-budget and eval-max-bytes);
  /// 0: the default.
  int64_t FoldBudget = 0, FoldMaxBytes = 0;
};

/// The Placeholders and PlaceholderWithDefaults optimize_for_inference's
/// convert_placeholder_to_const binds: bool ones whose name contains a key of
/// `KeyValues` (`key=value`, value true or false in any case) or
/// `keras_learning_phase` (false), as NAME=VALUE items. Non-bool matches are
/// named in `Skipped`. An item that is not NAME=true|false, or whose NAME is
/// in no placeholder's name, is an error naming --placeholder_to_const_names
/// (TensorFlow bound such values false, ignored a bare NAME and matched
/// every placeholder with an empty one; docs/transforms.md).
absl::StatusOr<std::vector<std::string>>
placeholdersToConst(const Graph &G, llvm::ArrayRef<std::string> KeyValues,
                    std::vector<std::string> &Skipped);

/// Adds `Sequence`'s passes to PM, each told the targets it takes.
/// optimize_for_inference's sequence, each pass made from its typed
/// options (frost/Transforms/PassOptions.h) and told the inputs and outputs.
/// The one definition of that sequence's order.
void buildOptimizePipeline(PassManager &PM, const OptimizeSequence &Sequence,
                           const OptimizeTargets &Targets);

absl::Status addOptimizePasses(PassManager &PM, const PassRegistry &Registry,
                               const OptimizeSequence &Sequence, const OptimizeTargets &Targets);

} // namespace frost

#endif // FROST_TRANSFORMS_OPTIMIZEFORINFERENCE_H
