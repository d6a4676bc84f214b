//===- ComputeInFloat32.cpp - Mixed-precision graphs computed in float ----===//
//
// A Keras mixed-precision model (policy mixed_float16 or mixed_bfloat16)
// freezes to a graph that casts its float32 input to half, computes in half
// with half weights, and casts back. Runtimes without half kernels or Cast
// (OpenCV's dnn module has neither: "Required argument outputType not found")
// cannot load it. This pass makes every half and bfloat16 tensor float32:
// type attributes (T, dtype, SrcT/DstT, list(type) entries) become float,
// half and bfloat16 constants hold the same values as floats (exactly: every
// half and bfloat16 value is a float), and a Cast that is then from float to
// float goes, its readers reading its input (it stays as an Identity when
// nothing reads it: an output). The graph computes what it did with more
// precision, so results move by about half's rounding (1e-3 relative).
// Not part of optimize-for-inference unless asked (`--compute-in-float32`):
// on GPUs the half graph is the fast one.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Tensor/SmallFloat.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"

#include "absl/strings/str_cat.h"

#include <cstring>

namespace frost {

namespace {

bool isSmallFloat(tensorflow::DataType T) {
  return T == tensorflow::DT_HALF || T == tensorflow::DT_BFLOAT16;
}

class ComputeInFloat32Pass : public Pass {
  Statistic NumNodes{*this, "nodes-widened", "Nodes whose half/bfloat16 types became float"};
  Statistic NumConstants{*this, "constants-widened", "half/bfloat16 constants stored as float"};
  Statistic NumCasts{*this, "casts-removed", "Casts from float to float removed"};

  /// Makes every half/bfloat16 type in N's attributes float; whether any was.
  static bool widenTypes(Node &N) {
    bool Changed = false;
    for (auto &[Name, Value] : N.mutableAttrs()) {
      if (Value.value_case() == tensorflow::AttrValue::kType && isSmallFloat(Value.type())) {
        Value.set_type(tensorflow::DT_FLOAT);
        Changed = true;
      } else if (Value.has_list()) {
        for (int I = 0; I < Value.list().type_size(); ++I)
          if (isSmallFloat(Value.list().type(I))) {
            Value.mutable_list()->set_type(I, tensorflow::DT_FLOAT);
            Changed = true;
          }
      }
    }
    return Changed;
  }

  /// Widens a value held in its typed field (half_val, for half and
  /// bfloat16 alike) value by value: a splat stays one value, never expanded
  /// to its shape. False when the value is held as bytes.
  static bool widenTypedField(Node &C) {
    const tensorflow::AttrValue *Attr = C.findAttr("value");
    if (!Attr || !Attr->has_tensor() || C.externalContent("value") ||
        !Attr->tensor().tensor_content().empty())
      return false;
    const tensorflow::TensorProto &From = Attr->tensor();
    tensorflow::TensorProto To;
    To.set_dtype(tensorflow::DT_FLOAT);
    *To.mutable_tensor_shape() = From.tensor_shape();
    for (int32_t Bits : From.half_val()) {
      auto B = static_cast<uint16_t>(Bits);
      To.add_float_val(static_cast<float>(From.dtype() == tensorflow::DT_HALF ? halfToDouble(B)
                                                                               : bfloat16ToDouble(B)));
    }
    *C.attr("value").mutable_tensor() = std::move(To);
    return true;
  }

  static absl::Status widenConstant(Node &C, const TensorData &V) {
    std::vector<uint16_t> Bits = V.values<uint16_t>();
    std::string Bytes(Bits.size() * sizeof(float), '\0');
    for (size_t I = 0; I < Bits.size(); ++I) {
      float F = static_cast<float>(V.dtype() == tensorflow::DT_HALF ? halfToDouble(Bits[I])
                                                                     : bfloat16ToDouble(Bits[I]));
      std::memcpy(Bytes.data() + I * sizeof F, &F, sizeof F);
    }
    return setValueAttr(C, TensorData::owned(tensorflow::DT_FLOAT,
                                             {V.shape().begin(), V.shape().end()}, std::move(Bytes)));
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    std::vector<Node *> Casts;
    for (Node &N : G) {
      if (N.op() == "Const") {
        const tensorflow::AttrValue *DType = N.findAttr("dtype");
        if (DType && isSmallFloat(DType->type())) {
          // Fewer values in the typed field than the shape holds (a splat)
          // widen one by one, never expanded (a [1e9] one would take
          // gigabytes). Anything else is decoded, which checks it, and
          // written back as make_tensor_proto spells it.
          const tensorflow::AttrValue *Value = N.findAttr("value");
          std::optional<uint64_t> Bytes = decodedValueBytes(N);
          if (!(Bytes && Value->tensor().dtype() == DType->type() &&
                static_cast<uint64_t>(Value->tensor().half_val_size()) < *Bytes / 2 &&
                widenTypedField(N))) {
            FROST_ASSIGN_OR_RETURN(TensorData V, constValue(N));
            if (V.dtype() != DType->type())
              return absl::InvalidArgumentError(absl::StrCat(
                  "Const '", N.name().str(), "' has dtype ", dataTypeName(DType->type()),
                  " but holds ", dataTypeName(V.dtype())));
            FROST_RETURN_IF_ERROR(widenConstant(N, V));
          }
          ++NumConstants;
        }
      }
      if (widenTypes(N))
        ++NumNodes;
      if (N.op() == "Cast")
        Casts.push_back(&N);
    }
    for (Node *Cast : Casts) {
      const tensorflow::AttrValue *Src = Cast->findAttr("SrcT");
      const tensorflow::AttrValue *Dst = Cast->findAttr("DstT");
      if (!Src || !Dst || Src->type() != tensorflow::DT_FLOAT ||
          Dst->type() != tensorflow::DT_FLOAT || Cast->numDataInputs() != 1)
        continue;
      if (!Cast->hasUses()) {
        // An output: keep its name.
        Cast->setOp("Identity");
        Cast->mutableAttrs().clear();
        Cast->attr("T").set_type(tensorflow::DT_FLOAT);
        ++NumCasts;
        continue;
      }
      Input In = Cast->input(0);
      Cast->replaceUsesOfOutput(0, In.Src, In.Port);
      Cast->replaceUsesOfOutput(ControlPort, In.Src, ControlPort);
      G.eraseNode(Cast);
      ++NumCasts;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createComputeInFloat32Pass() {
  return std::make_unique<ComputeInFloat32Pass>();
}

} // namespace frost
