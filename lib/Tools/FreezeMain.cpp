//===- FreezeMain.cpp - The freeze-graph driver ---------------------------===//
//
// Flags -> FreezeGraphOptions -> freezeGraph() (lib/Jobs: freeze, verify,
// write the graph and the report) -> say what was done. TensorFlow's freeze_graph.py flags are
// accepted with argparse's spellings; its known defects are not copied: a
// missing checkpoint, a graph frozen twice and bad flags are errors or
// notices with the right exit code.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/FreezeMain.h"

#include "FreezeFlags.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/FormatVariadic.h"

namespace frost {

namespace {

ArgParser makeParser(FreezeCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  const std::string Main = "Options", Compat = "freeze_graph.py flags (same meaning)",
                    Debug = "Debugging (the pass manager's)";
  P.add({{"o", "output", "output_graph"}, K::Value, "FILE",
         "Where to write the frozen GraphDef (- for standard output),\n"
         "or the SavedModel directory with --emit saved_model",
         str(C.Output), Main});
  addFreezeFlags(P, C.O, Main);
  P.add({{"emit"}, K::Value, "pb|pbtxt|saved_model",
         "Output: a GraphDef, binary or text (default: pbtxt for a\n"
         ".pbtxt file), or a serving SavedModel directory holding it\n"
         "(its signature, or serving_default: placeholders in,\n"
         "outputs out; tables' initializers as its init op)",
         [&C](llvm::StringRef V) {
           if (V != "pb" && V != "pbtxt" && V != "saved_model")
             return absl::InvalidArgumentError("expected pb, pbtxt or saved_model");
           C.Emit = V.str();
           return absl::OkStatus();
         },
         Main});
  addFixedShapeFlags(P, &C.O.InputShapes, C.O.BatchSize, "input-shape", "batch-size", Main);
  P.add({{"report"}, K::Value, "FILE.json",
         "Write what was done as JSON: inputs, outputs, each frozen\n"
         "variable and its checkpoint key, node counts, output size\n"
         "and SHA-256, timings",
         str(C.ReportPath), Main});
  P.add({{"verify"}, K::Bool, "",
         "Then check the frozen graph as frost-verify does (constants,\n"
         "structure, outputs on random inputs); write nothing unless it holds",
         flag(C.Verify), Main});
  P.add({{"allow-unchecked"}, K::Bool, "",
         "With --verify: pass what was checked when an output could not\n"
         "be computed (an op without a kernel); by default that fails",
         flag(C.AllowUnchecked), Main});
  addEvalBudgetFlags(P, C.Budget, Main);
  P.add({{"quiet", "q"}, K::Bool, "", "Print errors and warnings only", flag(C.Quiet), Main});
  P.add({{"verbose", "v"}, K::Bool, "",
         "Also print details, such as the collections cleaned from a\n"
         "MetaGraph (which the frozen GraphDef does not keep)",
         flag(C.Verbose), Main});
  addHelpFlags(P, C.Help, C.Version, Main);
  addFreezeCompatFlags(P, C.O, Compat);

  addPassManagerFlags(P, C.O.PM, C.Timing, Debug, &C.O.DumpPipeline);
  addSizeLimitFlag(P, C.O.SizeLimit, Debug);
  return P;
}

const char *Usage =
    "Usage: freeze-graph INPUT --outputs NAMES -o FROZEN.pb [options]\n"
    "\n"
    "Freezes a TensorFlow model: its variables become constants holding their values from a\n"
    "checkpoint, the Saver and training-only nodes go, and only what the outputs need stays.\n"
    "Writes a GraphDef, as TensorFlow's freeze_graph.py does (whose flags are accepted too).\n"
    "\n"
    "INPUT is a checkpoint prefix (its .meta beside it), a checkpoint directory (its latest\n"
    "checkpoint), a .meta file, a GraphDef (.pb or .pbtxt, with --checkpoint) or a SavedModel\n"
    "directory (with --signature or --outputs). Options may be shortened to any unambiguous\n"
    "prefix, and `_` and `-` are the same in their names.\n";

std::string formatSeconds(double S) { return llvm::formatv("{0:f3} s", S).str(); }

void printSummary(const FreezeGraphResult &Result, const std::string &Output) {
  const FreezeResult &R = Result.Frozen;
  std::vector<std::string> Names;
  for (const FreezeOutput &O : R.Outputs)
    Names.push_back(O.Node);
  llvm::errs() << "freeze-graph: froze " << R.Frozen.size()
               << (R.Frozen.size() == 1 ? " variable" : " variables") << " ("
               << formatBytes(R.frozenBytes()) << ")"
               << (R.Checkpoint.empty() ? std::string() : absl::StrCat(" from ", R.Checkpoint))
               << "; " << R.NodesBefore << " -> " << R.NodesAfter << " nodes for "
               << absl::StrJoin(Names, ", ") << "\n";
  for (const FreezeResult::PassChanges &P : R.Optimizations) {
    std::vector<std::string> Counts;
    for (const auto &[Name, Count] : P.Counts)
      Counts.push_back(absl::StrCat(Count, " ", Name));
    llvm::errs() << "freeze-graph: " << P.Pass << ": " << absl::StrJoin(Counts, ", ") << "\n";
  }
  const char *Kind = Result.Format == FrozenFormat::Text         ? "pbtxt"
                     : Result.Format == FrozenFormat::SavedModel ? "SavedModel"
                                                                 : "pb";
  llvm::errs() << "freeze-graph: wrote " << (Output == "-" ? "<stdout>" : Output) << " ("
               << formatBytes(Result.Written.Bytes) << ", " << Kind << ") in "
               << formatSeconds(Result.Seconds) << "\n";
}

int runFreeze(FreezeCommandLine &C) {
  Context Ctx;
  Ctx.diagnostics().printTo(llvm::errs(), C.Quiet     ? Diagnostics::Shown::WarningsOnly
                                          : C.Verbose ? Diagnostics::Shown::Verbose
                                                      : Diagnostics::Shown::All);
  TimingReport Timing;
  C.O.PM.Timing = &Timing;
  // Mistakes on the command line are usage errors: exit 2, as argparse does.
  if (C.Output.empty())
    return usageFailure(absl::InvalidArgumentError(
        "no output file: give -o FROZEN.pb (freeze_graph.py: --output_graph; - for stdout)"));

  FreezeGraphOptions Job;
  Job.Freeze = C.O;
  Job.Output = C.Output;
  if (!C.Emit.empty())
    Job.Format = C.Emit == "pbtxt"         ? FrozenFormat::Text
                 : C.Emit == "saved_model" ? FrozenFormat::SavedModel
                                           : FrozenFormat::Binary;
  Job.ReportPath = C.ReportPath;
  Job.Verify = C.Verify;
  Job.Numeric.Budget = C.Budget;
  Job.Numeric.AllowUnchecked = C.AllowUnchecked;
  absl::StatusOr<FreezeGraphResult> Result = freezeGraph(Ctx, Job);
  if (!Result.ok())
    return jobFailure(Result.status());
  if (Result->Verified) {
    verify::printVerifyReport(llvm::errs(), *Result->Verified, "freeze-graph --verify", C.Quiet);
    if (!Result->written())
      return 1;
  }
  if (C.Timing)
    Timing.print(llvm::errs());
  if (!C.Quiet)
    printSummary(*Result, C.Output);
  return 0;
}

} // namespace

absl::Status parseFreezeCommandLine(llvm::ArrayRef<const char *> Args, FreezeCommandLine &C) {
  return makeParser(C).parse(Args, C.O.Positional);
}

void printFreezeHelp(llvm::raw_ostream &OS) {
  FreezeCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

int frostFreezeMain(int Argc, char **Argv) {
  initTool();
  FreezeCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  absl::Status Parsed = parseFreezeCommandLine(Args, C);
  if (std::optional<int> Done =
          answerCommandLine("freeze-graph", Parsed, C.Help, C.Version, printFreezeHelp))
    return *Done;
  return runFreeze(C);
}

} // namespace frost
