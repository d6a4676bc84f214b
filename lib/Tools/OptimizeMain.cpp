//===- OptimizeMain.cpp - The optimize-for-inference driver ---------------===//
//
// Flags -> OptimizeForInferenceOptions -> optimizeForInference() (lib/Jobs:
// read the graph, optimize_for_inference's passes, write it in one step
// through a temporary file). TensorFlow's optimize_for_inference.py flags are
// accepted as they are; its silences are not copied: missing input or
// output names, an input name with a port, and an output file that is the
// input are errors.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/OptimizeMain.h"

#include "ArgParser.h"
#include "FreezeFlags.h"

#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace frost {

namespace {

struct OptimizeCommandLine {
  std::string Input, Output;
  std::vector<std::string> InputNames, OutputNames, PlaceholderTypes, ToConst;
  bool FrozenGraph = true, TocoCompatible = false, ComputeInFloat32 = false, SavedModel = false;
  std::vector<std::string> InputShapes;
  int64_t BatchSize = 0;
  eval::EvalBudget FoldBudget;
  PassManagerOptions PM;
  bool Quiet = false, Timing = false, Help = false, Version = false;
};

ArgParser makeParser(OptimizeCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  auto list = ArgParser::storeCommaList;
  const std::string Main = "optimize_for_inference.py flags (same meaning)", Other = "Options",
                    Debug = "Debugging (the pass manager's)";
  P.add({{"input"}, K::Value, "FILE", "The frozen GraphDef to optimize, binary or text",
         str(C.Input), Main});
  P.add({{"output"}, K::Value, "FILE",
         "Where to write the result (- for standard output); never the input", str(C.Output),
         Main});
  P.add({{"input_names"}, K::Value, "NAMES", "Input node names, comma separated",
         list(C.InputNames), Main});
  P.add({{"output_names"}, K::Value, "NAMES", "Output node names, comma separated",
         list(C.OutputNames), Main});
  P.add({{"frozen_graph"}, K::Bool, "",
         "true (default): write a binary GraphDef; false: protobuf text\n"
         "(the input is read either way)",
         flag(C.FrozenGraph), Main});
  P.add({{"placeholder_type_enum"}, K::Value, "ENUMS",
         "DataType number (1 = float) of the Placeholders made for inputs\n"
         "that are not Placeholders already; one, or one per input",
         list(C.PlaceholderTypes), Main});
  P.add({{"toco_compatible"}, K::Bool, "",
         "Only rewrites TensorFlow Lite's converter understands (no fused\n"
         "pad/resize convolutions)",
         flag(C.TocoCompatible), Main});
  P.add({{"placeholder_to_const_names"}, K::Value, "NAME=VALUE,...",
         "bool Placeholders whose name contains NAME become constants\n"
         "(keras_learning_phase=false always)",
         list(C.ToConst), Main});
  addFixedShapeFlags(P, &C.InputShapes, C.BatchSize, "input_shape", "batch_size", Other);
  P.add({{"saved_model"}, K::Bool, "",
         "Frost's: write --output as a serving SavedModel directory\n"
         "(serving_default: the inputs in, the outputs out)",
         flag(C.SavedModel), Other});
  P.add({{"compute_in_float32"}, K::Bool, "",
         "Frost's: compute half and bfloat16 (mixed-precision) graphs in\n"
         "float32, so they fold and load where Cast or half cannot (OpenCV)",
         flag(C.ComputeInFloat32), "Options"});
  addEvalBudgetFlags(P, C.FoldBudget, Other);
  P.add({{"quiet", "q"}, K::Bool, "", "Print errors and warnings only, not the summary",
         ArgParser::storeFlag(C.Quiet), Other});
  addHelpFlags(P, C.Help, C.Version, Other);
  addPassManagerFlags(P, C.PM, C.Timing, Debug);
  return P;
}

const char *Usage =
    "Usage: optimize-for-inference --input=FROZEN.pb --output=OUT.pb --input_names=NAMES\n"
    "                              --output_names=NAMES [options]\n"
    "\n"
    "Optimizes a frozen GraphDef for inference as TensorFlow's optimize_for_inference.py does,\n"
    "with the same flags: inputs become Placeholders and what the outputs do not need goes,\n"
    "training nodes are removed, batch norms (fused, old or written out with Rsqrt/Mul/Add, as\n"
    "Keras 3 writes them) are folded into the convolution and dense weights, constants are\n"
    "folded, and resize/pad is fused into convolutions. Reference: docs/transforms.md.\n";

int runOptimize(OptimizeCommandLine &C) {
  TimingReport Timing;
  C.PM.Timing = &Timing;
  if (C.Input.empty())
    return usageFailure(absl::InvalidArgumentError("no input: give --input=FILE"));
  if (C.Output.empty())
    return usageFailure(absl::InvalidArgumentError("no output: give --output=FILE"));
  if (C.InputNames.empty() || C.OutputNames.empty())
    return usageFailure(absl::InvalidArgumentError(
        "give the graph's inputs and outputs: --input_names=NAMES --output_names=NAMES"));
  OptimizeForInferenceOptions Job;
  Job.Input.Path = C.Input;
  Job.Output = {C.Output, C.FrozenGraph ? Encoding::Binary : Encoding::Text, C.SavedModel};
  Job.InputNames = C.InputNames;
  Job.OutputNames = C.OutputNames;
  for (const std::string &Enum : C.PlaceholderTypes) {
    int Number;
    if (llvm::StringRef(Enum).getAsInteger(10, Number))
      return usageFailure(absl::InvalidArgumentError(absl::StrCat(
          "--placeholder_type_enum: '", Enum, "' is not a DataType number (1 is float)")));
    Job.PlaceholderTypes.push_back(Number);
  }
  Job.ToConst = C.ToConst;
  Job.TocoCompatible = C.TocoCompatible;
  Job.ComputeInFloat32 = C.ComputeInFloat32;
  Job.InputShapes = C.InputShapes;
  Job.BatchSize = C.BatchSize;
  Job.FoldBudget = C.FoldBudget;
  Job.PM = C.PM;

  Context Ctx;
  Ctx.diagnostics().printTo(llvm::errs(), C.Quiet ? Diagnostics::Shown::WarningsOnly
                                                  : Diagnostics::Shown::All);
  absl::StatusOr<GraphJobResult> R = optimizeForInference(Ctx, Job);
  if (!R.ok())
    return jobFailure(R.status());
  if (C.Timing)
    Timing.print(llvm::errs());
  if (!C.Quiet)
    printGraphJobSummary("optimize-for-inference", *R, C.Output);
  return 0;
}

void printOptimizeHelp(llvm::raw_ostream &OS) {
  OptimizeCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

} // namespace

int frostOptimizeMain(int Argc, char **Argv) {
  initTool();
  OptimizeCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  std::vector<std::string> Positional;
  absl::Status Parsed = makeParser(C).parse(Args, Positional);
  if (std::optional<int> Done = answerCommandLine("optimize-for-inference", Parsed, C.Help,
                                                  C.Version, printOptimizeHelp))
    return *Done;
  if (!Positional.empty()) {
    llvm::errs() << "optimize-for-inference: error: unexpected argument '"
                 << cutLongWords(Positional.front()) << "' (it takes only --flag=value options)\n";
    return 2;
  }
  return runOptimize(C);
}

} // namespace frost
