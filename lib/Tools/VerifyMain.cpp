//===- VerifyMain.cpp - The frost-verify driver ---------------------------===//
//
// Flags (freeze-graph's, saying how the graph was frozen, and the checks')
// -> verifyFrozenGraph (lib/Jobs: read the frozen graph, freeze the source
// again keeping the graph before its variables became constants, check) ->
// print the report, text or JSON.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/VerifyMain.h"

#include "FreezeFlags.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

struct VerifyCommandLine {
  FreezeOptions O;
  std::vector<std::string> Positional;
  std::string Source;
  verify::NumericOptions Numeric;
  bool Json = false, Strict = false, Quiet = false;
  bool Timing = false, Help = false, Version = false;
};

ArgParser makeParser(VerifyCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto flag = [](bool &Field, bool Invert = false) { return ArgParser::storeFlag(Field, Invert); };
  const std::string Main = "Options", Freeze = "How it was frozen (freeze-graph's options)",
                    Compat = "freeze_graph.py flags (same meaning)", Debug = "Debugging";
  P.add({{"source"}, K::Value, "INPUT",
         "What was frozen: a checkpoint prefix or directory, a .meta, a\n"
         "GraphDef (with --checkpoint) or a SavedModel directory",
         ArgParser::storeString(C.Source), Main});
  addNumericFlags(P, C.Numeric, Main, "frozen", "source", &C.O.InputShapes);
  P.add({{"no-numeric"}, K::Bool, "", "Skip running the two graphs",
         flag(C.Numeric.Run, /*Invert=*/true), Main});
  P.add({{"allow-unchecked"}, K::Bool, "",
         "Pass what was checked when an output could not be computed\n"
         "(an op without a kernel, a while loop): NOT CHECKED, said;\n"
         "by default that fails",
         flag(C.Numeric.AllowUnchecked), Main});
  P.add({{"strict"}, K::Bool, "",
         "Fail when an output could not be compared (the default;\n"
         "overrides --allow-unchecked)",
         flag(C.Strict), Main});
  P.add({{"save-values"}, K::Value, "DIR",
         "Write the inputs and both graphs' outputs there (.npy files\n"
         "and index.json)",
         ArgParser::storeString(C.Numeric.SaveValues), Main});
  P.add({{"json"}, K::Bool, "", "Print the report as JSON", flag(C.Json), Main});
  P.add({{"quiet", "q"}, K::Bool, "", "Print the findings only", flag(C.Quiet),
         Main});
  addEvalBudgetFlags(P, C.Numeric.Budget, Main);
  addHelpFlags(P, C.Help, C.Version, Main);
  addFreezeFlags(P, C.O, Freeze);
  addFixedShapeFlags(P, nullptr, C.O.BatchSize, "", "batch-size", Freeze);
  addFreezeCompatFlags(P, C.O, Compat);
  P.add({{"timing"}, K::Bool, "", "Print how long each step took", flag(C.Timing), Debug});
  return P;
}

const char *Usage =
    "Usage: frost-verify FROZEN --source INPUT [how it was frozen] [options]\n"
    "\n"
    "Checks that FROZEN (a GraphDef) computes what INPUT computes, given how it was frozen\n"
    "(the same options as freeze-graph): every constant that came from a variable holds the\n"
    "checkpoint's bytes; the outputs reach no variable, no input INPUT lacks, no Saver node, no\n"
    "reference, no edge of the wrong dtype; and both graphs, run by Frost's evaluator on the\n"
    "same seeded random inputs, give the same outputs. One line per finding, naming the node.\n"
    "Without --outputs: the source's signature, else the frozen graph's sinks.\n"
    "Exit status: 0 when every check held and every output was compared (or\n"
    "--allow-unchecked), 1 when not (or an input cannot be read), 2 for a bad command line.\n"
    "docs/verify.md explains each check.\n";

int runVerify(VerifyCommandLine &C) {
  if (C.Positional.size() != 1)
    return usageFailure(absl::InvalidArgumentError(
        C.Positional.empty()      ? "no frozen graph: frost-verify FROZEN --source INPUT"
        : C.Positional.size() == 2 && C.Source.empty()
            ? absl::StrCat("one frozen graph at a time; if '", C.Positional[1],
                           "' is what it was frozen from, give it as --source ",
                           C.Positional[1])
            : std::string("one frozen graph at a time")));
  if (!C.Source.empty())
    C.O.Positional = {C.Source};
  if (C.O.Positional.empty() && C.O.InputGraph.empty() && C.O.InputMetaGraph.empty() &&
      C.O.SavedModelDir.empty())
    return usageFailure(absl::InvalidArgumentError(
        "no source: give --source INPUT, what FROZEN was frozen from"));
  const std::string &FrozenPath = C.Positional.front();
  Context Ctx;
  TimingReport Timing;
  VerifyFrozenOptions Job;
  Job.Frozen.Path = FrozenPath;
  Job.Freeze = C.O;
  Job.Freeze.PM.Timing = &Timing;
  Job.Numeric = C.Numeric;
  if (C.Strict)
    Job.Numeric.AllowUnchecked = false;
  absl::StatusOr<verify::VerifyReport> Report = verifyFrozenGraph(Ctx, Job);
  if (!Report.ok())
    return jobFailure(Report.status());
  if (C.Json)
    llvm::outs() << verify::verifyReportJson(*Report);
  else
    verify::printVerifyReport(llvm::outs(), *Report, "frost-verify", C.Quiet);
  llvm::outs().flush();
  if (C.Timing)
    Timing.print(llvm::errs());
  // The verdict on stderr too, for scripts that read only that.
  if (!Report->passed()) {
    llvm::errs() << "error: " << FrozenPath << ": verification failed: "
                 << verify::failureText(*Report) << "\n";
    return 1;
  }
  return 0;
}

void printHelp(llvm::raw_ostream &OS) {
  VerifyCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

} // namespace

int frostVerifyMain(int Argc, char **Argv) {
  initTool();
  VerifyCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  absl::Status Parsed = makeParser(C).parse(Args, C.Positional);
  if (std::optional<int> Done =
          answerCommandLine("frost-verify", Parsed, C.Help, C.Version, printHelp))
    return *Done;
  return runVerify(C);
}

} // namespace frost
