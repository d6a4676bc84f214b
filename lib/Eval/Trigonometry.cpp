//===- Trigonometry.cpp - Trigonometric and hyperbolic functions ----------===//
//
// TensorFlow's cwise_op_{sin,cos,tan,asin,acos,atan,atan2,sinh,cosh,asinh,
// acosh,atanh}.cc kernels. Sin and Cos of floats take Eigen's psincos_float
// in TensorFlow's AVX packets and glibc in the tail (TensorFlowMath.h); the
// others are glibc's functions on every element there (Eigen has no packet
// version in the build TensorFlow uses, or, for Asin, Acos, Atan, Atanh and
// Atan2, one Frost does not redo yet: those are run kernels, within the
// ulps documented in Kernels.def). Half and bfloat16 are computed in float
// and rounded.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "TensorFlowMath.h"

namespace frost::eval {

using namespace elementwise;

namespace {

/// `FloatFn` on each element of float, half and bfloat16 (through float),
/// `DoubleFn` on doubles: the scalar functions TensorFlow calls. With
/// `ReadsFlushed`, a float subnormal is read as zero, as the Eigen packets
/// of TensorFlow's float kernel read it.
template <bool ReadsFlushed = false, typename FloatFn, typename DoubleFn>
absl::StatusOr<Outputs> scalarMath(const KernelContext &Ctx, FloatFn OnFloat, DoubleFn OnDouble) {
  return unary<Floats>(Ctx, [OnFloat, OnDouble](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([=](T X) -> T {
      if constexpr (std::is_same_v<T, double>)
        return OnDouble(X);
      else if constexpr (ReadsFlushed)
        return T(OnFloat(tfmath::daz(static_cast<float>(X))));
      else
        return T(OnFloat(static_cast<float>(X)));
    });
  });
}

/// Sin or Cos: Eigen's float algorithm in packets (half and bfloat16
/// through it, rounded), glibc in the tail and for doubles.
template <typename PacketFn, typename FloatFn, typename DoubleFn>
absl::StatusOr<Outputs> sineOrCosine(const KernelContext &Ctx, PacketFn Packet, FloatFn OnFloat,
                                     DoubleFn OnDouble) {
  return unary<Floats>(Ctx, [=](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_same_v<T, double>)
      return A.unaryExpr([OnDouble](T X) { return OnDouble(X); });
    else
      return tfmath::packetsThenTail(
          A, [Packet](T X) { return T(Packet(static_cast<float>(X))); },
          [OnFloat](T X) { return T(OnFloat(static_cast<float>(X))); });
  });
}

/// atan2 of doubles as TensorFlow's reads them, subnormals kept: in x87
/// long double, which Frost's DAZ mode (set around kernels) does not touch,
/// rounded to double.
double atan2Unflushed(double Y, double X) {
  return static_cast<double>(std::atan2(static_cast<long double>(Y), static_cast<long double>(X)));
}

} // namespace

absl::StatusOr<Outputs> evalSin(const KernelContext &Ctx) {
  return sineOrCosine(
      Ctx, [](float X) { return tfmath::sinPacket(X); }, [](float X) { return std::sin(X); },
      [](double X) { return std::sin(X); });
}

absl::StatusOr<Outputs> evalCos(const KernelContext &Ctx) {
  return sineOrCosine(
      Ctx, [](float X) { return tfmath::cosPacket(X); }, [](float X) { return std::cos(X); },
      [](double X) { return std::cos(X); });
}

#define FROST_SCALAR_MATH(NAME, FUNCTION, READS_FLUSHED)                                           \
  absl::StatusOr<Outputs> eval##NAME(const KernelContext &Ctx) {                                   \
    return scalarMath<READS_FLUSHED>(                                                              \
        Ctx, [](float X) { return std::FUNCTION(X); }, [](double X) { return std::FUNCTION(X); }); \
  }
FROST_SCALAR_MATH(Tan, tan, false)
FROST_SCALAR_MATH(Asin, asin, true)
FROST_SCALAR_MATH(Acos, acos, true)
FROST_SCALAR_MATH(Atan, atan, true)
FROST_SCALAR_MATH(Sinh, sinh, false)
FROST_SCALAR_MATH(Cosh, cosh, false)
FROST_SCALAR_MATH(Asinh, asinh, false)
FROST_SCALAR_MATH(Acosh, acosh, false)
FROST_SCALAR_MATH(Atanh, atanh, true)
#undef FROST_SCALAR_MATH

absl::StatusOr<Outputs> evalAtan2(const KernelContext &Ctx) {
  return binary<Floats>(Ctx, [](auto A, auto B) {
    using T = ScalarOf<decltype(A)>;
    return A.binaryExpr(B, [](T Y, T X) -> T {
      if constexpr (std::is_same_v<T, double>)
        return atan2Unflushed(Y, X);
      else
        return T(std::atan2(tfmath::daz(static_cast<float>(Y)), tfmath::daz(static_cast<float>(X))));
    });
  });
}

} // namespace frost::eval
