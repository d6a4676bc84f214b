//===- module.cpp - The frost._frost extension module ---------------------===//
//
// A thin layer over the libraries the tools use: Python arguments -> the
// options a driver would build -> the same library calls -> bytes, a file
// written atomically, or the tools' JSON. Long work runs without the GIL;
// every failure is the library's one-line absl::Status, raised as
// frost.FrostError (never an abort: library code returns statuses). Each call
// is one job with a Context of its own: a later call may write what an earlier
// one read, and a failure found for one call never reaches the next.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/CheckpointSummary.h"
#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Support/Version.h"
#include "frost/Tensor/Npy.h"
#include "frost/Tools/DiffMain.h"
#include "frost/Tools/FreezeMain.h"
#include "frost/Tools/InspectMain.h"
#include "frost/Tools/OptMain.h"
#include "frost/Tools/OptimizeMain.h"
#include "frost/Tools/RunMain.h"
#include "frost/Tools/TransformMain.h"
#include "frost/Tools/VerifyMain.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace {

/// The Python exception every failure becomes; set at import.
nb::object FrostErrorType;

/// The library's messages name options as the command line spells them
/// (`--outputs`); a Python caller used keywords. Phrases first, then each
/// flag a keyword stands for; a flag no keyword stands for stays.
const std::pair<llvm::StringRef, llvm::StringRef> PythonPhrases[] = {
    {" (freeze_graph.py: --output_node_names)", ""},
    {" (--input_checkpoint)", ""},
    {"come from --inputs and --outputs", "come from the inputs and outputs keywords"},
    {"frost-opt --list-passes lists them", "docs/passes.md lists them"},
    {"transform-graph --help lists the transforms", "docs/transforms.md lists the transforms"},
};
const std::pair<llvm::StringRef, llvm::StringRef> PythonKeywords[] = {
    {"--bind", "bind"},
    {"--checkpoint", "checkpoint"},
    {"--drop-variable-writes", "drop_variable_writes"},
    {"--ema", "ema"},
    {"--except", "except_"},
    {"--input-shape", "input_shapes"},
    {"--inputs", "inputs"},
    {"--only", "only"},
    {"--outputs", "outputs"},
    {"--pass-pipeline", "pass_pipeline"},
    {"--rename", "rename"},
    {"--report", "report"},
    {"--signature", "signature"},
    {"--strip-training-ops", "strip_training_ops"},
    {"--transforms", "transforms"},
};

std::string inPythonTerms(llvm::StringRef Message) {
  std::string Text = Message.str();
  for (auto [Phrase, Replacement] : PythonPhrases)
    for (size_t At; (At = Text.find(Phrase.str())) != std::string::npos;)
      Text.replace(At, Phrase.size(), Replacement.str());
  std::string Out;
  llvm::StringRef Rest(Text);
  while (!Rest.empty()) {
    size_t At = Rest.find("--");
    bool Starts = At != llvm::StringRef::npos &&
                  (At == 0 ? Out.empty() || !llvm::isAlnum(Out.back())
                           : !llvm::isAlnum(Rest[At - 1]) && Rest[At - 1] != '-');
    if (At == llvm::StringRef::npos) {
      Out += Rest.str();
      break;
    }
    llvm::StringRef Flag =
        Rest.substr(At).take_while([](char C) { return llvm::isAlnum(C) || C == '-' || C == '_'; });
    Out += Rest.take_front(At).str();
    const auto *Keyword = llvm::find_if(PythonKeywords, [&](const auto &K) { return K.first == Flag; });
    Out += Starts && Keyword != std::end(PythonKeywords) ? Keyword->second.str() : Flag.str();
    Rest = Rest.drop_front(At + Flag.size());
  }
  return Out;
}

[[noreturn]] void raise(const absl::Status &S) {
  PyErr_SetString(FrostErrorType.ptr(),
                  inPythonTerms({S.message().data(), S.message().size()}).c_str());
  throw nb::python_error();
}

