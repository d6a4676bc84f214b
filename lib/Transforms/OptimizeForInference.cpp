//===- OptimizeForInference.cpp - optimize_for_inference as passes --------===//
#include "frost/Transforms/OptimizeForInference.h"

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

absl::Status addOptimizePasses(PassManager &PM, const PassRegistry &Registry,
                               const OptimizeSequence &Sequence, const OptimizeTargets &T) {
  for (llvm::StringRef Name : optimizePasses(Sequence)) {
    std::unique_ptr<Pass> P = Registry.create(Name);
    if (!P)
      return absl::InternalError(absl::StrCat("no pass '", Name.str(), "' is registered"));
    auto setList = [&](llvm::StringRef Option, const std::vector<std::string> &Values) {
      if (auto *O = P->option<ListOption<std::string>>(Option); O && !Values.empty())
        O->set(Values);
    };
    setList("outputs", T.Outputs);
    // Folding and pruning stop at the inputs; strip-unused-nodes makes them
    // Placeholders.
    if (Name != "prune")
      setList("inputs", T.Inputs);
    if (Name == "bind-placeholders")
      setList("bind", T.Bind);
    if (Name == "strip-unused-nodes" && !T.PlaceholderTypes.empty()) {
      if (T.PlaceholderTypes.size() == 1) {
        P->option<Option<std::string>>("type")->set(T.PlaceholderTypes.front());
      } else {
        setList("name", T.Inputs);
        setList("type-for-name", T.PlaceholderTypes);
      }
    }
    FROST_RETURN_IF_ERROR(P->validateOptions());
    PM.addPass(std::move(P));
  }
  return absl::OkStatus();
}

} // namespace frost
