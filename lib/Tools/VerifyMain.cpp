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

/// "NAME=1,224,224,3".
absl::Status parseInputShape(llvm::StringRef Text, verify::NumericOptions &N) {
  auto [Name, Dims] = Text.split('=');
  if (Name.empty() || Dims.empty())
    return absl::InvalidArgumentError("expected NAME=D,D,... (NAME= for a scalar)");
  std::vector<int64_t> Shape;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Dims.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    int64_t D;
    if (P.trim().getAsInteger(10, D) || D < 0)
      return absl::InvalidArgumentError(absl::StrCat("'", P.str(), "' is not a dimension"));
    Shape.push_back(D);
  }
  N.InputShapes[Name.trim().str()] = std::move(Shape);
  return absl::OkStatus();
}

absl::Status parseDouble(llvm::StringRef Text, std::optional<double> &Out) {
  double V;
  if (Text.getAsDouble(V) || !(V >= 0))
    return absl::InvalidArgumentError("expected a number >= 0");
  Out = V;
  return absl::OkStatus();
}

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
  P.add({{"seed"}, K::Value, "N", "Seed of the random inputs (default 0)",
         [&C](llvm::StringRef V) {
           if (V.getAsInteger(10, C.Numeric.Seed))
             return absl::InvalidArgumentError("expected a number");
           return absl::OkStatus();
         },
         Main});
  P.add({{"input-shape"}, K::Value, "NAME=D,D,...",
         "Shape to feed input NAME (default: its declared shape, unknown\n"
         "dimensions 1 first and 8 after); repeat for more inputs",
         [&C](llvm::StringRef V) { return parseInputShape(V, C.Numeric); }, Main});
  P.add({{"atol"}, K::Value, "X",
         "An element holds when |frozen - source| <= atol + rtol * |source|\n"
         "(default by dtype: float32 1e-5, float64 1e-8, half 1e-3,\n"
         "bfloat16 1e-2); an output whose source values all lie below\n"
         "atol is judged by rtol alone",
         [&C](llvm::StringRef V) { return parseDouble(V, C.Numeric.Atol); }, Main});
  P.add({{"rtol"}, K::Value, "X",
         "Tolerance relative to each source element (default: float32\n"
         "1e-5, float64 1e-5, half 1e-2, bfloat16 5e-2)",
         [&C](llvm::StringRef V) { return parseDouble(V, C.Numeric.Rtol); }, Main});
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
