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

/// Eigen's ptanh_float: a [9/8] rational approximation on the input clamped
/// to where it reaches +-1 (the clamp of builds without FMA); float's scalar
/// tanh is the same.
float tanhFloat(float X);
/// Eigen's ptanh_double: a [19/18] rational approximation, clamped likewise.
double tanhDouble(double X);
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
/// Eigen's generic_fast_erfc: its own approximation in packets and in the
/// tail, with pexp (and, for float, the refined approximate reciprocal) in
/// packets, glibc's exp (and 1 / x) in the tail.
float erfcPacket(float X);
float erfcTail(float X);
double erfcPacket(double X);
double erfcTail(double X);
/// Eigen's psincos_float (no FMA: four-part reduction, Payne-Hanek for huge
/// x); the tail is glibc's sinf and cosf.
float sinPacket(float X);
float cosPacket(float X);
/// The same computing both (psincos_float's ComputeBoth, for pexp_complex):
/// the sine reduces huge angles from the cosine's threshold on.
float cisCosPacket(float X);
float cisSinPacket(float X);
float sigmoidPacket(float X);
float sigmoidTail(float X);
double sigmoidPacket(double X);
double sigmoidTail(double X);

} // namespace frost::eval::tfmath

#endif // FROST_LIB_EVAL_TENSORFLOWMATH_H
