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
#include "frost/Freeze/Freeze.h"
#include "frost/IO/GraphIO.h"
#include "frost/IR/Verifier.h"
#include "frost/Inspect/CheckpointSummary.h"
#include "frost/Inspect/GraphSummary.h"
#include "frost/Support/Context.h"
#include "frost/Support/Version.h"
#include "frost/Tools/DiffMain.h"
#include "frost/Tools/FreezeMain.h"
#include "frost/Tools/InspectMain.h"
#include "frost/Tools/OptMain.h"
#include "frost/Tools/OptimizeMain.h"
#include "frost/Tools/TransformMain.h"
#include "frost/Tools/VerifyMain.h"
#include "frost/Support/WarningLines.h"
#include "frost/Transforms/GraphTransforms.h"

#include "absl/strings/str_cat.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace {

/// The Python exception every failure becomes; set at import.
nb::object FrostErrorType;

[[noreturn]] void raise(const absl::Status &S) {
  PyErr_SetString(FrostErrorType.ptr(), std::string(S.message()).c_str());
  throw nb::python_error();
}

/// Runs `Work` (frost::Context & -> absl::Status) as one job: without the
/// GIL, in a Context of its own; a failure is raised as FrostError once the
/// GIL is back.
template <typename WorkFn> void runCall(WorkFn &&Work) {
  absl::Status Failed;
  {
    nb::gil_scoped_release Unlocked;
    frost::Context Ctx;
    Failed = Work(Ctx);
  }
  if (!Failed.ok())
    raise(Failed);
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
};

/// What a call returns besides its result: the warnings the library wrote
/// ("warning: ..." lines), for the Python side to raise as FrostWarnings.
using WithWarnings = std::pair<nb::object, std::string>;

/// The model as bytes (binary or text) unless it went to `Output`.
nb::object bytesOrNone(const std::optional<std::string> &Output, const std::string &Bytes) {
  if (Output)
    return nb::none();
  return nb::bytes(Bytes.data(), Bytes.size());
}

/// freeze(): the frozen GraphDef as bytes, or written to `output` (None
/// returned) atomically, as freeze-graph writes it.
WithWarnings freezeModel(const ModelArg &Model, const std::vector<std::string> &Outputs,
                         const std::optional<std::string> &Checkpoint,
                         const std::optional<std::string> &Signature,
                         const std::optional<std::string> &Ema,
                         const std::vector<std::string> &Bind,
                         const std::vector<std::string> &Only,
                         const std::vector<std::string> &Except,
                         const std::vector<std::string> &Tags, bool Optimize,
                         const std::optional<std::string> &Output, bool Text) {
  frost::FreezeOptions O;
  if (Model.Path)
    O.Positional = {*Model.Path};
  else
    O.InputBytes = Model.Bytes;
  O.InputBytesName = Model.Name;
  O.Outputs = Outputs;
  O.Checkpoint = Checkpoint.value_or("");
  O.Signature = Signature.value_or("");
  O.Ema = Ema;
  O.Bind = Bind;
  O.Only = Only;
  O.Except = Except;
  if (!Tags.empty())
    O.Tags = Tags;
  O.Optimize = Optimize;
  std::string Warned;
  llvm::raw_string_ostream WarnedStream(Warned);
  frost::WarningLines Warnings(WarnedStream);
  O.Notes = &Warnings;
  frost::WriteOptions Write;
  Write.Enc = Text ? frost::Encoding::Text : frost::Encoding::Binary;
  std::string Bytes;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(frost::FreezeResult R, frost::freeze(Ctx, O));
    if (Output)
      return frost::writeFrozenGraph(Ctx, R, *Output,
                                     Text ? frost::FrozenFormat::Text : frost::FrozenFormat::Binary)
          .status();
    FROST_RETURN_IF_ERROR(frost::checkFrozenGraphSize(R, "<bytes>"));
    FROST_ASSIGN_OR_RETURN(Bytes, frost::serializeModel(Ctx, *R.M, Write));
    return absl::OkStatus();
  });
  return {bytesOrNone(Output, Bytes), Warned};
}

/// The model of a path or of bytes, read as the tools read their input.
absl::StatusOr<std::unique_ptr<frost::Model>> readModelArg(frost::Context &Ctx,
                                                           const ModelArg &Model,
                                                           const frost::ReadOptions &Read) {
  if (Model.Path) {
    Ctx.inputs().noteWithSiblings(*Model.Path);
    std::vector<std::string> Notes;
    FROST_ASSIGN_OR_RETURN(frost::ResolvedInput In,
                           frost::resolveInput(Ctx, *Model.Path, Notes));
    return frost::readModel(Ctx, In.GraphPath, Read);
  }
  return frost::parseModel(Model.Bytes, Model.Name, Read);
}

