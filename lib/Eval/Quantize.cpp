//===- Quantize.cpp - Quantized values ------------------------------------===//
//
// TensorFlow's QuantizeV2 (quantize_op.cc) and Dequantize (dequantize_op.cc,
// quantization_utils.h) on x86. QuantizeV2: float to qint8, quint8, qint16,
// quint16 or qint32 in the same three modes, round half away from zero or
// (SCALED only) half to even. Dequantize:
// qint8, quint8, qint16, quint16 and qint32 to float or bfloat16 (rounded
// from float), in MIN_COMBINED, MIN_FIRST and SCALED modes, one range for the
// tensor or one per slice along `axis`. The arithmetic is TensorFlow's, in
// float and in its order, so results are bit-identical.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

#include <cmath>
#include <limits>

namespace frost::eval {

namespace {

enum class QuantizeMode { MinCombined, MinFirst, Scaled };

/// The elements before and after dimension `Axis` of `Shape`: the tensor
/// seen as [outer, Shape[Axis], inner].
std::pair<int64_t, int64_t> aroundAxis(const std::vector<int64_t> &Shape, int64_t Axis) {
  int64_t Outer = 1, Inner = 1;
  for (int64_t I = 0; I < Axis; ++I)
    Outer *= Shape[I];
  for (int64_t I = Axis + 1; I < static_cast<int64_t>(Shape.size()); ++I)
    Inner *= Shape[I];
  return {Outer, Inner};
}

/// The `mode` attribute, refused as TensorFlow's kernels refuse it.
absl::StatusOr<QuantizeMode> quantizeModeOf(const KernelContext &Ctx, llvm::StringRef Name) {
  if (Name == "MIN_COMBINED")
    return QuantizeMode::MinCombined;
  if (Name == "MIN_FIRST")
    return QuantizeMode::MinFirst;
  if (Name == "SCALED")
    return QuantizeMode::Scaled;
  return Ctx.invalid(absl::StrCat(
      "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '", Name.str(), "'"));
}

/// Dequantizes `Count` elements of `In` (quantized type T, stored as its
/// integer) with one range into `Out`. `WholeTensor` selects
/// DequantizeTensor's arithmetic over DequantizeSlice's (they differ in
/// SCALED mode for qint32).
template <typename T>
void dequantize(const T *In, int64_t Count, float *Out, float MinRange, float MaxRange,
                QuantizeMode Mode, bool NarrowRange, bool WholeTensor) {
  using Limits = std::numeric_limits<T>;
  switch (Mode) {
  case QuantizeMode::MinCombined: {
    const float HalfRange =
        !Limits::is_signed ? 0.0f : (static_cast<float>(Limits::max()) - Limits::min() + 1) / 2.0f;
    const float Scale = (MaxRange - MinRange) / (static_cast<float>(Limits::max()) - Limits::min());
    for (int64_t I = 0; I < Count; ++I)
      Out[I] = ((static_cast<float>(In[I]) + HalfRange) * Scale) + MinRange;
    return;
  }
  case QuantizeMode::MinFirst: {
    // QuantizedToFloatStruct: the range's step in double, stored as float.
    constexpr int64_t Steps = int64_t(1) << (sizeof(T) * 8);
    const float RangeScale = static_cast<float>((MaxRange - MinRange) / (Steps - 1.0));
    const float RangeMinRounded =
        MaxRange == MinRange ? MinRange : std::round(MinRange / RangeScale) * RangeScale;
    const float Offset = RangeMinRounded - static_cast<float>(Limits::lowest()) * RangeScale;
    for (int64_t I = 0; I < Count; ++I)
      Out[I] = Offset + static_cast<float>(In[I]) * RangeScale;
    return;
  }
  case QuantizeMode::Scaled: {
    const int MinOutput = static_cast<int>(Limits::min()) + (NarrowRange ? 1 : 0);
    const float Scale = Limits::min() == 0 ? MaxRange / static_cast<float>(Limits::max())
                                           : std::max(MinRange / MinOutput,
                                                      MaxRange / static_cast<float>(Limits::max()));
    for (int64_t I = 0; I < Count; ++I) {
      float V = static_cast<float>(In[I]);
      // DequantizeTensor casts to int first; Eigen converts a qint32 to int
      // through float, and x86 turns 2^31 into INT_MIN.
      if (WholeTensor && sizeof(T) == 4 && V >= 2147483648.0f)
        V = -2147483648.0f;
      Out[I] = V * Scale;
    }
    return;
  }
  }
}

} // namespace

// TensorFlow registers Dequantize on the CPU for T in qint8, quint8, qint16,
// quint16, qint32 and dtype float or bfloat16.
absl::StatusOr<Outputs> evalDequantize(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_ASSIGN_OR_RETURN(std::string ModeName, Ctx.stringAttr("mode", "MIN_COMBINED"));
  FROST_ASSIGN_OR_RETURN(bool NarrowRange, Ctx.boolAttr("narrow_range", false));
  FROST_ASSIGN_OR_RETURN(int64_t Axis, Ctx.intAttr("axis", -1));
  tensorflow::DataType OutType = tensorflow::DT_FLOAT;
  if (Ctx.attr("dtype")) {
    FROST_ASSIGN_OR_RETURN(OutType, Ctx.typeAttr("dtype"));
  }

  // The kernel's constructor checks.
  if (OutType != tensorflow::DT_FLOAT && OutType != tensorflow::DT_BFLOAT16)
    return Ctx.invalid(
        absl::StrCat("Output type must be bfloat16 or float, is '", dataTypeName(OutType), "'"));
  FROST_ASSIGN_OR_RETURN(QuantizeMode Mode, quantizeModeOf(Ctx, ModeName));
  if (OutType == tensorflow::DT_BFLOAT16 && Mode != QuantizeMode::MinCombined)
    return Ctx.invalid(absl::StrCat("When output type is bfloat16, Mode string "
                                    "must be 'MIN_COMBINED', is '",
                                    ModeName, "'"));

  const TensorData &Input = Ctx.input(0), &MinTensor = Ctx.input(1), &MaxTensor = Ctx.input(2);
  for (int I : {1, 2})
    if (Ctx.input(I).dtype() != tensorflow::DT_FLOAT)
      return Ctx.invalid(absl::StrCat("input ", I, " (the range's ", I == 1 ? "min" : "max",
                                      ") must be float, got ", dataTypeName(Ctx.input(I).dtype())));
  const int64_t Rank = static_cast<int64_t>(Input.shape().size());
  if (Axis >= Rank)
    return Ctx.invalid(
        absl::StrCat("Axis must be less than input dimension(", Rank, "), got ", Axis));
  // Any negative axis means one range for the whole tensor.
  const int64_t Slices = Axis > -1 ? Input.shape()[Axis] : 1;
  for (const auto &[Name, Range] :
       {std::pair{"input_min_tensor", &MinTensor}, std::pair{"input_max_tensor", &MaxTensor}})
    if (Range->numElements() != Slices)
      return Ctx.invalid(absl::StrCat(Name,
                                      " must have as many elements as input on the "
                                      "dequantization axis (",
                                      Axis, "), got ", Range->numElements(), ", expected ",
                                      Slices));
  if (Slices != 1 && Mode == QuantizeMode::MinFirst)
    return Ctx.unimplemented("MIN_FIRST mode is not implemented for Dequantize with axis != -1.");

  auto Compute = [&](auto Tag) -> Outputs {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> In(Input);
    ElementsOf<float> Mins(MinTensor), Maxs(MaxTensor);
    std::vector<int64_t> Shape(Input.shape().begin(), Input.shape().end());
    OutputOf<float> Out(Shape);
    if (Slices == 1) {
      dequantize(In.data(), In.size(), Out.data(), Mins[0], Maxs[0], Mode, NarrowRange,
                 /*WholeTensor=*/true);
    } else {
      // The input seen as [outer, slices, inner]: slice S has its own range.
      auto [Outer, Inner] = aroundAxis(Shape, Axis);
      for (int64_t O = 0; O < Outer; ++O)
        for (int64_t S = 0; S < Slices; ++S)
          dequantize(In.data() + (O * Slices + S) * Inner, Inner,
                     Out.data() + (O * Slices + S) * Inner, Mins[S], Maxs[S], Mode, NarrowRange,
                     /*WholeTensor=*/false);
    }
    if (OutType == tensorflow::DT_FLOAT)
      return Outputs{std::move(Out).finish()};
    OutputOf<Eigen::bfloat16> Rounded(std::move(Shape));
    for (int64_t I = 0; I < Rounded.size(); ++I)
      Rounded[I] = static_cast<Eigen::bfloat16>(Out[I]);
    return Outputs{std::move(Rounded).finish()};
  };
  switch (Input.dtype()) {
  case tensorflow::DT_QINT8:
    return Compute(TypeTag<int8_t>{});
  case tensorflow::DT_QUINT8:
    return Compute(TypeTag<uint8_t>{});
  case tensorflow::DT_QINT16:
    return Compute(TypeTag<int16_t>{});
  case tensorflow::DT_QUINT16:
    return Compute(TypeTag<uint16_t>{});
  case tensorflow::DT_QINT32:
    return Compute(TypeTag<int32_t>{});
  default:
    return Ctx.unimplementedType(Input.dtype());
  }
}

namespace {

/// A float rounded to an integral value converted to T as x86 does: a value
/// at or beyond 2^31 becomes INT_MIN (cvttss2si's "integer indefinite").
template <typename T> T toQuantized(float V) {
  if constexpr (sizeof(T) == 4)
    if (V >= 2147483648.0f || V < -2147483648.0f)
      return std::numeric_limits<T>::min();
  return static_cast<T>(static_cast<int64_t>(V));
}

/// One range's quantization: the range as TensorFlow widens it (to hold 0 and
/// be at least `MinimumRange` relative wide), the elements, and the output
/// range.
template <typename T>
void quantize(const float *In, int64_t Count, T *Out, float InputMin,
              float InputMax, QuantizeMode Mode, bool HalfToEven, bool NarrowRange,
              float MinimumRange, float *OutMin, float *OutMax) {
  using Limits = std::numeric_limits<T>;
  float MinRange = std::min(0.0f, InputMin);
  const float Epsilon =
      std::max(1.0f, std::max(std::fabs(InputMin), std::fabs(InputMax))) * MinimumRange;
  float MaxRange = std::max(0.0f, std::max(InputMax, MinRange + Epsilon));
  auto Clamp = [&](float V) { return std::max(std::min(V, MaxRange), MinRange); };
  switch (Mode) {
  case QuantizeMode::MinCombined: {
    const float Scale = static_cast<float>(
        (static_cast<double>(Limits::max()) - static_cast<double>(Limits::min())) /
        (MaxRange - MinRange));
    const float HalfRange =
        !Limits::is_signed
            ? 0.0f
            : static_cast<float>((static_cast<double>(Limits::max()) -
                                  static_cast<double>(Limits::min()) + 1) /
                                 2.0f);
    for (int64_t I = 0; I < Count; ++I) {
      const float Scaled = (Clamp(In[I]) - MinRange) * Scale;
      Out[I] = Limits::is_signed ? toQuantized<T>(std::round(Scaled - HalfRange))
                                          : toQuantized<T>(std::trunc(Scaled + 0.5f));
    }
    break;
  }
  case QuantizeMode::MinFirst: {
    // FloatToQuantizedStruct: the step in double stored as float, the bounds
    // kept inside int32.
    constexpr int64_t Steps = int64_t(1) << (sizeof(T) * 8);
    const float RangeScale =
        MaxRange == MinRange ? 0.0f : static_cast<float>((Steps - 1.0) / (MaxRange - MinRange));
    const float MinScaled = std::round(MinRange * RangeScale);
    const float Lowest = static_cast<float>(Limits::lowest());
    const float Lower = std::max(Lowest, -2.147483648e+09f);
    const float Upper = std::min(static_cast<float>(Limits::max()), +2.147483520e+09f);
    for (int64_t I = 0; I < Count; ++I) {
      const float V = std::round(In[I] * RangeScale) - (MinScaled - Lowest);
      Out[I] = toQuantized<T>(std::min(std::max(V, Lower), Upper));
    }
    break;
  }
  case QuantizeMode::Scaled: {
    const int MinOutput = static_cast<int>(Limits::min()) + (NarrowRange ? 1 : 0);
    const int MaxOutput = static_cast<int>(Limits::max());
    const float FromMin = static_cast<float>(MinOutput) * MinRange > 0
                              ? static_cast<float>(MinOutput) / MinRange
                              : std::numeric_limits<float>::max();
    const float FromMax = static_cast<float>(MaxOutput) * MaxRange > 0
                              ? static_cast<float>(MaxOutput) / MaxRange
                              : std::numeric_limits<float>::max();
    const float Scale = std::min(FromMin, FromMax);
    MinRange = static_cast<float>(MinOutput) / Scale;
    MaxRange = static_cast<float>(MaxOutput) / Scale;
    for (int64_t I = 0; I < Count; ++I) {
      const float V = Clamp(In[I]) * Scale;
      Out[I] = toQuantized<T>(HalfToEven ? std::nearbyint(V) : std::round(V));
    }
    break;
  }
  }
  *OutMin = MinRange;
  *OutMax = MaxRange;
}

} // namespace

// TensorFlow registers QuantizeV2 on the CPU for T in qint8, quint8, qint16,
// quint16 and qint32.
absl::StatusOr<Outputs> evalQuantizeV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType OutType, Ctx.typeAttr("T"));
  FROST_ASSIGN_OR_RETURN(std::string ModeName, Ctx.stringAttr("mode", "MIN_COMBINED"));
  FROST_ASSIGN_OR_RETURN(std::string RoundName,
                         Ctx.stringAttr("round_mode", "HALF_AWAY_FROM_ZERO"));
  FROST_ASSIGN_OR_RETURN(bool NarrowRange, Ctx.boolAttr("narrow_range", false));
  FROST_ASSIGN_OR_RETURN(int64_t Axis, Ctx.intAttr("axis", -1));
  FROST_ASSIGN_OR_RETURN(float MinimumRange, Ctx.floatAttr("ensure_minimum_range", 0.01f));

  // The kernel's constructor checks.
  FROST_ASSIGN_OR_RETURN(QuantizeMode Mode, quantizeModeOf(Ctx, ModeName));
  if (RoundName != "HALF_AWAY_FROM_ZERO" && RoundName != "HALF_TO_EVEN")
    return Ctx.invalid(absl::StrCat(
        "Round mode string must be 'HALF_AWAY_FROM_ZERO' or 'HALF_TO_EVEN', is '", RoundName,
        "'"));
  const bool HalfToEven = RoundName == "HALF_TO_EVEN";
  if (HalfToEven && Mode != QuantizeMode::Scaled)
    return Ctx.invalid(absl::StrCat("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', "
                                    "but mode is '",
                                    ModeName, "'."));

  const TensorData &Input = Ctx.input(0), &MinTensor = Ctx.input(1), &MaxTensor = Ctx.input(2);
  for (int I : {0, 1, 2})
    if (Ctx.input(I).dtype() != tensorflow::DT_FLOAT)
      return Ctx.invalid(absl::StrCat("input ", I, " must be float, got ",
                                      dataTypeName(Ctx.input(I).dtype())));
  const int64_t Rank = static_cast<int64_t>(Input.shape().size());
  int64_t Slices = 1;
  if (Axis > -1) {
    if (Rank <= Axis)
      return Ctx.invalid(absl::StrCat(
          "Axis is on a zero-based index, so its value must always be less than number of "
          "input's dims, but given axis value was ",
          Axis, " and input's dims was ", Rank));
    Slices = Input.shape()[Axis];
    for (const auto &[Name, Range] :
         {std::pair{"min_range", &MinTensor}, std::pair{"max_range", &MaxTensor}}) {
      const std::string Lead =
          absl::StrCat("If axis is specified, ", Name,
                       " must be a 1-D tensor whose size matches the axis dimension of the "
                       "input and output tensors, but ",
                       Name);
      if (Range->shape().size() != 1)
        return Ctx.invalid(absl::StrCat(Lead, " dims are ", Range->shape().size()));
      if (Range->shape()[0] != Slices)
        return Ctx.invalid(absl::StrCat(Lead, " is a 1-D tensor of size ", Range->shape()[0],
                                        " and input's axis dimension is of size ", Slices));
    }
  } else {
    for (const auto &[Name, Range] :
         {std::pair{"min_range", &MinTensor}, std::pair{"max_range", &MaxTensor}})
      if (Range->numElements() != 1)
        return Ctx.invalid(absl::StrCat("If axis is not specified, ", Name,
                                        " must contain a single float element, but it "
                                        "contains ",
                                        Range->numElements(), " elements"));
  }
  // One slice along the axis is one range for the tensor (scalar output
  // ranges, MIN_FIRST allowed), as TensorFlow's kernel does.
  const bool PerSlice = Axis > -1 && Slices != 1;
  if (PerSlice && Mode == QuantizeMode::MinFirst)
    return Ctx.unimplemented("MIN_FIRST mode is not implemented for Quantize with axis != -1.");

  ElementsOf<float> In(Input), Mins(MinTensor), Maxs(MaxTensor);
  for (int64_t S = 0; S < Slices; ++S)
    if (Maxs[S] < Mins[S])
      return Ctx.invalid("input_max_range must be larger than input_min_range.");
  for (float V : In)
    if (std::isnan(V))
      return Ctx.unimplemented("input with NaN: TensorFlow's conversion of it is x86's "
                               "vector arithmetic, not specified");
  std::vector<int64_t> Shape(Input.shape().begin(), Input.shape().end());
  std::vector<int64_t> RangeShape(MinTensor.shape().begin(), MinTensor.shape().end());
  if (!PerSlice)
    RangeShape.clear();

  auto Compute = [&](auto Tag) -> Outputs {
    using T = typename decltype(Tag)::type;
    OutputOf<T> Out(Shape);
    OutputOf<float> OutMin(RangeShape), OutMax(RangeShape);
    if (!PerSlice) {
      quantize(In.data(), In.size(), Out.data(), Mins[0], Maxs[0], Mode, HalfToEven,
               NarrowRange, MinimumRange, &OutMin[0], &OutMax[0]);
    } else {
      // The input seen as [outer, slices, inner]: slice S has its own range.
      auto [Outer, Inner] = aroundAxis(Shape, Axis);
      // An empty input still gives each slice its output range.
      for (int64_t S = 0; S < Slices; ++S)
        for (int64_t O = 0; O < std::max<int64_t>(Outer, 1); ++O)
          quantize(In.data() + (O * Slices + S) * Inner, Outer ? Inner : 0,
                   Out.data() + (O * Slices + S) * Inner, Mins[S], Maxs[S], Mode, HalfToEven,
                   NarrowRange, MinimumRange, &OutMin[S], &OutMax[S]);
    }
    TensorData Values = std::move(Out).finish();
    Outputs Result;
    Result.push_back(TensorData::owned(OutType, std::move(Shape), Values.bytes().str()));
    Result.push_back(std::move(OutMin).finish());
    Result.push_back(std::move(OutMax).finish());
    return Result;
  };
  switch (OutType) {
  case tensorflow::DT_QINT8:
    return Compute(TypeTag<int8_t>{});
  case tensorflow::DT_QUINT8:
    return Compute(TypeTag<uint8_t>{});
  case tensorflow::DT_QINT16:
    return Compute(TypeTag<int16_t>{});
  case tensorflow::DT_QUINT16:
    return Compute(TypeTag<uint16_t>{});
  case tensorflow::DT_QINT32:
    return Compute(TypeTag<int32_t>{});
  default:
    return Ctx.unimplementedType(OutType);
  }
}

} // namespace frost::eval

