//===- module.cpp - The frost._frost extension module ---------------------===//
//
// A thin layer over lib/Freeze: Python arguments -> FreezeOptions -> the same
// freeze() and writer as freeze-graph. Long work runs without the GIL; every
// failure is the library's one-line absl::Status, raised as frost.FrostError
// (never an abort: library code returns statuses).
//
//===----------------------------------------------------------------------===//
#include "frost/Freeze/Freeze.h"
#include "frost/IO/GraphIO.h"

#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <vector>

namespace nb = nanobind;

namespace {

/// The Python exception every failure becomes; set at import.
nb::object FrostErrorType;

[[noreturn]] void raise(const absl::Status &S) {
  PyErr_SetString(FrostErrorType.ptr(), std::string(S.message()).c_str());
  throw nb::python_error();
}

/// freeze(): the frozen GraphDef as bytes, or written to `output` (None
/// returned) atomically, as freeze-graph writes it.
nb::object freezeModel(const std::string &Model, const std::vector<std::string> &Outputs,
                       const std::optional<std::string> &Checkpoint,
                       const std::optional<std::string> &Signature,
                       const std::optional<std::string> &Ema,
                       const std::vector<std::string> &Bind, const std::vector<std::string> &Only,
                       const std::vector<std::string> &Except,
                       const std::vector<std::string> &Tags, bool Optimize,
                       const std::optional<std::string> &Output, bool Text) {
  frost::FreezeOptions O;
  O.Positional = {Model};
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
  O.Notes = nullptr; // a library call is quiet
  absl::Status Failed;
  std::string Bytes;
  {
    nb::gil_scoped_release Unlocked;
    absl::StatusOr<frost::FreezeResult> R = frost::freeze(O);
    if (!R.ok()) {
      Failed = R.status();
    } else if (Output) {
      absl::StatusOr<frost::FrozenFile> F = frost::writeFrozenGraph(
          *R, *Output, Text ? frost::FrozenFormat::Text : frost::FrozenFormat::Binary);
      if (!F.ok())
        Failed = F.status();
    } else if (Text) {
      Bytes = frost::printModelText(*R->M);
    } else if (absl::Status S = frost::checkFrozenGraphSize(*R, "<bytes>"); !S.ok()) {
      Failed = S;
    } else if (absl::StatusOr<std::string> B = frost::serializeModel(*R->M); B.ok()) {
      Bytes = std::move(*B);
    } else {
      Failed = B.status();
    }
  }
  if (!Failed.ok())
    raise(Failed);
  if (Output)
    return nb::none();
  return nb::bytes(Bytes.data(), Bytes.size());
}

} // namespace

NB_MODULE(_frost, M) {
  M.doc() = "Frost's C++ core (use the frost package, not this module)";
  FrostErrorType = nb::borrow(PyErr_NewExceptionWithDoc(
      "frost.FrostError", "A Frost failure: one line naming the file, the object and where.",
      PyExc_RuntimeError, nullptr));
  M.attr("FrostError") = FrostErrorType;
  M.def("freeze", &freezeModel, nb::arg("model"), nb::arg("outputs"), nb::arg("checkpoint"),
        nb::arg("signature"), nb::arg("ema"), nb::arg("bind"), nb::arg("only"),
        nb::arg("except_"), nb::arg("tags"), nb::arg("optimize"), nb::arg("output"),
        nb::arg("text"));
}
