//===- TensorFlowMath.h - TensorFlow's x86 float math, in scalar code -----===//
//
// TensorFlow's x86 wheels (2.21) run their elementwise kernels through a
// newer Eigen than Frost links (3.4), built for AVX without FMA: whole
// packets of 8 floats (4 doubles; 8 halves or bfloat16s, computed in float)
// take Eigen's vectorized approximations, and the n % packet elements left at
// the end of a tensor take the scalar path, which is often glibc's. The two
// can differ in the last bits (and, for Relu, in the sign of zero), so Frost
// computes each element the way its position in the tensor is computed
// there: `packetsThenTail`. The approximations below do the same IEEE
// operations in the same order as TensorFlow's Eigen packets (a multiply-add
// is a multiply and an add: no FMA), element by element, so they give the
// same bits on any x86-64 build of Frost (lib/Eval is built with
// -ffp-contract=off). The `...Packet` functions are Eigen's packet
// algorithms, the `...Tail` ones the scalar path (glibc, run under the
// denormal flushing lib/Eval sets around kernels, as TensorFlow does).
// Verified bit-exact against TensorFlow 2.21 by
// scripts/compare_elementwise_with_tf.py. TensorFlow built for other CPUs
// (FMA, aarch64) rounds differently: Frost follows its x86 pip wheels.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_TENSORFLOWMATH_H
#define FROST_LIB_EVAL_TENSORFLOWMATH_H

#include <Eigen/Core>

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace frost::eval::tfmath {

/// Elements in one of TensorFlow's AVX packets of T.
template <typename T> constexpr Eigen::Index avxPacketSize() { return sizeof(T) == 8 ? 4 : 8; }

/// The elements of A (an Eigen array of T) through `Packet` where
/// TensorFlow computes whole AVX packets, through `Tail` for the last
/// n % packet elements. Both take and return T.
template <typename Expr, typename PacketFn, typename TailFn>
auto packetsThenTail(const Expr &A, PacketFn Packet, TailFn Tail) {
  using T = typename Expr::Scalar;
  const Eigen::Index N = A.size(), Body = N - N % avxPacketSize<T>();
  return Eigen::Array<T, Eigen::Dynamic, 1>::NullaryExpr(
      N, [A, Body, Packet, Tail](Eigen::Index I) { return I < Body ? Packet(A[I]) : Tail(A[I]); });
}

/// The same for a binary op over two arrays of one (broadcast) shape. A
/// broadcast that TensorFlow evaluates block by block has a tail per block
/// there; Frost keeps one, which can differ from TensorFlow's in the last
/// bit of those elements.
template <typename Expr, typename PacketFn, typename TailFn>
auto packetsThenTail(const Expr &A, const Expr &B, PacketFn Packet, TailFn Tail) {
  using T = typename Expr::Scalar;
  const Eigen::Index N = A.size(), Body = N - N % avxPacketSize<T>();
  return Eigen::Array<T, Eigen::Dynamic, 1>::NullaryExpr(N, [A, B, Body, Packet, Tail](Eigen::Index I) {
    return I < Body ? Packet(A[I], B[I]) : Tail(A[I], B[I]);
  });
}

/// X as TensorFlow's kernels read a float operand (DAZ): a subnormal is a
/// zero of its sign. What an op returns of an operand (max, min, relu)
/// is that zero, whatever instructions the compiler picks for Frost.
/// bfloat16, widened to float, has float's subnormals; half's are normal
/// floats.
template <typename T> T daz(T X) {
  if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    return T(daz(static_cast<float>(X)));
  } else if constexpr (std::is_floating_point_v<T>) {
    // On the bits: kernels run with DAZ set, where X > 0 is false.
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    constexpr Bits Sign = Bits(1) << (sizeof(T) * 8 - 1);
    constexpr Bits Exponent = sizeof(T) == 4 ? Bits(0x7f800000) : Bits(0x7ff0000000000000);
    const Bits B = std::bit_cast<Bits>(X);
    if ((B & Exponent) == 0)
      return std::bit_cast<T>(B & Sign);
  }
  return X;
}

// Eigen's AVX pmin/pmax: the second operand when either is NaN or both are
// zeros, as std::min/std::max.
template <typename T> T pmin(T A, T B) { return B < A ? B : A; }
template <typename T> T pmax(T A, T B) { return A < B ? B : A; }

/// Eigen's ppolevl: C[0] x^N + ... + C[N] by Horner's rule.
template <typename T, std::size_t N> T polevl(T X, const T (&C)[N]) {
  T P = C[0];
  for (std::size_t I = 1; I < N; ++I)
    P = P * X + C[I];
  return P;
}

/// Eigen's ptanh_float: a [9/8] rational approximation on the input clamped
/// to where it reaches +-1 (the clamp of builds without FMA).
inline float tanhFloat(float X) {
  static constexpr float Clamp = 7.90738964080810547f;
  static constexpr float Numerator[] = {1.394553628e-8f, 2.102733560e-5f, 3.520756727e-3f,
                                        1.340216100e-1f};
  static constexpr float Denominator[] = {8.015776984e-7f, 3.326951409e-4f, 2.597254514e-2f,
                                          4.673548340e-1f, 1.0f};
  X = pmax(pmin(X, Clamp), -Clamp);
  const float X2 = X * X, X3 = X2 * X;
  return (X3 * polevl(X2, Numerator) + X) / polevl(X2, Denominator);
}

/// Eigen's ptanh_double: a [19/18] rational approximation, clamped likewise.
inline double tanhDouble(double X) {
  static constexpr double Clamp = 17.714196154005176;
  static constexpr double Numerator[] = {
      2.6158007860482230e-23, 7.6534862268749319e-19, 3.1309488231386680e-15,
      4.2303918148209176e-12, 2.4618379131293676e-09, 6.8644367682497074e-07,
      9.3839087674268880e-05, 5.9809711724441161e-03, 1.5184719640284322e-01};
  static constexpr double Denominator[] = {
      6.463747022670968018e-21, 5.782506856739003571e-17, 1.293019623712687916e-13,
      1.123643448069621992e-10, 4.492975677839633985e-08, 8.785185266237658698e-06,
      8.295161192716231542e-04, 3.437448108450402717e-02, 4.851805297361760360e-01,
      1.0};
  X = pmax(pmin(X, Clamp), -Clamp);
  const double X2 = X * X, X3 = X2 * X;
  return (X3 * polevl(X2, Numerator) + X) / polevl(X2, Denominator);
}

float rsqrtPacket(float X);
float rsqrtTail(float X);
/// The tail is 1 / x.
float reciprocalPacket(float X);
float expPacket(float X);
double expPacket(double X);
float expTail(float X);
double expTail(double X);
float logPacket(float X);
double logPacket(double X);
float logTail(float X);
double logTail(double X);
float log1pPacket(float X);
double log1pPacket(double X);
float log1pTail(float X);
double log1pTail(double X);
float expm1Packet(float X);
double expm1Packet(double X);
float expm1Tail(float X);
double expm1Tail(double X);
float powPacket(float X, float Y);
double powPacket(double X, double Y);
float powTail(float X, float Y);
double powTail(double X, double Y);
/// Float erf is the same approximation in packets and tail.
float erfFloat(float X);
double erfPacket(double X);
double erfTail(double X);
float sigmoidPacket(float X);
float sigmoidTail(float X);
double sigmoidPacket(double X);
double sigmoidTail(double X);

} // namespace frost::eval::tfmath

#endif // FROST_LIB_EVAL_TENSORFLOWMATH_H
