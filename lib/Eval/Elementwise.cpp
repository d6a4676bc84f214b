//===- Elementwise.cpp - Pass-through, arithmetic, comparisons, logic -----===//
//
// TensorFlow's binary cwise_op_*.cc kernels, bias_op and aggregate_ops (AddN):
// Eigen's scalar functors over the flat elements, vectorized as TensorFlow's
// are, broadcast as BCast does. Each kernel accepts the dtypes TensorFlow
// registers on the CPU. Complex numbers are added, subtracted and summed
// (AddN) by parts, bit for bit; complex Mul is a kernel for running graphs
// only (evalMulWithComplex); other complex ops are Unimplemented.
//
// Signed integer arithmetic wraps, as it does in TensorFlow's compiled
// kernels, computed in the unsigned type so it is defined. Transcendental
// functions of half and bfloat16 are computed in float and rounded, as
// TensorFlow's vectorized kernels do.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "TensorFlowMath.h"

namespace frost::eval {

using namespace elementwise;

namespace {

// --- Integer division -------------------------------------------------------

constexpr llvm::StringLiteral DivisionByZero = "Integer division by zero";

/// x / y truncated (C++'s), INT_MIN / -1 wrapping to INT_MIN as TensorFlow's
/// safe_div_or_mod_op makes it.
template <typename T> T truncatedDivide(T X, T Y) {
  if constexpr (std::is_signed_v<T>)
    if (X == std::numeric_limits<T>::min() && Y == T(-1))
      return X;
  return static_cast<T>(X / Y);
}

/// x / y rounded down.
template <typename T> T flooredDivide(T X, T Y) {
  T Z = truncatedDivide(X, Y);
  if constexpr (std::is_signed_v<T>)
    if (static_cast<T>(static_cast<WrapType<T>>(Z) * static_cast<WrapType<T>>(Y)) != X &&
        ((X < 0) != (Y < 0)))
      return static_cast<T>(Z - 1);
  return Z;
}

/// x - floor(x / y) * y: the remainder with the divisor's sign.
template <typename T> T flooredModulo(T X, T Y) {
  if constexpr (std::is_signed_v<T>)
    if (Y == T(-1))
      return 0; // Also INT_MIN % -1, which C++ leaves undefined.
  T R = static_cast<T>(X % Y);
  if constexpr (std::is_signed_v<T>)
    if (R != 0 && ((Y < 0) != (R < 0)))
      return static_cast<T>(R + Y);
  return R;
}

/// An integer division-like op: TensorFlow's error for a zero divisor.
template <typename Fn> auto checkedIntegerOp(bool &Failed, Fn F) {
  return [&Failed, F](auto A, auto B) {
    using T = ScalarOf<decltype(A)>;
    return A.binaryExpr(B, [&Failed, F](T X, T Y) -> T {
      if (Y == T(0)) {
        Failed = true;
        return T(0);
      }
      return F(X, Y);
    });
  };
}

/// x^y by squaring, wrapping; y >= 0.
template <typename T> T integerPower(T X, T Y) {
  using W = WrapType<T>;
  W Result = 1, Base = static_cast<W>(X);
  for (auto E = static_cast<W>(Y); E; E >>= 1) {
    if (E & 1)
      Result = static_cast<W>(Result * Base);
    Base = static_cast<W>(Base * Base);
  }
  return static_cast<T>(Result);
}

/// fmod in float for half and bfloat16 (exact: the remainder is representable).
template <typename T> T remainderOf(T X, T Y) {
  if constexpr (IsReducedFloat<T>)
    return T(std::fmod(static_cast<float>(X), static_cast<float>(Y)));
  else
    return std::fmod(X, Y);
}

/// x + y in T: wrapping for integers, rounded to T after each addition for
/// floats (half and bfloat16 included, as Eigen's half and bfloat16 packets
/// add in float and round back).
auto addition() {
  return wrapping([](auto A, auto B) { return A + B; });
}

/// Inputs [First, Last) of `In` (arrays of N elements) added left to right
/// into `Sum`: ((in_First + in_First+1) + ...) + in_Last-1, each addition
/// rounded to T, as Eigen evaluates TensorFlow's `in1 + in2 + ... + inK`.
template <typename T>
void sumInto(MutableArrayOf<T> &Sum, llvm::ArrayRef<ElementsOf<T>> In, size_t First, size_t Last,
             int64_t N) {
  auto Add = addition();
  Sum = ArrayOf<T>(In[First].data(), N);
  for (size_t I = First + 1; I < Last; ++I)
    Sum = Add(Sum, ArrayOf<T>(In[I].data(), N));
}

/// AddNOp's CPU computation (aggregate_ops.h) over inputs of one shape: with
/// K inputs, the first r = K % 8 of them (8 when r is 0, 9 when r is 1) are
/// added left to right into the output (Add2Functor .. Add9Functor), then
/// each following group of 8 is added left to right and the group's sum
/// added to the output (Add8pFunctor: out += in1 + ... + in8). Nothing is
/// forwarded in TensorFlow's constant folding, so inputs keep their order.
template <typename T> TensorData addN(llvm::ArrayRef<TensorData> Inputs) {
  constexpr size_t Width = 8;
  if (Inputs.size() == 1)
    return Inputs[0]; // Passed through.
  std::vector<ElementsOf<T>> In;
  In.reserve(Inputs.size());
  for (const TensorData &X : Inputs)
    In.emplace_back(X);
  const int64_t N = In[0].size();
  OutputOf<T> Out(shapeOf(Inputs[0]));
  MutableArrayOf<T> Sum(Out.data(), N);
  const size_t K = In.size();
  size_t First = K % Width;
  if (First < 2)
    First += Width;
  sumInto<T>(Sum, In, 0, First, N); // K >= First: 2 .. 7, or 8 (9) when K % 8 is 0 (1).
  if (First == K)
    return std::move(Out).finish();
  std::unique_ptr<T[]> GroupSum(new T[N > 0 ? N : 1]);
  MutableArrayOf<T> Group(GroupSum.get(), N);
  for (size_t I = First; I < K; I += Width) {
    sumInto<T>(Group, In, I, I + Width, N);
    Sum = addition()(Sum, Group);
  }
  return std::move(Out).finish();
}

/// `T` with another dtype and shape of the same byte size, sharing its bytes.
TensorData retyped(const TensorData &T, tensorflow::DataType DType, std::vector<int64_t> Shape) {
  return TensorData::borrowed(DType, std::move(Shape), T.bytes(), T.keeper());
}

} // namespace

// --- Pass-through ------------------------------------------------------------

absl::StatusOr<Outputs> evalIdentity(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return Outputs{Ctx.input(0)};
}

// --- Arithmetic --------------------------------------------------------------

// Add is registered for strings (concatenation) and without uint16/32/64;
// AddV2 for every number type.
absl::StatusOr<Outputs> evalAdd(const KernelContext &Ctx) {
  auto Sum = addition();
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  const TensorData &X = Ctx.input(0), &Y = Ctx.input(1);
  // Complex sums are the sums of the parts, in TensorFlow's packets and tail.
  if (isComplexType(X.dtype()))
    return complexBinary(Ctx, [](auto A, auto B) { return A + B; });
  if (Ctx.op() == "AddV2")
    return binary<Numbers>(Ctx, Sum);
  if (X.dtype() != DT_STRING)
    return binary < Floats | SignedInts | UInt8 > (Ctx, Sum);
  FROST_ASSIGN_OR_RETURN(StringBroadcast B, broadcastStrings(Ctx, X, Y));
  std::vector<std::string> Out(B.IndexX.size());
  for (size_t K = 0; K < Out.size(); ++K)
    Out[K] = X.elements()[B.IndexX[K]] + Y.elements()[B.IndexY[K]];
  return Outputs{TensorData::strings(DT_STRING, std::move(B.Shape), std::move(Out))};
}

// AddN is registered for every number type, complex included; complex sums
// add real and imaginary parts apart, as float (double) pairs: the same
// additions in the same order.
absl::StatusOr<Outputs> evalAddN(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1, /*AtLeast=*/true));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, Ctx.numInputs()));
  const TensorData &First = Ctx.input(0);
  for (size_t I = 1; I < Ctx.numInputs(); ++I)
    if (Ctx.input(I).shape() != First.shape())
      return Ctx.invalid(absl::StrCat(
          "Inputs to operation ", Ctx.op().str(), " of type ", Ctx.op().str(),
          " must have the same size and shape.  Input 0: ", shapeString(First.shape()),
          " != input ", I, ": ", shapeString(Ctx.input(I).shape())));
  tensorflow::DataType DType = First.dtype();
  if (DType != tensorflow::DT_COMPLEX64 && DType != tensorflow::DT_COMPLEX128)
    return dispatch<Numbers>(Ctx, DType, [&](auto Tag) -> absl::StatusOr<Outputs> {
      return Outputs{addN<typename decltype(Tag)::type>(Ctx.inputs())};
    });
  bool IsFloat = DType == tensorflow::DT_COMPLEX64;
  std::vector<int64_t> Parts{2 * First.numElements()};
  std::vector<TensorData> Inputs;
  for (const TensorData &X : Ctx.inputs())
    Inputs.push_back(retyped(X, IsFloat ? tensorflow::DT_FLOAT : tensorflow::DT_DOUBLE, Parts));
  TensorData Sum = IsFloat ? addN<float>(Inputs) : addN<double>(Inputs);
  return Outputs{retyped(Sum, DType, shapeOf(First))};
}