/// Runs `Work` (frost::Context & -> absl::Status) as one job: without the
/// GIL, in a Context of its own; a failure is raised as FrostError once the
/// GIL is back. Returns the job's warnings, for Python to raise as
/// FrostWarnings.
template <typename WorkFn> std::vector<std::string> runCall(WorkFn &&Work) {
  absl::Status Failed;
  std::vector<std::string> Warnings;
  {
    nb::gil_scoped_release Unlocked;
    frost::Context Ctx;
    Failed = Work(Ctx);
    for (const std::string &W : Ctx.diagnostics().warnings())
      Warnings.push_back(inPythonTerms(W));
  }
  if (!Failed.ok())
    raise(Failed);
  return Warnings;
}

/// A model given by path, or as bytes (bytes, a GraphDef object serialized)
/// named `Name` in messages. The bytes object outlives the call, which holds
/// a reference to it: reading it without the GIL is safe.
struct ModelArg {
  ModelArg(std::optional<std::string> Path, std::optional<nb::bytes> Data, std::string Name)
      : Path(std::move(Path)), Data(std::move(Data)), Name(std::move(Name)) {
    if (this->Data)
      Bytes = {this->Data->c_str(), this->Data->size()};
  }
  std::optional<std::string> Path;
  std::optional<nb::bytes> Data;
  std::string Name;
  /// Data's bytes, found while holding the GIL.
  llvm::StringRef Bytes;

  frost::GraphSource source() const {
    if (Path)
      return {*Path, std::nullopt, ""};
    return {"", Bytes, Name};
  }
};

/// What a call returns besides its result: the job's warnings, for the
/// Python side to raise as FrostWarnings.
using WithWarnings = std::pair<std::optional<nb::bytes>, std::vector<std::string>>;
/// Keyword arguments passed on from frost/__init__.py (dict[str, object] in
/// the stub).
using KeywordArgs = nb::typed<nb::dict, nb::str, nb::object>;

/// The output's bytes, unless it went to a file.
std::optional<nb::bytes> bytesOrNone(const std::string &Output, const std::string &Bytes) {
  if (!Output.empty())
    return std::nullopt;
  return nb::bytes(Bytes.data(), Bytes.size());
}

/// frost::FreezeOptions from the keywords frost/__init__.py passes on
/// (names as the Python API spells them). An unknown key is a bug there.
frost::FreezeOptions freezeOptions(const ModelArg &Model, const KeywordArgs &Keywords) {
  frost::FreezeOptions O;
  if (Model.Path)
    O.Positional = {*Model.Path};
  else
    O.InputBytes = Model.Bytes;
  O.InputBytesName = Model.Name;
  using Strings = std::vector<std::string>;
  for (auto [Key, Value] : Keywords) {
    std::string K = nb::cast<std::string>(Key);
    if (Value.is_none())
      continue;
    auto text = [&] { return nb::cast<std::string>(Value); };
    auto flag = [&] { return nb::cast<bool>(Value); };
    if (K == "outputs")
      O.Outputs = nb::cast<Strings>(Value);
    else if (K == "checkpoint")
      O.Checkpoint = text();
    else if (K == "signature")
      O.Signature = text();
    else if (K == "ema")
      O.Ema = text();
    else if (K == "bind")
      O.Bind = nb::cast<Strings>(Value);
    else if (K == "rename")
      O.Rename = nb::cast<Strings>(Value);
    else if (K == "only")
      O.Only = nb::cast<Strings>(Value);
    else if (K == "except_")
      O.Except = nb::cast<Strings>(Value);
    else if (K == "tags")
      O.Tags = nb::cast<Strings>(Value);
    else if (K == "initializer_nodes")
      O.InitializerNodes = nb::cast<Strings>(Value);
    else if (K == "keep_devices")
      O.ClearDevices = !flag();
    else if (K == "strip_training_ops")
      O.StripTrainingOps = flag();
    else if (K == "drop_variable_writes")
      O.DropVariableWrites = flag();
    else if (K == "keep_functional_control_flow")
      O.KeepFunctionalControlFlow = flag();
    else if (K == "optimize")
      O.Optimize = flag();
    else if (K == "toco_compatible")
      O.TocoCompatible = flag();
    else if (K == "compute_in_float32")
      O.ComputeInFloat32 = flag();
    else if (K == "pass_pipeline")
      O.ExtraPipeline = text();
    else if (K == "fix_input_shapes")
      O.InputShapes = nb::cast<Strings>(Value);
    else if (K == "batch_size")
      O.BatchSize = nb::cast<int64_t>(Value); // checked by frost/__init__.py
    else
      throw nb::key_error(("freeze option " + K).c_str());
  }
  return O;
}

