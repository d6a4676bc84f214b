//===- Reduction.cpp - Reductions and arg-reductions ----------------------===//
//
// TensorFlow's Sum, Prod, Mean, Max, Min, All, Any (reduction_ops_*.cc over
// ReductionOp in reduction_ops_common.h) and ArgMax, ArgMin (argmax_op.cc).
//
// The axes are simplified as ReductionHelper does: adjacent reduced (or kept)
// dimensions are merged, leading size-1 dimensions skipped, and the merged
// tensor is reduced as TensorFlow's ReductionOp does for its rank and reduced
// axes (a rank > 3 tensor is transposed so the reduced axes come last), with
// Eigen Tensor reducers. Float sums and products along an innermost
// dimension, reduced or kept, replay the order of TensorFlow's own Eigen and
// AVX packets (see "TensorFlow's summation order" below); bfloat16 is summed
// in float, as TensorFlow does.
//
// scripts/compare_reduction_with_tf.py finds every result bit-identical to
// TensorFlow 2.21's (thousands of random cases, sums of up to 2M floats).
// What could still differ: TensorFlow splits a full reduction that its cost
// model finds large among its intra-op threads and combines the partial sums
// in order, a split that depends on the machine's cores (Frost uses one
// thread); the sign of a zero Max or Min of zeros of both signs. Integer
// results are exact (signed sums and products wrap, computed in the unsigned
// type so it is defined).
//
//===----------------------------------------------------------------------===//
#include "Kernel.h"
#include "TensorFlowMath.h"

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

// --- TensorFlow's summation order ---------------------------------------------
//
// TensorFlow's x86 wheels are built for AVX with a recent Eigen; Frost's
// Eigen (3.4) and build (the compiler's baseline, SSE2) have narrower packets
// and simpler loops, so float sums and products along a reduced or kept
// innermost dimension would group their terms differently. These replay
// TensorFlow's order: packets of 8 floats (4 doubles, 8 halves or bfloat16s
// whose lanes are combined in float), Eigen's unrolled accumulators and its
// tree of leaves (products are not split). Verified bit-exact against
// TensorFlow 2.21 by scripts/compare_reduction_with_tf.py. TensorFlow built
// for other CPUs (aarch64: 4-float packets) groups the terms differently.

using tfmath::avxPacketSize;

/// Eigen's LeafSize: the longest run reduced without splitting, in packets.
template <typename T> constexpr Index leafSize() {
  return std::is_same_v<T, Eigen::half> ? 200 : std::is_same_v<T, Eigen::bfloat16> ? 128 : 1024;
}

/// InnerMostDimReducer (vectorized, tree for sums): N elements of X from
/// absolute index First (a long sum is split on a packet boundary) with
/// Reducer<T>.
template <typename T, template <typename> class Reducer>
T replayInnerMost(const T *X, Index First, Index N) {
  constexpr Index P = avxPacketSize<T>();
  Reducer<T> R;
  T Accum = R.initialize();
  // Only sums are split into a tree (TensorFlow's products are not).
  constexpr bool Tree = std::is_same_v<Reducer<T>, Eigen::internal::SumReducer<T>>;
  if (Tree && N > P * leafSize<T>()) {
    const Index Split = P * Eigen::divup(First + Eigen::divup(N, Index(2)), P);
    const Index Left = std::min(Split - First, N);
    R.reduce(replayInnerMost<T, Reducer>(X, First, Left), &Accum);
    if (Left < N)
      R.reduce(replayInnerMost<T, Reducer>(X, Split, N - Left), &Accum);
    return Accum;
  }
  // Four packet accumulators over blocks of 4 packets, then single packets,
  // then a scalar tail.
  T Lanes[4][P];
  for (auto &Packet : Lanes)
    std::fill_n(Packet, P, R.initialize());
  Index Start = 0;
  if (N >= 4 * P) {
    const Index Blocks = N / (4 * P) * (4 * P);
    for (Index J = 0; J < Blocks; J += 4 * P)
      for (Index K = 0; K < 4; ++K)
        for (Index L = 0; L < P; ++L)
          R.reduce(X[First + J + K * P + L], &Lanes[K][L]);
    for (Index K = 1; K < 4; ++K)
      for (Index L = 0; L < P; ++L)
        R.reduce(Lanes[K][L], &Lanes[0][L]);
    Start = Blocks;
  }
  for (; Start + P <= N; Start += P)
    for (Index L = 0; L < P; ++L)
      R.reduce(X[First + Start + L], &Lanes[0][L]);
  for (Index J = Start; J < N; ++J)
    R.reduce(X[First + J], &Accum);
  // predux: lane L combined with lane L + Width, halving the width (in
  // float for 16-bit types), then added to the scalar.
  using Wide = std::conditional_t<sizeof(T) == 2, float, T>;
  Reducer<Wide> WideR;
  Wide V[P];
  for (Index L = 0; L < P; ++L)
    V[L] = static_cast<Wide>(Lanes[0][L]);
  for (Index Width = P / 2; Width >= 1; Width /= 2)
    for (Index L = 0; L < Width; ++L)
      WideR.reduce(V[L + Width], &V[L]);
  R.reduce(static_cast<T>(V[0]), &Accum);
  return Accum;
}