absl::StatusOr<Outputs> evalSub(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isComplexType(Ctx.input(0).dtype()))
    return complexBinary(Ctx, [](auto A, auto B) { return A - B; });
  return binary<Numbers>(Ctx, wrapping([](auto A, auto B) { return A - B; }));
}

absl::StatusOr<Outputs> evalMul(const KernelContext &Ctx) {
  return binary<Numbers>(Ctx, wrapping([](auto A, auto B) { return A * B; }));
}

// Complex Mul, for running graphs: TensorFlow's AVX packets multiply
// schoolbook-style, (ac - bd) + (ad + bc)i with no FMA, where an infinite
// operand can give NaN + NaN i; the n % packet elements of its scalar tail
// take C's product (__mulsc3), which recovers the infinities. Frost splits
// the flat output as TensorFlow's executor does: bit for bit over seeds 1-3
// (scripts/compare_elementwise_with_tf.py), but a tensor TensorFlow's
// threads or broadcasting blocks split elsewhere has its tails elsewhere,
// so this is never folded. Real dtypes are the bitwise evalMul.
absl::StatusOr<Outputs> evalMulWithComplex(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (!isComplexType(Ctx.input(0).dtype()))
    return evalMul(Ctx);
  return complexBinary(Ctx, [](auto A, auto B) {
    using C = ScalarOf<decltype(A)>;
    const Eigen::Index N = A.size(), Body = N - N % complexPacketSize<C>();
    return Eigen::Array<C, Eigen::Dynamic, 1>::NullaryExpr(N, [A, B, Body](Eigen::Index I) {
      const C X = A[I], Y = B[I];
      if (I >= Body)
        return X * Y;
      return C(X.real() * Y.real() - X.imag() * Y.imag(),
               X.real() * Y.imag() + X.imag() * Y.real());
    });
  });
}

