//===- QuantizeWeights.cpp - Large float constants stored as eight bits ---===//
//
// graph_transforms' quantize_weights: each float Const of at least
// `minimum-size` elements becomes quint8 values and a Dequantize (MIN_FIRST)
// that gives the graph floats again, about a quarter of the bytes:
//
//   <c>_quantized_const (quint8), <c>_quantized_min, <c>_quantized_max
//   (float scalars), and Dequantize named <c> reading the three.
//
// The range is [min(values, 0), max(values, 0)] ([0, 1] when all are zero);
// each value becomes round(v * s) - round(min * s) clamped to [0, 255] with
// s = 256 / ((max - min) * 256 / 255), in double, rounding halves away from
// zero: TensorFlow's FloatToQuantized. The Dequantize keeps the Const's
// device and control inputs (TensorFlow drops them); a Const holding NaN
// or infinity is left as it is, with a warning (TensorFlow's conversion is
// undefined there).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <cmath>

namespace frost {

namespace {

class QuantizeWeightsPass : public Pass {
  Option<int64_t> MinimumSize{*this, "minimum-size",
                              "Float constants with fewer elements stay as they are", 1024};
  Statistic NumQuantized{*this, "constants-quantized", "Float constants stored as quint8"};
  Statistic BytesSaved{*this, "bytes-saved", "Bytes of weights saved"};

  absl::Status quantize(Graph &G, Node &C, const TensorData &V, PassContext &Ctx) {
    std::vector<float> Values = V.values<float>();
    if (!llvm::all_of(Values, [](float F) { return std::isfinite(F); })) {
      Ctx.warning(name(), absl::StrCat("left '", C.name().str(), "' alone: it holds NaN or infinity"));
      return absl::OkStatus();
    }
    float Min = 0, Max = 0;
    for (float F : Values) {
      Min = std::min(Min, F);
      Max = std::max(Max, F);
    }
    if (Min == Max)
      Max = Min + 1.0f;
    const double Scale = 256.0 / (static_cast<double>(Max - Min) * (256.0 / 255.0));
    const double Offset = std::round(static_cast<double>(Min) * Scale);
    std::string Bytes(Values.size(), '\0');
    for (size_t I = 0; I < Values.size(); ++I) {
      double Q = std::round(static_cast<double>(Values[I]) * Scale) - Offset;
      Bytes[I] = static_cast<char>(static_cast<uint8_t>(std::clamp(Q, 0.0, 255.0)));
    }

    auto makeConst = [&](llvm::StringRef Suffix, const TensorData &T) {
      return createConst(G, absl::StrCat(C.name().str(), Suffix.str()), T, C.device());
    };
    auto scalar = [](float F) {
      return TensorData::owned(tensorflow::DT_FLOAT, {},
                               std::string(reinterpret_cast<const char *>(&F), sizeof F));
    };
    std::vector<int64_t> Shape(V.shape().begin(), V.shape().end());
    FROST_ASSIGN_OR_RETURN(Node * Quantized,
                           makeConst("_quantized_const",
                                     TensorData::owned(tensorflow::DT_QUINT8, Shape, std::move(Bytes))));
    FROST_ASSIGN_OR_RETURN(Node * MinNode, makeConst("_quantized_min", scalar(Min)));
    FROST_ASSIGN_OR_RETURN(Node * MaxNode, makeConst("_quantized_max", scalar(Max)));
    C.setOp("Dequantize");
    C.eraseAttr("value"); // With any content held outside the attribute.
    C.mutableAttrs().clear();
    C.attr("T").set_type(tensorflow::DT_QUINT8);
    C.attr("mode").set_s("MIN_FIRST");
    for (Node *In : {Quantized, MinNode, MaxNode})
      C.addDataInput(In, 0);
    ++NumQuantized;
    BytesSaved += Values.size() * 3;
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Node *> Consts;
    for (Node &N : G)
      if (N.op() == "Const")
        Consts.push_back(&N);
    for (Node *C : Consts) {
      const tensorflow::AttrValue *DType = C->findAttr("dtype");
      if (!DType)
        return absl::InvalidArgumentError(
            absl::StrCat("Const '", C->name().str(), "' has no dtype attribute"));
      if (DType->type() != tensorflow::DT_FLOAT)
        continue;
      FROST_ASSIGN_OR_RETURN(TensorData V, constValue(*C));
      if (V.dtype() != tensorflow::DT_FLOAT)
        return absl::InvalidArgumentError(absl::StrCat("Const '", C->name().str(),
                                                       "' has dtype float but holds ",
                                                       dataTypeName(V.dtype())));
      if (V.numElements() >= *MinimumSize)
        FROST_RETURN_IF_ERROR(quantize(G, *C, V, Ctx));
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createQuantizeWeightsPass() {
  return std::make_unique<QuantizeWeightsPass>();
}

} // namespace frost
