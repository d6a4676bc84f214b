//===- TransformMain.cpp - The transform-graph driver ---------------------===//
//
// Flags -> TransformGraphOptions -> transformGraph() (lib/Jobs: the list
// checked, the graph read, the transforms of lib/Transforms/GraphTransforms
// run, the graph written). TensorFlow's transform_graph
// flags are accepted as they are; its silences are not copied: an unknown
// transform parameter, an unterminated list and an output file that is the
// input are errors.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/TransformMain.h"

#include "ArgParser.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"
#include "frost/Transforms/GraphTransforms.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

struct TransformCommandLine {
  std::string InGraph, OutGraph, Transforms;
  std::vector<std::string> Inputs, Outputs;
  bool OutputAsText = false, SavedModel = false;
  PassManagerOptions PM;
  bool Quiet = false, Timing = false, Help = false, Version = false, TransformDocs = false;
};

ArgParser makeParser(TransformCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  // TensorFlow splits on ','; empty names name nothing and are dropped.
  auto list = ArgParser::storeCommaList;
  const std::string Main = "transform_graph flags (same meaning)", Other = "Options",
                    Debug = "Debugging (the pass manager's)";
  P.add({{"in_graph"}, K::Value, "FILE", "The GraphDef to transform, binary or text",
         str(C.InGraph), Main});
  P.add({{"out_graph"}, K::Value, "FILE",
         "Where to write the result (- for standard output); never the input", str(C.OutGraph),
         Main});
  P.add({{"inputs"}, K::Value, "NAMES", "The graph's inputs, comma separated", list(C.Inputs),
         Main});
  P.add({{"outputs"}, K::Value, "NAMES", "The graph's outputs, comma separated",
         list(C.Outputs), Main});
  P.add({{"transforms"}, K::Value, "LIST",
         "Transforms to run in order, separated by blanks, each with\n"
         "optional parameters: 'fold_constants(ignore_errors=true)\n"
         "strip_unused_nodes(type=float, shape=\"1,224,224,3\")'",
         str(C.Transforms), Main, /*Hidden=*/false, /*Multiline=*/true});
  P.add({{"output_as_text"}, K::Bool, "", "Write protobuf text instead of binary",
         flag(C.OutputAsText), Main});
  P.add({{"saved_model"}, K::Bool, "",
         "Frost's: write --out_graph as a serving SavedModel directory\n"
         "(serving_default: the Placeholders in, --outputs out)",
         flag(C.SavedModel), Other});
  P.add({{"print-transform-docs"}, K::Bool, "",
         "Print the table of transforms (docs/transforms.md) in Markdown",
         flag(C.TransformDocs), Other});
  P.add({{"quiet", "q"}, K::Bool, "", "Print errors and warnings only, not the summary",
         ArgParser::storeFlag(C.Quiet), Other});
  addHelpFlags(P, C.Help, C.Version, Other);
  addPassManagerFlags(P, C.PM, C.Timing, Debug);
  return P;
}

const char *Usage =
    "Usage: transform-graph --in_graph=IN.pb --out_graph=OUT.pb --inputs=NAMES --outputs=NAMES\n"
    "                       --transforms='TRANSFORM(PARAM=VALUE, ...) ...' [options]\n"
    "\n"
    "Runs TensorFlow's graph transforms (tensorflow/tools/graph_transforms) over a GraphDef,\n"
    "with the same flags and transform list, each transform as Frost passes. Unlike\n"
    "TensorFlow, an unknown parameter is an error, and every transform's result is verified.\n"
    "Options may be shortened to any unambiguous prefix; `_` and `-` are the same in them.\n"
    "Reference: docs/transforms.md.\n";

void printTransformList(llvm::raw_ostream &OS) {
  OS << "\nTransforms (TensorFlow's name -> Frost passes):\n";
  for (const GraphTransformInfo &T : graphTransforms()) {
    OS << "  " << T.Name;
    if (llvm::StringRef(T.Passes).empty())
      OS << " - " << T.Differences << "\n";
    else
      OS << " -> " << T.Passes << "\n";
  }
}

int runTransform(TransformCommandLine &C) {
  TimingReport Timing;
  C.PM.Timing = &Timing;
  if (C.InGraph.empty())
    return usageFailure(absl::InvalidArgumentError("no input: give --in_graph=FILE"));
  if (C.OutGraph.empty())
    return usageFailure(absl::InvalidArgumentError("no output: give --out_graph=FILE"));
  if (C.Transforms.empty())
    return usageFailure(absl::InvalidArgumentError(
        "no transform: give --transforms='...' (transform-graph --help lists them)"));
  TransformGraphOptions Job;
  Job.Input.Path = C.InGraph;
  Job.Output = {C.OutGraph, C.OutputAsText ? Encoding::Text : Encoding::Binary, C.SavedModel};
  Job.Transforms = C.Transforms;
  Job.Inputs = C.Inputs;
  Job.Outputs = C.Outputs;
  Job.PM = C.PM;

  Context Ctx;
  Ctx.diagnostics().printTo(llvm::errs(), C.Quiet ? Diagnostics::Shown::WarningsOnly
                                                  : Diagnostics::Shown::All);
  absl::StatusOr<GraphJobResult> R = transformGraph(Ctx, Job);
  if (!R.ok())
    return jobFailure(R.status());
  if (C.Timing)
    Timing.print(llvm::errs());
  if (!C.Quiet)
    printGraphJobSummary("transform-graph", *R, C.OutGraph);
  return 0;
}

} // namespace

void printTransformHelp(llvm::raw_ostream &OS) {
  TransformCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
  printTransformList(OS);
}

int frostTransformMain(int Argc, char **Argv) {
  initTool();
  TransformCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  std::vector<std::string> Positional;
  absl::Status Parsed = makeParser(C).parse(Args, Positional);
  if (std::optional<int> Done =
          answerCommandLine("transform-graph", Parsed, C.Help, C.Version, printTransformHelp))
    return *Done;
  if (!Positional.empty()) {
    llvm::errs() << "transform-graph: error: unexpected argument '"
                 << cutLongWords(Positional.front())
                 << "' (transform_graph takes only --flag=value options)\n";
    return 2;
  }
  if (C.TransformDocs) {
    printTransformTable(llvm::outs());
    return 0;
  }
  return runTransform(C);
}

} // namespace frost
