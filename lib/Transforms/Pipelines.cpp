//===- Pipelines.cpp - Pass sequences defined once ------------------------===//
#include "frost/Transforms/Pipelines.h"

#include "frost/Transforms/OptimizeForInference.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"

#include "llvm/ADT/StringExtras.h"

namespace frost {

std::unique_ptr<Pass> named(std::unique_ptr<Pass> P, llvm::StringRef Name) {
  P->setName(Name);
  return P;
}

void buildFreezePipeline(PassManager &PM, const FreezePipelineOptions &O, FreezeStage Stage) {
  const FreezeSequence &S = O.Sequence;
  if (Stage != FreezeStage::FromConversion) {
    // convert_variables_to_constants_v2 inlines the calls first (Grappler),
    // lowering If/Case/While in the same walk, and spells constants its way.
    if (S.FunctionGraph) {
      PM.addPass(createInlineFunctionsPass(InlineFunctionsOptions{O.LowerControlFlow}));
      PM.addPass(named(createCompressConstantsPass(), PassName::createCompressConstantsPass));
    }
    // Keys are chosen before conversion reads them.
    if (S.RenameVariables)
      PM.addPass(createRenameVariablesPass(RenameVariablesOptions{O.Rename}));
    if (S.EmaRemap)
      PM.addPass(createEmaRemapPass(EmaRemapOptions{O.Ema}));
    // Before conversion, so the variables of branches it folds away need not
    // be in the checkpoint.
    if (S.BindPlaceholders)
      PM.addPass(createBindPlaceholdersPass(BindPlaceholdersOptions{O.Bind}));
    // An If/Case a bound placeholder decides becomes its branch, so the
    // other branch's variable updates are gone before conversion.
    if (S.FoldConstantBranches)
      PM.addPass(createFoldConstantBranchesPass(FoldConstantBranchesOptions{}));
  }
  if (Stage == FreezeStage::BeforeConversion)
    return;
  // Conversion reads the Saver's keys, so the Saver goes after it.
  PM.addPass(createConvertVariablesToConstantsPass(
      ConvertVariablesToConstantsOptions{O.Keep, O.Checkpoint, O.Only, O.Except}));
  // Before prune, which then drops the filename constants.
  if (S.TableFiles)
    PM.addPass(createInlineTableFilesPass(KeepOutputsOptions{O.Keep}));
  if (!S.FunctionGraph)
    PM.addPass(createStripSaveNodesPass(KeepOutputsOptions{O.Keep}));
  std::vector<std::string> Needed = O.Keep;
  for (const std::string &Input : O.SignatureInputs)
    if (!llvm::is_contained(Needed, Input))
      Needed.push_back(Input);
  PM.addPass(createPrunePass(KeepOutputsOptions{Needed}));
  // After pruning, so only the writes the outputs keep are reported; before
  // strip-training-ops, which cannot rewrite optimizer updates.
  if (S.DropVariableWrites)
    PM.addPass(named(createDropVariableWritesPass(), PassName::createDropVariableWritesPass));
  // After pruning, which removes the optimizer.
  if (S.StripTrainingOps)
    PM.addPass(named(createStripTrainingOpsPass(), PassName::createStripTrainingOpsPass));
  if (S.ClearDevices)
    PM.addPass(named(createClearDevicesPass(), PassName::createClearDevicesPass));
  if (S.FunctionGraph)
    PM.addPass(createFunctionGraphLayoutPass(
        FunctionGraphLayoutOptions{O.SignatureInputs, O.FunctionOutputs}));
}

void buildDefaultFreezePipeline(PassManager &PM) { buildFreezePipeline(PM, {}); }

void buildInputShapesPipeline(PassManager &PM, const SetInputShapesOptions &Shapes,
                              const std::vector<std::string> &Outputs) {
  if (Shapes.Shapes.empty() && Shapes.BatchSize == 0)
    return;
  PM.addPass(createSetInputShapesPass(Shapes));
  PM.addPass(createFoldConstantsPass(FoldConstantsOptions{{}, Outputs, 0, 0}));
  PM.addPass(createPrunePass(KeepOutputsOptions{Outputs}));
}

absl::Status validateInputShapes(const SetInputShapesOptions &Shapes) {
  if (Shapes.Shapes.empty() && Shapes.BatchSize == 0)
    return absl::OkStatus();
  return createSetInputShapesPass(Shapes)->validateOptions();
}

void buildOptimizeRewritesPipeline(PassManager &PM) {
  buildOptimizePipeline(PM, {.StripUnused = false, .Prune = false}, {});
}

std::string optimizePipelineText(const OptimizeSequence &Sequence) {
  PassManager PM;
  buildOptimizePipeline(PM, Sequence, {});
  return PM.passList();
}

} // namespace frost