/// transform(): transform-graph over a GraphDef, to bytes or to `Output`.
WithWarnings transformModel(const ModelArg &Graph, const std::string &Transforms,
                            const std::vector<std::string> &Inputs,
                            const std::vector<std::string> &Outputs,
                            const std::optional<std::string> &Output, bool Text) {
  std::string Warned;
  llvm::raw_string_ostream WarnedStream(Warned);
  frost::WarningLines Warnings(WarnedStream);
  std::string Bytes;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(std::unique_ptr<frost::Model> M, readModelArg(Ctx, Graph, {}));
    if (absl::Status S = frost::verifyGraph(M->graph()); !S.ok())
      return absl::Status(S.code(),
                          absl::StrCat(Graph.Path.value_or(Graph.Name), ": ", S.message()));
    FROST_RETURN_IF_ERROR(frost::transformGraph(Ctx, M, Transforms, {Inputs, Outputs},
                                                frost::PassManagerOptions(), Warnings));
    M->dropContainer();
    frost::WriteOptions Write;
    Write.Enc = Text ? frost::Encoding::Text : frost::Encoding::Binary;
    if (Output)
      return frost::writeModel(Ctx, *M, *Output, Write);
    FROST_ASSIGN_OR_RETURN(Bytes, frost::serializeModel(Ctx, *M, Write));
    return absl::OkStatus();
  });
  return {bytesOrNone(Output, Bytes), Warned};
}

/// inspect_checkpoint(): frost-inspect checkpoint --json's document.
std::string inspectCheckpoint(const std::string &Path, const std::vector<std::string> &Tensors,
                              bool Values, bool VerifyChecksums) {
  std::string Json;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    llvm::raw_string_ostream OS(Json);
    FROST_ASSIGN_OR_RETURN(frost::inspect::OpenedCheckpoint C,
                           frost::inspect::openCheckpoint(Ctx, Path, VerifyChecksums));
    FROST_ASSIGN_OR_RETURN(std::vector<const frost::VariableInfo *> Vars,
                           frost::inspect::selectVariables(*C.Reader, Tensors));
    return frost::inspect::printCheckpointJson(C, Vars, Values || !Tensors.empty(), OS);
  });
  return Json;
}

/// summarize(): frost-inspect graph --json's document.
std::string summarizeModel(const ModelArg &Model, const std::vector<std::string> &Tags) {
  std::string Json;
  runCall([&](frost::Context &Ctx) -> absl::Status {
    llvm::raw_string_ostream OS(Json);
    frost::ReadOptions Read;
    if (!Tags.empty())
      Read.Tags = Tags;
    FROST_ASSIGN_OR_RETURN(std::unique_ptr<frost::Model> M, readModelArg(Ctx, Model, Read));
    frost::inspect::printGraphSummaryJson(
        frost::inspect::summarizeGraph(*M, Model.Path.value_or(Model.Name)), OS);
    return absl::OkStatus();
  });
  return Json;
}

/// python -m frost TOOL ARGS...: the tool's driver, in this process, with
/// the GIL released; its exit code. Arguments are bytes (os.fsencode), as a
/// command gets them. One command per process: frost-inspect and frost-opt
/// still declare llvm::cl options, which register process-wide and would
/// clash on a second run.
int runTool(const std::string &Tool, const std::vector<nb::bytes> &Args) {
  static std::atomic<bool> Ran = false;
  static constexpr std::pair<const char *, int (*)(int, char **)> Tools[] = {
      {"freeze-graph", frost::frostFreezeMain},
      {"transform-graph", frost::frostTransformMain},
      {"optimize-for-inference", frost::frostOptimizeMain},
      {"frost-verify", frost::frostVerifyMain},
      {"frost-diff", frost::frostDiffMain},
      {"frost-inspect", frost::frostInspectMain},
      {"frost-opt", frost::frostOptMain},
  };
  for (const auto &[Name, Main] : Tools) {
    if (Tool != Name)
      continue;
    if (Ran.exchange(true)) {
      PyErr_SetString(FrostErrorType.ptr(), "python -m frost runs one command per process");
      throw nb::python_error();
    }
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
  M.def("freeze", &freezeModel, nb::arg("model"), nb::arg("outputs"),
        nb::arg("checkpoint").none(), nb::arg("signature").none(), nb::arg("ema").none(),
        nb::arg("bind"), nb::arg("only"), nb::arg("except_"), nb::arg("tags"),
        nb::arg("optimize"), nb::arg("output").none(), nb::arg("text"),
        "Freeze a model; (bytes or None, warnings text)");
  M.def("transform", &transformModel, nb::arg("graph"), nb::arg("transforms"),
        nb::arg("inputs"), nb::arg("outputs"), nb::arg("output").none(), nb::arg("text"),
        "Run graph transforms; (bytes or None, warnings text)");
  M.def("inspect_checkpoint", &inspectCheckpoint, nb::arg("path"), nb::arg("tensors"),
        nb::arg("values"), nb::arg("verify_checksums"),
        "frost-inspect checkpoint --json's document");
  M.def("summarize", &summarizeModel, nb::arg("model"), nb::arg("tags"),
        "frost-inspect graph --json's document");
  M.def("run_tool", &runTool, nb::arg("tool"), nb::arg("args"),
        "Runs a command's driver in this process: its exit code, -1 for an unknown command");
}
