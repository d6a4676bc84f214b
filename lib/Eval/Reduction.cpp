//===- Reduction.cpp - Reductions and arg-reductions ----------------------===//
//
// TensorFlow's Sum, Prod, Mean, Max, Min, All, Any (reduction_ops_*.cc over
// ReductionOp in reduction_ops_common.h) and ArgMax, ArgMin (argmax_op.cc).
//
// The axes are simplified as ReductionHelper does: adjacent reduced (or kept)
// dimensions are merged, leading size-1 dimensions skipped, and the merged
// tensor is reduced with the same Eigen Tensor expression TensorFlow uses for
// its rank and reduced axes (a rank > 3 tensor is transposed so the reduced
// axes come last). So each output is summed in Eigen's order: sequentially
// along a kept innermost dimension, in packets and a tree of 1024-packet
// leaves along a reduced innermost one.
//
// What still differs from TensorFlow's float results (see
// scripts/compare_reduction_with_tf.py): TensorFlow evaluates on its intra-op
// thread pool, and a full reduction large enough to be split is summed as one
// partial sum per thread, combined in order (the split depends on the number
// of cores of the machine running TensorFlow); Frost runs on one thread.
// TensorFlow's x86 wheels are built for AVX (8 floats per packet) and Frost
// for the compiler's baseline (SSE2, 4 floats), so a reduction along the
// innermost dimension groups its partial sums differently: a few ulps apart.
// Integer results are exact (signed sums and products wrap, computed in the
// unsigned type so it is defined); Max, Min, All, Any are order-independent
// except for the sign of a zero result (max(-0, 0)).
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"

#include <unsupported/Eigen/CXX11/Tensor>

#include <type_traits>

namespace frost::eval {

namespace {

using Index = Eigen::DenseIndex;

template <typename T, int Rank>
using ConstTensorOf = Eigen::TensorMap<Eigen::Tensor<const T, Rank, Eigen::RowMajor, Index>>;
template <typename T, int Rank>
using TensorOf = Eigen::TensorMap<Eigen::Tensor<T, Rank, Eigen::RowMajor, Index>>;

/// T's bit in a TypeSet, to instantiate a kernel only for the dtypes it is
/// registered for (visitType instantiates its callback for every dtype).
template <typename T> constexpr unsigned typeBit() {
  constexpr tensorflow::DataType DT = dataTypeOf<T>();
  constexpr std::pair<tensorflow::DataType, TypeSet> Bits[] = {
      {tensorflow::DT_FLOAT, Float32}, {tensorflow::DT_DOUBLE, Float64},
      {tensorflow::DT_HALF, Half},     {tensorflow::DT_BFLOAT16, BFloat16},
      {tensorflow::DT_INT8, Int8},     {tensorflow::DT_INT16, Int16},
      {tensorflow::DT_INT32, Int32},   {tensorflow::DT_INT64, Int64},
      {tensorflow::DT_UINT8, UInt8},   {tensorflow::DT_UINT16, UInt16},
      {tensorflow::DT_UINT32, UInt32}, {tensorflow::DT_UINT64, UInt64},
      {tensorflow::DT_BOOL, Bool}};
  for (const auto &[Type, Bit] : Bits)
    if (Type == DT)
      return Bit;
  return 0;
}

int64_t product(llvm::ArrayRef<int64_t> Dims) {
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  return N;
}

// --- ReductionHelper ---------------------------------------------------------

/// How TensorFlow's ReductionHelper::Simplify reshapes a reduction: the input
/// seen as `DataReshape` (alternating runs of kept and reduced dimensions,
/// the first reduced when `ReduceFirstAxis`), reduced to `OutReshape`, and
/// returned with shape `OutShape`.
struct ReductionPlan {
  std::vector<int64_t> OutShape;
  std::vector<int64_t> DataReshape;
  std::vector<int64_t> OutReshape;
  bool ReduceFirstAxis = false;

