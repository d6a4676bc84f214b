//===- Pipelines.cpp - Pass sequences defined once ------------------------===//
#include "frost/Transforms/Pipelines.h"

#include "llvm/ADT/StringExtras.h"

namespace frost {

std::vector<llvm::StringRef> freezePasses(const FreezeSequence &S) {
  std::vector<llvm::StringRef> Passes;
  // convert_variables_to_constants_v2 inlines the calls first (Grappler),
  // lowering If/Case/While in the same walk, and spells constants its way.
  if (S.FunctionGraph)
    Passes.insert(Passes.end(), {"inline-functions", "compress-constants"});
  // Keys are chosen before conversion reads them.
  if (S.RenameVariables)
    Passes.push_back("rename-variables");
  if (S.EmaRemap)
    Passes.push_back("ema-remap");
  // Before conversion, so the variables of branches it folds away need not
  // be in the checkpoint.
  if (S.BindPlaceholders)
    Passes.push_back("bind-placeholders");
  // Conversion reads the Saver's keys, so the Saver goes after it.
  Passes.push_back("convert-variables-to-constants");
  // Before prune, which then drops the filename constants.
  if (S.TableFiles)
    Passes.push_back("inline-table-files");
  if (!S.FunctionGraph)
    Passes.push_back("strip-save-nodes");
  Passes.push_back("prune");
  // After pruning, so only the writes the outputs keep are reported; before
  // strip-training-ops, which cannot rewrite optimizer updates.
  if (S.DropVariableWrites)
    Passes.push_back("drop-variable-writes");
  // After pruning, which removes the optimizer.
  if (S.StripTrainingOps)
    Passes.push_back("strip-training-ops");
  if (S.ClearDevices)
    Passes.push_back("clear-devices");
  if (S.FunctionGraph)
    Passes.push_back("function-graph-layout");
  return Passes;
}

std::string freezePipelineText(const FreezeSequence &Sequence) {
  return llvm::join(freezePasses(Sequence), ",");
}

std::vector<llvm::StringRef> optimizePasses(const OptimizeSequence &S) {
  std::vector<llvm::StringRef> Passes;
  if (S.BindPlaceholders)
    Passes.push_back("bind-placeholders");
  if (S.StripUnused)
    Passes.push_back("strip-unused-nodes");
  // Identities between a convolution and its batch norm hide the pattern.
  Passes.push_back("remove-training-nodes");
  // Before the batch norm passes, which fold float and double weights.
  if (S.ComputeInFloat32)
    Passes.push_back("compute-in-float32");
  // Before folding, which would take the decomposed pattern apart.
  Passes.push_back("fuse-decomposed-batch-norm");
  // Batch norm parameters and biases computed from constants (Keras 3's
  // bias Reshape/Squeeze, a Dense layer's decomposed norm) become Consts.
  Passes.push_back("fold-constants");
  Passes.insert(Passes.end(), {"fold-old-batch-norms", "fold-batch-norms"});
  // optimize_for_inference's fuse_resize_and_conv: resize+pad first.
  if (!S.TocoCompatible)
    Passes.insert(Passes.end(),
                  {"fuse-resize-pad-and-conv", "fuse-pad-and-conv", "fuse-resize-and-conv"});
  if (S.Prune)
    Passes.push_back("prune");
  return Passes;
}

std::string optimizePipelineText(const OptimizeSequence &Sequence) {
  return llvm::join(optimizePasses(Sequence), ",");
}

} // namespace frost
