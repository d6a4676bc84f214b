//===- Elementwise.cpp - Pass-through, unary, binary and select ops -------===//
//
// TensorFlow's cwise_op_*.cc kernels (and relu_op, softplus_op, bias_op,
// cwise_op_select, cwise_op_clip): Eigen's scalar functors over the flat
// elements, vectorized as TensorFlow's are, binary ops broadcast as BCast
// does. Each kernel accepts the dtypes TensorFlow registers on the CPU;
// complex dtypes are Unimplemented.
//
// Signed integer arithmetic wraps, as it does in TensorFlow's compiled
// kernels, computed in the unsigned type so it is defined. Transcendental
// functions of half and bfloat16 are computed in float and rounded, as
// TensorFlow's vectorized kernels do.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>
#include <limits>
#include <type_traits>

namespace frost::eval {

namespace {

using tensorflow::DT_BOOL;
using tensorflow::DT_STRING;

template <typename T> using ArrayOf = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T> using MutableArrayOf = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

/// The scalar type of an Eigen expression.
template <typename Expr> using ScalarOf = typename std::decay_t<Expr>::Scalar;

template <typename T>
constexpr bool IsReducedFloat =
    std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;
template <typename T> constexpr bool IsFloat = IsReducedFloat<T> || std::is_floating_point_v<T>;

/// The type integer arithmetic is done in so that it wraps: unsigned, and
/// at least as wide as unsigned int (uint16 * uint16 would be int, which
/// overflows).
template <typename T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>> struct Wrap {
  using type = T;
};
template <typename T> struct Wrap<T, true> {
  using type = std::make_unsigned_t<std::common_type_t<T, unsigned>>;
};
template <typename T> using WrapType = typename Wrap<T>::type;

/// The TypeSet bit of T.
template <typename T> constexpr unsigned typeSetOf() {
  using namespace tensorflow;
  constexpr DataType DT = dataTypeOf<T>();
  return DT == DT_FLOAT      ? Float32
         : DT == DT_DOUBLE   ? Float64
         : DT == DT_HALF     ? Half
         : DT == DT_BFLOAT16 ? BFloat16
         : DT == DT_INT8     ? Int8
         : DT == DT_INT16    ? Int16
         : DT == DT_INT32    ? Int32
         : DT == DT_INT64    ? Int64
         : DT == DT_UINT8    ? UInt8
         : DT == DT_UINT16   ? UInt16
         : DT == DT_UINT32   ? UInt32
         : DT == DT_UINT64   ? UInt64
                             : Bool;
}

/// visitType that instantiates F only for the types in `Types`, so kernels
/// are compiled for the dtypes TensorFlow registers and no others.
template <unsigned Types, typename Fn>
absl::StatusOr<Outputs> dispatch(const KernelContext &Ctx, tensorflow::DataType DType, Fn &&F) {
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, DType, Types, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        if constexpr ((Types & typeSetOf<T>()) != 0)
          return F(Tag);
        else
          return Ctx.unimplementedType(DType); // Not reached: visitType checks Types.
      });
}

/// `F(A)` for an expression of half or bfloat16 computed in float and
/// rounded back (TensorFlow's vectorized half kernels convert to float);
/// `F(A)` itself for other types.
template <typename Expr, typename Fn> auto inFloat(const Expr &A, Fn F) {
  using T = ScalarOf<Expr>;
  if constexpr (IsReducedFloat<T>)
    return F(A.template cast<float>()).template cast<T>();
  else
    return F(A);
}

bool isFloatType(tensorflow::DataType DType) {
  return DType == tensorflow::DT_FLOAT || DType == tensorflow::DT_DOUBLE ||
         DType == tensorflow::DT_HALF || DType == tensorflow::DT_BFLOAT16;
}

/// TensorFlow's maximum and minimum (Eigen's PropagateNaN): a NaN on either
/// side is the result (the first one), otherwise std::max / std::min, which
/// keep the first of equal values (-0.0 vs 0.0).
template <typename T> T maxPropagatingNaN(T A, T B) {
  if constexpr (IsFloat<T>) {
    if (Eigen::numext::isnan(A))
      return A;
    if (Eigen::numext::isnan(B))
      return B;
  }
  return A < B ? B : A;
}
template <typename T> T minPropagatingNaN(T A, T B) {
  if constexpr (IsFloat<T>) {
    if (Eigen::numext::isnan(A))
      return A;
    if (Eigen::numext::isnan(B))
      return B;
  }
  return B < A ? B : A;
}

