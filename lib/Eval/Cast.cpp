//===- Cast.cpp - Cast between fixed-size dtypes
//---------------------------===//
//
// TensorFlow's cast_op_impl_*.cc on the CPU: Eigen's scalar casts. Integers
// convert modulo 2^n, floats round to nearest even (half and bfloat16 through
// float, so a double rounds twice as in TensorFlow), anything to bool is
// x != 0. With `Truncate`, the four casts TensorFlow truncates (double to
// float or half, float to half or bfloat16) drop the low mantissa bits
// first.
//
// A float that does not fit the integer type (NaN, infinities, out of range)
// is undefined in C++; TensorFlow's x86-64 build gives what its instructions
// give, and that differs between Eigen's vectorized body and the scalar
// tail of the same tensor. We reproduce both, with defined C++:
// - int32 and int64: the "integer indefinite" value (INT_MIN) for any
//   float that does not fit (cvttss2si);
// - uint64: values in [2^63, 2^64) convert, anything else that does not fit
//   int64 gives 2^63;
// - int8, int16, uint8, uint16: in the vectorized body the float is
//   converted to int32 (INT_MIN when it does not fit) and saturated to the
//   type; in the scalar tail it is converted to int32 and truncated;
// - uint32: in the vectorized body values in [2^31, 2^32) convert and
//   anything else not fitting int32 gives 2^31; in the scalar tail the float
//   is converted to int64 and truncated.
//   (double and half reach uint8 through int16 taken modulo 2^16);
// The scalar tail is the last (n mod U) elements, U being the elements one
// step of TensorFlow's vectorized loop converts (vectorUnit below, measured
// on TensorFlow 2.21's x86-64 build). TensorFlow splits tensors of ~100k
// elements and more between threads, each part with its own scalar tail at
// places that depend on the thread count: those elements may differ.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace frost::eval {