/// verify()'s and freeze(verify=True)'s numeric options.
frost::verify::NumericOptions numericOptions(const KeywordArgs &Keywords) {
  frost::verify::NumericOptions N;
  for (auto [Key, Value] : Keywords) {
    std::string K = nb::cast<std::string>(Key);
    if (Value.is_none())
      continue;
    if (K == "seed")
      N.Seed = nb::cast<uint64_t>(Value);
    else if (K == "atol" || K == "rtol") {
      // As --atol and --rtol: a number >= 0 (a negative or NaN one would
      // fail every element).
      auto Tolerance = nb::cast<double>(Value);
      if (!(Tolerance >= 0))
        throw nb::value_error((K + " must be a number >= 0").c_str());
      (K == "atol" ? N.Atol : N.Rtol) = Tolerance;
    }
    else if (K == "numeric")
      N.Run = nb::cast<bool>(Value);
    else if (K == "allow_unchecked")
      N.AllowUnchecked = nb::cast<bool>(Value);
    else if (K == "eval_budget" || K == "eval_max_bytes") {
      // As --eval-budget and --eval-max-bytes: above 0.
      auto Limit = nb::cast<uint64_t>(Value);
      if (Limit == 0)
        throw nb::value_error((K + " must be above 0").c_str());
      (K == "eval_budget" ? N.Budget.WorkLeft : N.Budget.MaxTensorBytes) = Limit;
    }
    else if (K == "input_shapes")
      for (auto [Name, Shape] : nb::cast<nb::dict>(Value))
        N.InputShapes[nb::cast<std::string>(Name)] = nb::cast<std::vector<int64_t>>(Shape);
    else
      throw nb::key_error(("verify option " + K).c_str());
  }
  return N;
}

/// freeze(): the frozen GraphDef as bytes, or written to `Output` (None
/// returned) atomically, as freeze-graph writes it, with its report; with
/// Verify, checked first, and a failed check raised with its findings.
WithWarnings freezeModel(const ModelArg &Model, const KeywordArgs &Keywords,
                         const KeywordArgs &Checks, bool Verify, const std::string &Output,
                         bool Text, bool SavedModel, const std::string &Report) {
  frost::FreezeGraphOptions Job;
  Job.Freeze = freezeOptions(Model, Keywords);
  Job.Output = Output;
  Job.Format = SavedModel ? frost::FrozenFormat::SavedModel
               : Text     ? frost::FrozenFormat::Text
                          : frost::FrozenFormat::Binary;
  Job.ReportPath = Report;
  Job.Verify = Verify;
  Job.Numeric = numericOptions(Checks);
  std::string Bytes;
  std::vector<std::string> Warnings = runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(frost::FreezeGraphResult R, frost::freezeGraph(Ctx, Job));
    if (!R.written()) {
      std::string Findings;
      llvm::raw_string_ostream OS(Findings);
      frost::verify::printVerifyReport(OS, *R.Verified, "freeze(verify=True)",
                                       /*FindingsOnly=*/true);
      return absl::FailedPreconditionError(llvm::StringRef(Findings).rtrim().str());
    }
    Bytes = std::move(R.Bytes);
    return absl::OkStatus();
  });
  return {bytesOrNone(Output, Bytes), Warnings};
}

/// The bytes of a graph job's result, or None when it went to a file.
template <typename OptionsT, typename JobFn>
WithWarnings runGraphJob(const OptionsT &Job, JobFn &&Run) {
  std::string Bytes;
  std::vector<std::string> Warnings = runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(frost::GraphJobResult R, Run(Ctx, Job));
    Bytes = std::move(R.Bytes);
    return absl::OkStatus();
  });
  return {bytesOrNone(Job.Output.Path, Bytes), Warnings};
}

