//===- InferReshapeDimension.cpp - A computed Reshape dimension as -1 ----===//
//
// Keras builds the shape of a Reshape that keeps the batch from the batch
// itself: Pack(StridedSlice(Shape(x), [0]), 1, 1, C) in a squeeze-and-excite
// block. While the batch is unknown nothing folds it, and importers that
// cannot run Shape (OpenCV's dnn) refuse the graph. When every other element
// of the Pack is a constant (none -1, their product positive), the computed
// one can only be what Reshape infers for a -1 in its place: a Reshape that
// succeeds has e * product = element count. So the shape becomes a Const
// with -1 there; what computed it is left for prune. (A Reshape that would
// fail, its count not a multiple of the product, fails either way.)
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <optional>

namespace frost {

namespace {

/// The value of a scalar int32/int64 Const at `In`, or nullopt.
std::optional<int64_t> constScalar(const Input &In) {
  if (In.Src->op() != "Const" || In.Port != 0)
    return std::nullopt;
  absl::StatusOr<TensorData> T = constValue(*In.Src);
  if (!T.ok() || !T->shape().empty())
    return std::nullopt;
  if (T->dtype() == tensorflow::DT_INT32)
    return T->element<int32_t>(0);
  if (T->dtype() == tensorflow::DT_INT64)
    return T->element<int64_t>(0);
  return std::nullopt;
}

class InferReshapeDimensionPass : public Pass {
  Statistic NumRewritten{*this, "reshapes-inferred",
                         "Reshapes whose one computed dimension became -1"};

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    std::vector<Node *> Reshapes; // collected first: the walk adds Consts
    for (Node &N : G)
      if (N.op() == "Reshape" && N.numDataInputs() == 2)
        Reshapes.push_back(&N);
    for (Node *Each : Reshapes) {
      Node &R = *Each;
      Input ShapeIn = R.input(1);
      Node &Pack = *ShapeIn.Src;
      const tensorflow::AttrValue *Axis = Pack.findAttr("axis");
      const tensorflow::AttrValue *T = Pack.findAttr("T");
      if (Pack.op() != "Pack" || ShapeIn.Port != 0 || (Axis && Axis->i() != 0) || !T ||
          (T->type() != tensorflow::DT_INT32 && T->type() != tensorflow::DT_INT64) ||
          !Pack.controlInputs().empty())
        continue;
      std::vector<int64_t> Dims;
      std::optional<unsigned> Computed;
      int64_t Product = 1;
      bool Usable = true;
      for (unsigned I = 0; Usable && I < Pack.numDataInputs(); ++I) {
        std::optional<int64_t> D = constScalar(Pack.input(I));
        if (!D) {
          // One computed element, no more (a Const here holds no scalar integer).
          Usable = !Computed && Pack.input(I).Src->op() != "Const";
          Computed = I;
          Dims.push_back(-1);
          continue;
        }
        // Positive and small enough that the product cannot overflow.
        Usable = *D > 0 && *D <= (int64_t(1) << 31) && Product <= (int64_t(1) << 31);
        Product *= *D;
        Dims.push_back(*D);
      }
      if (!Usable || !Computed)
        continue;
      std::string Bytes;
      for (int64_t D : Dims) {
        if (T->type() == tensorflow::DT_INT32) {
          int32_t V = static_cast<int32_t>(D);
          Bytes.append(reinterpret_cast<const char *>(&V), sizeof V);
        } else {
          Bytes.append(reinterpret_cast<const char *>(&D), sizeof D);
        }
      }
      FROST_ASSIGN_OR_RETURN(
          Node * Shape,
          createConst(G, absl::StrCat(R.name().str(), "/inferred_shape"),
                      TensorData::owned(T->type(), {static_cast<int64_t>(Dims.size())},
                                        std::move(Bytes)),
                      R.device()));
      R.setInput(1, Shape, 0);
      ++NumRewritten;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createInferReshapeDimensionPass() {
  return std::make_unique<InferReshapeDimensionPass>();
}

} // namespace frost
