//===- Jobs.h - Each tool's job as one library call -------------*- C++ -*-===//
//
// What each tool does, from its typed options to its typed result, callable
// alike by its command-line driver (lib/Tools: flags in, this call, printing
// out) and by Python. A job reads its inputs, runs, and writes its outputs
// all or nothing (temporary files renamed when everything is ready, never
// over an input); it prints nothing: its notes and warnings are the
// Context's diagnostics, and its result says what it did.
//
//   Context Ctx;
//   FreezeGraphOptions O;
//   O.Freeze.Positional = {"model.ckpt"};
//   O.Freeze.Outputs = {"logits"};
//   O.Output = "frozen.pb";
//   absl::StatusOr<FreezeGraphResult> R = freezeGraph(Ctx, O);
//
//===----------------------------------------------------------------------===//
#ifndef FROST_JOBS_JOBS_H
#define FROST_JOBS_JOBS_H

#include "frost/Freeze/Freeze.h"
#include "frost/IO/GraphIO.h"
#include "frost/Inspect/GraphDiff.h"
#include "frost/Pass/PassManager.h"
#include "frost/Run/Run.h"
#include "frost/Support/Context.h"
#include "frost/Verify/Verify.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace frost {

/// A graph as a job takes it: a user's path, resolved as every tool resolves
/// it (resolveInput: a checkpoint prefix reads its .meta), or its serialized
/// bytes (binary or text), not copied.
struct GraphSource {
  std::string Path;
  std::optional<llvm::StringRef> Bytes;
  /// The bytes' name in messages.
  std::string BytesName = "<bytes>";
  const std::string &name() const { return Bytes ? BytesName : Path; }
};

/// Where a graph job's result goes: a file, written atomically ("-" is
/// standard output), or, with Path empty, the result's Bytes.
struct GraphDestination {
  std::string Path;
  Encoding Enc = Encoding::Binary;
  /// Path is a serving SavedModel directory to write around the graph (its
  /// serving_default: the Placeholders in, the job's outputs out).
  bool SavedModel = false;
};

/// Reads `Source` as the job's input (timed as "read input" in
/// Read.Timing), verified when `Verify` (errors name the input). A job that
/// writes notes its inputs first (the jobs' noteInputs); reading notes none.
absl::StatusOr<std::unique_ptr<Model>> readGraphSource(Context &Ctx, const GraphSource &Source,
                                                       const ReadOptions &Read = {},
                                                       bool Verify = false,
                                                       TimingReport *Timing = nullptr);

/// The result of a graph-in, graph-out job.
struct GraphJobResult {
  /// The output's bytes, when it went to no file.
  std::string Bytes;
  uint64_t BytesWritten = 0;
  /// For the drivers' summary: the input's and the output's node counts,
  /// what each pass changed (its nonzero statistics), the job's wall time.
  size_t NodesBefore = 0, NodesAfter = 0;
  std::vector<PassChanges> Changes;
  double Seconds = 0;
};

//===-- freeze-graph ------------------------------------------------------===//

struct FreezeGraphOptions {
  FreezeOptions Freeze;
  /// The frozen GraphDef's file ("-": standard output); empty: the result's
  /// Bytes. With Format SavedModel: the SavedModel's directory (required).
  std::string Output;
  /// Default: text for a .pbtxt output, else binary.
  std::optional<FrozenFormat> Format;
  /// Where to write the JSON report (docs/freeze-graph.md), if anywhere.
  std::string ReportPath;
  /// Check the frozen graph as frost-verify does before writing anything.
  bool Verify = false;
  verify::NumericOptions Numeric;
};

struct FreezeGraphResult {
  FreezeResult Frozen;
  /// With Verify: the checks' report. When it did not pass, nothing was
  /// written.
  std::optional<verify::VerifyReport> Verified;
  /// What was written (Path empty for bytes).
  FrozenFile Written;
  std::string Bytes;
  FrozenFormat Format = FrozenFormat::Binary;
  double Seconds = 0;
  bool written() const { return !Verified || Verified->passed(); }
};

/// freeze-graph's job: freeze, refuse a graph too big for TensorFlow,
/// verify when asked, then write the graph and the report together.
absl::StatusOr<FreezeGraphResult> freezeGraph(Context &Ctx, const FreezeGraphOptions &Options);

//===-- optimize-for-inference --------------------------------------------===//

struct OptimizeForInferenceOptions {
  GraphSource Input;
  GraphDestination Output;
  /// optimize_for_inference.py's --input_names and --output_names (nodes).
  std::vector<std::string> InputNames, OutputNames;
  /// The inputs' dtypes as DataType numbers, one for all or one each
  /// (default: 1, float).
  std::vector<int> PlaceholderTypes;
  /// bool Placeholders whose name contains one of these become constants.
  std::vector<std::string> ToConst;
  bool TocoCompatible = false;
  bool ComputeInFloat32 = false;
  /// Fixed input shapes (NAME:D,D,... items) and batch size (0: none),
  /// set after optimizing, their shape arithmetic folded.
  std::vector<std::string> InputShapes;
  int64_t BatchSize = 0;
  /// What folding constants may spend (--eval-budget, --eval-max-bytes).
  eval::EvalBudget FoldBudget;
  PassManagerOptions PM;
};

/// optimize-for-inference's job (TensorFlow's optimize_for_inference.py).
/// Mistakes in the options are usageError()s, found before anything is read.
absl::StatusOr<GraphJobResult> optimizeForInference(Context &Ctx,
                                                    const OptimizeForInferenceOptions &Options);

//===-- transform-graph ---------------------------------------------------===//

