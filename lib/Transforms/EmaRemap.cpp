//===- EmaRemap.cpp - Freeze variables with their moving averages ---------===//
//
// The TF1 idiom `Saver(ema.variables_to_restore())` restores every averaged
// variable `v` from its ExponentialMovingAverage shadow; this pass records the
// same choice in the model's VariableSources for convert-variables-to-
// constants, without building a Saver.
//
// Which variables are averaged: in a training graph, those with a shadow in
// the graph (and the `moving_average_variables` collection); in an evaluation
// graph without shadows, variables_to_restore()'s default, the
// `trainable_variables` and `moving_average_variables` collections; when the
// graph says nothing at all, every variable whose shadow key the checkpoint
// holds. Every other variable (global_step, BatchNorm moving statistics, the
// shadows themselves) keeps its own value.
//
// A shadow of `v` is a variable named `v/<ema>` -- or `v/<ema>_N` after a name
// clash, or `<scope>/v/<ema>` when apply() ran inside a variable scope
// (slot_creator's naming) -- preferably colocated with `v` (`_class: loc:@v`).
// Its checkpoint key is the one the graph's Saver restores it from; without a
// shadow node the key is average_name(v) = `v/<ema>` (for a part of a
// partitioned variable: `<full name>/<ema>`, same slice).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Variables.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

namespace frost {

namespace {

class EmaRemapPass : public Pass {
public:
  EmaRemapPass() = default;
  explicit EmaRemapPass(const EmaRemapOptions &O) {
    Ema.set(O.Ema);
  }

private:
  Option<std::string> Ema{*this, "ema",
                          "Name of the ExponentialMovingAverage object (its `name` argument)",
                          "ExponentialMovingAverage"};
  Statistic NumAveraged{*this, "variables-averaged",
                        "Variables to be frozen with their moving average"};

  absl::Status validateOptions() const override {
    if (Ema->empty() || llvm::StringRef(*Ema).contains(':'))
      return absl::InvalidArgumentError(absl::StrCat(
          "ema='", *Ema, "': expected the name of an ExponentialMovingAverage (e.g. ",
          "ExponentialMovingAverage)"));
    return absl::OkStatus();
  }

  /// When `S` is named like a shadow (`.../<ema>` or `.../<ema>_N`), the
  /// part before `/<ema>` and the clash suffix N (0 for none).
  bool splitShadowName(llvm::StringRef S, llvm::StringRef &Prefix, unsigned &Suffix) const {
    llvm::StringRef Base = S;
    Suffix = 0;
    auto [Head, Tail] = S.rsplit('_');
    if (!Tail.empty() && Tail != S && llvm::all_of(Tail, llvm::isDigit) &&
        Head.ends_with(absl::StrCat("/", *Ema))) {
      Base = Head;
      if (Tail.getAsInteger(10, Suffix))
        return false;
      if (Suffix == 0)
        return false; // TensorFlow's suffixes start at _1
    }
    std::string Marker = absl::StrCat("/", *Ema);
    if (!Base.ends_with(Marker))
      return false;
    Prefix = Base.drop_back(Marker.size());
    return !Prefix.empty();
  }