/// `Round(x)` (floor, ceil, rint) of each element through double, which
/// holds every value exactly and keeps the sign of zero (Eigen 3.4's SSE2
/// floor turns -0.0 into 0.0; TensorFlow keeps it).
template <typename Expr, typename Fn> auto roundingOf(const Expr &A, Fn Round) {
  using T = ScalarOf<Expr>;
  return A.unaryExpr([Round](T X) { return T(Round(static_cast<double>(X))); });
}

std::vector<int64_t> shapeOf(const TensorData &T) {
  return std::vector<int64_t>(T.shape().begin(), T.shape().end());
}

/// Elements the evaluator produces at most for one output: a bigger result
/// could not be stored in a GraphDef anyway (protobuf's 2 GiB).
constexpr int64_t MaxOutputBytes = int64_t(1) << 31;

/// The element count of an output of `Shape` (e.g. a broadcast), refused when
/// it overflows or is too big to build.
absl::StatusOr<int64_t> checkedOutputSize(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Shape,
                                          size_t ElementSize) {
  absl::StatusOr<int64_t> N = numElements(Shape);
  if (!N.ok())
    return Ctx.invalid(std::string(N.status().message()));
  // Each element may also need a broadcast index.
  if (*N > MaxOutputBytes / static_cast<int64_t>(ElementSize + sizeof(int64_t)))
    return Ctx.unimplemented(
        absl::StrCat("an output of shape ", shapeString(Shape), " is too large to evaluate"));
  return *N;
}

/// The elements of `X` repeated to the broadcast shape `Out`: X's own
/// elements when nothing repeats.
template <typename T> class BroadcastOf {
public:
  BroadcastOf(const TensorData &X, llvm::ArrayRef<int64_t> Out, int64_t N) : Elements(X) {
    Data = Elements.data();
    if (Elements.size() == N)
      return;
    std::vector<int64_t> Index = broadcastIndex(X.shape(), Out);
    Copy.reset(new T[N > 0 ? N : 1]);
    for (int64_t K = 0; K < N; ++K)
      Copy[K] = Elements[Index[K]];
    Data = Copy.get();
  }
  ArrayOf<T> array(int64_t N) const { return ArrayOf<T>(Data, N); }

private:
  ElementsOf<T> Elements;
  std::unique_ptr<T[]> Copy;
  const T *Data;
};

/// `Expr(elements of input 0)` into a new tensor of the expression's type.
template <typename T, typename Fn> TensorData unaryMap(const TensorData &X, Fn &&Expr) {
  ElementsOf<T> In(X);
  ArrayOf<T> A(In.data(), In.size());
  using R = ScalarOf<decltype(Expr(A))>;
  OutputOf<R> Out(shapeOf(X));
  MutableArrayOf<R>(Out.data(), Out.size()) = Expr(A);
  return std::move(Out).finish();
}

/// `Expr(x, y)` over the broadcast of inputs 0 and 1 (both of dtype T) into
/// a new tensor of the expression's type.
template <typename T, typename Fn>
absl::StatusOr<TensorData> binaryMap(const KernelContext &Ctx, Fn &&Expr) {
  const TensorData &X = Ctx.input(0), &Y = Ctx.input(1);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, broadcastShapes(Ctx, X.shape(), Y.shape()));
  FROST_ASSIGN_OR_RETURN(int64_t N, checkedOutputSize(Ctx, Shape, sizeof(T)));
  BroadcastOf<T> A(X, Shape, N), B(Y, Shape, N);
  using R = ScalarOf<decltype(Expr(A.array(N), B.array(N)))>;
  OutputOf<R> Out(std::move(Shape));
  MutableArrayOf<R>(Out.data(), N) = Expr(A.array(N), B.array(N));
  return std::move(Out).finish();
}

/// Both inputs of a binary op have its dtype T.
absl::Status checkBinary(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  if (Ctx.input(0).dtype() != Ctx.input(1).dtype())
    return Ctx.invalid(
        absl::StrCat("inputs of different dtypes: ", dataTypeName(Ctx.input(0).dtype()), " and ",
                     dataTypeName(Ctx.input(1).dtype())));
  return absl::OkStatus();
}

