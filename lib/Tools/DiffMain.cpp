//===- DiffMain.cpp - The frost-diff driver -------------------------------===//
//
// Flags -> DiffGraphsOptions -> diffGraphs() (lib/Jobs: read both models,
// diffModels of frost/Inspect/GraphDiff.h) -> text or JSON on stdout. Exit codes as diff(1): 0 the same, 1 different,
// 2 trouble (a bad command line, an input that cannot be read).
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/DiffMain.h"

#include "ArgParser.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"

#include <cmath>

namespace frost {

namespace {

struct DiffCommandLine {
  inspect::DiffOptions Diff;
  inspect::DiffPrintOptions Print;
  std::vector<std::string> Tags = {"serve"};
  std::string Html;
  bool Json = false, NamesOnly = false, Timing = false, Help = false, Version = false;
};

ArgParser makeParser(DiffCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  const std::string Compare = "Comparing", Output = "Output", Other = "Options";
  P.add({{"ignore-attr"}, K::Value, "NAME",
         "Neither compare nor pair nodes by this attribute (repeatable,\n"
         "or comma separated): --ignore-attr=_output_shapes",
         ArgParser::appendCommaList(C.Diff.IgnoreAttrs), Compare});
  P.add({{"ignore-devices"}, K::Bool, "", "Do not compare devices",
         flag(C.Diff.IgnoreDevices), Compare});
  P.add({{"atol"}, K::Value, "X",
         "Tensor elements that differ by at most X are equal (default 0:\n"
         "bit for bit)",
         [&C](llvm::StringRef V) {
           double X;
           if (V.getAsDouble(X) || !std::isfinite(X) || X < 0)
             return absl::InvalidArgumentError("expected a number of at least 0");
           C.Diff.Atol = X;
           return absl::OkStatus();
         },
         Compare});
  P.add({{"names-only"}, K::Bool, "",
         "Pair nodes by name only: a renamed node is removed and added",
         flag(C.NamesOnly), Compare});
  P.add({{"signature"}, K::Value, "KEY",
         "Compare only this signature's inputs and outputs (default: every\n"
         "signature, when both inputs are MetaGraphs or SavedModels)",
         ArgParser::storeString(C.Diff.Signature), Compare});
  P.add({{"tags"}, K::Value, "TAG,...", "SavedModel meta graph tags (default: serve)",
         ArgParser::storeCommaList(C.Tags), Compare});
  P.add({{"json"}, K::Bool, "", "Print JSON (schema in docs/verify.md)", flag(C.Json), Output});
  P.add({{"html"}, K::Value, "FILE",
         "Also write a page showing both graphs side by side, what\n"
         "changed outlined (one self-contained HTML file)",
         ArgParser::storeString(C.Html), Output});
  P.add({{"max-findings"}, K::Value, "N",
         "Print at most N findings (JSON: entries), and how many more there\n"
         "are (default 0: all)",
         [&C](llvm::StringRef V) {
           if (V.getAsInteger(10, C.Print.MaxFindings))
             return absl::InvalidArgumentError("expected a count");
           return absl::OkStatus();
         },
         Output});
  P.add({{"timing"}, K::Bool, "", "Print wall time per phase (reading, diffing, printing)",
         flag(C.Timing), Output});
  addHelpFlags(P, C.Help, C.Version, Other);
  return P;
}

const char *Usage =
    "Usage: frost-diff A B [options]\n"
    "\n"
    "Compares two graphs (GraphDef, MetaGraphDef or SavedModel; binary or text) node by node:\n"
    "nodes added, removed, renamed (paired by structure when names differ) or changed (op,\n"
    "attributes, inputs through the pairing, control inputs as a set, constants with their\n"
    "largest difference), functions and signatures. Exit code: 0 the same, 1 different, 2 an\n"
    "error. Options may be shortened to any unambiguous prefix. Reference: docs/verify.md.\n";

void printDiffHelp(llvm::raw_ostream &OS) {
  DiffCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

} // namespace

int frostDiffMain(int Argc, char **Argv) {
  initTool();
  DiffCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  std::vector<std::string> Positional;
  absl::Status Parsed = makeParser(C).parse(Args, Positional);
  if (std::optional<int> Done =
          answerCommandLine("frost-diff", Parsed, C.Help, C.Version, printDiffHelp))
    return *Done;
  if (Positional.size() != 2) {
    llvm::errs() << "frost-diff: error: give two graphs to compare, not " << Positional.size()
                 << " (see --help)\n";
    return 2;
  }
  C.Diff.MatchStructure = !C.NamesOnly;

  Context Ctx;
  Ctx.diagnostics().printTo(llvm::errs());
  TimingReport Timing;
  DiffGraphsOptions Job;
  Job.A.Path = Positional[0];
  Job.B.Path = Positional[1];
  Job.Tags = C.Tags;
  Job.Diff = C.Diff;
  Job.HtmlPath = C.Html;
  Job.Timing = &Timing;
  absl::StatusOr<inspect::GraphDiff> D = diffGraphs(Ctx, Job);
  if (!D.ok())
    return usageFailure(D.status());
  {
    Stopwatch Timer(&Timing, "print");
    if (C.Json)
      inspect::printGraphDiffJson(*D, C.Print, llvm::outs());
    else
      inspect::printGraphDiff(*D, C.Print, llvm::outs());
    llvm::outs().flush();
  }
  if (C.Timing)
    Timing.print(llvm::errs());
  return D->identical() ? 0 : 1;
}

} // namespace frost
