//===- UnaryMath.cpp - Unary math and activations -------------------------===//
//
// TensorFlow's unary cwise_op_*.cc kernels and relu_op, softplus_op: Eigen's
// functors over the flat elements; half and bfloat16 computed in float and
// rounded, as TensorFlow's vectorized kernels do.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "PacketArithmetic.h"
#include "TensorFlowMath.h"

#include <bit>
#include <optional>

namespace frost::eval {

using namespace elementwise;

// --- Unary math
// ---------------------------------------------------------------

absl::StatusOr<Outputs> evalNeg(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  // Complex negation negates both parts (-0.0 from 0.0).
  if (isComplexType(Ctx.input(0).dtype()))
    return complexUnary(Ctx, [](auto A) { return -A; });
  return unary < Floats | SignedInts > (Ctx, [](auto A) {
                            using T = ScalarOf<decltype(A)>;
                            using W = WrapType<T>;
                            // -x for floats (-0.0 from 0.0); 0 - x wrapping for integers.
                            if constexpr (std::is_integral_v<T>)
                              return (W(0) - A.template cast<W>()).template cast<T>();
                            else
                              return -A;
                          });
}

// Conj is registered on the CPU for complex numbers only (Python returns a
// real tensor itself).
absl::StatusOr<Outputs> evalConj(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  if (!isComplexType(Ctx.input(0).dtype()))
    return Ctx.unimplementedType(Ctx.input(0).dtype());
  return complexUnary(Ctx, [](auto A) { return A.conjugate(); });
}

absl::StatusOr<Outputs> evalAbs(const KernelContext &Ctx) {
  return unary < Floats |
         SignedInts > (Ctx, [](auto A) {
           using T = ScalarOf<decltype(A)>;
           // |INT_MIN| wraps to INT_MIN.
           return A.unaryExpr([](T X) -> T {
             if constexpr (std::is_integral_v<T>)
               return X < 0 ? static_cast<T>(WrapType<T>(0) - static_cast<WrapType<T>>(X)) : X;
             else
               return Eigen::numext::abs(X);
           });
         });
}

absl::StatusOr<Outputs> evalSquare(const KernelContext &Ctx) {
  return unary<Numbers>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    auto W = A.template cast<WrapType<T>>();
    return (W * W).template cast<T>();
  });
}

absl::StatusOr<Outputs> evalSign(const KernelContext &Ctx) {
  // -1, 0 or 1; NaN stays NaN and -0.0 gives 0. Eigen's packet psign
  // returns |x| where |x| > 0 fails: for zeros, NaN and (read as zeros)
  // subnormals, which so come out positive and unflushed.
  return unary < Floats | SignedInts > (Ctx, [](auto A) {
                            using T = ScalarOf<decltype(A)>;
                            auto Tail = [](T X) -> T {
                              if constexpr (IsFloat<T>)
                                if (Eigen::numext::isnan(X))
                                  return X;
                              return T((X > T(0)) - (X < T(0)));
                            };
                            if constexpr (std::is_floating_point_v<T> ||
                                          std::is_same_v<T, Eigen::bfloat16>)
                              return tfmath::packetsThenTail(
                                  A,
                                  [](T X) {
                                    const T Abs = Eigen::numext::abs(X);
                                    if (!(tfmath::daz(Abs) > T(0)))
                                      return Abs;
                                    return std::signbit(static_cast<double>(X)) ? T(-1) : T(1);
                                  },
                                  Tail);
                            else
                              return A.unaryExpr(Tail).eval();
                          });
}

absl::StatusOr<Outputs> evalReciprocal(const KernelContext &Ctx) {
  // Float packets refine the processor's approximate reciprocal; elsewhere
  // 1 / x.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_same_v<T, float>)
      return tfmath::packetsThenTail(A, [](T X) { return tfmath::reciprocalPacket(X); },
                                     [](T X) { return T(1) / X; });
    else
      return A.unaryExpr([](T X) { return T(1) / X; }).eval();
  });
}