frost::GraphDestination destination(const std::string &Output, bool Text, bool SavedModel) {
  return {Output, Text ? frost::Encoding::Text : frost::Encoding::Binary, SavedModel};
}

/// transform(): transform-graph over a GraphDef, to bytes or to `Output`.
WithWarnings transformModel(const ModelArg &Graph, const std::string &Transforms,
                            const std::vector<std::string> &Inputs,
                            const std::vector<std::string> &Outputs, const std::string &Output,
                            bool Text, bool SavedModel) {
  frost::TransformGraphOptions Job;
  Job.Input = Graph.source();
  Job.Output = destination(Output, Text, SavedModel);
  Job.Transforms = Transforms;
  Job.Inputs = Inputs;
  Job.Outputs = Outputs;
  return runGraphJob(Job, [](frost::Context &Ctx, const frost::TransformGraphOptions &O) {
    return frost::transformGraph(Ctx, O);
  });
}

/// optimize_for_inference(): optimize-for-inference over a GraphDef.
WithWarnings optimizeModel(const ModelArg &Graph, const std::vector<std::string> &Inputs,
                           const std::vector<std::string> &Outputs,
                           const std::vector<int> &PlaceholderTypes,
                           const std::vector<std::string> &ToConst, bool TocoCompatible,
                           bool ComputeInFloat32, const std::vector<std::string> &InputShapes,
                           int64_t BatchSize, const std::string &Output, bool Text,
                           bool SavedModel) {
  frost::OptimizeForInferenceOptions Job;
  Job.InputShapes = InputShapes;
  Job.BatchSize = BatchSize;
  Job.Input = Graph.source();
  Job.Output = destination(Output, Text, SavedModel);
  Job.InputNames = Inputs;
  Job.OutputNames = Outputs;
  Job.PlaceholderTypes = PlaceholderTypes;
  Job.ToConst = ToConst;
  Job.TocoCompatible = TocoCompatible;
  Job.ComputeInFloat32 = ComputeInFloat32;
  return runGraphJob(Job, [](frost::Context &Ctx, const frost::OptimizeForInferenceOptions &O) {
    return frost::optimizeForInference(Ctx, O);
  });
}

/// verify(): frost-verify --json's document.
std::pair<std::string, std::vector<std::string>>
verifyModel(const ModelArg &Frozen, const ModelArg &Source, const KeywordArgs &Keywords,
            const KeywordArgs &Checks) {
  frost::VerifyFrozenOptions Job;
  Job.Frozen = Frozen.source();
  Job.Freeze = freezeOptions(Source, Keywords);
  Job.Numeric = numericOptions(Checks);
  std::string Json;
  std::vector<std::string> Warnings = runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(frost::verify::VerifyReport R, frost::verifyFrozenGraph(Ctx, Job));
    Json = frost::verify::verifyReportJson(R);
    return absl::OkStatus();
  });
  return {Json, Warnings};
}

/// Arrays crossing into Python as .npy bytes (numpy.save's, numpy.load's).
using NpyArrays = std::vector<std::pair<std::string, nb::bytes>>;