  int ndims() const { return static_cast<int>(DataReshape.size()); }
  /// Reduces nothing: the output is the input reshaped.
  bool isTrivial() const { return ndims() == 0 || (ndims() == 1 && !ReduceFirstAxis); }
};

/// The reduction indices (input 1, int32 or int64, any shape) as
/// ReductionHelper reads them, into a plan for an input of shape `Shape`.
absl::StatusOr<ReductionPlan> planReduction(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Shape,
                                            bool KeepDims) {
  const TensorData &Axes = Ctx.input(1);
  std::vector<int64_t> Indices;
  if (Axes.dtype() == tensorflow::DT_INT32) {
    for (int32_t V : ElementsOf<int32_t>(Axes))
      Indices.push_back(V);
  } else if (Axes.dtype() == tensorflow::DT_INT64) {
    for (int64_t V : ElementsOf<int64_t>(Axes))
      Indices.push_back(V);
  } else {
    return Ctx.invalid(
        absl::StrCat("reduction indices must be int32 or int64, got ", dataTypeName(Axes.dtype())));
  }

  const int64_t Rank = static_cast<int64_t>(Shape.size());
  std::vector<bool> Reduced(Shape.size(), false);
  for (int64_t Index : Indices) {
    if (Index < -Rank || Index >= Rank)
      return Ctx.invalid(absl::StrCat("Invalid reduction dimension (", Index, " for input with ",
                                      Rank, " dimension(s)"));
    Index = (Index + Rank) % Rank;
    if (Reduced[Index])
      return Ctx.invalid(
          absl::StrCat("Invalid reduction arguments: Axes contains duplicate dimension: ", Index));
    Reduced[Index] = true;
  }

  ReductionPlan Plan;
  for (int64_t I = 0; I < Rank; ++I) {
    if (!Reduced[I])
      Plan.OutShape.push_back(Shape[I]);
    else if (KeepDims)
      Plan.OutShape.push_back(1);
  }

  // Skip leading 1s; a size-1 dimension joins the run before it.
  int64_t Dim = 0;
  while (Dim < Rank && Shape[Dim] == 1)
    ++Dim;
  if (Dim == Rank) {
    Plan.ReduceFirstAxis = true; // Essentially a scalar: nothing to reshape.
    return Plan;
  }
  Plan.ReduceFirstAxis = Reduced[Dim];
  Plan.DataReshape.push_back(Shape[Dim]);
  for (++Dim; Dim < Rank; ++Dim) {
    if (Shape[Dim] == 1)
      Reduced[Dim] = Reduced[Dim - 1];
    if (Reduced[Dim - 1] != Reduced[Dim])
      Plan.DataReshape.push_back(Shape[Dim]);
    else
      Plan.DataReshape.back() *= Shape[Dim];
  }
  for (size_t I = Plan.ReduceFirstAxis ? 1 : 0; I < Plan.DataReshape.size(); I += 2)
    Plan.OutReshape.push_back(Plan.DataReshape[I]);
  return Plan;
}

/// `In` (shape `Dims`) with its dimensions permuted as `Perm` (output
/// dimension I is input dimension Perm[I]).
template <typename T>
std::unique_ptr<T[]> transposed(const T *In, llvm::ArrayRef<int64_t> Dims,
                                llvm::ArrayRef<int> Perm) {
  size_t Rank = Dims.size();
  std::vector<int64_t> InStride(Rank, 1);
  for (size_t I = Rank - 1; I > 0; --I)
    InStride[I - 1] = InStride[I] * Dims[I];
  std::vector<int64_t> OutDims(Rank), Stride(Rank);
  for (size_t I = 0; I < Rank; ++I) {
    OutDims[I] = Dims[Perm[I]];
    Stride[I] = InStride[Perm[I]];
  }
  const int64_t Size = product(Dims);
  std::unique_ptr<T[]> Out(new T[Size]);
  std::vector<int64_t> Pos(Rank, 0);
  int64_t Offset = 0;
  for (int64_t K = 0; K < Size; ++K) {
    Out[K] = In[Offset];
    for (size_t I = Rank; I-- > 0;) {
      Offset += Stride[I];
      if (++Pos[I] < OutDims[I])
        break;
      Offset -= Stride[I] * Pos[I];
      Pos[I] = 0;
    }
  }
  return Out;
}

/// The Eigen reducer of one op over elements of T, as TensorFlow's
/// reduction_ops_*.cc instantiate it. `Reduce(In, Axes, Out)` assigns the
/// reduction of `In` over `Axes` to `Out`; `identity()` fills the output of
/// an empty input (FillIdentity).
///
/// TensorFlow's sums and products of signed integers wrap; they are computed
/// here in the unsigned type of the same width, where wrapping is defined.
template <typename T, bool = std::is_integral_v<T> && std::is_signed_v<T>> struct Wrap {
  using type = T;
};
template <typename T> struct Wrap<T, true> {
  using type = std::make_unsigned_t<T>;
};
template <typename T> using WrapType = typename Wrap<T>::type;

/// `Expr` with elements of type `To` (no conversion node when it has them).
template <typename To, typename Expr> auto castTo(const Expr &E) {
  using From = std::remove_const_t<typename Eigen::internal::traits<Expr>::Scalar>;
  if constexpr (std::is_same_v<From, To>)
    return E;
  else
    return E.template cast<To>();
}

template <typename T, template <typename> class Reducer> struct WrappingReduce {
  using W = WrapType<T>;
  T identity() const { return static_cast<T>(Reducer<W>().initialize()); }
  template <typename In, typename Axes, typename Out>
  void operator()(const In &X, const Axes &A, Out &Y) const {
    Y = castTo<T>(castTo<W>(X).reduce(A, Reducer<W>()));
  }
};
template <typename T> using SumReduce = WrappingReduce<T, Eigen::internal::SumReducer>;
template <typename T> using ProdReduce = WrappingReduce<T, Eigen::internal::ProdReducer>;

template <typename T, typename EigenReducer> struct PlainReduce {
  T identity() const { return EigenReducer().initialize(); }
  template <typename In, typename Axes, typename Out>
  void operator()(const In &X, const Axes &A, Out &Y) const {
    Y = X.reduce(A, EigenReducer());
  }
};
// TensorFlow's Max and Min propagate NaN (reduction_ops_max.cc, _min.cc).
template <typename T>
using MaxReduce = PlainReduce<T, Eigen::internal::MaxReducer<T, Eigen::PropagateNaN>>;
template <typename T>
using MinReduce = PlainReduce<T, Eigen::internal::MinReducer<T, Eigen::PropagateNaN>>;
template <typename T> using AllReduce = PlainReduce<T, Eigen::internal::AndReducer>;
template <typename T> using AnyReduce = PlainReduce<T, Eigen::internal::OrReducer>;

/// TensorFlow's Mean (reduction_ops.h): the sum divided by the number of
/// reduced elements cast to T; 8-to-32-bit integers are summed and divided
/// in 64 bits (CASTING_SPECIALIZATION), 64-bit ones in their own type. The
/// mean of nothing is NaN for floats, 0 for integers.
template <typename T> struct MeanReduce {
  using Wide = std::conditional_t<std::is_integral_v<T> && sizeof(T) < 8,
                                  std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>, T>;
  T identity() const {
    if constexpr (std::is_integral_v<T>)
      return T(0);
    else
      return Eigen::NumTraits<T>::quiet_NaN();
  }
  template <typename In, typename Axes, typename Out>
  void operator()(const In &X, const Axes &A, Out &Y) const {
    using W = WrapType<Wide>;
    Wide Count = static_cast<Wide>(X.size() / Y.size());
    Y = castTo<T>(castTo<Wide>(castTo<W>(X).reduce(A, Eigen::internal::SumReducer<W>())) / Count);
  }
};

/// ReductionOp::Compute: `Reduce` over input 0 as `Plan` says.
template <typename T, typename Reduce>
TensorData runReduction(const TensorData &Data, const ReductionPlan &Plan, const Reduce &R) {
  if (Plan.isTrivial())
    return reshaped(Data, Plan.OutShape);
  OutputOf<T> Out(Plan.OutShape);
  if (Out.size() == 0)
    return std::move(Out).finish();
  if (Data.numElements() == 0) {
    std::fill(Out.data(), Out.data() + Out.size(), R.identity());
    return std::move(Out).finish();
  }

  ElementsOf<T> In(Data);
  const std::vector<int64_t> &D = Plan.DataReshape;
  auto in = [&](auto... Dims) { return ConstTensorOf<T, sizeof...(Dims)>(In.data(), Dims...); };
  auto out = [&](auto... Dims) { return TensorOf<T, sizeof...(Dims)>(Out.data(), Dims...); };
  const int N = Plan.ndims();
  if (N == 1) { // Reduce to a scalar.
    auto Y = out();
    R(in(D[0]), Eigen::array<Index, 1>{0}, Y);
  } else if (N == 2 && Plan.ReduceFirstAxis) {
    auto Y = out(D[1]);
    R(in(D[0], D[1]), Eigen::array<Index, 1>{0}, Y);
  } else if (N == 2) {
    auto Y = out(D[0]);
    R(in(D[0], D[1]), Eigen::array<Index, 1>{1}, Y);
  } else if (N == 3 && Plan.ReduceFirstAxis) {
    auto Y = out(D[1]);
    R(in(D[0], D[1], D[2]), Eigen::array<Index, 2>{0, 2}, Y);
  } else if (N == 3) {
    auto Y = out(D[0], D[2]);
    R(in(D[0], D[1], D[2]), Eigen::array<Index, 1>{1}, Y);
  } else {
    // Kept dimensions first, reduced ones last, then a [kept, reduced]
    // matrix reduced along its rows.
    const int Kept = (N + !Plan.ReduceFirstAxis) / 2;
    std::vector<int> Perm(N);
    for (int I = 0; I < Kept; ++I)
      Perm[I] = 2 * I + Plan.ReduceFirstAxis;
    for (int I = Kept; I < N; ++I)
      Perm[I] = 2 * (I - Kept) + !Plan.ReduceFirstAxis;
    std::unique_ptr<T[]> Shuffled = transposed(In.data(), D, Perm);
    const Index Unreduced = Out.size(), Reduced = Data.numElements() / Unreduced;
    auto Y = out(Unreduced);
    R(ConstTensorOf<T, 2>(Shuffled.get(), Unreduced, Reduced), Eigen::array<Index, 1>{1}, Y);
  }
  return std::move(Out).finish();
}

/// A reduction op: input 0 of a dtype in `Types`, reduction indices, the
/// `keep_dims` attribute; `Reduce<T>` is its reducer.
template <unsigned Types, template <typename> class Reduce>
absl::StatusOr<Outputs> reduction(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_ASSIGN_OR_RETURN(bool KeepDims, Ctx.boolAttr("keep_dims", false));
  const TensorData &Data = Ctx.input(0);
  return visitType<absl::StatusOr<Outputs>>(
      Ctx, Data.dtype(), Types, [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        if constexpr ((typeBit<T>() & Types) == 0) {
          return Ctx.unimplementedType(Data.dtype()); // visitType refused it already.
        } else {
          FROST_ASSIGN_OR_RETURN(ReductionPlan Plan, planReduction(Ctx, Data.shape(), KeepDims));
          return Outputs{runReduction<T>(Data, Plan, Reduce<T>())};
        }
      });
}

// --- ArgMax, ArgMin --------------------------------------------------------

/// ArgOp::Compute: the index of the first largest (`IsMax`) or smallest
/// element along the dimension given by input 1, as Eigen's ArgMax/ArgMin
/// tuple reducers find it: a NaN is never chosen unless every element is
/// one (then index 0), nor a value equal to the reducer's start (the
/// lowest finite value for ArgMax) once an earlier one was.
template <bool IsMax> absl::StatusOr<Outputs> argReduction(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &Input = Ctx.input(0), &Dimension = Ctx.input(1);
  if (!Dimension.shape().empty())
    return Ctx.invalid(absl::StrCat("dim must be a scalar, but received tensor of shape: ",
                                    shapeString(Dimension.shape())));
  FROST_ASSIGN_OR_RETURN(int64_t Dim, scalarIntInput(Ctx, 1, "dimension"));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType OutType,
                         Ctx.attr("output_type")
                             ? Ctx.typeAttr("output_type")
                             : absl::StatusOr<tensorflow::DataType>(tensorflow::DT_INT64));
  const int64_t Rank = static_cast<int64_t>(Input.shape().size());
  const int64_t Axis = Dim < 0 ? Dim + Rank : Dim;
  if (Axis < 0 || Axis >= Rank)
    return Ctx.invalid(
        absl::StrCat("Expected dimension in the range [", -Rank, ", ", Rank, "), but got ", Dim));
  if (Input.shape()[Axis] == 0)
    return Ctx.invalid(
        absl::StrCat("Reduction axis ", Dim, " is empty in shape ", shapeString(Input.shape())));
  std::vector<int64_t> OutShape;
  for (int64_t I = 0; I < Rank; ++I)
    if (I != Axis)
      OutShape.push_back(Input.shape()[I]);
  const int64_t Outer = product(Input.shape().take_front(Axis));
  const int64_t Inner = product(Input.shape().drop_front(Axis + 1));
  const int64_t Size = Input.shape()[Axis];
  // TensorFlow checks the rank after returning an empty output.
  if (product(OutShape) != 0 && Rank > 7)
    return Ctx.invalid(absl::StrCat("Argmax and Argmin only support up to 7 input dimensions, "
                                    "but got ",
                                    Rank, ". Inputs shape: ", shapeString(Input.shape())));