struct TransformGraphOptions {
  GraphSource Input;
  GraphDestination Output;
  /// transform_graph's --transforms list.
  std::string Transforms;
  std::vector<std::string> Inputs, Outputs;
  PassManagerOptions PM;
};

/// transform-graph's job (TensorFlow's transform_graph): a transform that
/// fails with ignore_errors=true leaves a warning in the job's diagnostics.
/// A list that does not parse, an unknown transform or parameter are
/// usageError()s, found before anything is read.
absl::StatusOr<GraphJobResult> transformGraph(Context &Ctx, const TransformGraphOptions &Options);

//===-- frost-opt ---------------------------------------------------------===//

struct RunPipelineOptions {
  ReadOptions Read;
  /// Drop the MetaGraph or SavedModel around the graph.
  bool GraphOnly = false;
  /// Keep a graph TensorFlow could not import (a write left on a frozen
  /// variable): pass tests that stop halfway through freezing.
  bool AllowUnimportable = false;
};

/// frost-opt's job on one model's bytes (a file, or one part of a split
/// input) named `Name` in messages: read, verified (with the pass manager's
/// VerifyEach), `PM`'s whole pipeline run, checked to be importable; the
/// model, to write. `PM` is parsed once and serves every model in turn
/// (rewound before each), as mlir-opt's does.
absl::StatusOr<std::unique_ptr<Model>> runPipeline(Context &Ctx, llvm::StringRef Bytes,
                                                   llvm::StringRef Name, PassManager &PM,
                                                   const RunPipelineOptions &Options);

//===-- frost-verify ------------------------------------------------------===//

struct VerifyFrozenOptions {
  /// The frozen graph to check.
  GraphSource Frozen;
  /// How it was frozen: its source and freeze-graph's options.
  FreezeOptions Freeze;
  verify::NumericOptions Numeric;
};

/// frost-verify's job: freezes the source again, keeping the graph before
/// its variables became constants, and checks `Frozen` against it.
absl::StatusOr<verify::VerifyReport> verifyFrozenGraph(Context &Ctx,
                                                       const VerifyFrozenOptions &Options);

//===-- frost-run ---------------------------------------------------------===//

struct RunGraphOptions {
  /// What to run: a frozen GraphDef as it is, or a source model frozen as
  /// freeze-graph freezes it (its checkpoint, signature, tags); Outputs
  /// (nodes or `node:k`) are what to fetch, by default the signature's or
  /// the graph's sinks.
  FreezeOptions Model;
  /// Values by input name (a placeholder, `name:0` or a signature's key).
  run::NamedTensors Inputs;
  /// --input NAME=FILE.npy (each file one input; FILE.npz[KEY], as
  /// saved_model_cli writes it, one array of a .npz) and --inputs FILE.npz
  /// (each array the input of its name), read by the job.
  std::vector<std::pair<std::string, std::string>> InputFiles;
  std::vector<std::string> InputArchives;
  /// Random values (frost-verify's, from Numeric.Seed and InputShapes) for
  /// the inputs not given.
  bool RandomInputs = false;
  /// The random inputs, the run's budget, a comparison's tolerances.
  verify::NumericOptions Numeric;
  /// A second model run on the same inputs, each output compared with it
  /// as frost-verify compares (the other's values the reference).
  std::optional<FreezeOptions> CompareWith;
  /// The .npz file the outputs go to (written atomically, keyed `node:k`);
  /// empty: the result only.
  std::string Output;
};

struct RunGraphResult {
  std::string Model, Other;
  /// Where the outputs came from when none were named.
  std::string OutputsChosen;
  /// What was fed (by placeholder), what came out (by tensor name).
  run::NamedTensors Inputs, Outputs;
  /// With CompareWith.
  std::optional<run::Comparison> Compared;
  size_t NodesRun = 0;
  uint64_t BytesWritten = 0;
  double Seconds = 0;
  bool passed() const { return !Compared || Compared->passed(); }
};

/// frost-run's job: the inputs read and checked, the model run (an output
/// that cannot be computed is an error naming the op), compared when asked,
/// the outputs written. Nothing is written when any of it fails, but a
/// comparison that finds differences (the result says so).
absl::StatusOr<RunGraphResult> runGraph(Context &Ctx, const RunGraphOptions &Options);

//===-- frost-diff --------------------------------------------------------===//

struct DiffGraphsOptions {
  GraphSource A, B;
  std::vector<std::string> Tags = {"serve"};
  inspect::DiffOptions Diff;
  /// Also write a page showing both graphs side by side there.
  std::string HtmlPath;
  TimingReport *Timing = nullptr;
};

/// frost-diff's job.
absl::StatusOr<inspect::GraphDiff> diffGraphs(Context &Ctx, const DiffGraphsOptions &Options);

//===-- frost-inspect graph -----------------------------------------------===//

struct InspectGraphOptions {
  GraphSource Input;
  ReadOptions Read;
  enum class Form { Summary, Json, Dot, Html };
  Form As = Form::Summary;
  /// For Dot and Html: the ends of the highlighted paths (empty: guessed).
  std::vector<std::string> PathsFrom, PathsTo;
  /// Where to write it ("-": standard output), atomically; empty: the
  /// result.
  std::string Output;
};

/// frost-inspect graph's job: the model summarised (text or JSON,
/// docs/inspect.md) or drawn (Graphviz DOT, one HTML page).
absl::StatusOr<std::string> inspectGraph(Context &Ctx, const InspectGraphOptions &Options);

} // namespace frost

#endif // FROST_JOBS_JOBS_H
