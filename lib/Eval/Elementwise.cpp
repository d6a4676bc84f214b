//===- Elementwise.cpp - Pass-through, unary and binary elementwise ops ---===//
//
// TensorFlow's cwise_op_*.cc kernels: Eigen's scalar functors over the flat
// elements (vectorized as TensorFlow's are), binary ops broadcast as BCast
// does. Signed integer arithmetic wraps, as it does in TensorFlow's compiled
// kernels, computed in the unsigned type so it is defined.
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

#include <type_traits>

namespace frost::eval {

namespace {

template <typename T> using ArrayOf = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T> using MutableArrayOf = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

/// `Expr(elements of X)`, an Eigen array expression, into a new tensor of R.
template <typename T, typename R = T, typename Fn>
TensorData unaryMap(const TensorData &X, Fn &&Expr) {
  ElementsOf<T> In(X);
  OutputOf<R> Out(std::vector<int64_t>(X.shape().begin(), X.shape().end()));
  MutableArrayOf<R>(Out.data(), Out.size()) = Expr(ArrayOf<T>(In.data(), In.size()));
  return std::move(Out).finish();
}

/// The elements of `X` (shape `In`) repeated to the broadcast shape `Out`:
/// X's own elements when nothing repeats.
template <typename T> class BroadcastOf {
public:
  BroadcastOf(const TensorData &X, llvm::ArrayRef<int64_t> Out) : Elements(X) {
    int64_t N = 1;
    for (int64_t D : Out)
      N *= D;
    Data = Elements.data();
    if (Elements.size() == N)
      return;
    std::vector<int64_t> Index = broadcastIndex(X.shape(), Out);
    Copy.reset(new T[N > 0 ? N : 1]);
    for (int64_t K = 0; K < N; ++K)
      Copy[K] = Elements[Index[K]];
    Data = Copy.get();
  }
  const T *data() const { return Data; }

private:
  ElementsOf<T> Elements;
  std::unique_ptr<T[]> Copy;
  const T *Data;
};

/// `Expr(x, y)` over the broadcast of inputs 0 and 1 (both of dtype T) into
/// a new tensor of R.
template <typename T, typename R = T, typename Fn>
absl::StatusOr<TensorData> binaryMap(const KernelContext &Ctx, Fn &&Expr) {
  const TensorData &X = Ctx.input(0), &Y = Ctx.input(1);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, broadcastShapes(Ctx, X.shape(), Y.shape()));
  BroadcastOf<T> A(X, Shape), B(Y, Shape);
  OutputOf<R> Out(std::move(Shape));
  MutableArrayOf<R>(Out.data(), Out.size()) =
      Expr(ArrayOf<T>(A.data(), Out.size()), ArrayOf<T>(B.data(), Out.size()));
  return std::move(Out).finish();
}

/// Both inputs of a binary op have its dtype T.
absl::Status checkBinary(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  if (Ctx.input(0).dtype() != Ctx.input(1).dtype())
    return Ctx.invalid(absl::StrCat("inputs of different dtypes: ",
                                    dataTypeName(Ctx.input(0).dtype()), " and ",
                                    dataTypeName(Ctx.input(1).dtype())));
  return absl::OkStatus();
}

/// The type signed integer arithmetic is done in so that it wraps.
template <typename T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>> struct Wrap {
  using type = T;
};
template <typename T> struct Wrap<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <typename T> using WrapType = typename Wrap<T>::type;

/// An arithmetic binary op: `Op(x, y)` on values of the wrapping type.
template <typename Op>
absl::StatusOr<Outputs> arithmetic(const KernelContext &Ctx, unsigned Types, Op &&Fn) {
  FROST_RETURN_IF_ERROR(checkBinary(Ctx));
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, Ctx.input(0).dtype(), Types, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        using W = WrapType<T>;
        FROST_ASSIGN_OR_RETURN(TensorData Out, binaryMap<T>(Ctx, [&](auto A, auto B) {
                                 return Fn(A.template cast<W>(), B.template cast<W>())
                                     .template cast<T>();
                               }));
        return Outputs{std::move(Out)};
      });
}

} // namespace

absl::StatusOr<Outputs> evalIdentity(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return Outputs{Ctx.input(0)};
}

// TensorFlow registers Add/AddV2, Sub and Mul on the CPU for these dtypes
// (cwise_op_add_*.cc, cwise_op_sub.cc, cwise_op_mul_*.cc); string Add is
// concatenation.
absl::StatusOr<Outputs> evalAdd(const KernelContext &Ctx) {
  return arithmetic(Ctx, Numbers, [](auto A, auto B) { return A + B; });
}

absl::StatusOr<Outputs> evalSub(const KernelContext &Ctx) {
  return arithmetic(Ctx, Numbers, [](auto A, auto B) { return A - B; });
}

absl::StatusOr<Outputs> evalMul(const KernelContext &Ctx) {
  return arithmetic(Ctx, Numbers, [](auto A, auto B) { return A * B; });
}

absl::StatusOr<Outputs> evalNeg(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, Ctx.input(0).dtype(), Floats | SignedInts,
      [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        using W = WrapType<T>;
        return Outputs{unaryMap<T>(Ctx.input(0), [](auto A) {
          // -x for floats (-0.0 from 0.0); 0 - x wrapping for integers.
          if constexpr (std::is_integral_v<T>)
            return (W(0) - A.template cast<W>()).template cast<T>();
          else
            return -A;
        })};
      });
}

} // namespace frost::eval