absl::StatusOr<Outputs> evalSqrt(const KernelContext &Ctx) {
  // std::sqrt, correctly rounded: Eigen 3.4's SSE packet sqrt gives NaN for
  // inf.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) { return T(std::sqrt(static_cast<double>(X))); });
  });
}

absl::StatusOr<Outputs> evalRsqrt(const KernelContext &Ctx) {
  // Float packets (half and bfloat16 through float) refine the processor's
  // approximate reciprocal square root; elsewhere 1 / sqrt(x), in the type.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_same_v<T, double>)
      return A.unaryExpr([](T X) { return T(1) / std::sqrt(X); }).eval();
    else if constexpr (std::is_same_v<T, float>)
      return tfmath::packetsThenTail(A, [](T X) { return tfmath::rsqrtPacket(X); },
                                     [](T X) { return tfmath::rsqrtTail(X); });
    else
      return tfmath::packetsThenTail(
          A, [](T X) { return T(tfmath::rsqrtPacket(static_cast<float>(X))); },
          [](T X) { return T(T(1) / T(std::sqrt(static_cast<float>(X)))); });
  });
}

namespace {

/// Eigen's packet function `Packet` over TensorFlow's AVX packets and the
/// scalar `Tail` after them; half and bfloat16 through the float functions,
/// rounded.
template <typename Expr, typename PacketFn, typename TailFn>
auto packetsThenTailInFloat(const Expr &A, PacketFn Packet, TailFn Tail) {
  using T = ScalarOf<Expr>;
  if constexpr (std::is_floating_point_v<T>)
    return tfmath::packetsThenTail(A, [Packet](T X) { return Packet(X); },
                                   [Tail](T X) { return Tail(X); });
  else
    return tfmath::packetsThenTail(
        A, [Packet](T X) { return T(Packet(static_cast<float>(X))); },
        [Tail](T X) { return T(Tail(static_cast<float>(X))); });
}

/// X as the type TensorFlow computes its math in: float for half and
/// bfloat16.
template <typename T> auto widen(T X) {
  if constexpr (std::is_floating_point_v<T>)
    return X;
  else
    return static_cast<float>(X);
}

/// TensorFlow's exp of each element: Eigen's pexp in packets, glibc's exp in
/// the tail.
template <typename Expr> auto expOf(const Expr &A) {
  return packetsThenTailInFloat(
      A, [](auto X) { return tfmath::expPacket(X); }, [](auto X) { return tfmath::expTail(X); });
}

} // namespace

absl::StatusOr<Outputs> evalExp(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) { return expOf(A); });
}

namespace {

/// Eigen's pexp_complex on one complex64 lane (TensorFlow's Packet4cf):
/// exp(x) (pexp) times cos y + i sin y (psincos_float computing both), with
/// its cases: x = -inf gives signed zeros, x = +inf with y infinite or NaN
/// gives (+-inf, NaN) (sign of y), y = +-0 gives (exp(x), y).
std::complex<float> expComplexPacket(std::complex<float> Z) {
  const float X = Z.real(), Y = Z.imag();
  const float ExpX = tfmath::expPacket(X);
  float Cos = tfmath::cisCosPacket(Y), Sin = tfmath::cisSinPacket(Y);
  constexpr float Inf = std::numeric_limits<float>::infinity();
  if (X == -Inf) {
    Cos = std::copysign(1.0f, Cos);
    Sin = std::copysign(1.0f, Sin);
  }
  if (X == Inf) {
    if (std::isnan(Cos))
      Cos = std::copysign(1.0f, Y);
    if (std::isnan(Sin))
      Sin = 0.0f;
  }
  // Only a true zero y (of either sign) is taken as real: TensorFlow's
  // comparison does not read a subnormal y as zero (measured), whose sine
  // then flushes to a zero of y's sign.
  if ((std::bit_cast<uint32_t>(Y) & 0x7fffffffu) == 0)
    return {ExpX, Y};
  return {ExpX * Cos, ExpX * Sin};
}

} // namespace

