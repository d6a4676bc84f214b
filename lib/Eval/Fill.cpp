//===- Fill.cpp - Fill, ZerosLike, OnesLike, Range ------------------------===//
//
// TensorFlow's constant_op.cc (Fill, ZerosLike, OnesLike) and sequence_ops.cc
// (Range), with their checks and messages: ops that make a tensor from a
// shape or from scalars.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <cmath>
#include <limits>

namespace frost::eval {

namespace {

using tensorflow::DataType;

/// One of Fill/ZerosLike/OnesLike: `Value` (one element) repeated to `Shape`.
absl::StatusOr<Outputs> filled(const KernelContext &Ctx, const TensorData &Value,
                               std::vector<int64_t> Shape) {
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, Value.dtype(), Shape, {&Value}));
  ElementWriter Out(Value.dtype(), std::move(Shape));
  Out.appendRepeated(Value, 0, Count);
  return Outputs{std::move(Out).finish()};
}

/// One, as an element of `DType` (OnesLike's dtypes).
TensorData oneScalar(DataType DType) {
  std::string Bytes(dataTypeSize(DType), '\0');
  auto Store = [&](auto V) { std::memcpy(Bytes.data(), &V, sizeof(V)); };
  switch (DType) {
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_COMPLEX64:
    Store(1.0f);
    break;
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_COMPLEX128:
    Store(1.0);
    break;
  case tensorflow::DT_HALF:
    Store(Eigen::half(1.0f));
    break;
  case tensorflow::DT_BFLOAT16:
    Store(Eigen::bfloat16(1.0f));
    break;
  default: // integers and bool, little-endian
    Bytes[0] = 1;
    break;
  }
  return TensorData::owned(DType, {}, std::move(Bytes));
}

} // namespace

absl::StatusOr<Outputs> evalFill(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &Dims = Ctx.input(0), &Value = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Value.dtype(),
                                   dtypes::Pod | dtypes::Int4 | dtypes::Quantized | dtypes::String |
                                       dtypes::Variant));
  if (Dims.shape().size() > 1)
    return Ctx.invalid(absl::StrCat("dims must represent a vector, got shape ", shapeOf(Dims)));
  llvm::ArrayRef<int64_t> ValueShape = Value.shape();
  if (!(ValueShape.empty() || (ValueShape.size() == 1 && ValueShape[0] == 1)))
    return Ctx.invalid(absl::StrCat("value must represent a scalar, got shape ", shapeOf(Value)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> DimValues, intElements(Ctx, 0));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape,
                         makeShape(Ctx, Value.dtype(), std::move(DimValues)));
  return filled(Ctx, Value, std::move(Shape));
}

absl::StatusOr<Outputs> evalZerosLike(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  // A variant's zero is its content's zero: not a byte pattern.
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::String));
  return filled(Ctx, zeroScalar(In.dtype()), shapeVector(In));
}

absl::StatusOr<Outputs> evalOnesLike(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod));
  return filled(Ctx, oneScalar(In.dtype()), shapeVector(In));
}

namespace {
/// Range's element count and elements for one number type: TensorFlow
/// computes `start + T(i) * delta` in T; integer sizes are computed exactly.
template <typename T>
absl::StatusOr<TensorData> rangeOf(const KernelContext &Ctx, T Start, T Limit, T Delta) {
  // StrCat prints halves and bfloat16s as floats.
  auto Print = [](T V) {
    if constexpr (std::is_integral_v<T>)
      return absl::StrCat(V);
    else if constexpr (std::is_same_v<T, double>)
      return absl::StrCat(V);
    else
      return absl::StrCat(static_cast<float>(V));
  };
  if (Delta == T(0))
    return Ctx.invalid(absl::StrCat("Requires delta != 0: ", Print(Delta)));
  if (Delta > T(0)) {
    if (!(Start <= Limit))
      return Ctx.invalid(absl::StrCat("Requires start <= limit when delta > 0: ", Print(Start), "/",
                                      Print(Limit)));
  } else if (!(Start >= Limit)) {
    return Ctx.invalid(
        absl::StrCat("Requires start >= limit when delta < 0: ", Print(Start), "/", Print(Limit)));
  }
  int64_t Size;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    using U = std::make_unsigned_t<T>;
    U Span = Limit >= Start ? U(U(Limit) - U(Start)) : U(U(Start) - U(Limit));
    U Step = Delta > 0 ? U(Delta) : U(U(0) - U(Delta));
    uint64_t Count = Span / Step + (Span % Step != 0);
    if (Count > uint64_t(std::numeric_limits<int64_t>::max()))
      return Ctx.invalid(absl::StrCat("Requires ((limit - start) / delta) <= ",
                                      std::numeric_limits<int64_t>::max()));
    Size = static_cast<int64_t>(Count);
  } else {
    T Quotient = (Limit - Start) / Delta;
    double Count = std::ceil(std::abs(static_cast<double>(Quotient)));
    // NaN fails the comparison as TensorFlow's does not: ceil(|NaN|) <= max
    // is false there too.
    if (!(Count <= 9.2233720368547758e18))
      return Ctx.invalid(absl::StrCat("Requires ((limit - start) / delta) <= ",
                                      std::numeric_limits<int64_t>::max()));
    // 2**63 itself passes TensorFlow's check; it is too big here anyway.
    Size = Count < 9.2233720368547758e18 ? static_cast<int64_t>(Count)
                                         : std::numeric_limits<int64_t>::max();
  }
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, dataTypeOf<T>(), {Size}).status());
  OutputOf<T> Out({Size});
  for (int64_t I = 0; I < Size; ++I) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      using U = std::make_unsigned_t<T>;
      Out[I] = static_cast<T>(U(Start) + U(I) * U(Delta));
    } else {
      Out[I] = static_cast<T>(Start + static_cast<T>(I) * Delta);
    }
  }
  return std::move(Out).finish();
}
} // namespace

absl::StatusOr<Outputs> evalRange(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 3));
  const char *Names[] = {"start", "limit", "delta"};
  for (size_t I = 0; I < 3; ++I) {
    llvm::ArrayRef<int64_t> Shape = Ctx.input(I).shape();
    if (!(Shape.empty() || (Shape.size() == 1 && Shape[0] == 1)))
      return Ctx.invalid(
          absl::StrCat(Names[I], " must be a scalar, not shape ", shapeOf(Ctx.input(I))));
  }
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, Ctx.input(0).dtype(), Floats | Int32 | Int64, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        FROST_ASSIGN_OR_RETURN(TensorData Out, rangeOf<T>(Ctx, ElementsOf<T>(Ctx.input(0))[0],
                                                          ElementsOf<T>(Ctx.input(1))[0],
                                                          ElementsOf<T>(Ctx.input(2))[0]));
        return Outputs{std::move(Out)};
      });
}

} // namespace frost::eval
