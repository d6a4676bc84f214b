//===- ZeroGuarded.cpp - Binary ops that give 0 at a zero operand ---------===//
//
// TensorFlow's DivNoNan (0 where y is 0), Xdivy and Xlogy (0 where x is 0):
// Eigen functors with a packet form (compare with DAZ, then select) and a
// scalar form for the tail, which differ in what they return at a zero: the
// packet form returns x as read (-0.0 stays -0.0, a subnormal is a zero of
// its sign) where the scalar one returns +0.0, and Xlogy's log is Eigen's plog in packets,
// glibc's in the tail (TensorFlowMath.h). Half and bfloat16 are computed
// in float and rounded.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "PacketArithmetic.h"
#include "TensorFlowMath.h"

namespace frost::eval {

using namespace elementwise;

namespace {

/// `Packet(x, y)` and `Tail(x, y)` on floats or doubles (half and bfloat16
/// through float, rounded) over the broadcast of the two inputs.
/// With `KeepsX`, bfloat16 packets return x's own bits where x reads as
/// zero (its float subnormals are not flushed on the way back).
template <bool KeepsX = false, typename PacketFn, typename TailFn>
absl::StatusOr<Outputs> zeroGuarded(const KernelContext &Ctx, PacketFn Packet, TailFn Tail) {
  return binary<Floats>(Ctx, [Packet, Tail](auto A, auto B) {
    using T = ScalarOf<decltype(A)>;
    using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
    return tfmath::packetsThenTail(
        A, B,
        [Packet](T X, T Y) {
          if constexpr (KeepsX && std::is_same_v<T, Eigen::bfloat16>)
            if (tfmath::packet::eq(static_cast<W>(X), W(0)))
              return X;
          return T(Packet(static_cast<W>(X), static_cast<W>(Y)));
        },
        [Tail](T X, T Y) { return T(Tail(static_cast<W>(X), static_cast<W>(Y))); });
  });
}

} // namespace

absl::StatusOr<Outputs> evalDivNoNan(const KernelContext &Ctx) {
  // Both forms give +0.0 where y reads as zero.
  auto DivNoNan = [](auto X, auto Y) {
    using W = decltype(X);
    return tfmath::packet::eq(Y, W(0)) ? W(0) : tfmath::packet::div(X, Y);
  };
  return zeroGuarded(Ctx, DivNoNan, DivNoNan);
}

absl::StatusOr<Outputs> evalXdivy(const KernelContext &Ctx) {
  return zeroGuarded<true>(
      Ctx,
      [](auto X, auto Y) {
        using W = decltype(X);
        return tfmath::packet::eq(X, W(0)) ? tfmath::daz(X) : tfmath::packet::div(X, Y);
      },
      [](auto X, auto Y) {
        using W = decltype(X);
        return tfmath::packet::eq(X, W(0)) ? W(0) : tfmath::packet::div(X, Y);
      });
}

absl::StatusOr<Outputs> evalXlogy(const KernelContext &Ctx) {
  return zeroGuarded<true>(
      Ctx,
      [](auto X, auto Y) {
        using W = decltype(X);
        return tfmath::packet::eq(X, W(0)) ? tfmath::daz(X)
                                           : tfmath::packet::mul(X, tfmath::logPacket(Y));
      },
      [](auto X, auto Y) {
        using W = decltype(X);
        return tfmath::packet::eq(X, W(0)) ? W(0) : tfmath::packet::mul(X, tfmath::logTail(Y));
      });
}

} // namespace frost::eval
