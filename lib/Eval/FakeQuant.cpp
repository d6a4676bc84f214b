//===- FakeQuant.cpp - Quantize-then-dequantize in float ------------------===//
//
// TensorFlow's fake_quant_ops (FakeQuantWithMinMaxArgs, ...Vars,
// ...VarsPerChannel) and quantize_and_dequantize_op (V2, V3, V4): the range
// is nudged or scaled as TensorFlow's scalar code does it, then each
// element is clamped, scaled, rounded and scaled back, every step an IEEE
// operation in TensorFlow's order under its denormal flushing
// (PacketArithmetic.h), so the results are its bits.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "PacketArithmetic.h"

namespace frost::eval {

using namespace elementwise;
namespace pk = tfmath::packet;

namespace {

// --- FakeQuant ----------------------------------------------------------------

/// The num_bits and narrow_range attributes as [quant_min, quant_max].
absl::StatusOr<std::pair<int, int>> quantRange(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(int64_t NumBits, Ctx.intAttr("num_bits", 8));
  FROST_ASSIGN_OR_RETURN(bool NarrowRange, Ctx.boolAttr("narrow_range", false));
  if (NumBits < 2 || NumBits > 16)
    return Ctx.invalid("num_bits must be between 2 and 16, inclusive");
  return std::pair<int, int>(NarrowRange ? 1 : 0, (1 << NumBits) - 1);
}

/// TensorFlow's Nudge: the range moved so that zero is a quantized value.
struct Nudged {
  float Min, Max, Scale, InverseScale;
};

Nudged nudge(float Min, float Max, int QuantMin, int QuantMax) {
  const float QMin = static_cast<float>(QuantMin), QMax = static_cast<float>(QuantMax);
  Nudged N;
  N.Scale = pk::div(pk::sub(Max, Min), pk::sub(QMax, QMin));
  N.InverseScale = pk::div(pk::sub(QMax, QMin), pk::sub(Max, Min));
  const float ZeroPointFromMin = pk::sub(QMin, pk::div(Min, N.Scale));
  uint16_t ZeroPoint;
  if (pk::lt(ZeroPointFromMin, QMin))
    ZeroPoint = static_cast<uint16_t>(QuantMin);
  else if (pk::lt(QMax, ZeroPointFromMin))
    ZeroPoint = static_cast<uint16_t>(QuantMax);
  else // A NaN converts as x86 does (cvttss2si's 0x80000000, truncated).
    ZeroPoint = static_cast<uint16_t>(pk::cvttF2I(std::round(ZeroPointFromMin)));
  N.Min = pk::mul(pk::sub(QMin, static_cast<float>(ZeroPoint)), N.Scale);
  N.Max = pk::mul(pk::sub(QMax, static_cast<float>(ZeroPoint)), N.Scale);
  return N;
}

/// One element: clamp to the nudged range, shift, scale (by the inverse
/// scale, or by dividing when `Divide`, as ...Vars does), round half up,
/// scale back.
float fakeQuantize(float X, const Nudged &N, float QuantZero, bool Divide) {
  const float Clamped = pk::pmax(pk::pmin(X, N.Max), N.Min);
  const float Shifted = pk::sub(Clamped, N.Min);
  const float Scaled = Divide ? pk::div(Shifted, N.Scale) : pk::mul(Shifted, N.InverseScale);
  return pk::mul(pk::pfloor(pk::add(pk::sub(Scaled, QuantZero), 0.5f)), N.Scale);
}

/// Fake-quantizes the elements [Begin, End) of `In` with stride `Stride`
/// over [Min, Max] into `Out`.
void fakeQuantizeRange(const float *In, float *Out, int64_t Begin, int64_t End, int64_t Stride,
                       float Min, float Max, std::pair<int, int> Quant, bool Divide,
                       bool ZeroWhenBothZero) {
  if (ZeroWhenBothZero && Min == 0.0f && Max == 0.0f) {
    for (int64_t I = Begin; I < End; I += Stride)
      Out[I] = 0.0f;
    return;
  }
  const Nudged N = nudge(Min, Max, Quant.first, Quant.second);
  const float QuantZero = std::floor(pk::add(pk::mul(-N.Min, N.InverseScale), 0.5f));
  for (int64_t I = Begin; I < End; I += Stride)
    Out[I] = fakeQuantize(In[I], N, QuantZero, Divide);
}

absl::Status checkFloatInputs(const KernelContext &Ctx, size_t N) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(N));
  for (size_t I = 0; I < N; ++I)
    if (Ctx.input(I).dtype() != tensorflow::DT_FLOAT)
      return Ctx.unimplementedType(Ctx.input(I).dtype());
  return absl::OkStatus();
}

/// A rank-`Rank` float input's elements.
absl::StatusOr<std::vector<float>> rangeInput(const KernelContext &Ctx, size_t I,
                                              llvm::StringRef Name, size_t Rank) {
  const TensorData &T = Ctx.input(I);
  if (T.shape().size() != Rank)
    return Ctx.invalid(absl::StrCat("`", Name.str(), "` must be rank ", Rank, " but is rank ",
                                    T.shape().size()));
  ElementsOf<float> E(T);
  return std::vector<float>(E.begin(), E.end());
}

} // namespace

