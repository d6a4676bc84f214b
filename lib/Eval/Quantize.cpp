//===- Quantize.cpp - Quantized values ------------------------------------===//
//
// TensorFlow's Dequantize (dequantize_op.cc, quantization_utils.h) on x86:
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
  QuantizeMode Mode;
  if (ModeName == "MIN_COMBINED")
    Mode = QuantizeMode::MinCombined;
  else if (ModeName == "MIN_FIRST")
    Mode = QuantizeMode::MinFirst;
  else if (ModeName == "SCALED")
    Mode = QuantizeMode::Scaled;
  else
    return Ctx.invalid(absl::StrCat(
        "Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or 'SCALED', is '", ModeName, "'"));
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
      int64_t Outer = 1, Inner = 1;
      for (int64_t I = 0; I < Axis; ++I)
        Outer *= Shape[I];
      for (int64_t I = Axis + 1; I < Rank; ++I)
        Inner *= Shape[I];
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

} // namespace frost::eval