absl::StatusOr<Outputs> evalRealDiv(const KernelContext &Ctx) {
  return binary<Floats>(Ctx, [](auto A, auto B) { return A / B; });
}

// Div divides floats and truncates integers; TruncateDiv does the same for
// integers and truncates float quotients.
absl::StatusOr<Outputs> evalDiv(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  bool IsTruncate = Ctx.op() == "TruncateDiv";
  if (isFloatType(Ctx.input(0).dtype()))
    return binary<Floats>(Ctx, [&](auto A, auto B) {
      using T = ScalarOf<decltype(A)>;
      return A.binaryExpr(B, [IsTruncate](T X, T Y) {
        T Q = X / Y;
        return IsTruncate ? T(std::trunc(static_cast<double>(Q))) : Q;
      });
    });
  bool Failed = false;
  return binary<Ints>(
      Ctx, checkedIntegerOp(Failed, [](auto X, auto Y) { return truncatedDivide(X, Y); }), &Failed,
      DivisionByZero);
}

absl::StatusOr<Outputs> evalFloorDiv(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isFloatType(Ctx.input(0).dtype()))
    return binary<Floats>(Ctx, [](auto A, auto B) {
      return roundingOf(A / B, [](double X) { return std::floor(X); });
    });
  bool Failed = false;
  return binary<Ints>(Ctx,
                      checkedIntegerOp(Failed, [](auto X, auto Y) { return flooredDivide(X, Y); }),
                      &Failed, DivisionByZero);
}

absl::StatusOr<Outputs> evalFloorMod(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isFloatType(Ctx.input(0).dtype()))
    return binary<Floats>(Ctx, [](auto A, auto B) {
      using T = ScalarOf<decltype(A)>;
      return A.binaryExpr(B, [](T X, T Y) -> T {
        // fmod's remainder has x's sign; moved to y's sign as integers are.
        T R = remainderOf(X, Y);
        return R != T(0) && ((Y < T(0)) != (R < T(0))) ? T(R + Y) : R;
      });
    });
  bool Failed = false;
  return binary<Ints>(Ctx,
                      checkedIntegerOp(Failed, [](auto X, auto Y) { return flooredModulo(X, Y); }),
                      &Failed, DivisionByZero);
}

