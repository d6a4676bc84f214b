//===- ElementwiseSupport.h - What the elementwise kernels share ----------===//
//
// Eigen maps over flat elements, compile-time dtype dispatch, broadcasting of
// operands, wrapping integer arithmetic and float helpers, for the kernel
// files of the elementwise family (Elementwise.cpp, UnaryMath.cpp,
// Select.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_ELEMENTWISESUPPORT_H
#define FROST_LIB_EVAL_ELEMENTWISESUPPORT_H

#include "Kernel.h"
#include "TensorFlowMath.h"

#include <unsupported/Eigen/SpecialFunctions>

#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

namespace frost::eval::elementwise {

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

inline bool isFloatType(tensorflow::DataType DType) {
  return DType == tensorflow::DT_FLOAT || DType == tensorflow::DT_DOUBLE ||
         DType == tensorflow::DT_HALF || DType == tensorflow::DT_BFLOAT16;
}

/// TensorFlow's maximum and minimum (Eigen's PropagateNaN) in the scalar
/// tail: a NaN on either side is the result (the first one), otherwise
/// std::max / std::min of the operands as read with denormals as zeros
/// (DAZ), which keep the first of equal values (-0.0 vs 0.0). The operand
/// returned is flushed too, except `Flush = false` (bfloat16's tail, as
/// measured).
template <bool Flush = true, typename T> T maxPropagatingNaN(T A, T B) {
  if constexpr (IsFloat<T>) {
    if (Eigen::numext::isnan(A))
      return A;
    if (Eigen::numext::isnan(B))
      return B;
  }
  const T ReadA = tfmath::daz(A), ReadB = tfmath::daz(B);
  if constexpr (Flush)
    return ReadA < ReadB ? ReadB : ReadA;
  else
    return ReadA < ReadB ? B : A;
}
template <bool Flush = true, typename T> T minPropagatingNaN(T A, T B) {
  if constexpr (IsFloat<T>) {
    if (Eigen::numext::isnan(A))
      return A;
    if (Eigen::numext::isnan(B))
      return B;
  }
  const T ReadA = tfmath::daz(A), ReadB = tfmath::daz(B);
  if constexpr (Flush)
    return ReadB < ReadA ? ReadB : ReadA;
  else
    return ReadB < ReadA ? B : A;
}

/// The same in TensorFlow's AVX packets of floats and doubles (vmaxps,
/// vminps): NaN in A is A, otherwise the comparison's winner, and B on a
/// tie (so max(-0.0, 0.0) is 0.0) or a NaN in B.
template <typename T> T packetMaxPropagatingNaN(T A, T B) {
  if (Eigen::numext::isnan(A))
    return A;
  A = tfmath::daz(A), B = tfmath::daz(B);
  return A > B ? A : B;
}
template <typename T> T packetMinPropagatingNaN(T A, T B) {
  if (Eigen::numext::isnan(A))
    return A;
  A = tfmath::daz(A), B = tfmath::daz(B);
  return A < B ? A : B;
}

/// `Round(x)` (floor, ceil, rint) of each element through double, which
/// holds every value exactly and keeps the sign of zero (Eigen 3.4's SSE2
/// floor turns -0.0 into 0.0; TensorFlow keeps it).
template <typename Expr, typename Fn> auto roundingOf(const Expr &A, Fn Round) {
  using T = ScalarOf<Expr>;
  return A.unaryExpr([Round](T X) { return T(Round(static_cast<double>(X))); });
}

inline std::vector<int64_t> shapeOf(const TensorData &T) {
  return std::vector<int64_t>(T.shape().begin(), T.shape().end());
}

/// Elements the evaluator produces at most for one output: a bigger result
/// could not be stored in a GraphDef anyway (protobuf's 2 GiB).
constexpr int64_t MaxOutputBytes = int64_t(1) << 31;

/// The element count of an output of `Shape` (e.g. a broadcast), refused when
/// it overflows or is too big to build.
inline absl::StatusOr<int64_t> checkedOutputSize(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Shape,
                                          size_t ElementSize) {
  absl::StatusOr<int64_t> N = numElements(Shape);
  if (!N.ok())
    return Ctx.invalid(std::string(N.status().message()));
  if (*N <= MaxOutputBytes)
    if (absl::Status S = Ctx.checkTensorBytes(static_cast<uint64_t>(*N) * ElementSize, Shape); !S.ok())
      return S;
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
inline absl::Status checkBinary(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  return checkSameDType(Ctx, 0, 2);
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

inline bool isComplexType(tensorflow::DataType DType) {
  return DType == tensorflow::DT_COMPLEX64 || DType == tensorflow::DT_COMPLEX128;
}

/// `F(TypeTag<std::complex<float|double>>)` for a complex64 or complex128
/// `DType` (the caller checked isComplexType).
template <typename Fn> absl::StatusOr<Outputs> dispatchComplex(tensorflow::DataType DType, Fn &&F) {
  if (DType == tensorflow::DT_COMPLEX64)
    return F(TypeTag<std::complex<float>>{});
  return F(TypeTag<std::complex<double>>{});
}

/// A unary op of a complex input: `Expr(array)` is an Eigen expression.
template <typename Fn> absl::StatusOr<Outputs> complexUnary(const KernelContext &Ctx, Fn &&Expr) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return dispatchComplex(Ctx.input(0).dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    return Outputs{unaryMap<T>(Ctx.input(0), Expr)};
  });
}

/// A binary op of complex inputs (checked by checkBinary first).
template <typename Fn> absl::StatusOr<Outputs> complexBinary(const KernelContext &Ctx, Fn &&Expr) {
  return dispatchComplex(Ctx.input(0).dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    FROST_ASSIGN_OR_RETURN(TensorData Out, binaryMap<T>(Ctx, Expr));
    return Outputs{std::move(Out)};
  });
}

/// Complex elements in one of TensorFlow's AVX packets (Packet4cf, Packet2cd).
template <typename C> constexpr int64_t complexPacketSize() { return 32 / sizeof(C); }

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

inline absl::StatusOr<StringBroadcast> broadcastStrings(const KernelContext &Ctx, const TensorData &X,
                                                 const TensorData &Y) {
  StringBroadcast B;
  FROST_ASSIGN_OR_RETURN(B.Shape, broadcastShapes(Ctx, X.shape(), Y.shape()));
  FROST_RETURN_IF_ERROR(checkedOutputSize(Ctx, B.Shape, sizeof(std::string)).status());
  B.IndexX = broadcastIndex(X.shape(), B.Shape);
  B.IndexY = broadcastIndex(Y.shape(), B.Shape);
  return B;
}

} // namespace frost::eval::elementwise

#endif // FROST_LIB_EVAL_ELEMENTWISESUPPORT_H
