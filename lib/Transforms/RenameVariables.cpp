//===- RenameVariables.cpp - Say which checkpoint key feeds a variable ----===//
//
// The TF1 idiom `Saver({"v1": other_v1})` restores graph variable `other-v1`
// from checkpoint key `v1`. `rename-variables{map=other-v1:v1}` records the
// same in the model's VariableSources for convert-variables-to-constants; it
// wins over the graph's own Saver and over ema-remap. Node names cannot hold
// ':', so an entry splits at its first ':' (keys may contain more).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/Suggest.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Variables.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <set>

namespace frost {

namespace {

class RenameVariablesPass : public Pass {
public:
  RenameVariablesPass() = default;
  explicit RenameVariablesPass(const RenameVariablesOptions &O) {
    Map.set(O.Map);
  }

private:
  ListOption<std::string> Map{*this, "map",
                              "Entries `graph_variable:checkpoint_key`, separated by ';'"};
  Statistic NumRenamed{*this, "variables-renamed", "Variables given a checkpoint key"};

  absl::Status validateOptions() const override {
    if (Map.empty())
      return absl::InvalidArgumentError(
          "needs map=GRAPH_NAME:CHECKPOINT_KEY[;...]: the variables to rename");
    std::vector<std::string> Errors;
    std::set<std::string, std::less<>> Seen;
    for (const std::string &Entry : Map) {
      auto [Name, Key] = llvm::StringRef(Entry).split(':');
      if (Name.empty() || Key.empty() || Name.size() == Entry.size())
        Errors.push_back(absl::StrCat("map entry '", Entry,
                                      "': expected GRAPH_NAME:CHECKPOINT_KEY"));
      else if (!Seen.insert(Name.str()).second)
        Errors.push_back(absl::StrCat("map: variable '", Name.str(), "' is given twice"));
    }
    if (Errors.empty())
      return absl::OkStatus();
    return absl::InvalidArgumentError(joinFindings(Errors));
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Ctx.markGraphAnalysesPreserved(); // it chooses checkpoint keys only
    const Graph &G = M.graph();
    std::vector<llvm::StringRef> VariableNames;
    for (const Node &N : G)
      if (isVariableOp(N.op()))
        VariableNames.push_back(N.name());
    std::vector<std::string> Errors;
    for (const std::string &Entry : Map) {
      auto [Name, Key] = llvm::StringRef(Entry).split(':');
      const Node *N = G.findNode(Name);
      if (N && isVariableOp(N->op())) {
        M.variableSources()[Name.str()] = {Key.str(), "", "rename-variables", false};
        ++NumRenamed;
        continue;
      }
      std::string Why = N ? absl::StrCat("node '", Name.str(), "' is not a variable (op ",
                                         N->op().str(), ")")
                          : absl::StrCat("no variable named '", Name.str(), "'");
      std::vector<std::string> Close = closestNames(Name, VariableNames);
      if (!Close.empty())
        absl::StrAppend(&Why, "; did you mean ", quotedAlternatives(Close), "?");
      Errors.push_back(absl::StrCat("map entry '", Entry, "': ", Why));
    }
    if (Errors.empty())
      return absl::OkStatus();
    return absl::NotFoundError(joinFindings(Errors));
  }
};

} // namespace

std::unique_ptr<Pass> createRenameVariablesPass() {
  return std::make_unique<RenameVariablesPass>();
}

std::unique_ptr<Pass> createRenameVariablesPass(const RenameVariablesOptions &Options) {
  return makeNamedPass<RenameVariablesPass>(PassName::createRenameVariablesPass, Options);
}

} // namespace frost
