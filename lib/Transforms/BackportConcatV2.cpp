//===- BackportConcatV2.cpp - ConcatV2 to the older Concat ----------------===//
//
// TensorFlow's graph_transforms backport_concatv2: for runtimes that predate
// ConcatV2, each ConcatV2(values..., axis) becomes Concat(axis, values...)
// without its `Tidx` attribute. Differences from TensorFlow:
//  - the axis is the last DATA input: TensorFlow moves the last input string,
//    which is a `^control` input when the node has one, and mangles the node;
//  - a ConcatV2 whose axis is int64 is left alone with a warning (Concat
//    takes an int32 axis only; TensorFlow rewrites it into a node that fails
//    to load).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Tensor/DataType.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

class BackportConcatV2Pass : public Pass {
  Statistic NumBackported{*this, "concats-backported", "ConcatV2 rewritten to Concat"};
  Statistic NumInt64Axis{*this, "int64-axis-skipped",
                         "ConcatV2 left alone: an axis that is not int32, which Concat needs"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    for (Node &N : M.graph()) {
      if (N.op() != "ConcatV2")
        continue;
      unsigned NumData = N.numDataInputs();
      if (NumData < 2)
        return absl::InvalidArgumentError(
            absl::StrCat("node '", N.name().str(), "' (ConcatV2) has ", NumData,
                         " data input(s); it needs its values and an axis"));
      const tensorflow::AttrValue *Tidx = N.findAttr("Tidx");
      if (Tidx && Tidx->type() != tensorflow::DT_INT32) {
        Ctx.warning(name(),
                    absl::StrCat("node '", N.name().str(), "' (ConcatV2) left alone: its axis is ",
                                 dataTypeName(Tidx->type()), " and Concat takes an int32 axis"));
        ++NumInt64Axis;
        continue;
      }
      // Rotate the data inputs right by one: the axis goes first.
      Input Axis = N.input(NumData - 1);
      for (unsigned I = NumData - 1; I > 0; --I) {
        Input Value = N.input(I - 1);
        N.setInput(I, Value.Src, Value.Port);
      }
      N.setInput(0, Axis.Src, Axis.Port);
      N.setOp("Concat");
      N.eraseAttr("Tidx");
      ++NumBackported;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createBackportConcatV2Pass() {
  return std::make_unique<BackportConcatV2Pass>();
}

} // namespace frost