// Exp of complex numbers, for running graphs: complex64 as TensorFlow's
// AVX packets compute it (expComplexPacket) and glibc's cexpf in its scalar
// tail; complex128 (no packet exp in Eigen) glibc's cexp throughout.
// Measured against TensorFlow 2.21 (scripts/compare_elementwise_with_tf.py,
// seeds 1-3: random, huge and tiny parts, zeros, infinities, NaN): bit for
// bit; a run kernel all the same, as TensorFlow built for other CPUs (FMA,
// AVX-512) rounds its packets differently and would not be TensorFlow's
// bits. Real dtypes are the bitwise evalExp.
absl::StatusOr<Outputs> evalExpWithComplex(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  if (!isComplexType(Ctx.input(0).dtype()))
    return evalExp(Ctx);
  return complexUnary(Ctx, [](auto A) {
    using C = ScalarOf<decltype(A)>;
    const Eigen::Index N = A.size(), Body = N - N % complexPacketSize<C>();
    return Eigen::Array<C, Eigen::Dynamic, 1>::NullaryExpr(N, [A, Body](Eigen::Index I) {
      (void)Body; // complex128 runs cexp on every element
      if constexpr (std::is_same_v<C, std::complex<float>>)
        if (I < Body)
          return expComplexPacket(A[I]);
      return std::exp(A[I]);
    });
  });
}

absl::StatusOr<Outputs> evalExpm1(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    return packetsThenTailInFloat(
        A, [](auto X) { return tfmath::expm1Packet(X); },
        [](auto X) { return tfmath::expm1Tail(X); });
  });
}

absl::StatusOr<Outputs> evalLog(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    return packetsThenTailInFloat(
        A, [](auto X) { return tfmath::logPacket(X); }, [](auto X) { return tfmath::logTail(X); });
  });
}

absl::StatusOr<Outputs> evalLog1p(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    return packetsThenTailInFloat(
        A, [](auto X) { return tfmath::log1pPacket(X); },
        [](auto X) { return tfmath::log1pTail(X); });
  });
}

absl::StatusOr<Outputs> evalTanh(const KernelContext &Ctx) {
  // Eigen's rational approximations in packets; the tail is glibc's, but for
  // float, whose scalar tanh is Eigen's approximation too.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_same_v<T, double>)
      return tfmath::packetsThenTail(A, tfmath::tanhDouble, [](double X) { return std::tanh(X); });
    else if constexpr (std::is_same_v<T, float>)
      return tfmath::packetsThenTail(A, tfmath::tanhFloat, tfmath::tanhFloat);
    else
      return tfmath::packetsThenTail(
          A, [](T X) { return T(tfmath::tanhFloat(float(X))); },
          [](T X) { return T(std::tanh(float(X))); });
  });
}

absl::StatusOr<Outputs> evalSigmoid(const KernelContext &Ctx) {
  // Eigen's logistic: its own float algorithm in packets; e / (1 + e) with
  // e = exp(x) otherwise, 1 where e is inf. Half and bfloat16 take the
  // generic form, each step rounded to the type.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_floating_point_v<T>) {
      return tfmath::packetsThenTail(A, [](T X) { return tfmath::sigmoidPacket(X); },
                                     [](T X) { return tfmath::sigmoidTail(X); });
    } else {
      auto Logistic = [](T E) {
        return Eigen::numext::isinf(E) ? T(1) : T(E / T(T(1) + E));
      };
      return tfmath::packetsThenTail(
          A, [Logistic](T X) { return Logistic(T(tfmath::expPacket(static_cast<float>(X)))); },
          [Logistic](T X) { return Logistic(T(tfmath::expTail(static_cast<float>(X)))); });
    }
  });
}

absl::StatusOr<Outputs> evalErf(const KernelContext &Ctx) {
  // Eigen's generic_fast_erf (double: NaN for +-inf, whose square overflows).
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    if constexpr (std::is_same_v<T, double>)
      return tfmath::packetsThenTail(A, [](T X) { return tfmath::erfPacket(X); },
                                     [](T X) { return tfmath::erfTail(X); });
    else
      return A.unaryExpr([](T X) { return T(tfmath::erfFloat(static_cast<float>(X))); });
  });
}

