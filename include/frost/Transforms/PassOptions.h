//===- PassOptions.h - Typed options of the passes builders use -*- C++ -*-===//
//
// A pass that a typed builder (frost/Transforms/Pipelines.h) adds is made
// from its options struct, as MLIR's generated `FooOptions` and
// `createFooPass(const FooOptions &)`: a renamed or retyped option fails to
// compile, where setting it by its string name failed at run time. Each
// value given is set as a pipeline would set it, so the pass prints back as
// the same pipeline text; an empty std::optional or string is left unset.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_PASSOPTIONS_H
#define FROST_TRANSFORMS_PASSOPTIONS_H

#include "frost/Pass/Pass.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace frost {

struct InlineFunctionsOptions {
  bool LowerControlFlow = false;
};
std::unique_ptr<Pass> createInlineFunctionsPass(const InlineFunctionsOptions &Options);

struct RenameVariablesOptions {
  /// VAR:KEY items.
  std::vector<std::string> Map;
};
std::unique_ptr<Pass> createRenameVariablesPass(const RenameVariablesOptions &Options);

struct EmaRemapOptions {
  std::string Ema;
};
std::unique_ptr<Pass> createEmaRemapPass(const EmaRemapOptions &Options);

struct BindPlaceholdersOptions {
  /// NAME=VALUE items.
  std::vector<std::string> Bind;
};
std::unique_ptr<Pass> createBindPlaceholdersPass(const BindPlaceholdersOptions &Options);

struct SetInputShapesOptions {
  /// NAME:D,D,... items.
  std::vector<std::string> Shapes;
  /// 0: unset.
  int64_t BatchSize = 0;
};
std::unique_ptr<Pass> createSetInputShapesPass(const SetInputShapesOptions &Options);

struct ConvertVariablesToConstantsOptions {
  std::vector<std::string> Outputs;
  /// Empty: the pass's default (no checkpoint).
  std::string Checkpoint;
  /// Empty: every variable (Only), none left (Except).
  std::vector<std::string> Only, Except;
};
std::unique_ptr<Pass>
createConvertVariablesToConstantsPass(const ConvertVariablesToConstantsOptions &Options);

/// For the passes whose only option is the nodes to keep (empty: unset).
struct KeepOutputsOptions {
  std::vector<std::string> Outputs;
};
std::unique_ptr<Pass> createInlineTableFilesPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createStripSaveNodesPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createPrunePass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createRemoveTrainingNodesPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFuseDecomposedBatchNormPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFoldOldBatchNormsPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFoldBatchNormsPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFusePadAndConvPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFuseResizeAndConvPass(const KeepOutputsOptions &Options);
std::unique_ptr<Pass> createFuseResizePadAndConvPass(const KeepOutputsOptions &Options);

/// The graph's inputs and outputs (empty: unset).
struct FoldConstantsOptions {
  std::vector<std::string> Inputs, Outputs;
  /// The evaluation budget (eval::EvalBudget); 0: the default.
  int64_t EvalBudget = 0, EvalMaxBytes = 0;
};
std::unique_ptr<Pass> createFoldConstantsPass(const FoldConstantsOptions &Options);

struct FoldConstantBranchesOptions {
  /// Refold constants after each round that folded a branch.
  bool FoldConstants = false;
  /// For that folding (empty: unset).
  std::vector<std::string> Inputs, Outputs;
};
std::unique_ptr<Pass> createFoldConstantBranchesPass(const FoldConstantBranchesOptions &Options);

struct StripUnusedNodesOptions {
  /// Empty: unset.
  std::vector<std::string> Inputs, Outputs;
  /// One dtype for every new Placeholder (empty: unset), or one per name.
  std::string Type;
  std::vector<std::string> Names, TypeForName;
};
std::unique_ptr<Pass> createStripUnusedNodesPass(const StripUnusedNodesOptions &Options);

struct FunctionGraphLayoutOptions {
  /// The function's input Placeholders and output nodes, in order.
  std::vector<std::string> Inputs, Outputs;
};
std::unique_ptr<Pass> createFunctionGraphLayoutPass(const FunctionGraphLayoutOptions &Options);

struct InstantiateSignatureOptions {
  std::string Signature, Checkpoint;
};
std::unique_ptr<Pass>
createInstantiateSignaturePass(const InstantiateSignatureOptions &Options);

} // namespace frost

#endif // FROST_TRANSFORMS_PASSOPTIONS_H
