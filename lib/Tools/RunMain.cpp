//===- RunMain.cpp - The frost-run driver ---------------------------------===//
//
// Flags (the inputs, what to fetch, freeze-graph's for a source model) ->
// runGraph (lib/Jobs: read the inputs, make the model runnable, run,
// compare, write the .npz) -> one line per output, and the comparison as
// frost-verify reports it.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/RunMain.h"

#include "FreezeFlags.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

struct RunCommandLine {
  RunGraphOptions Job;
  std::vector<std::string> Positional;
  std::string CompareWith;
  bool Quiet = false, Help = false, Version = false;
};

ArgParser makeParser(RunCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  const std::string Inputs = "Inputs", Main = "Options",
                    Freeze = "A source model (freeze-graph's options)",
                    Compat = "freeze_graph.py flags (same meaning)";
  P.add({{"input"}, K::Value, "NAME=FILE.npy",
         "Feed input NAME (a placeholder, NAME:0, or a signature's\n"
         "input key) the array in FILE.npy (or FILE.npz[KEY]: one array\n"
         "of a .npz); repeat for more inputs",
         [&C](llvm::StringRef V) {
           auto [Name, File] = V.split('=');
           if (Name.empty() || File.empty())
             return absl::InvalidArgumentError("expected NAME=FILE.npy");
           C.Job.InputFiles.emplace_back(Name.str(), File.str());
           return absl::OkStatus();
         },
         Inputs});
  P.add({{"inputs"}, K::Value, "FILE.npz",
         "Feed each array of FILE.npz (numpy.savez) to the input of its\n"
         "name (an input the outputs do not need is skipped); repeatable",
         [&C](llvm::StringRef V) {
           C.Job.InputArchives.push_back(V.str());
           return absl::OkStatus();
         },
         Inputs});
  P.add({{"random-inputs"}, K::Bool, "",
         "Feed the inputs not given seeded random values (frost-verify's:\n"
         "floats in [-1, 1), integers in [0, 3))",
         flag(C.Job.RandomInputs), Inputs});
  addNumericFlags(P, C.Job.Numeric, Inputs, "MODEL", "OTHER");
  P.add({{"o", "output", "save-outputs"}, K::Value, "FILE.npz",
         "Write the outputs there (numpy.savez's format, keyed NODE:K)",
         ArgParser::storeString(C.Job.Output), Main});
  P.add({{"compare-with"}, K::Value, "OTHER",
         "Run OTHER (a frozen GraphDef or a source model, resolved as\n"
         "MODEL is) on the same inputs and compare every output with it\n"
         "as frost-verify does (--atol, --rtol)",
         ArgParser::storeString(C.CompareWith), Main});
  P.add({{"quiet", "q"}, K::Bool, "", "Print only findings and errors", flag(C.Quiet), Main});
  addEvalBudgetFlags(P, C.Job.Numeric.Budget, Main);
  addHelpFlags(P, C.Help, C.Version, Main);
  addFreezeFlags(P, C.Job.Model, Freeze);
  addFreezeCompatFlags(P, C.Job.Model, Compat);
  return P;
}

const char *Usage =
    "Usage: frost-run MODEL [--input NAME=FILE.npy]... [--inputs FILE.npz]... [--random-inputs]\n"
    "                 [-o OUT.npz] [--compare-with OTHER] [options]\n"
    "\n"
    "Runs MODEL with Frost's evaluator (no TensorFlow): a frozen GraphDef as it is, or a\n"
    "checkpoint, .meta, SavedModel or GraphDef with --checkpoint, frozen first as freeze-graph\n"
    "freezes it. The outputs (--outputs; else the signature's, else the graph's sinks) are\n"
    "written to OUT.npz. An output that cannot be computed (an op without a kernel) is an\n"
    "error naming the op. Exit status: 0 when every output was computed (and matched OTHER),\n"
    "1 when not or an input cannot be read, 2 for a bad command line.\n";

void printResult(llvm::raw_ostream &OS, const RunGraphResult &R, bool Quiet) {
  if (!Quiet) {
    if (!R.OutputsChosen.empty())
      OS << "frost-run: outputs of " << R.OutputsChosen << " (no --outputs)\n";
    for (const auto &[Name, T] : R.Inputs)
      OS << "input " << Name << " " << dataTypePythonName(T.dtype()) << " "
         << formatShape(T.shape()) << "\n";
    for (const auto &[Name, T] : R.Outputs)
      OS << "output " << Name << " " << dataTypePythonName(T.dtype()) << " "
         << formatShape(T.shape()) << "\n";
  }
  if (!R.Compared)
    return;
  OS << "compared with " << R.Other << ":\n";
  for (const verify::OutputCheck &Check : R.Compared->Outputs) {
    OS << "  " << Check.Tensor << " ";
    verify::printOutputCheck(OS, Check, "graph", "other");
  }
  for (const std::string &F : R.Compared->Findings)
    OS << "finding: " << F << "\n";
  OS << "frost-run: " << (R.passed() ? "PASSED" : "FAILED") << "\n";
}

int runModelCommand(RunCommandLine &C) {
  if (C.Positional.size() > 1)
    return usageFailure(absl::InvalidArgumentError("one model at a time (a second goes to "
                                                   "--compare-with)"));
  if (!C.Positional.empty())
    C.Job.Model.Positional = {C.Positional.front()};
  if (C.Job.Model.Positional.empty() && C.Job.Model.InputGraph.empty() &&
      C.Job.Model.InputMetaGraph.empty() && C.Job.Model.SavedModelDir.empty())
    return usageFailure(absl::InvalidArgumentError("no model: frost-run MODEL"));
  if (!C.CompareWith.empty()) {
    FreezeOptions Other;
    Other.Positional = {C.CompareWith};
    Other.Tags = C.Job.Model.Tags;
    Other.Outputs = C.Job.Model.Outputs;
    C.Job.CompareWith = Other;
  }
  Context Ctx;
  absl::StatusOr<RunGraphResult> R = runGraph(Ctx, C.Job);
  if (!R.ok())
    return jobFailure(R.status());
  printResult(llvm::outs(), *R, C.Quiet);
  llvm::outs().flush();
  if (!R->passed()) {
    llvm::errs() << "error: " << R->Model << ": differs from " << R->Other << ": "
                 << R->Compared->Findings.front() << "\n";
    return 1;
  }
  return 0;
}

void printHelp(llvm::raw_ostream &OS) {
  RunCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

} // namespace

int frostRunMain(int Argc, char **Argv) {
  initTool();
  RunCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  absl::Status Parsed = makeParser(C).parse(Args, C.Positional);
  if (std::optional<int> Done =
          answerCommandLine("frost-run", Parsed, C.Help, C.Version, printHelp))
    return *Done;
  return runModelCommand(C);
}

} // namespace frost