absl::StatusOr<Outputs> evalErfc(const KernelContext &Ctx) {
  // Eigen's generic_fast_erfc in packets and tail alike, with pexp in
  // packets and glibc's exp in the tail.
  return unary<Floats>(Ctx, [](auto A) {
    return packetsThenTailInFloat(
        A, [](auto X) { return tfmath::erfcPacket(X); },
        [](auto X) { return tfmath::erfcTail(X); });
  });
}

absl::StatusOr<Outputs> evalLgamma(const KernelContext &Ctx) {
  // glibc's lgamma on every element (Eigen has no packet lgamma); the
  // reentrant form, whose sign output is unused.
  return unary<Float32 | Float64 | Half>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) -> T {
      int Sign;
      if constexpr (std::is_same_v<T, double>)
        return lgamma_r(X, &Sign);
      else
        return T(lgammaf_r(static_cast<float>(X), &Sign));
    });
  });
}

absl::StatusOr<Outputs> evalFloor(const KernelContext &Ctx) {
  return unary<Floats>(
      Ctx, [](auto A) { return roundingOf(A, [](double X) { return std::floor(X); }); });
}

absl::StatusOr<Outputs> evalCeil(const KernelContext &Ctx) {
  return unary<Floats>(Ctx,
                       [](auto A) { return roundingOf(A, [](double X) { return std::ceil(X); }); });
}

// Round and Rint round half to even; Round of an integer is itself.
// Round and Rint round half to even. TensorFlow 2.21 registers Round for
// int32 and int64 but its kernel returns 0 for them: Frost does not fold that.
absl::StatusOr<Outputs> evalRound(const KernelContext &Ctx) {
  auto RoundHalfToEven = [](auto A) {
    return roundingOf(A, [](double X) { return std::nearbyint(X); });
  };
  if (Ctx.op() == "Rint")
    return unary < Float32 | Float64 > (Ctx, RoundHalfToEven);
  return unary<Floats>(Ctx, RoundHalfToEven);
}

absl::StatusOr<Outputs> evalIsNan(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) -> bool { return Eigen::numext::isnan(X); });
  });
}

absl::StatusOr<Outputs> evalIsInf(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) -> bool { return Eigen::numext::isinf(X); });
  });
}

absl::StatusOr<Outputs> evalIsFinite(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) -> bool { return Eigen::numext::isfinite(X); });
  });
}

absl::StatusOr<Outputs> evalSoftsign(const KernelContext &Ctx) {
  // x / (|x| + 1), each step rounded to the type (half and bfloat16 through
  // float), under TensorFlow's denormal flushing.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) -> T {
      using W = std::conditional_t<std::is_same_v<T, double>, double, float>;
      const T Denominator = T(tfmath::packet::add(static_cast<W>(Eigen::numext::abs(X)), W(1)));
      return T(tfmath::packet::div(static_cast<W>(X), static_cast<W>(Denominator)));
    });
  });
}

// --- Activations
// --------------------------------------------------------------

namespace {

/// max(x, 0) propagating NaN (cwiseMax<PropagateNaN>), then at most
/// `Limit` (Relu6), as TensorFlow 2.21's AVX2 build computes it (measured
/// for every position of tensors of 1..33 elements):
/// - in whole AVX packets a subnormal x comes out flushed, and -0.0 as +0.0
///   for floats and doubles (vmaxps keeps its second operand);
/// - after them, float and double Relu6 return x itself; float and double
///   Relu run the last n % packet elements two at a time (a subnormal
///   flushed to a zero of its sign), an odd first one alone (x itself);
/// - bfloat16 flushes in packets only, keeping -0.0; half never flushes.
template <typename Expr> auto reluOf(const Expr &A, std::optional<int> Limit) {
  using T = ScalarOf<Expr>;
  auto Flushed = [Limit](T X) {
    const T M = maxPropagatingNaN(X, T(0));
    return Limit ? minPropagatingNaN(M, T(*Limit)) : M;
  };
  auto Kept = [Limit](T X) {
    const T M = maxPropagatingNaN<false>(X, T(0));
    return Limit ? minPropagatingNaN<false>(M, T(*Limit)) : M;
  };
  if constexpr (std::is_floating_point_v<T>) {
    const Eigen::Index N = A.size(), Body = N - N % tfmath::avxPacketSize<T>();
    const bool OddTail = (N - Body) % 2 == 1;
    return Eigen::Array<T, Eigen::Dynamic, 1>::NullaryExpr(N, [=](Eigen::Index I) {
      if (I < Body) {
        const T M = packetMaxPropagatingNaN(A[I], T(0));
        return Limit ? packetMinPropagatingNaN(M, T(*Limit)) : M;
      }
      return Limit || (OddTail && I == Body) ? Kept(A[I]) : Flushed(A[I]);
    }).eval();
  } else if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    return tfmath::packetsThenTail(A, Flushed, Kept);
  } else if constexpr (IsFloat<T>) {
    return tfmath::packetsThenTail(A, Flushed, Flushed);
  } else {
    return A.unaryExpr(Flushed).eval();
  }
}

} // namespace