/// A unary op over the dtypes `Types`: `Expr(array)` is an Eigen expression.
template <unsigned Types, typename Fn>
absl::StatusOr<Outputs> unary(const KernelContext &Ctx, Fn &&Expr) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return dispatch<Types>(Ctx, Ctx.input(0).dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    return Outputs{unaryMap<T>(Ctx.input(0), Expr)};
  });
}

/// A binary op over the dtypes `Types`: `Expr(x, y)` is an Eigen expression.
/// `Failed`, when given, is set by Expr for an element TensorFlow refuses;
/// the op then fails with `Message`.
template <unsigned Types, typename Fn>
absl::StatusOr<Outputs> binary(const KernelContext &Ctx, Fn &&Expr, const bool *Failed = nullptr,
                               llvm::StringRef Message = "") {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  return dispatch<Types>(Ctx, Ctx.input(0).dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    FROST_ASSIGN_OR_RETURN(TensorData Out, binaryMap<T>(Ctx, Expr));
    if (Failed && *Failed)
      return Ctx.invalid(Message);
    return Outputs{std::move(Out)};
  });
}

/// `Fn(x, y)` on values of the wrapping type, cast back.
template <typename Fn> auto wrapping(Fn F) {
  return [F](auto A, auto B) {
    using T = ScalarOf<decltype(A)>;
    using W = WrapType<T>;
    return F(A.template cast<W>(), B.template cast<W>()).template cast<T>();
  };
}

/// The elements of a string tensor broadcast against another: output shape
/// and, per output element, the index read from each input.
struct StringBroadcast {
  std::vector<int64_t> Shape;
  std::vector<int64_t> IndexX, IndexY;
};

absl::StatusOr<StringBroadcast> broadcastStrings(const KernelContext &Ctx, const TensorData &X,
                                                 const TensorData &Y) {
  StringBroadcast B;
  FROST_ASSIGN_OR_RETURN(B.Shape, broadcastShapes(Ctx, X.shape(), Y.shape()));
  FROST_RETURN_IF_ERROR(checkedOutputSize(Ctx, B.Shape, sizeof(std::string)).status());
  B.IndexX = broadcastIndex(X.shape(), B.Shape);
  B.IndexY = broadcastIndex(Y.shape(), B.Shape);
  return B;
}

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
  auto Sum = wrapping([](auto A, auto B) { return A + B; });
  if (Ctx.op() == "AddV2")
    return binary<Numbers>(Ctx, Sum);
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  const TensorData &X = Ctx.input(0), &Y = Ctx.input(1);
  if (X.dtype() != DT_STRING)
    return binary < Floats | SignedInts | UInt8 > (Ctx, Sum);
  FROST_ASSIGN_OR_RETURN(StringBroadcast B, broadcastStrings(Ctx, X, Y));
  std::vector<std::string> Out(B.IndexX.size());
  for (size_t K = 0; K < Out.size(); ++K)
    Out[K] = X.elements()[B.IndexX[K]] + Y.elements()[B.IndexY[K]];
  return Outputs{TensorData::strings(DT_STRING, std::move(B.Shape), std::move(Out))};
}

absl::StatusOr<Outputs> evalSub(const KernelContext &Ctx) {
  return binary<Numbers>(Ctx, wrapping([](auto A, auto B) { return A - B; }));
}

absl::StatusOr<Outputs> evalMul(const KernelContext &Ctx) {
  return binary<Numbers>(Ctx, wrapping([](auto A, auto B) { return A * B; }));
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

absl::StatusOr<Outputs> evalMaximum(const KernelContext &Ctx) {
  // TensorFlow's maximum propagates NaN from either side.
  return binary < Floats |
         Ints > (Ctx, [](auto A, auto B) {
           using T = ScalarOf<decltype(A)>;
           return A.binaryExpr(B, [](T X, T Y) { return maxPropagatingNaN(X, Y); });
         });
}

absl::StatusOr<Outputs> evalMinimum(const KernelContext &Ctx) {
  return binary < Floats |
         Ints > (Ctx, [](auto A, auto B) {
           using T = ScalarOf<decltype(A)>;
           return A.binaryExpr(B, [](T X, T Y) { return minPropagatingNaN(X, Y); });
         });
}

absl::StatusOr<Outputs> evalPow(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  if (isFloatType(Ctx.input(0).dtype()))
    return binary<Floats>(Ctx, [](auto A, auto B) {
      return inFloat(A, [&](auto X) {
        using F = ScalarOf<decltype(X)>;
        return X.pow(B.template cast<F>());
      });
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
  return binary<Numbers>(Add, wrapping([](auto A, auto B) { return A + B; }));
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
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.tanh(); }); });
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
  return unary<Floats>(Ctx, [](auto A) { return inFloat(A, [](auto X) { return X.erf(); }); });
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