  // Eigen's tuple reducers give an Eigen::Index per output, converted to
  // the output type (ArgMax also has int16 and uint16 outputs, argmax_op.cc).
  std::vector<Index> Indices(static_cast<size_t>(product(OutShape)));
  FROST_RETURN_IF_ERROR(
      visitType<absl::Status>(Ctx, Input.dtype(), Numbers | Bool, [&](auto Tag) -> absl::Status {
        using T = typename decltype(Tag)::type;
        if (Indices.empty())
          return absl::OkStatus();
        ElementsOf<T> In(Input);
        // The dimension seen as the middle one of [outer, size, inner]: the
        // same elements in the same order for each output.
        ConstTensorOf<T, 3> X(In.data(), Outer, Size, Inner);
        TensorOf<Index, 2> Y(Indices.data(), Outer, Inner);
        if constexpr (IsMax)
          Y = X.argmax(1);
        else
          Y = X.argmin(1);
        return absl::OkStatus();
      }));
  const unsigned OutTypes = Int32 | Int64 | (IsMax ? Int16 | UInt16 : 0);
  return visitType<absl::StatusOr<Outputs>>(Ctx, OutType, OutTypes,
                                            [&](auto Tag) -> absl::StatusOr<Outputs> {
                                              using R = typename decltype(Tag)::type;
                                              OutputOf<R> Out(OutShape);
                                              for (size_t I = 0; I < Indices.size(); ++I)
                                                Out[I] = static_cast<R>(Indices[I]);
                                              return Outputs{std::move(Out).finish()};
                                            });
}

} // namespace

