//===- OptimizeForInference.cpp - optimize_for_inference as passes --------===//
#include "frost/Transforms/OptimizeForInference.h"

#include "frost/Support/Suggest.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringExtras.h"

namespace frost {

absl::StatusOr<std::vector<std::string>>
placeholdersToConst(const Graph &G, llvm::ArrayRef<std::string> KeyValues,
                    std::vector<std::string> &Skipped) {
  constexpr llvm::StringLiteral Flag = "--placeholder_to_const_names";
  auto bad = [&](llvm::StringRef Item, llvm::StringRef Why) {
    return absl::InvalidArgumentError(
        absl::StrCat(Flag.str(), ": '", Item.str(), "' ", Why.str()));
  };
  struct Key {
    std::string Name, Value;
    bool Given; // by the user, who must name something that exists
  };
  std::vector<Key> Keys{{"keras_learning_phase", "false", false}};
  for (llvm::StringRef Item : KeyValues) {
    if (Item.trim().empty())
      continue; // TensorFlow's default, "", is one empty item
    auto [Name, Value] = Item.split('=');
    Name = Name.trim();
    Value = Value.trim();
    if (!Item.contains('='))
      return bad(Item, "has no value: give NAME=true or NAME=false");
    if (Value.contains('='))
      return bad(Item, "has more than one '=': give NAME=true or NAME=false");
    if (Name.empty())
      return bad(Item, "names no placeholder (an empty NAME would match every one)");
    if (!Value.equals_insensitive("true") && !Value.equals_insensitive("false"))
      return bad(Item, "is not NAME=true or NAME=false");
    std::string Bound = Value.equals_insensitive("true") ? "true" : "false";
    auto Known = llvm::find_if(Keys, [&](const Key &K) { return K.Name == Name; });
    if (Known != Keys.end())
      *Known = {Name.str(), Bound, true};
    else
      Keys.push_back({Name.str(), Bound, true});
  }
  std::vector<bool> Matched(Keys.size());
  std::vector<std::string> Bind;
  std::vector<llvm::StringRef> Placeholders;
  for (const Node &N : G) {
    if (N.op() != "Placeholder" && N.op() != "PlaceholderWithDefault")
      continue;
    Placeholders.push_back(N.name());
    for (size_t I = 0; I < Keys.size(); ++I)
      if (N.name().contains(Keys[I].Name))
        Matched[I] = true;
    // The first key (in TensorFlow's dict order) the name contains.
    auto Match = llvm::find_if(Keys, [&](const Key &K) { return N.name().contains(K.Name); });
    if (Match == Keys.end())
      continue;
    const tensorflow::AttrValue *DType = N.findAttr("dtype");
    if (DType && DType->type() == tensorflow::DT_BOOL)
      Bind.push_back(absl::StrCat(N.name().str(), "=", Match->Value));
    else
      Skipped.push_back(N.name().str());
  }
  for (size_t I = 0; I < Keys.size(); ++I)
    if (Keys[I].Given && !Matched[I]) {
      std::string Why = "is in no placeholder's name";
      if (std::vector<std::string> Close = closestNames(Keys[I].Name, Placeholders);
          !Close.empty())
        absl::StrAppend(&Why, "; did you mean ", quotedAlternatives(Close), "?");
      return bad(Keys[I].Name, Why);
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
  if (S.ComputeInFloat32)
    PM.addPass(named(createComputeInFloat32Pass(), PassName::createComputeInFloat32Pass));
  // Before folding, which would take the decomposed pattern apart.
  PM.addPass(createFuseDecomposedBatchNormPass(Keep));
  // Batch norm parameters and biases computed from constants (Keras 3's
  // bias Reshape/Squeeze, a Dense layer's decomposed norm) become Consts.
  PM.addPass(createFoldConstantsPass(
      FoldConstantsOptions{T.Inputs, T.Outputs, T.FoldBudget, T.FoldMaxBytes}));
  // An If/Case on a predicate folding made constant becomes its branch, and
  // what the branch computes from constants is folded in turn.
  PM.addPass(createFoldConstantBranchesPass(
      FoldConstantBranchesOptions{true, T.Inputs, T.Outputs}));
  // The batch-keeping Reshapes folding leaves computed (Keras' squeeze-and-excite).
  PM.addPass(named(createInferReshapeDimensionPass(), PassName::createInferReshapeDimensionPass));
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
  // Last, over what is left: OpenCV's importer reads the elements (docs/consumers.md).
  PM.addPass(named(createSpellOutConstantsPass(), PassName::createSpellOutConstantsPass));
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
