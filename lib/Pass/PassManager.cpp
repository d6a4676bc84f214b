//===- PassManager.cpp - Running pipelines, with instrumentation ----------===//
#include "frost/Pass/PassManager.h"

#include "frost/IO/GraphIO.h"
#include "frost/IR/Colocation.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpRegistry.h"
#include "frost/IR/Verifier.h"
#include "frost/Support/Suggest.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <chrono>
#include <optional>

namespace frost {

absl::Status checkPassManagerOptions(const PassManagerOptions &Options,
                                     const PassRegistry &Registry) {
  for (const std::string &Name : Options.PrintIRAfter)
    if (!Registry.findPass(Name))
      return absl::InvalidArgumentError(
          absl::StrCat("--print-ir-after: unknown pass '", Name, "'"));
  return absl::OkStatus();
}

void TimingReport::add(llvm::StringRef Name, double Seconds) {
  for (auto &[Row, Total] : Rows)
    if (Row == Name) {
      Total += Seconds;
      return;
    }
  Rows.emplace_back(Name.str(), Seconds);
}

void TimingReport::print(llvm::raw_ostream &OS) const {
  double Total = 0;
  for (const auto &Row : Rows)
    Total += Row.second;
  OS << "===" << std::string(73, '-') << "===\n"
     << "                         ... Execution time report ...\n"
     << "===" << std::string(73, '-') << "===\n"
     << llvm::format("  Total Execution Time: %.4f seconds\n\n", Total)
     << "  ----Wall Time----  ----Name----\n";
  for (const auto &[Name, Seconds] : Rows)
    OS << llvm::format("  %8.4f (%5.1f%%)  ", Seconds, Total > 0 ? 100 * Seconds / Total : 0.0)
       << Name << "\n";
  OS << llvm::format("  %8.4f (100.0%%)  Total\n", Total);
}

std::string PassManager::printPipeline() const {
  std::vector<std::string> Parts;
  for (const auto &P : Passes)
    Parts.push_back(P->printAsPipelineElement());
  return absl::StrJoin(Parts, ",");
}

void PassManager::dumpPipeline(llvm::raw_ostream &OS) const {
  OS << "Pass Manager with " << Passes.size() << " passes:\n" << printPipeline() << "\n";
}

std::string PassManager::passList() const {
  std::string List;
  for (const std::unique_ptr<Pass> &P : Passes)
    List += (List.empty() ? "" : ",") + P->name().str();
  return List;
}

std::vector<std::unique_ptr<Pass>> PassManager::takePasses() {
  assert(NumRun == 0 && "taking passes that ran already");
  return std::exchange(Passes, {});
}

void PassManager::append(PassManager &&Other) {
  assert(Other.NumRun == 0 && "appending passes that ran already");
  for (std::unique_ptr<Pass> &P : Other.Passes)
    Passes.push_back(std::move(P));
  Other.Passes.clear();
}

absl::Status PassManager::run(Model &M, PassContext &Ctx) {
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point Start) {
    return std::chrono::duration<double>(Clock::now() - Start).count();
  };
  auto Pending = llvm::ArrayRef(Passes).drop_front(NumRun);
  for (const auto &P : Pending) {
    if (absl::Status S = P->validateOptions(); !S.ok())
      return absl::Status(S.code(), absl::StrCat(P->name().str(), ": ", S.message()));
  }
  // What the model's OpDefs say TensorFlow would refuse is checked after
  // every pass, against what the graph had before the first: a pass never
  // adds such a kind of finding, and a graph that came with one is the
  // input's. Kinds leave node names out, so a pass may rename such nodes,
  // and the reachable functions' bodies count, which inlining brings in.
  // The OpDefs are gathered once: passes do not add ops to a model's list.
  llvm::StringSet<> OpDefBaseline;
  std::optional<OpRegistry> Ops;
  if (Options.VerifyEach && !Pending.empty()) {
    Ops.emplace(modelOpRegistry(M));
    for (const OpDefViolation &Finding : findOpDefViolations(M.graph(), *Ops))
      OpDefBaseline.insert(Finding.Kind);
    for (const std::string &Kind : functionOpDefViolationKinds(M.graph(), *Ops))
      OpDefBaseline.insert(Kind);
  }
  for (const auto &P : Pending) {
    ++NumRun;
    Clock::time_point Start = Clock::now();
    absl::Status S = P->run(M, Ctx);
    if (!Ctx.takeGraphPreserved())
      Ctx.analyses().invalidateGraphAnalyses();
    if (Options.Timing)
      Options.Timing->add(P->name(), seconds(Start));
    if (!S.ok())
      return absl::Status(S.code(), absl::StrCat(P->name().str(), ": ", S.message()));
    // One rule for every pass that removes or renames nodes: colocations
    // with them go (TensorFlow's importer refuses them; see Colocation.h).
    if (dropColocationsWithMissingTargets(M.graph()) != 0)
      Ctx.analyses().invalidateGraphAnalyses();

    if (Options.VerifyEach) {
      Start = Clock::now();
      absl::Status V = verifyGraph(M.graph());
      if (V.ok()) {
        std::vector<std::string> New;
        for (OpDefViolation &Finding : findOpDefViolations(M.graph(), *Ops))
          if (!OpDefBaseline.contains(Finding.Kind))
            New.push_back(std::move(Finding.Message));
        if (!New.empty())
          V = absl::InvalidArgumentError(joinFindings(New));
      }
      if (Options.Timing)
        Options.Timing->add("(verify)", seconds(Start));
      if (!V.ok())
        return absl::InternalError(absl::StrCat("pass '", P->name().str(),
                                                "' left an invalid graph: ", V.message()));
    }
    if (Options.PrintIRAfterAll || llvm::is_contained(Options.PrintIRAfter, P->name()))
      *Options.Out << "# -----// IR Dump After " << P->name() << " //----- #\n"
                   << printModelText(M);
  }
  if (Options.Statistics)
    printStatistics(*Options.Out, Ctx);
  return absl::OkStatus();
}