// TruncateMod: the remainder with x's sign (C++'s % and fmod).
absl::StatusOr<Outputs> evalTruncateMod(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isFloatType(Ctx.input(0).dtype()))
    return binary < Float32 | Float64 > (Ctx, [](auto A, auto B) {
                                using T = ScalarOf<decltype(A)>;
                                return A.binaryExpr(B, [](T X, T Y) { return remainderOf(X, Y); });
                              });
  bool Failed = false;
  return binary < Int32 | Int64 > (Ctx,
                                   checkedIntegerOp(Failed,
                                                    [](auto X, auto Y) {
                                                      using T = decltype(X);
                                                      return Y == T(-1) ? T(0)
                                                                        : static_cast<T>(X % Y);
                                                    }),
                                   &Failed, DivisionByZero);
}

namespace {

/// TensorFlow's maximum (`IsMax`) or minimum of A and B, propagating NaN:
/// in its AVX packets of floats and doubles the second operand wins ties;
/// bfloat16's scalar tail returns an operand unflushed (measured).
template <bool IsMax, typename Expr> auto extremumOf(const Expr &A, const Expr &B) {
  using T = ScalarOf<Expr>;
  auto Flushed = [](T X, T Y) {
    return IsMax ? maxPropagatingNaN(X, Y) : minPropagatingNaN(X, Y);
  };
  if constexpr (std::is_floating_point_v<T>)
    return tfmath::packetsThenTail(
        A, B,
        [](T X, T Y) {
          return IsMax ? packetMaxPropagatingNaN(X, Y) : packetMinPropagatingNaN(X, Y);
        },
        Flushed);
  else if constexpr (std::is_same_v<T, Eigen::bfloat16>)
    return tfmath::packetsThenTail(A, B, Flushed, [](T X, T Y) {
      return IsMax ? maxPropagatingNaN<false>(X, Y) : minPropagatingNaN<false>(X, Y);
    });
  else
    return A.binaryExpr(B, Flushed).eval();
}

} // namespace

absl::StatusOr<Outputs> evalMaximum(const KernelContext &Ctx) {
  // TensorFlow's maximum propagates NaN from either side.
  return binary < Floats | Ints > (Ctx, [](auto A, auto B) {
           return extremumOf</*IsMax=*/true>(A, B);
         });
}

absl::StatusOr<Outputs> evalMinimum(const KernelContext &Ctx) {
  return binary < Floats | Ints > (Ctx, [](auto A, auto B) {
           return extremumOf</*IsMax=*/false>(A, B);
         });
}

absl::StatusOr<Outputs> evalPow(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isFloatType(Ctx.input(0).dtype()))
    return binary<Floats>(Ctx, [](auto A, auto B) {
      using T = ScalarOf<decltype(A)>;
      // Eigen's generic_pow in packets, glibc's pow in the tail.
      if constexpr (std::is_floating_point_v<T>)
        return tfmath::packetsThenTail(
            A, B, [](T X, T Y) { return tfmath::powPacket(X, Y); },
            [](T X, T Y) { return tfmath::powTail(X, Y); });
      else
        return inFloat(A, [&](auto X) {
                 using F = ScalarOf<decltype(X)>;
                 return X.pow(B.template cast<F>());
               }).eval();
    });
  bool Failed = false;
  return binary<SignedInts>(
      Ctx,
      [&Failed](auto A, auto B) {
        using T = ScalarOf<decltype(A)>;
        return A.binaryExpr(B, [&Failed](T X, T Y) -> T {
          if (Y < 0) {
            Failed = true;
            return 0;
          }
          return integerPower(X, Y);
        });
      },
      &Failed, "Integers to negative integer powers are not allowed");
}

absl::StatusOr<Outputs> evalSquaredDifference(const KernelContext &Ctx) {
  return binary < Floats | Int32 | Int64 > (Ctx, wrapping([](auto A, auto B) {
                                              auto D = A - B;
                                              return D * D;
                                            }));
}