/// run(): frost-run's job on arrays given as .npy bytes by input name; the
/// outputs as .npy bytes by tensor name, and the warnings. A comparison that
/// finds a difference is raised with its findings.
std::pair<NpyArrays, std::vector<std::string>>
runModel(const ModelArg &Model, const KeywordArgs &Keywords, const NpyArrays &Inputs,
         bool RandomInputs, const KeywordArgs &Checks, const std::optional<ModelArg> &CompareWith,
         const KeywordArgs &CompareKeywords, const std::string &Output) {
  frost::RunGraphOptions Job;
  Job.Model = freezeOptions(Model, Keywords);
  if (CompareWith)
    Job.CompareWith = freezeOptions(*CompareWith, CompareKeywords);
  Job.RandomInputs = RandomInputs;
  Job.Numeric = numericOptions(Checks);
  Job.Output = Output;
  // The bytes objects stay alive (Inputs holds them) while the GIL is away.
  std::vector<std::pair<std::string, llvm::StringRef>> Given;
  for (const auto &[Name, Bytes] : Inputs)
    Given.emplace_back(Name, llvm::StringRef(Bytes.c_str(), Bytes.size()));
  std::vector<std::pair<std::string, std::string>> Outputs;
  std::vector<std::string> Warnings = runCall([&](frost::Context &Ctx) -> absl::Status {
    for (const auto &[Name, Bytes] : Given) {
      FROST_ASSIGN_OR_RETURN(frost::TensorData T,
                             frost::decodeNpy(Bytes, absl::StrCat("inputs['", Name, "']")));
      Job.Inputs.emplace_back(Name, std::move(T));
    }
    FROST_ASSIGN_OR_RETURN(frost::RunGraphResult R, frost::runGraph(Ctx, Job));
    if (!R.passed())
      return absl::FailedPreconditionError(absl::StrCat(
          R.Model, ": differs from ", R.Other, ": ", R.Compared->Findings.front(),
          R.Compared->Findings.size() > 1
              ? absl::StrCat(" (and ", R.Compared->Findings.size() - 1, " more findings)")
              : ""));
    for (const auto &[Name, T] : R.Outputs) {
      FROST_ASSIGN_OR_RETURN(std::string Npy,
                             frost::encodeNpy(T, absl::StrCat("output '", Name, "'")));
      Outputs.emplace_back(Name, std::move(Npy));
    }
    return absl::OkStatus();
  });
  NpyArrays Result;
  for (const auto &[Name, Npy] : Outputs)
    Result.emplace_back(Name, nb::bytes(Npy.data(), Npy.size()));
  return {std::move(Result), std::move(Warnings)};
}

/// diff(): frost-diff --json's document.
std::string diffModels(const ModelArg &A, const ModelArg &B,
                       const std::vector<std::string> &IgnoreAttrs, bool IgnoreDevices,
                       double Atol, bool NamesOnly, const std::string &Signature,
                       const std::vector<std::string> &Tags, const std::string &Html) {
  frost::DiffGraphsOptions Job;
  Job.A = A.source();
  Job.B = B.source();
  if (!Tags.empty())
    Job.Tags = Tags;
  Job.Diff.IgnoreAttrs = IgnoreAttrs;
  Job.Diff.IgnoreDevices = IgnoreDevices;
  Job.Diff.Atol = Atol;
  Job.Diff.MatchStructure = !NamesOnly;
  Job.Diff.Signature = Signature;
  Job.HtmlPath = Html;
  std::string Json;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(frost::inspect::GraphDiff D, frost::diffGraphs(Ctx, Job));
    llvm::raw_string_ostream OS(Json);
    frost::inspect::printGraphDiffJson(D, {}, OS);
    return absl::OkStatus();
  });
  return Json;
}

/// inspect_checkpoint(): frost-inspect checkpoint --json's document.
std::string inspectCheckpoint(const std::string &Path, const std::vector<std::string> &Tensors,
                              bool Values, bool VerifyChecksums) {
  frost::inspect::CheckpointQuery Q;
  Q.Tensors = Tensors;
  Q.All = Values;
  Q.Json = true;
  Q.VerifyChecksums = VerifyChecksums;
  std::string Json;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    llvm::raw_string_ostream OS(Json);
    return frost::inspect::printCheckpoint(Ctx, Path, Q, OS);
  });
  return Json;
}

/// summarize(): frost-inspect graph --json's document.
std::string summarizeModel(const ModelArg &Model, const std::vector<std::string> &Tags) {
  frost::InspectGraphOptions Job;
  Job.Input = Model.source();
  if (!Tags.empty())
    Job.Read.Tags = Tags;
  Job.As = frost::InspectGraphOptions::Form::Json;
  std::string Json;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(Json, frost::inspectGraph(Ctx, Job));
    return absl::OkStatus();
  });
  return Json;
}