/// One output of a reduction that keeps the innermost dimension: Size
/// elements of X, Stride apart, from First. Within a packet of outputs
/// (`InPacket`), InnerMostDimPreserver sums 16 or more terms in four
/// interleaved accumulators; otherwise the sum is sequential.
template <typename T, template <typename> class Reducer>
T replayPreserved(const T *X, Index First, Index Stride, Index Size, bool InPacket) {
  Reducer<T> R;
  T Accum[4];
  std::fill_n(Accum, 4, R.initialize());
  Index J = 0;
  if (InPacket && Size >= 16) {
    for (; J + 4 <= Size; J += 4)
      for (Index K = 0; K < 4; ++K)
        R.reduce(X[First + (J + K) * Stride], &Accum[K]);
    for (Index K = 1; K < 4; ++K)
      R.reduce(Accum[K], &Accum[0]);
  }
  for (; J < Size; ++J)
    R.reduce(X[First + J * Stride], &Accum[0]);
  return Accum[0];
}

/// Reduces X seen as [Outer, Size, Inner] along its middle dimension into
/// Out ([Outer, Inner]) as TensorFlow's executor evaluates it: outputs in
/// whole packets that do not straddle a row, the rest one by one.
template <typename T, template <typename> class Reducer, typename Finish>
void replayKeptInner(const T *X, Index Outer, Index Size, Index Inner, T *Out, Finish &&F) {
  constexpr Index P = avxPacketSize<T>();
  const Index Total = Outer * Inner, Packets = Total / P * P;
  for (Index O = 0; O < Total; ++O) {
    const Index PacketStart = O / P * P;
    const bool InPacket = O < Packets && PacketStart % Inner + P <= Inner;
    const Index First = O / Inner * Size * Inner + O % Inner;
    Out[O] = F(replayPreserved<T, Reducer>(X, First, Inner, Size, InPacket));
  }
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
  static constexpr bool ReplaysOrder = !std::is_integral_v<T>;
  // TensorFlow sums bfloat16 in float (not its products).
  static constexpr bool SumsInFloat =
      std::is_same_v<Reducer<float>, Eigen::internal::SumReducer<float>>;
  template <typename U> using Op = Reducer<U>;
  T finish(T V, Index) const { return V; }
  T identity() const { return static_cast<T>(Reducer<W>().initialize()); }
  template <typename In, typename Axes, typename Out>
  void operator()(const In &X, const Axes &A, Out &Y) const {
    Y = castTo<T>(castTo<W>(X).reduce(A, Reducer<W>()));
  }
};
template <typename T> using SumReduce = WrappingReduce<T, Eigen::internal::SumReducer>;
template <typename T> using ProdReduce = WrappingReduce<T, Eigen::internal::ProdReducer>;