namespace {

using elementwise::IsFloat;
using elementwise::IsReducedFloat;
template <typename T> constexpr bool IsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

/// cvttsd2si into 32 bits: truncation, INT32_MIN for NaN and out of range.
int32_t truncateToInt32(double V) {
  return V > -2147483649.0 && V < 2147483648.0 ? static_cast<int32_t>(V)
                                               : std::numeric_limits<int32_t>::min();
}

/// cvttsd2si into 64 bits.
int64_t truncateToInt64(double V) {
  return V >= -0x1p63 && V < 0x1p63 ? static_cast<int64_t>(V) : std::numeric_limits<int64_t>::min();
}

/// A float converted to the integer type To as TensorFlow's x86-64 kernel
/// does (see the file comment); `Vectorized` for an element of the
/// vectorized body.
template <typename To>
To floatToInteger(double V, bool Vectorized, [[maybe_unused]] bool ThroughInt16) {
  if constexpr (std::is_same_v<To, int64_t>) {
    return truncateToInt64(V);
  } else if constexpr (std::is_same_v<To, uint64_t>) {
    if (V >= 0x1p63 && V < 0x1p64)
      return static_cast<uint64_t>(V);
    return static_cast<uint64_t>(truncateToInt64(V));
  } else if constexpr (std::is_same_v<To, int32_t>) {
    return truncateToInt32(V);
  } else if constexpr (std::is_same_v<To, uint32_t>) {
    if (!Vectorized)
      return static_cast<uint32_t>(static_cast<uint64_t>(truncateToInt64(V)));
    if (V >= 0x1p31 && V < 0x1p32)
      return static_cast<uint32_t>(V);
    return static_cast<uint32_t>(truncateToInt32(V));
  } else {
    int32_t I = truncateToInt32(V);
    if (!Vectorized)
      return static_cast<To>(I); // Modulo 2^n.
    // Double and half reach uint8 through int16 taken modulo 2^16.
    if (std::is_same_v<To, uint8_t> && ThroughInt16)
      I = static_cast<int16_t>(I);
    return static_cast<To>(
        std::clamp<int32_t>(I, std::numeric_limits<To>::min(), std::numeric_limits<To>::max()));
  }
}

/// How many elements one step of TensorFlow's vectorized cast converts, for
/// the casts whose vectorized and scalar results differ.
template <typename From, typename To> constexpr int64_t vectorUnit() {
  if constexpr (std::is_same_v<To, uint32_t> || std::is_same_v<From, Eigen::bfloat16>)
    return 8;
  else if constexpr (std::is_same_v<From, float>)
    return 32;
  else
    return 16;
}

/// Clears the mantissa bits of X that To does not have (TensorFlow's
/// LSBZeroSetter), leaving NaN alone. Not inlined: GCC 12 at -O2 drops the
/// masking when it is inlined before Eigen's float to bfloat16 rounding.
template <typename From, typename To> [[gnu::noinline]] From truncateMantissa(From X) {
  constexpr int ToDigits = std::is_same_v<To, Eigen::half>       ? 11
                           : std::is_same_v<To, Eigen::bfloat16> ? 8
                                                                 : std::numeric_limits<To>::digits;
  constexpr int Dropped = std::numeric_limits<From>::digits - ToDigits;
  using Bits = std::conditional_t<sizeof(From) == 8, uint64_t, uint32_t>;
  if (std::isnan(X))
    return X;
  return std::bit_cast<From>(static_cast<Bits>(std::bit_cast<Bits>(X) & (~Bits(0) << Dropped)));
}

/// The casts TensorFlow truncates with `Truncate`.
template <typename From, typename To>
constexpr bool Truncates = (std::is_same_v<From, double> &&
                            (std::is_same_v<To, float> || std::is_same_v<To, Eigen::half>)) ||
                           (std::is_same_v<From, float> && (std::is_same_v<To, Eigen::half> ||
                                                            std::is_same_v<To, Eigen::bfloat16>));

template <typename From, typename To> To convert(From X, bool Vectorized) {
  if constexpr (std::is_same_v<To, bool>) {
    // bfloat16's test reads its bits: a subnormal is true, as in TensorFlow
    // (in float, under DAZ, it would be zero).
    if constexpr (std::is_same_v<From, Eigen::bfloat16>)
      return (Eigen::numext::bit_cast<uint16_t>(X) & 0x7fff) != 0;
    else if constexpr (IsReducedFloat<From>)
      return static_cast<float>(X) != 0.0f;
    else
      return X != From(0);
  } else if constexpr (std::is_same_v<From, bool>) {
    return To(X ? 1 : 0);
  } else if constexpr (IsReducedFloat<From> && IsInteger<To>) {
    return floatToInteger<To>(static_cast<double>(static_cast<float>(X)), Vectorized,
                              std::is_same_v<From, Eigen::half>);
  } else if constexpr (IsFloat<From> && IsInteger<To>) {
    return floatToInteger<To>(static_cast<double>(X), Vectorized, std::is_same_v<From, double>);
  } else if constexpr (IsReducedFloat<From> && IsFloat<To>) {
    return To(static_cast<float>(X));
  } else {
    // Integer to anything (modulo 2^n into integers, rounded into floats;
    // half and bfloat16 from float), float to float.
    return static_cast<To>(X);
  }
}

template <typename From, typename To>
TensorData castElements(const TensorData &Input, bool Truncate) {
  ElementsOf<From> In(Input);
  OutputOf<To> Out(std::vector<int64_t>(Input.shape().begin(), Input.shape().end()));
  int64_t N = In.size();
  constexpr bool Differs =
      IsFloat<From> && IsInteger<To> && sizeof(To) <= 4 && !std::is_same_v<To, int32_t>;
  int64_t VectorEnd = Differs ? N - N % vectorUnit<From, To>() : N;
  for (int64_t K = 0; K < N; ++K) {
    From X = In[K];
    if constexpr (Truncates<From, To>)
      if (Truncate)
        X = truncateMantissa<From, To>(X);
    Out[K] = convert<From, To>(X, K < VectorEnd);
  }
  return std::move(Out).finish();
}

/// The dtypes Frost casts between (TensorFlow also casts complex numbers).
bool isCastable(tensorflow::DataType DType) {
  switch (DType) {
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16:
  case tensorflow::DT_INT8:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT32:
  case tensorflow::DT_INT64:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_UINT16:
  case tensorflow::DT_UINT32:
  case tensorflow::DT_UINT64:
  case tensorflow::DT_BOOL:
    return true;
  default:
    return false;
  }
}

} // namespace

absl::StatusOr<Outputs> evalCast(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &Input = Ctx.input(0);
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType To, Ctx.typeAttr("DstT"));
  if (Ctx.attr("SrcT")) {
    FROST_ASSIGN_OR_RETURN(tensorflow::DataType Src, Ctx.typeAttr("SrcT"));
    if (Src != Input.dtype())
      return Ctx.invalid(absl::StrCat("SrcT is ", dataTypeName(Src), " but the input is ",
                                      dataTypeName(Input.dtype())));
  }
  FROST_ASSIGN_OR_RETURN(bool Truncate, Ctx.boolAttr("Truncate", false));
  if (To == Input.dtype())
    return Outputs{Input};
  if (!isCastable(Input.dtype()) || !isCastable(To))
    return Ctx.unimplemented(absl::StrCat("Cast ", dataTypeName(Input.dtype()), " to ",
                                          dataTypeName(To), " is not supported"));
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, Input.dtype(), AllFixed, [&](auto FromTag) -> absl::StatusOr<Outputs> {
        using From = typename decltype(FromTag)::type;
        return visitType<absl::StatusOr<Outputs>>(
            Ctx, To, AllFixed, [&](auto ToTag) -> absl::StatusOr<Outputs> {
              using ToType = typename decltype(ToTag)::type;
              return Outputs{castElements<From, ToType>(Input, Truncate)};
            });
      });
}

} // namespace frost::eval