absl::StatusOr<Outputs> evalRelu(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) { return reluOf(A, std::nullopt); });
}

absl::StatusOr<Outputs> evalRelu6(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) { return reluOf(A, 6); });
}

namespace {

/// LeakyRelu's alpha as T: truncated toward zero for integers (defined C++
/// for any alpha: x86's cvttss2si result when it does not fit).
template <typename T> T convertAlpha(float Alpha) {
  if constexpr (std::is_integral_v<T>) {
    if (!(Alpha > -0x1p63f && Alpha < 0x1p63f))
      return static_cast<T>(std::numeric_limits<int64_t>::min());
    return static_cast<T>(static_cast<int64_t>(Alpha));
  } else {
    return static_cast<T>(Alpha);
  }
}

} // namespace

absl::StatusOr<Outputs> evalLeakyRelu(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(float Alpha, Ctx.floatAttr("alpha", 0.2f));
  return unary < Floats |
         Ints > (Ctx, [Alpha](auto A) {
           using T = ScalarOf<decltype(A)>;
           using W = WrapType<T>;
           // alpha converted to T (an integer alpha truncates), x * alpha in T.
           T TAlpha = static_cast<T>(Alpha);
           return A.unaryExpr([TAlpha](T X) -> T {
             return X > T(0) ? X : static_cast<T>(static_cast<W>(X) * static_cast<W>(TAlpha));
           });
         });
}

// Elu and Selu compute exp(x) - 1 (not expm1), as TensorFlow does.
absl::StatusOr<Outputs> evalElu(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    Eigen::Array<T, Eigen::Dynamic, 1> Exp = expOf(A);
    return ((A < T(0)).select(Exp - T(1), A)).eval();
  });
}

absl::StatusOr<Outputs> evalSelu(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    const T Scale = static_cast<T>(1.0507009873554804934193349852946);
    const T ScaleAlpha = static_cast<T>(1.7580993408473768599402175208123);
    Eigen::Array<T, Eigen::Dynamic, 1> Exp = expOf(A);
    return ((A < T(0)).select(ScaleAlpha * (Exp - T(1)), Scale * A)).eval();
  });
}

absl::StatusOr<Outputs> evalSoftplus(const KernelContext &Ctx) {
  // Below `Threshold` softplus(x) is exp(x) within epsilon; above
  // -Threshold it is x; log1p(exp(x)) between, both in one packet or both
  // in the tail.
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    const T Threshold = T(Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2));
    auto Softplus = [Threshold](T X, T Exp, auto Log1p) {
      return X > -Threshold ? X : X < Threshold ? Exp : T(Log1p(Exp));
    };
    return tfmath::packetsThenTail(
        A,
        [Softplus](T X) {
          return Softplus(X, T(tfmath::expPacket(widen(X))),
                          [](T E) { return tfmath::log1pPacket(widen(E)); });
        },
        [Softplus](T X) {
          return Softplus(X, T(tfmath::expTail(widen(X))),
                          [](T E) { return tfmath::log1pTail(widen(E)); });
        });
  });
}

} // namespace frost::eval
