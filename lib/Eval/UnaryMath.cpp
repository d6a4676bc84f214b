//===- UnaryMath.cpp - Unary math and activations -------------------------===//
//
// TensorFlow's unary cwise_op_*.cc kernels and relu_op, softplus_op: Eigen's
// functors over the flat elements; half and bfloat16 computed in float and
// rounded, as TensorFlow's vectorized kernels do.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "TensorFlowMath.h"

namespace frost::eval {

using namespace elementwise;

// --- Unary math
// ---------------------------------------------------------------

absl::StatusOr<Outputs> evalNeg(const KernelContext &Ctx) {
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
  // -1, 0 or 1; NaN stays NaN and -0.0 gives 0.
  return unary < Floats | SignedInts > (Ctx, [](auto A) {
                            using T = ScalarOf<decltype(A)>;
                            return A.unaryExpr([](T X) -> T {
                              if constexpr (IsFloat<T>)
                                if (Eigen::numext::isnan(X))
                                  return X;
                              return T((X > T(0)) - (X < T(0)));
                            });
                          });
}

absl::StatusOr<Outputs> evalReciprocal(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    return A.unaryExpr([](T X) { return T(1) / X; });
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
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.rsqrt(); }); });
}

absl::StatusOr<Outputs> evalExp(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.exp(); }); });
}

absl::StatusOr<Outputs> evalExpm1(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.expm1(); }); });
}

absl::StatusOr<Outputs> evalLog(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.log(); }); });
}

absl::StatusOr<Outputs> evalLog1p(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.log1p(); }); });
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
  // TensorFlow's logistic: e / (1 + e) with e = exp(x), 1 where e is inf
  // (float: x capped at 16.6355324, where the quotient is 1).
  return unary<Floats>(Ctx, [](auto A) {
    return inFloat(A, [](auto X) {
      using F = ScalarOf<decltype(X)>;
      auto E = [&] {
        if constexpr (std::is_same_v<F, float>)
          return X.min(16.6355324f).exp();
        else
          return X.exp();
      }();
      return (E == std::numeric_limits<F>::infinity()).select(F(1), E / (E + F(1)));
    });
  });
}

absl::StatusOr<Outputs> evalErf(const KernelContext &Ctx) {
  // TensorFlow's double erf gives NaN for +-inf (measured on TensorFlow 2.21;
  // its float erf gives +-1).
  return unary<Floats>(Ctx, [](auto A) {
    return inFloat(A, [](auto X) {
      using F = ScalarOf<decltype(X)>;
      if constexpr (std::is_same_v<F, double>)
        return (X.abs() == std::numeric_limits<F>::infinity())
            .select(std::numeric_limits<F>::quiet_NaN(), X.erf());
      else
        return X.erf();
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

// --- Activations
// --------------------------------------------------------------

namespace {

/// max(x, 0) propagating NaN (cwiseMax<PropagateNaN>), then `Clip`: -0.0 is
/// +0.0 in TensorFlow's AVX packets of floats and doubles (vmaxps keeps its
/// second operand) and stays -0.0 in the scalar tail (std::max keeps its
/// first) and in half and bfloat16 (measured).
template <typename Expr, typename ClipFn> auto reluOf(const Expr &A, ClipFn Clip) {
  using T = ScalarOf<Expr>;
  if constexpr (std::is_floating_point_v<T>)
    return tfmath::packetsThenTail(
        A,
        [Clip](T X) { return Clip(X > T(0) || Eigen::numext::isnan(X) ? X : T(0)); },
        [Clip](T X) { return Clip(maxPropagatingNaN(X, T(0))); });
  else
    return A.unaryExpr([Clip](T X) { return Clip(maxPropagatingNaN(X, T(0))); });
}

} // namespace

absl::StatusOr<Outputs> evalRelu(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) { return reluOf(A, [](auto X) { return X; }); });
}

absl::StatusOr<Outputs> evalRelu6(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) {
                            return reluOf(A, [](auto X) {
                              return minPropagatingNaN(X, decltype(X)(6));
                            });
                          });
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
    auto Exp = inFloat(A, [](auto X) { return X.exp(); });
    return (A < T(0)).select(Exp - T(1), A);
  });
}

absl::StatusOr<Outputs> evalSelu(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    const T Scale = static_cast<T>(1.0507009873554804934193349852946);
    const T ScaleAlpha = static_cast<T>(1.7580993408473768599402175208123);
    auto Exp = inFloat(A, [](auto X) { return X.exp(); });
    return (A < T(0)).select(ScaleAlpha * (Exp - T(1)), Scale * A);
  });
}

absl::StatusOr<Outputs> evalSoftplus(const KernelContext &Ctx) {
  return unary<Floats>(Ctx, [](auto A) {
    using T = ScalarOf<decltype(A)>;
    // Below `Threshold` softplus(x) is exp(x) within epsilon; above
    // -Threshold it is x.
    const T Threshold = T(Eigen::numext::log(Eigen::NumTraits<T>::epsilon()) + T(2));
    auto Exp = inFloat(A, [](auto X) { return X.exp(); });
    auto Log1pExp = inFloat(Exp, [](auto X) { return X.log1p(); });
    return (A > -Threshold).select(A, (A < Threshold).select(Exp, Log1pExp));
  });
}

} // namespace frost::eval