  /// The variable a shadow named `<Prefix>/<ema>` averages: its colocation
  /// target if that fits the name, else `Prefix` or the longest variable
  /// `Prefix` ends with after a scope.
  const Node *primaryOf(const Graph &G, const Node &Shadow, llvm::StringRef Prefix) const {
    auto fits = [&](llvm::StringRef Name) {
      return Prefix == Name || Prefix.ends_with(absl::StrCat("/", Name.str()));
    };
    if (const tensorflow::AttrValue *Class = Shadow.findAttr("_class"))
      for (const std::string &Entry : Class->list().s()) {
        llvm::StringRef Target(Entry);
        if (!Target.consume_front("loc:@") || !fits(Target))
          continue;
        if (const Node *N = G.findNode(Target); N && isVariableOp(N->op()) && N != &Shadow)
          return N;
      }
    for (llvm::StringRef P = Prefix; !P.empty();) {
      if (const Node *N = G.findNode(P); N && isVariableOp(N->op()) && N != &Shadow)
        return N;
      auto [Scope, Rest] = P.split('/');
      if (Rest.empty() || Rest == P)
        break;
      P = Rest;
    }
    return nullptr;
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Ctx.markGraphAnalysesPreserved(); // it chooses checkpoint keys only
    const Graph &G = M.graph();
    std::vector<const Node *> Vars;
    for (const Node &N : G)
      if (isVariableOp(N.op()))
        Vars.push_back(&N);
    if (Vars.empty()) {
      Ctx.note(name(), "graph is already frozen: it has no variables");
      return absl::OkStatus();
    }
    SaverMapping Saver = findSaverMapping(M);
    auto sourceOf = [&](const Node &N) {
      if (auto It = Saver.ByVariable.find(N.name()); It != Saver.ByVariable.end())
        return It->second;
      return RestoreSource{N.name().str(), "", "its name"};
    };

    // Shadows in the graph: primary name -> candidates, best first.
    struct Candidate {
      const Node *Shadow;
      int Rank; // lower is better
    };
    std::map<std::string, std::vector<Candidate>, std::less<>> Shadows;
    std::set<const Node *> IsShadow;
    for (const Node *S : Vars) {
      llvm::StringRef Prefix;
      unsigned Suffix;
      if (!splitShadowName(S->name(), Prefix, Suffix))
        continue;
      const Node *Primary = primaryOf(G, *S, Prefix);
      if (!Primary)
        continue;
      bool Colocated = false;
      if (const tensorflow::AttrValue *Class = S->findAttr("_class"))
        for (const std::string &Entry : Class->list().s())
          Colocated |= Entry == absl::StrCat("loc:@", Primary->name().str());
      // Prefer `v/<ema>`, then colocated ones, then lower clash suffixes.
      int Rank = (Prefix == Primary->name() && Suffix == 0 ? 0 : 1000) +
                 (Colocated ? 0 : 500) + static_cast<int>(std::min(Suffix, 499u));
      Shadows[Primary->name().str()].push_back({S, Rank});
      IsShadow.insert(S);
    }
    for (auto &Entry : Shadows)
      std::sort(Entry.second.begin(), Entry.second.end(),
                [](const Candidate &A, const Candidate &B) {
                  return std::make_pair(A.Rank, A.Shadow->name()) <
                         std::make_pair(B.Rank, B.Shadow->name());
                });

    // Which variables are averaged: in a training graph (shadows present) the
    // ones with shadows and the moving_average_variables collection; in an
    // evaluation graph, variables_to_restore()'s default (trainable and
    // moving-average variables); with no clue at all, a guess checked against
    // the checkpoint.
    bool HaveTrainable = false, HaveAveraged = false;
    std::vector<std::string> Trainable =
        collectionVariables(M, "trainable_variables", &HaveTrainable);
    std::vector<std::string> MovingAverage =
        collectionVariables(M, "moving_average_variables", &HaveAveraged);
    std::set<std::string, std::less<>> Averaged(MovingAverage.begin(), MovingAverage.end());
    for (const auto &Entry : Shadows)
      Averaged.insert(Entry.first);
    if (Shadows.empty())
      Averaged.insert(Trainable.begin(), Trainable.end());
    bool Guess = Shadows.empty() && !HaveTrainable && !HaveAveraged;

    VariableSourceMap &Sources = M.variableSources();
    unsigned Kept = 0;
    for (const Node *V : Vars) {
      bool Selected = Guess || Averaged.count(V->name()) != 0;
      if (!Selected || IsShadow.count(V)) {
        ++Kept;
        continue;
      }
      if (auto It = Sources.find(V->name());
          It != Sources.end() && It->second.Origin == "rename-variables") {
        Ctx.note(name(), absl::StrCat("variable '", V->name().str(),
                                      "' keeps the key rename-variables gave it ('",
                                      It->second.Key, "')"));
        continue;
      }
      VariableSource Source;
      Source.Origin = "ema-remap";
      auto Found = Shadows.find(V->name());
      if (Found != Shadows.end()) {
        const std::vector<Candidate> &C = Found->second;
        RestoreSource S = sourceOf(*C.front().Shadow);
        Source.Key = S.Key;
        Source.Slice = S.Slice;
        if (C.size() > 1) {
          std::vector<std::string> Others;
          for (size_t I = 1; I < C.size(); ++I)
            Others.push_back(absl::StrCat("'", C[I].Shadow->name().str(), "'"));
          Ctx.warning(name(), absl::StrCat("variable '", V->name().str(), "' has ", C.size(),
                                           " shadows; using '",
                                           C.front().Shadow->name().str(), "', not ",
                                           absl::StrJoin(Others, ", "),
                                           " (rename-variables can choose another)"));
        }
      } else {
        // average_name(v): the shadow's name had apply() created it here; a
        // part of a partitioned variable is saved under its full name.
        RestoreSource Own = sourceOf(*V);
        Source.Key = absl::StrCat(Own.Key, "/", *Ema);
        Source.Slice = Own.Slice;
        Source.IfPresent = Guess;
      }
      Sources[V->name().str()] = Source;
      ++NumAveraged;
    }
    if (Guess)
      Ctx.note(name(),
               absl::StrCat("the graph does not say which variables are averaged (no shadow "
                            "variables, no trainable_variables collection): each variable v uses "
                            "'v/",
                            *Ema, "' when the checkpoint has it"));
    else if (NumAveraged.value() == 0)
      Ctx.warning(name(), absl::StrCat("no variable has a moving average named '", *Ema, "'"));
    else
      Ctx.note(name(), absl::StrCat(NumAveraged.value(),
                                    NumAveraged.value() == 1 ? " variable uses its"
                                                             : " variables use their",
                                    " moving average, ", Kept,
                                    Kept == 1 ? " keeps its own value" : " keep their own value"));
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createEmaRemapPass() { return std::make_unique<EmaRemapPass>(); }

std::unique_ptr<Pass> createEmaRemapPass(const EmaRemapOptions &Options) {
  return makeNamedPass<EmaRemapPass>(PassName::createEmaRemapPass, Options);
}

} // namespace frost