// Relu and Relu6 propagate NaN (cwiseMax<PropagateNaN>) and keep -0.0.
absl::StatusOr<Outputs> evalRelu(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) {
                            using T = ScalarOf<decltype(A)>;
                            return A.unaryExpr([](T X) { return maxPropagatingNaN(X, T(0)); });
                          });
}

absl::StatusOr<Outputs> evalRelu6(const KernelContext &Ctx) {
  return unary < Floats | Ints > (Ctx, [](auto A) {
                            using T = ScalarOf<decltype(A)>;
                            return A.unaryExpr([](T X) {
                              return minPropagatingNaN(maxPropagatingNaN(X, T(0)), T(6));
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

// --- Select and clipping -----------------------------------------------------

namespace {

/// Output element K of a select reads `Then`/`Else` at `Index[K]` (or K) and
/// the condition at `CondIndex[K]`.
struct SelectPlan {
  std::vector<int64_t> Shape;
  std::vector<int64_t> CondIndex, ThenIndex, ElseIndex;
};

template <typename T>
TensorData selectElements(const TensorData &Cond, const TensorData &Then, const TensorData &Else,
                          const SelectPlan &Plan, int64_t N) {
  ElementsOf<bool> C(Cond);
  ElementsOf<T> A(Then), B(Else);
  OutputOf<T> Out(Plan.Shape);
  for (int64_t K = 0; K < N; ++K)
    Out[K] = C[Plan.CondIndex[K]] ? A[Plan.ThenIndex[K]] : B[Plan.ElseIndex[K]];
  return std::move(Out).finish();
}

TensorData selectStrings(const TensorData &Cond, const TensorData &Then, const TensorData &Else,
                         const SelectPlan &Plan, int64_t N) {
  ElementsOf<bool> C(Cond);
  std::vector<std::string> Out(static_cast<size_t>(N));
  for (int64_t K = 0; K < N; ++K)
    Out[K] = C[Plan.CondIndex[K]] ? Then.elements()[Plan.ThenIndex[K]]
                                  : Else.elements()[Plan.ElseIndex[K]];
  return TensorData::strings(DT_STRING, Plan.Shape, std::move(Out));
}

/// Select's TF1 rules: then and else of one shape; the condition of that
/// shape, a scalar, or a vector choosing rows (along dimension 0).
absl::StatusOr<SelectPlan> planSelect(const KernelContext &Ctx) {
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  if (Then.shape() != Else.shape())
    return Ctx.invalid(absl::StrCat("'then' and 'else' must have the same size.  but received: ",
                                    shapeString(Then.shape()), " vs. ", shapeString(Else.shape())));
  SelectPlan Plan;
  Plan.Shape = shapeOf(Then);
  int64_t N = Then.numElements();
  Plan.ThenIndex.resize(N);
  for (int64_t K = 0; K < N; ++K)
    Plan.ThenIndex[K] = K;
  Plan.ElseIndex = Plan.ThenIndex;
  if (Cond.shape() == Then.shape()) {
    Plan.CondIndex = Plan.ThenIndex;
  } else if (Cond.shape().empty()) {
    Plan.CondIndex.assign(N, 0);
  } else if (Cond.shape().size() == 1) {
    if (Then.shape().empty())
      return Ctx.invalid(absl::StrCat("'then' must be at least a vector, but saw shape: ",
                                      shapeString(Then.shape())));
    if (Then.shape()[0] != Cond.shape()[0])
      return Ctx.invalid(absl::StrCat(
          "Number of batches of 'then' must match size of 'cond', but saw: ", Then.shape()[0],
          " vs. ", Cond.shape()[0]));
    int64_t RowSize = Then.shape()[0] ? N / Then.shape()[0] : 0;
    Plan.CondIndex.resize(N);
    for (int64_t K = 0; K < N; ++K)
      Plan.CondIndex[K] = K / RowSize;
  } else {
    return Ctx.invalid(absl::StrCat("'then' and 'cond' must have the same size.  but received: ",
                                    shapeString(Then.shape()), " vs. ", shapeString(Cond.shape())));
  }
  return Plan;
}

/// SelectV2: the three inputs broadcast together.
absl::StatusOr<SelectPlan> planSelectV2(const KernelContext &Ctx) {
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  absl::StatusOr<std::vector<int64_t>> ThenElse = broadcastShapes(Ctx, Then.shape(), Else.shape());
  absl::StatusOr<std::vector<int64_t>> All =
      ThenElse.ok() ? broadcastShapes(Ctx, Cond.shape(), *ThenElse) : ThenElse;
  if (!All.ok())
    return Ctx.invalid(absl::StrCat("condition ", shapeString(Cond.shape()), ", then ",
                                    shapeString(Then.shape()), ", and else ",
                                    shapeString(Else.shape()), " must be broadcastable"));
  SelectPlan Plan;
  Plan.Shape = std::move(*All);
  Plan.CondIndex = broadcastIndex(Cond.shape(), Plan.Shape);
  Plan.ThenIndex = broadcastIndex(Then.shape(), Plan.Shape);
  Plan.ElseIndex = broadcastIndex(Else.shape(), Plan.Shape);
  return Plan;
}

} // namespace

absl::StatusOr<Outputs> evalSelect(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  if (Cond.dtype() != DT_BOOL)
    return Ctx.invalid(absl::StrCat("condition must be bool, got ", dataTypeName(Cond.dtype())));
  if (Then.dtype() != Else.dtype())
    return Ctx.invalid(
        absl::StrCat("'then' and 'else' of different dtypes: ", dataTypeName(Then.dtype()), " and ",
                     dataTypeName(Else.dtype())));
  bool IsV2 = Ctx.op() == "SelectV2";
  if (IsV2) {
    // Refuse a huge broadcast before planning it.
    absl::StatusOr<std::vector<int64_t>> Shape = broadcastShapes(Ctx, Then.shape(), Else.shape());
    if (Shape.ok())
      Shape = broadcastShapes(Ctx, Cond.shape(), *Shape);
    if (Shape.ok())
      FROST_RETURN_IF_ERROR(checkedOutputSize(Ctx, *Shape, 8).status());
  }
  FROST_ASSIGN_OR_RETURN(SelectPlan Plan, IsV2 ? planSelectV2(Ctx) : planSelect(Ctx));
  int64_t N = static_cast<int64_t>(Plan.ThenIndex.size());
  if (Then.dtype() == DT_STRING)
    return Outputs{selectStrings(Cond, Then, Else, Plan, N)};
  return dispatch<AllFixed>(Ctx, Then.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    return Outputs{selectElements<T>(Cond, Then, Else, Plan, N)};
  });
}

// ClipByValue: max(min(t, clip_value_max), clip_value_min), each bound a
// scalar or of t's shape.
absl::StatusOr<Outputs> evalClipByValue(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &X = Ctx.input(0), &Lo = Ctx.input(1), &Hi = Ctx.input(2);
  if (Lo.dtype() != X.dtype() || Hi.dtype() != X.dtype())
    return Ctx.invalid("t, clip_value_min and clip_value_max of different dtypes");
  auto Fits = [&](const TensorData &Bound) {
    return Bound.shape() == X.shape() || Bound.shape().empty();
  };
  if (!Fits(Lo) || !Fits(Hi))
    return Ctx.invalid(absl::StrCat("clip_value_min and clip_value_max must be either of the "
                                    "same shape as input, or a "
                                    "scalar. input shape: ",
                                    shapeString(X.shape()),
                                    "clip_value_min shape: ", shapeString(Lo.shape()),
                                    "clip_value_max shape: ", shapeString(Hi.shape())));
  return dispatch < Floats | SignedInts | UInt8 |
         UInt16 > (Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
           using T = typename decltype(Tag)::type;
           ElementsOf<T> V(X), L(Lo), H(Hi);
           bool ScalarLo = Lo.shape().empty(), ScalarHi = Hi.shape().empty();
           OutputOf<T> Out(shapeOf(X));
           for (int64_t K = 0; K < Out.size(); ++K)
             Out[K] = std::max(std::min(V[K], H[ScalarHi ? 0 : K]), L[ScalarLo ? 0 : K]);
           return Outputs{std::move(Out).finish()};
         });
}

} // namespace frost::eval