// BiasAdd adds a vector along the channel dimension: the last (NHWC) or the
// one after the batch (NCHW). BiasAddV1 is NHWC only.
absl::StatusOr<Outputs> evalBiasAdd(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  FROST_ASSIGN_OR_RETURN(std::string Format, Ctx.op() == "BiasAddV1"
                                                 ? std::string("NHWC")
                                                 : Ctx.stringAttr("data_format", "NHWC"));
  if (Format != "NHWC" && Format != "NCHW")
    return Ctx.invalid(absl::StrCat("Value for attr 'data_format' of \"", Format,
                                    "\" is not in the list of allowed values: \"NHWC\", "
                                    "\"NCHW\""));
  const TensorData &Value = Ctx.input(0), &Bias = Ctx.input(1);
  llvm::ArrayRef<int64_t> Shape = Value.shape();
  if (Shape.size() < 2)
    return Ctx.invalid(
        absl::StrCat("Input tensor must be at least 2D: ", shapeString(Value.shape())));
  if (Bias.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("Biases must be 1D: ", shapeString(Bias.shape())));
  // NCHW's channel dimension is the second, except in 2-D tensors.
  size_t ChannelDim = Format == "NCHW" && Shape.size() > 2 ? 1 : Shape.size() - 1;
  if (Bias.shape()[0] != Shape[ChannelDim])
    return Ctx.invalid(absl::StrCat("Must provide as many biases as the last dimension of the "
                                    "input tensor: ",
                                    shapeString(Bias.shape()), " vs. ", shapeString(Shape)));
  // The bias seen through Value's shape: [C] or [C,1,...,1].
  std::vector<int64_t> BiasShape(Shape.size() - ChannelDim, 1);
  BiasShape[0] = Shape[ChannelDim];
  TensorData Inputs[] = {Value, reshaped(Bias, std::move(BiasShape))};
  AttrMap NoAttrs;
  KernelContext Add(Ctx.op(), Inputs, NoAttrs);
  return binary<Numbers>(Add, addition());
}

// --- Comparisons and logic ---------------------------------------------------

namespace {

enum class Comparison { Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual };

template <typename A, typename B> auto compare(Comparison C, const A &X, const B &Y) {
  using T = ScalarOf<A>;
  return X.binaryExpr(Y, [C](T L, T R) -> bool {
    switch (C) {
    case Comparison::Equal:
      return L == R;
    case Comparison::NotEqual:
      return L != R;
    case Comparison::Less:
      return L < R;
    case Comparison::LessEqual:
      return L <= R;
    case Comparison::Greater:
      return L > R;
    case Comparison::GreaterEqual:
      return L >= R;
    }
    return false;
  });
}

absl::StatusOr<Outputs> comparison(const KernelContext &Ctx, Comparison C) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  bool IsEquality = C == Comparison::Equal || C == Comparison::NotEqual;
  const TensorData &X = Ctx.input(0), &Y = Ctx.input(1);
  if (IsEquality) {
    // With incompatible_shape_error=false, shapes that do not broadcast
    // compare unequal as a whole: a scalar false (Equal) or true (NotEqual).
    FROST_ASSIGN_OR_RETURN(bool ShapeError, Ctx.boolAttr("incompatible_shape_error", true));
    if (!ShapeError && !broadcastShapes(Ctx, X.shape(), Y.shape()).ok()) {
      OutputOf<bool> Out({});
      Out[0] = C == Comparison::NotEqual;
      return Outputs{std::move(Out).finish()};
    }
    if (X.dtype() == DT_STRING) {
      FROST_ASSIGN_OR_RETURN(StringBroadcast B, broadcastStrings(Ctx, X, Y));
      OutputOf<bool> Out(B.Shape);
      for (int64_t K = 0; K < Out.size(); ++K)
        Out[K] =
            (X.elements()[B.IndexX[K]] == Y.elements()[B.IndexY[K]]) == (C == Comparison::Equal);
      return Outputs{std::move(Out).finish()};
    }
  }
  auto Compare = [C](auto A, auto B) { return compare(C, A, B); };
  if (IsEquality)
    return binary<AllFixed>(Ctx, Compare);
  return binary<Numbers>(Ctx, Compare);
}

template <typename Fn> absl::StatusOr<Outputs> logical(const KernelContext &Ctx, Fn &&Expr) {
  return binary<Bool>(Ctx, Expr);
}

} // namespace

absl::StatusOr<Outputs> evalEqual(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::Equal);
}
absl::StatusOr<Outputs> evalNotEqual(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::NotEqual);
}
absl::StatusOr<Outputs> evalLess(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::Less);
}
absl::StatusOr<Outputs> evalLessEqual(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::LessEqual);
}
absl::StatusOr<Outputs> evalGreater(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::Greater);
}
absl::StatusOr<Outputs> evalGreaterEqual(const KernelContext &Ctx) {
  return comparison(Ctx, Comparison::GreaterEqual);
}

absl::StatusOr<Outputs> evalLogicalAnd(const KernelContext &Ctx) {
  return logical(Ctx, [](auto A, auto B) { return A && B; });
}
absl::StatusOr<Outputs> evalLogicalOr(const KernelContext &Ctx) {
  return logical(Ctx, [](auto A, auto B) { return A || B; });
}
absl::StatusOr<Outputs> evalLogicalNot(const KernelContext &Ctx) {
  return unary<Bool>(Ctx, [](auto A) { return !A; });
}

} // namespace frost::eval