/// python -m frost TOOL ARGS...: the tool's driver, in this process, with
/// the GIL released; its exit code. Arguments are bytes (os.fsencode), as a
/// command gets them. Each run is a job of its own: a process may run
/// several, one after another or at once.
int runTool(const std::string &Tool, const std::vector<nb::bytes> &Args) {
  static constexpr std::pair<const char *, int (*)(int, char **)> Tools[] = {
      {"freeze-graph", frost::frostFreezeMain},
      {"transform-graph", frost::frostTransformMain},
      {"optimize-for-inference", frost::frostOptimizeMain},
      {"frost-verify", frost::frostVerifyMain},
      {"frost-run", frost::frostRunMain},
      {"frost-diff", frost::frostDiffMain},
      {"frost-inspect", frost::frostInspectMain},
      {"frost-opt", frost::frostOptMain},
  };
  for (const auto &[Name, Main] : Tools) {
    if (Tool != Name)
      continue;
    std::vector<std::string> Words = {Tool};
    for (const nb::bytes &Arg : Args)
      Words.emplace_back(Arg.c_str(), Arg.size());
    std::vector<char *> Argv;
    for (std::string &W : Words)
      Argv.push_back(W.data());
    Argv.push_back(nullptr);
    nb::gil_scoped_release Unlocked;
    return Main(static_cast<int>(Words.size()), Argv.data());
  }
  return -1;
}

} // namespace

NB_MODULE(_frost, M) {
  M.doc() = "Frost's C++ core (use the frost package, not this module)";
  FrostErrorType = nb::borrow(PyErr_NewExceptionWithDoc(
      "frost.FrostError", "A Frost failure: one line naming the file, the object and where.",
      PyExc_RuntimeError, nullptr));
  M.attr("FrostError") = FrostErrorType;
  M.attr("version") = frost::frostVersion();
  nb::class_<ModelArg>(M, "ModelArg", "A model by path, or as bytes named in messages")
      .def(nb::init<std::optional<std::string>, std::optional<nb::bytes>, std::string>(),
           nb::arg("path").none(), nb::arg("data").none(), nb::arg("name"));
  M.def("freeze", &freezeModel, nb::arg("model"), nb::arg("options"), nb::arg("checks"),
        nb::arg("verify"), nb::arg("output"), nb::arg("text"), nb::arg("saved_model"),
        nb::arg("report"),
        "Freeze a model; (bytes or None, warnings)");
  M.def("transform", &transformModel, nb::arg("graph"), nb::arg("transforms"),
        nb::arg("inputs"), nb::arg("outputs"), nb::arg("output"), nb::arg("text"),
        nb::arg("saved_model"), "Run graph transforms; (bytes or None, warnings)");
  M.def("optimize_for_inference", &optimizeModel, nb::arg("graph"), nb::arg("inputs"),
        nb::arg("outputs"), nb::arg("placeholder_types"), nb::arg("to_const"),
        nb::arg("toco_compatible"), nb::arg("compute_in_float32"), nb::arg("input_shapes"),
        nb::arg("batch_size"), nb::arg("output"), nb::arg("text"), nb::arg("saved_model"),
        "Optimize a frozen graph for inference; (bytes or None, warnings)");
  M.def("verify", &verifyModel, nb::arg("frozen"), nb::arg("source"), nb::arg("options"),
        nb::arg("checks"), "frost-verify --json's document; (json, warnings)");
  M.def("run", &runModel, nb::arg("model"), nb::arg("options"), nb::arg("inputs"),
        nb::arg("random_inputs"), nb::arg("checks"), nb::arg("compare_with").none(),
        nb::arg("compare_options"), nb::arg("output"),
        "frost-run's job: outputs as .npy bytes by tensor name; (outputs, warnings)");
  M.def("diff", &diffModels, nb::arg("a"), nb::arg("b"), nb::arg("ignore_attrs"),
        nb::arg("ignore_devices"), nb::arg("atol"), nb::arg("names_only"),
        nb::arg("signature"), nb::arg("tags"), nb::arg("html"), "frost-diff --json's document");
  M.def("inspect_checkpoint", &inspectCheckpoint, nb::arg("path"), nb::arg("tensors"),
        nb::arg("values"), nb::arg("verify_checksums"),
        "frost-inspect checkpoint --json's document");
  M.def("summarize", &summarizeModel, nb::arg("model"), nb::arg("tags"),
        "frost-inspect graph --json's document");
  M.def("run_tool", &runTool, nb::arg("tool"), nb::arg("args"),
        "Runs a command's driver in this process: its exit code, -1 for an unknown command");
}