absl::StatusOr<Outputs> evalFakeQuantWithMinMaxArgs(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkFloatInputs(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(float Min, Ctx.floatAttr("min", -6.0f));
  FROST_ASSIGN_OR_RETURN(float Max, Ctx.floatAttr("max", 6.0f));
  if (!(Min < Max))
    return Ctx.invalid(absl::StrCat("min has to be smaller than max, was: ", Min, " >= ", Max));
  FROST_ASSIGN_OR_RETURN(auto Quant, quantRange(Ctx));
  ElementsOf<float> In(Ctx.input(0));
  OutputOf<float> Out(shapeOf(Ctx.input(0)));
  fakeQuantizeRange(In.data(), Out.data(), 0, In.size(), 1, Min, Max, Quant, false, false);
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalFakeQuantWithMinMaxVars(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkFloatInputs(Ctx, 3));
  FROST_ASSIGN_OR_RETURN(auto Quant, quantRange(Ctx));
  FROST_ASSIGN_OR_RETURN(std::vector<float> Min, rangeInput(Ctx, 1, "min", 0));
  FROST_ASSIGN_OR_RETURN(std::vector<float> Max, rangeInput(Ctx, 2, "max", 0));
  ElementsOf<float> In(Ctx.input(0));
  OutputOf<float> Out(shapeOf(Ctx.input(0)));
  fakeQuantizeRange(In.data(), Out.data(), 0, In.size(), 1, Min[0], Max[0], Quant, true, true);
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalFakeQuantWithMinMaxVarsPerChannel(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkFloatInputs(Ctx, 3));
  FROST_ASSIGN_OR_RETURN(auto Quant, quantRange(Ctx));
  const TensorData &Input = Ctx.input(0);
  // TensorFlow 2.21 aborts on a scalar input; Frost refuses it.
  if (Input.shape().empty())
    return Ctx.invalid("`inputs` must be rank at least 1 but is rank 0");
  const int64_t Depth = Input.shape().back();
  FROST_ASSIGN_OR_RETURN(std::vector<float> Min, rangeInput(Ctx, 1, "min", 1));
  if (static_cast<int64_t>(Min.size()) != Depth)
    return Ctx.invalid(absl::StrCat("min has incorrect size, expected ", Depth, " was ", Min.size()));
  FROST_ASSIGN_OR_RETURN(std::vector<float> Max, rangeInput(Ctx, 2, "max", 1));
  if (static_cast<int64_t>(Max.size()) != Depth)
    return Ctx.invalid(absl::StrCat("max has incorrect size, expected ", Depth, " was ", Max.size()));
  ElementsOf<float> In(Input);
  OutputOf<float> Out(shapeOf(Input));
  for (int64_t C = 0; C < Depth; ++C)
    fakeQuantizeRange(In.data(), Out.data(), C, In.size(), Depth, Min[C], Max[C], Quant, false,
                      true);
  return Outputs{std::move(Out).finish()};
}

// --- QuantizeAndDequantize ---------------------------------------------------

namespace {

/// scalar_round_half_to_even_op (rint, for float and double: -0.0 stays)
/// and scalar_round_up_op (floor(x + 0.5)), under TensorFlow's flushing.
template <typename T> T roundQuantized(T X, bool HalfToEven) {
  if (HalfToEven)
    return std::nearbyint(tfmath::daz(X));
  return pk::pfloor(pk::add(X, T(0.5)));
}

/// QuantizeAndDequantizeV2/V3/V4 over the whole tensor (axis -1).
template <typename T>
TensorData quantizeAndDequantize(const TensorData &Input, bool SignedInput, int64_t NumBits,
                                 bool RangeGiven, T MinRange, T MaxRange, bool NarrowRange,
                                 bool HalfToEven) {
  ElementsOf<T> In(Input);
  if (!RangeGiven && In.size() > 0) {
    // Eigen's minimum() and maximum() (NaN-free inputs give the same
    // answer in any order).
    MinRange = MaxRange = In[0];
    for (T X : In) {
      MinRange = X < MinRange ? X : MinRange;
      MaxRange = X > MaxRange ? X : MaxRange;
    }
  }
  // ComputeQuantizationRange, in T.
  const int64_t MinQ = SignedInput ? (NarrowRange ? -(int64_t(1) << (NumBits - 1)) + 1
                                                  : -(int64_t(1) << (NumBits - 1)))
                                   : 0;
  const int64_t MaxQ =
      SignedInput ? (int64_t(1) << (NumBits - 1)) - 1 : (int64_t(1) << NumBits) - 1;
  const T QMin = static_cast<T>(MinQ), QMax = static_cast<T>(MaxQ);
  const T Max = Eigen::NumTraits<T>::highest();
  const T ScaleFromMin = pk::mul(QMin, MinRange) > T(0) ? pk::div(QMin, MinRange) : Max;
  const T ScaleFromMax = pk::mul(QMax, MaxRange) > T(0) ? pk::div(QMax, MaxRange) : Max;
  T Scale, InverseScale;
  if (ScaleFromMin < ScaleFromMax) {
    Scale = ScaleFromMin;
    InverseScale = pk::div(MinRange, QMin);
    MaxRange = pk::mul(QMax, InverseScale);
  } else {
    Scale = ScaleFromMax;
    InverseScale = pk::div(MaxRange, QMax);
    MinRange = pk::mul(QMin, InverseScale);
  }
  OutputOf<T> Out(shapeOf(Input));
  for (int64_t I = 0; I < In.size(); ++I) {
    T X = In[I];
    if (RangeGiven) // cwiseMin(max).cwiseMax(min), as pmin and pmax.
      X = pk::pmax(pk::pmin(X, MaxRange), MinRange);
    Out[I] = pk::mul(roundQuantized(pk::mul(X, Scale), HalfToEven), InverseScale);
  }
  return std::move(Out).finish();
}

absl::StatusOr<Outputs> quantizeAndDequantizeOp(const KernelContext &Ctx, int64_t NumBits,
                                                bool RangeGivenDefault, bool HalfToEven,
                                                llvm::StringRef SignedName) {
  FROST_ASSIGN_OR_RETURN(bool SignedInput, Ctx.boolAttr("signed_input", true));
  FROST_ASSIGN_OR_RETURN(bool RangeGiven, Ctx.boolAttr("range_given", RangeGivenDefault));
  FROST_ASSIGN_OR_RETURN(bool NarrowRange, Ctx.boolAttr("narrow_range", false));
  FROST_ASSIGN_OR_RETURN(int64_t Axis, Ctx.intAttr("axis", -1));
  if (NumBits <= 0 || NumBits >= (SignedInput ? 62 : 63))
    return Ctx.invalid(absl::StrCat("num_bits is out of range: ", NumBits, " with ",
                                    SignedName.str(), " ", SignedInput ? 1 : 0));
  if (Axis < -1)
    return Ctx.invalid(absl::StrCat("Axis must be at least -1. Found ", Axis));
  const TensorData &Input = Ctx.input(0);
  if (Axis != -1 && Axis >= static_cast<int64_t>(Input.shape().size()))
    return Ctx.invalid(absl::StrCat("Shape must be at least rank ", Axis + 1, " but is rank ",
                                    Input.shape().size()));
  if (Axis != -1)
    return Ctx.unimplemented("quantizing per channel (axis other than -1)");
  for (size_t I : {1, 2})
    if (!Ctx.input(I).shape().empty())
      return Ctx.invalid(I == 1 ? "input_min must be a scalar." : "input_max must be a scalar.");
  // TensorFlow registers its CPU kernels for float and double only.
  return dispatch<Float32 | Float64>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const T Min = ElementsOf<T>(Ctx.input(1))[0], Max = ElementsOf<T>(Ctx.input(2))[0];
    if (RangeGiven && Min > Max)
      return Ctx.invalid(absl::StrCat("Invalid range: input_min ", static_cast<float>(Min),
                                      " > input_max ", static_cast<float>(Max)));
    return Outputs{quantizeAndDequantize<T>(Input, SignedInput, NumBits, RangeGiven, Min, Max,
                                            NarrowRange, HalfToEven)};
  });
}