template <typename T, typename EigenReducer> struct PlainReduce {
  // Order-independent (but for the sign of a zero max or min).
  static constexpr bool ReplaysOrder = false;
  static constexpr bool SumsInFloat = false;
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
  static constexpr bool ReplaysOrder = !std::is_integral_v<T>;
  static constexpr bool SumsInFloat = true;
  template <typename U> using Op = Eigen::internal::SumReducer<U>;
  T finish(T Sum, Index Count) const { return Sum / static_cast<T>(Count); }
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

// The reduced axes as compile-time lists, as TensorFlow's Constants<CPUDevice>
// gives them: Eigen then knows when the innermost dimension is reduced (and
// sums each output with its vectorized tree reducer) or kept.
using ReduceZero = Eigen::IndexList<Eigen::type2index<0>>;
using ReduceOne = Eigen::IndexList<Eigen::type2index<1>>;
using ReduceZeroTwo = Eigen::IndexList<Eigen::type2index<0>, Eigen::type2index<2>>;

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
  // Each row of the [Rows, Cols] matrix at X reduced into Out, and X seen as
  // [Outer, Size, Inner] reduced along its middle dimension: with Eigen, or
  // in TensorFlow's order for the order-dependent float reductions.
  auto reduceRows = [&](const T *X, Index Rows, Index Cols) {
    if constexpr (Reduce::ReplaysOrder) {
      for (Index I = 0; I < Rows; ++I)
        Out[I] = R.finish(replayInnerMost<T, Reduce::template Op>(X, I * Cols, Cols), Cols);
    } else if (Rows == 1) {
      auto Y = out();
      R(ConstTensorOf<T, 1>(X, Cols), ReduceZero(), Y);
    } else {
      auto Y = out(Rows);
      R(ConstTensorOf<T, 2>(X, Rows, Cols), ReduceOne(), Y);
    }
  };
  auto reduceMiddle = [&](Index Outer, Index Size, Index Inner) {
    if constexpr (Reduce::ReplaysOrder) {
      replayKeptInner<T, Reduce::template Op>(In.data(), Outer, Size, Inner, Out.data(),
                                              [&](T V) { return R.finish(V, Size); });
    } else if (Outer == 1) {
      auto Y = out(Inner);
      R(in(Size, Inner), ReduceZero(), Y);
    } else {
      auto Y = out(Outer, Inner);
      R(in(Outer, Size, Inner), ReduceOne(), Y);
    }
  };
  const int N = Plan.ndims();
  if (N == 1) { // Reduce to a scalar.
    reduceRows(In.data(), 1, D[0]);
  } else if (N == 2 && Plan.ReduceFirstAxis) {
    reduceMiddle(1, D[0], D[1]);
  } else if (N == 2) {
    reduceRows(In.data(), D[0], D[1]);
  } else if (N == 3 && Plan.ReduceFirstAxis) {
    // Neither innermost: Eigen 3.4 sums these as TensorFlow's Eigen does.
    auto Y = out(D[1]);
    R(in(D[0], D[1], D[2]), ReduceZeroTwo(), Y);
  } else if (N == 3) {
    reduceMiddle(D[0], D[1], D[2]);
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
    reduceRows(Shuffled.get(), Out.size(), Data.numElements() / Out.size());
  }
  return std::move(Out).finish();
}

/// `X`'s elements converted to To (rounded to nearest even).
template <typename From, typename To> TensorData castElements(const TensorData &X) {
  ElementsOf<From> In(X);
  OutputOf<To> Out(std::vector<int64_t>(X.shape().begin(), X.shape().end()));
  for (int64_t I = 0; I < Out.size(); ++I)
    Out[I] = static_cast<To>(In[I]);
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
          if constexpr (std::is_same_v<T, Eigen::bfloat16> && Reduce<T>::SumsInFloat) {
            // Summed and divided in float, rounded once to bfloat16.
            TensorData Sum =
                runReduction<float>(castElements<T, float>(Data), Plan, Reduce<float>());
            return Outputs{castElements<float, T>(Sum)};
          } else {
            return Outputs{runReduction<T>(Data, Plan, Reduce<T>())};
          }
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
