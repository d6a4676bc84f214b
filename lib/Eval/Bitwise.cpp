//===- Bitwise.cpp - Bitwise ops, shifts, Bitcast -------------------------===//
//
// TensorFlow's bitwise ops over its integer dtypes (cwise_op_bitwise_*.cc,
// cwise_op_*_shift.cc). Shift counts are clamped to [0, bits - 1] as
// TensorFlow's left_shift_op / right_shift_op do to avoid undefined
// behaviour; left shifts are done unsigned (they wrap), right shifts of
// signed values are arithmetic. Bitcast reinterprets the element bytes, its
// last dim split or merged when the element sizes differ.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"
#include "ElementwiseSupport.h"

#include <climits>
#include <type_traits>

namespace frost::eval {

using namespace elementwise;

namespace {

constexpr unsigned BitwiseTypes = Ints;

/// The shift count TensorFlow uses: Y clamped to [0, bits - 1].
template <typename T> T clampedShift(T Y) {
  constexpr T MaxShift = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
  if constexpr (std::is_signed_v<T>)
    if (Y < 0)
      return T(0);
  return Y > MaxShift ? MaxShift : Y;
}

template <typename T> T leftShift(T X, T Y) {
  using U = std::make_unsigned_t<T>;
  // Promoted to at least unsigned int, so narrow types shift without UB.
  using W = std::common_type_t<U, unsigned>;
  return static_cast<T>(static_cast<U>(static_cast<W>(static_cast<U>(X)) << clampedShift(Y)));
}

template <typename T> T rightShift(T X, T Y) { return static_cast<T>(X >> clampedShift(Y)); }

template <typename Fn> absl::StatusOr<Outputs> bitwise(const KernelContext &Ctx, Fn Op) {
  return binary<BitwiseTypes>(Ctx, [Op](auto A, auto B) {
    using T = ScalarOf<decltype(A)>;
    return A.binaryExpr(B, [Op](T X, T Y) { return static_cast<T>(Op(X, Y)); });
  });
}

} // namespace

absl::StatusOr<Outputs> evalBitwiseAnd(const KernelContext &Ctx) {
  return bitwise(Ctx, [](auto X, auto Y) { return X & Y; });
}
absl::StatusOr<Outputs> evalBitwiseOr(const KernelContext &Ctx) {
  return bitwise(Ctx, [](auto X, auto Y) { return X | Y; });
}
absl::StatusOr<Outputs> evalBitwiseXor(const KernelContext &Ctx) {
  return bitwise(Ctx, [](auto X, auto Y) { return X ^ Y; });
}
absl::StatusOr<Outputs> evalLeftShift(const KernelContext &Ctx) {
  return bitwise(Ctx, [](auto X, auto Y) { return leftShift(X, Y); });
}
absl::StatusOr<Outputs> evalRightShift(const KernelContext &Ctx) {
  return bitwise(Ctx, [](auto X, auto Y) { return rightShift(X, Y); });
}
absl::StatusOr<Outputs> evalInvert(const KernelContext &Ctx) {
  return unary<BitwiseTypes>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) { return static_cast<T>(~X); });
  });
}

// --- Bitcast -------------------------------------------------------------------

absl::StatusOr<Outputs> evalBitcast(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType To, Ctx.typeAttr("type"));
  const TensorData &In = Ctx.input(0);
  using namespace dtypes;
  // The dtypes TensorFlow's Bitcast lists whose bytes Frost holds.
  constexpr DTypeMask Bitcastable = (Pod & ~dtypeBit(DT_BOOL)) | Quantized;
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), Bitcastable));
  FROST_RETURN_IF_ERROR(checkDType(Ctx, To, Bitcastable));
  const int64_t InSize = dataTypeSize(In.dtype()), OutSize = dataTypeSize(To);
  std::vector<int64_t> Shape = shapeVector(In);
  // TensorFlow names the dtypes by their enum numbers.
  auto cannot = [&] {
    return Ctx.invalid(absl::StrCat("Cannot bitcast from ", static_cast<int>(In.dtype()), " to ",
                                    static_cast<int>(To)));
  };
  if (InSize > OutSize) {
    if (InSize % OutSize != 0)
      return cannot();
    Shape.push_back(InSize / OutSize);
  } else if (InSize < OutSize) {
    if (OutSize % InSize != 0 || Shape.empty() || Shape.back() != OutSize / InSize)
      return cannot();
    Shape.pop_back();
  }
  return Outputs{TensorData::owned(To, std::move(Shape), In.bytes().str())};
}

} // namespace frost::eval