/// The round_mode attribute: true for HALF_TO_EVEN (its default).
absl::StatusOr<bool> roundsHalfToEven(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(std::string Mode, Ctx.stringAttr("round_mode", "HALF_TO_EVEN"));
  if (Mode != "HALF_TO_EVEN" && Mode != "HALF_UP")
    return Ctx.invalid(absl::StrCat("Value for attr 'round_mode' of \"", Mode,
                                    "\" is not in the list of allowed values: \"HALF_TO_EVEN\", "
                                    "\"HALF_UP\""));
  return Mode == "HALF_TO_EVEN";
}

} // namespace

// V2 and V4 (V4 differs in its gradient only).
absl::StatusOr<Outputs> evalQuantizeAndDequantizeV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 3));
  FROST_ASSIGN_OR_RETURN(int64_t NumBits, Ctx.intAttr("num_bits", 8));
  FROST_ASSIGN_OR_RETURN(bool HalfToEven, roundsHalfToEven(Ctx));
  return quantizeAndDequantizeOp(Ctx, NumBits, false, HalfToEven, "signed_input_");
}

absl::StatusOr<Outputs> evalQuantizeAndDequantizeV3(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(4));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 3));
  const TensorData &Bits = Ctx.input(3);
  if (!Bits.shape().empty())
    return Ctx.invalid(absl::StrCat(
        "Invalid shape. The `num_bits` tensor should be a scalar. Got dimensions: ",
        Bits.shape().size()));
  FROST_ASSIGN_OR_RETURN(int64_t NumBits, scalarIntInput(Ctx, 3, "num_bits"));
  return quantizeAndDequantizeOp(Ctx, NumBits, true, true, "`signed_input_`");
}

} // namespace frost::eval