void PassManager::rewind() {
  NumRun = 0;
  for (const auto &P : Passes)
    for (Statistic *Stat : P->statistics())
      Stat->reset();
}

std::vector<PassChanges> PassManager::changes(size_t First) const {
  std::vector<PassChanges> Out;
  for (size_t I = First; I < Passes.size(); ++I) {
    PassChanges Changes{Passes[I]->name().str(), {}};
    for (const Statistic *S : Passes[I]->statistics())
      if (S->value())
        Changes.Counts.push_back({S->name().str(), S->value()});
    if (!Changes.Counts.empty())
      Out.push_back(std::move(Changes));
  }
  return Out;
}

void PassManager::printStatistics(llvm::raw_ostream &OS, const PassContext &Ctx) const {
  auto row = [&OS](uint64_t Value, llvm::StringRef Name, llvm::StringRef Description) {
    OS << llvm::format("  (S) %8llu %s - %s\n", static_cast<unsigned long long>(Value),
                       Name.str().c_str(), Description.str().c_str());
  };
  OS << "===" << std::string(73, '-') << "===\n"
     << "                         ... Pass statistics report ...\n"
     << "===" << std::string(73, '-') << "===\n";
  for (const auto &P : llvm::ArrayRef(Passes).take_front(NumRun)) {
    OS << P->name() << "\n";
    for (const Statistic *Stat : P->statistics())
      row(Stat->value(), Stat->name(), Stat->description());
  }
  const AnalysisManager &AM = Ctx.analyses();
  if (AM.checkpointsOpened() || AM.reachabilityWalks()) {
    OS << "(shared analyses)\n";
    row(AM.checkpointsOpened(), "checkpoints-opened", "Checkpoints opened (each once per run)");
    row(AM.reachabilityWalks(), "reachability-walks",
        "Times the nodes an output list needs were computed");
  }
}

} // namespace frost
