//===- OptimizeForInference.cpp - optimize_for_inference as passes --------===//
#include "frost/Transforms/OptimizeForInference.h"

#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringExtras.h"

namespace frost {

std::vector<std::string> placeholdersToConst(const Graph &G,
                                             llvm::ArrayRef<std::string> KeyValues,
                                             std::vector<std::string> &Skipped) {
  std::vector<std::pair<std::string, std::string>> Keys{{"keras_learning_phase", "false"}};
  for (llvm::StringRef Item : KeyValues) {
    auto [Key, Value] = Item.split('=');
    bool True = Value.trim().equals_insensitive("true");
    auto Known = llvm::find_if(Keys, [&](const auto &K) { return K.first == Key.trim(); });
    std::string Bound = True ? "true" : "false";
    if (Known != Keys.end())
      Known->second = Bound;
    else
      Keys.push_back({Key.trim().str(), Bound});
  }
  std::vector<std::string> Bind;
  for (const Node &N : G) {
    if (N.op() != "Placeholder" && N.op() != "PlaceholderWithDefault")
      continue;
    // The first key (in TensorFlow's dict order) the name contains.
    auto Match = llvm::find_if(Keys, [&](const auto &K) { return N.name().contains(K.first); });
    if (Match == Keys.end())
      continue;
    const tensorflow::AttrValue *DType = N.findAttr("dtype");
    if (DType && DType->type() == tensorflow::DT_BOOL)
      Bind.push_back(absl::StrCat(N.name().str(), "=", Match->second));
    else
      Skipped.push_back(N.name().str());
  }
  return Bind;
}

void buildOptimizePipeline(PassManager &PM, const OptimizeSequence &S, const OptimizeTargets &T) {
  KeepOutputsOptions Keep{T.Outputs};
  if (S.BindPlaceholders)
    PM.addPass(createBindPlaceholdersPass(BindPlaceholdersOptions{T.Bind}));
  if (S.StripUnused) {
    // Folding and pruning stop at the inputs; strip-unused-nodes makes them
    // Placeholders, of one dtype or one per input.
    StripUnusedNodesOptions Strip{T.Inputs, T.Outputs, "", {}, {}};
    if (T.PlaceholderTypes.size() == 1) {
      Strip.Type = T.PlaceholderTypes.front();
    } else if (!T.PlaceholderTypes.empty()) {
      Strip.Names = T.Inputs;
      Strip.TypeForName = T.PlaceholderTypes;
    }
    PM.addPass(createStripUnusedNodesPass(Strip));
  }
  // Identities between a convolution and its batch norm hide the pattern.
  PM.addPass(createRemoveTrainingNodesPass(Keep));
  // Before the batch norm passes, which fold float and double weights.
  if (S.ComputeInFloat32) {
    std::unique_ptr<Pass> P = createComputeInFloat32Pass();
    P->setName(PassName::createComputeInFloat32Pass);
    PM.addPass(std::move(P));
  }
  // Before folding, which would take the decomposed pattern apart.
  PM.addPass(createFuseDecomposedBatchNormPass(Keep));
  // Batch norm parameters and biases computed from constants (Keras 3's
  // bias Reshape/Squeeze, a Dense layer's decomposed norm) become Consts.
  PM.addPass(createFoldConstantsPass(FoldConstantsOptions{T.Inputs, T.Outputs}));
  // An If/Case on a predicate folding made constant becomes its branch, and
  // what the branch computes from constants is folded in turn.
  PM.addPass(createFoldConstantBranchesPass(
      FoldConstantBranchesOptions{true, T.Inputs, T.Outputs}));
  PM.addPass(createFoldOldBatchNormsPass(Keep));
  PM.addPass(createFoldBatchNormsPass(Keep));
  // optimize_for_inference's fuse_resize_and_conv: resize+pad first.
  if (!S.TocoCompatible) {
    PM.addPass(createFuseResizePadAndConvPass(Keep));
    PM.addPass(createFusePadAndConvPass(Keep));
    PM.addPass(createFuseResizeAndConvPass(Keep));
  }
  if (S.Prune)
    PM.addPass(createPrunePass(Keep));
}

absl::Status addOptimizePasses(PassManager &PM, const PassRegistry &,
                               const OptimizeSequence &Sequence, const OptimizeTargets &T) {
  size_t First = PM.passes().size();
  buildOptimizePipeline(PM, Sequence, T);
  for (size_t I = First; I < PM.passes().size(); ++I)
    FROST_RETURN_IF_ERROR(PM.passes()[I]->validateOptions());
  return absl::OkStatus();
}

} // namespace frost