// TensorFlow's CPU kernels: Sum, Prod and Mean for every number type
// (TF_CALL_NUMBER_TYPES, complex ones aside), Max and Min for the real ones,
// All and Any for bool.
absl::StatusOr<Outputs> evalSum(const KernelContext &Ctx) {
  return reduction<Numbers, SumReduce>(Ctx);
}

absl::StatusOr<Outputs> evalProd(const KernelContext &Ctx) {
  return reduction<Numbers, ProdReduce>(Ctx);
}

absl::StatusOr<Outputs> evalMean(const KernelContext &Ctx) {
  return reduction<Numbers, MeanReduce>(Ctx);
}

absl::StatusOr<Outputs> evalMax(const KernelContext &Ctx) {
  return reduction<Numbers, MaxReduce>(Ctx);
}

absl::StatusOr<Outputs> evalMin(const KernelContext &Ctx) {
  return reduction<Numbers, MinReduce>(Ctx);
}

absl::StatusOr<Outputs> evalAll(const KernelContext &Ctx) {
  return reduction<Bool, AllReduce>(Ctx);
}

absl::StatusOr<Outputs> evalAny(const KernelContext &Ctx) {
  return reduction<Bool, AnyReduce>(Ctx);
}

absl::StatusOr<Outputs> evalArgMax(const KernelContext &Ctx) { return argReduction<true>(Ctx); }

absl::StatusOr<Outputs> evalArgMin(const KernelContext &Ctx) { return argReduction<false>(Ctx); }

} // namespace frost::eval
