//===- Segment.cpp - Segment reductions, DenseBincount, Bucketize ---------===//
//
// TensorFlow's segment_reduction_ops_impl.h (UnsortedSegmentSum, Max, Min,
// Prod) and bincount_op.cc (DenseBincount) on CPU, with their checks and
// messages. Each output row starts at the reduction's identity (Max: the
// type's lowest value, Min: its highest) and takes the input rows of its
// segment in index order, as TensorFlow's functor does, so float results are
// bit for bit TensorFlow's. The sorted reductions (SegmentSum, Mean, Max,
// Min, Prod) follow SegmentReductionOp: a one-row segment is copied, longer
// ones are reduced by Eigen's reducers in row order. DenseBincount's 1-D float sums are refused over
// 1024 elements: TensorFlow splits those between threads, which changes the
// order of the additions.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"
#include "ElementwiseSupport.h"

#include <algorithm>
#include <type_traits>
#include <limits>

namespace frost::eval {

namespace {

enum class SegmentReduction { Sum, Max, Min, Prod };

/// TensorFlow's SliceDebugString: the multi-index of flat element I of a
/// tensor of `Shape`, "[i,j]" (nothing for a scalar).
std::string sliceString(llvm::ArrayRef<int64_t> Shape, int64_t I) {
  if (Shape.empty())
    return "";
  std::vector<int64_t> Index(Shape.size());
  for (size_t D = Shape.size(); D-- > 0;) {
    Index[D] = Shape[D] ? I % Shape[D] : 0;
    I = Shape[D] ? I / Shape[D] : 0;
  }
  return shapeString(Index);
}

template <typename T> T combine(SegmentReduction R, T Out, T Data) {
  switch (R) {
  case SegmentReduction::Sum:
    return static_cast<T>(Out + Data);
  case SegmentReduction::Prod:
    return static_cast<T>(Out * Data);
  case SegmentReduction::Max: // Eigen's cwiseMax(data, out): data unless out is larger.
    return Data < Out ? Out : Data;
  case SegmentReduction::Min:
    return Out < Data ? Out : Data;
  }
  return Out;
}

template <typename T> T identity(SegmentReduction R) {
  switch (R) {
  case SegmentReduction::Sum:
    return T(0);
  case SegmentReduction::Prod:
    return T(1);
  case SegmentReduction::Max:
    return Eigen::NumTraits<T>::lowest();
  case SegmentReduction::Min:
    return Eigen::NumTraits<T>::highest();
  }
  return T(0);
}

absl::StatusOr<Outputs> unsortedSegment(const KernelContext &Ctx, SegmentReduction R) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &Data = Ctx.input(0), &Ids = Ctx.input(1), &NumT = Ctx.input(2);
  if (!NumT.shape().empty())
    return Ctx.invalid(
        absl::StrCat("num_segments should be a scalar, not shape ", shapeOf(NumT)));
  const auto DataShape = Data.shape(), IdShape = Ids.shape();
  if (IdShape.size() > DataShape.size() ||
      !std::equal(IdShape.begin(), IdShape.end(), DataShape.begin()))
    return Ctx.invalid(absl::StrCat("data.shape = ", shapeOf(Data),
                                    " does not start with segment_ids.shape = ", shapeOf(Ids)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> NumV, intElements(Ctx, 2));
  const int64_t NumSegments = NumV[0];
  if (NumSegments < 0)
    return Ctx.invalid(
        absl::StrCat("Input num_segments == ", NumSegments, " must not be negative."));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SegmentIds,
                         intElements(Ctx, 1,
                                     dtypeBit(tensorflow::DT_INT16) |
                                         dtypeBit(tensorflow::DT_INT32) |
                                         dtypeBit(tensorflow::DT_INT64)));
  std::vector<int64_t> OutShape{NumSegments};
  int64_t Inner = 1;
  for (size_t D = IdShape.size(); D < DataShape.size(); ++D) {
    OutShape.push_back(DataShape[D]);
    Inner *= DataShape[D];
  }
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Data.dtype(), OutShape).status());
  constexpr unsigned Types = Numbers;
  return dispatch<Types>(Ctx, Data.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    OutputOf<T> Out(OutShape);
    std::fill(Out.data(), Out.data() + Out.size(), identity<T>(R));
    if (Data.numElements() == 0)
      return Outputs{std::move(Out).finish()};
    ElementsOf<T> In(Data);
    for (size_t I = 0; I < SegmentIds.size(); ++I) {
      const int64_t J = SegmentIds[I];
      if (J < 0)
        continue;
      if (J >= NumSegments)
        return Ctx.invalid(absl::StrCat("segment_ids",
                                        sliceString(IdShape, static_cast<int64_t>(I)), " = ", J,
                                        " is out of range [0, ", NumSegments, ")"));
      for (int64_t K = 0; K < Inner; ++K)
        Out[J * Inner + K] = combine(R, Out[J * Inner + K], In[I * Inner + K]);
    }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace

absl::StatusOr<Outputs> evalUnsortedSegmentSum(const KernelContext &Ctx) {
  return unsortedSegment(Ctx, SegmentReduction::Sum);
}
absl::StatusOr<Outputs> evalUnsortedSegmentProd(const KernelContext &Ctx) {
  return unsortedSegment(Ctx, SegmentReduction::Prod);
}
absl::StatusOr<Outputs> evalUnsortedSegmentMax(const KernelContext &Ctx) {
  return unsortedSegment(Ctx, SegmentReduction::Max);
}
absl::StatusOr<Outputs> evalUnsortedSegmentMin(const KernelContext &Ctx) {
  return unsortedSegment(Ctx, SegmentReduction::Min);
}

// --- Sorted segment reductions ---------------------------------------------------

namespace {

enum class SortedReduction { Sum, Mean, Max, Min, Prod };

/// The value TensorFlow gives the rows of ids no segment holds (its
/// `default_value`: 1 for Prod, 0 otherwise, even for Max and Min).
template <typename T> T emptySegment(SortedReduction R) {
  return R == SortedReduction::Prod ? T(1) : T(0);
}

/// Eigen's MaxReducer / MinReducer start: -inf / inf for floating point
/// types, the lowest / highest value for integers.
template <typename T> T bottomValue(bool Max) {
  if constexpr (std::is_integral_v<T>)
    return Max ? Eigen::NumTraits<T>::lowest() : Eigen::NumTraits<T>::highest();
  else
    return Max ? -Eigen::NumTraits<T>::infinity() : Eigen::NumTraits<T>::infinity();
}

/// Eigen's reducer over the rows of one segment (more than one row), in
/// row order from the reducer's initial value. Max and Min differ between
/// Eigen's packet path (a NaN is skipped, the earlier of -0.0 and 0.0
/// stays) and its scalar path (a NaN is taken unless a later value
/// replaces it, the later of -0.0 and 0.0 wins), as measured against
/// TensorFlow: `InPacket` says which path computed the column.
template <typename T>
T reduceRows(SortedReduction R, const T *First, int64_t Rows, int64_t Stride, bool InPacket) {
  using W = elementwise::WrapType<T>;
  switch (R) {
  case SortedReduction::Sum:
  case SortedReduction::Mean: {
    W Acc = W(0);
    for (int64_t I = 0; I < Rows; ++I)
      Acc = static_cast<W>(Acc + static_cast<W>(First[I * Stride]));
    if (R == SortedReduction::Sum)
      return static_cast<T>(Acc);
    return static_cast<T>(static_cast<T>(Acc) / static_cast<T>(Rows));
  }
  case SortedReduction::Prod: {
    W Acc = W(1);
    for (int64_t I = 0; I < Rows; ++I)
      Acc = static_cast<W>(Acc * static_cast<W>(First[I * Stride]));
    return static_cast<T>(Acc);
  }
  case SortedReduction::Max: {
    T Acc = bottomValue<T>(/*Max=*/true);
    for (int64_t I = 0; I < Rows; ++I) {
      const T V = First[I * Stride];
      Acc = InPacket ? (Acc < V ? V : Acc) : (V < Acc ? Acc : V);
    }
    return Acc;
  }
  case SortedReduction::Min: {
    T Acc = bottomValue<T>(/*Max=*/false);
    for (int64_t I = 0; I < Rows; ++I) {
      const T V = First[I * Stride];
      Acc = InPacket ? (V < Acc ? V : Acc) : (Acc < V ? Acc : V);
    }
    return Acc;
  }
  }
  return T(0);
}

/// Elements of T in one of TensorFlow's AVX packets (its CPU builds use AVX).
template <typename T> constexpr int64_t packetSize() {
  if constexpr (std::is_same_v<T, float>)
    return 8;
  else if constexpr (std::is_same_v<T, double>)
    return 4;
  else if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
    return 8;
  else
    return 1;
}

absl::StatusOr<Outputs> sortedSegment(const KernelContext &Ctx, SortedReduction R) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &Data = Ctx.input(0), &Ids = Ctx.input(1);
  if (Data.shape().empty())
    return Ctx.invalid("input must be at least rank 1");
  if (Ids.shape().size() != 1)
    return Ctx.invalid("segment_ids should be a vector.");
  if (Ids.numElements() != Data.shape()[0])
    return Ctx.invalid("segment_ids should be the same size as dimension 0 of input.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SegmentIds, intElements(Ctx, 1));
  const int64_t NumIds = static_cast<int64_t>(SegmentIds.size());
  const int64_t OutRows = NumIds > 0 ? SegmentIds.back() + 1 : 0;
  if (OutRows < 0)
    return Ctx.invalid("segment ids must be >= 0");
  std::vector<int64_t> OutShape = shapeVector(Data);
  OutShape[0] = OutRows;
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Data.dtype(), OutShape).status());
  if (NumIds > 0 && OutRows == 0)
    return Ctx.invalid("segment ids must be >= 0");
  int64_t Inner = 1;
  for (size_t D = 1; D < OutShape.size(); ++D)
    Inner *= OutShape[D];
  return dispatch<Numbers>(Ctx, Data.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    OutputOf<T> Out(OutShape);
    std::fill(Out.data(), Out.data() + Out.size(), emptySegment<T>(R));
    if (NumIds == 0)
      return Outputs{std::move(Out).finish()};
    ElementsOf<T> In(Data);
    const int64_t PacketColumns = Inner / packetSize<T>() * packetSize<T>();
    // TensorFlow's loop: a segment is processed once the next id differs.
    int64_t Start = 0;
    for (int64_t End = 1; End <= NumIds; ++End) {
      const int64_t Id = SegmentIds[Start];
      if (End < NumIds) {
        if (SegmentIds[End] == Id)
          continue;
        if (SegmentIds[End] < Id)
          return Ctx.invalid("segment ids are not increasing");
      }
      if (Id < 0 || Id >= OutRows)
        return Ctx.invalid(absl::StrCat("Segment id ", Id, " out of range [0, ", OutRows,
                                        "), possibly because 'segment_ids' input is not "
                                        "sorted."));
      const int64_t Rows = End - Start;
      for (int64_t K = 0; K < Inner; ++K) {
        const T *First = In.data() + Start * Inner + K;
        if (Rows == 1) {
          Out[Id * Inner + K] = *First;
          continue;
        }
        if constexpr (std::is_integral_v<T>)
          if (R == SortedReduction::Mean && static_cast<T>(Rows) == T(0))
            return Ctx.unimplemented("a mean over a segment whose row count is 0 in its "
                                     "dtype: TensorFlow divides by zero");
        Out[Id * Inner + K] = reduceRows(R, First, Rows, Inner, K < PacketColumns);
      }
      Start = End;
    }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace

absl::StatusOr<Outputs> evalSegmentSum(const KernelContext &Ctx) {
  return sortedSegment(Ctx, SortedReduction::Sum);
}
absl::StatusOr<Outputs> evalSegmentMean(const KernelContext &Ctx) {
  return sortedSegment(Ctx, SortedReduction::Mean);
}
absl::StatusOr<Outputs> evalSegmentMax(const KernelContext &Ctx) {
  return sortedSegment(Ctx, SortedReduction::Max);
}
absl::StatusOr<Outputs> evalSegmentMin(const KernelContext &Ctx) {
  return sortedSegment(Ctx, SortedReduction::Min);
}
absl::StatusOr<Outputs> evalSegmentProd(const KernelContext &Ctx) {
  return sortedSegment(Ctx, SortedReduction::Prod);
}

// --- DenseBincount -------------------------------------------------------------

absl::StatusOr<Outputs> evalDenseBincount(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_ASSIGN_OR_RETURN(bool Binary, Ctx.boolAttr("binary_output", false));
  const TensorData &In = Ctx.input(0), &SizeT = Ctx.input(1), &Weights = Ctx.input(2);
  const size_t Rank = In.shape().size();
  if (Rank > 2)
    return Ctx.invalid(absl::StrCat("Shape must be at most rank 2 but is rank ", Rank));
  if (!SizeT.shape().empty())
    return Ctx.invalid(
        absl::StrCat("Shape must be rank 0 but is rank ", SizeT.shape().size()));
  if (!(Weights.shape() == In.shape() || Weights.numElements() == 0))
    return Ctx.invalid(absl::StrCat(
        "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in which case it "
        "acts as all weights equal to 1. Received ",
        shapeOf(Weights)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SizeV, intElements(Ctx, 1));
  const int64_t Size = SizeV[0];
  if (Size < 0)
    return Ctx.invalid(absl::StrCat("size (", Size, ") must be non-negative"));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Values, intElements(Ctx, 0));
  for (int64_t V : Values)
    if (V < 0)
      return Ctx.invalid(Rank <= 1 ? std::string("Input arr must be non-negative!")
                                   : absl::StrCat("Input 'in' must be non-negative! Negative "
                                                  "input value found: ",
                                                  V));
  const int64_t Rows = Rank == 2 ? In.shape()[0] : 1;
  std::vector<int64_t> OutShape =
      Rank == 2 ? std::vector<int64_t>{Rows, Size} : std::vector<int64_t>{Size};
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Weights.dtype(), OutShape).status());
  const bool Weighted = Weights.numElements() != 0;
  constexpr unsigned Types = Int32 | Int64 | Float32 | Float64;
  return dispatch<Types>(Ctx, Weights.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    if constexpr (!std::is_integral_v<T>)
      if (Rank <= 1 && Weighted && !Binary && Values.size() > 1024)
        return Ctx.unimplemented("a float sum over more than 1024 elements: TensorFlow "
                                 "splits it between threads");
    OutputOf<T> Out(OutShape);
    std::fill(Out.data(), Out.data() + Out.size(), T(0));
    ElementsOf<T> W(Weights);
    const int64_t Cols = Rows ? static_cast<int64_t>(Values.size()) / Rows : 0;
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t C = 0; C < Cols; ++C) {
        const int64_t I = R * Cols + C, V = Values[I];
        if (V >= Size)
          continue;
        T &Bin = Out[R * Size + V];
        Bin = Binary ? T(1) : static_cast<T>(Bin + (Weighted ? W[I] : T(1)));
      }
    return Outputs{std::move(Out).finish()};
  });
}

// Bucketize (bucketize_op.cc): the number of boundaries not above each
// element, compared as C++ compares T with float (upper_bound).
absl::StatusOr<Outputs> evalBucketize(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const tensorflow::AttrValue *Attr = Ctx.attr("boundaries");
  if (!Attr || !Attr->has_list())
    return Ctx.invalid("attribute 'boundaries' is missing or not a list of floats");
  const std::vector<float> Boundaries(Attr->list().f().begin(), Attr->list().f().end());
  if (!std::is_sorted(Boundaries.begin(), Boundaries.end()))
    return Ctx.invalid("Expected sorted boundaries");
  const TensorData &In = Ctx.input(0);
  return dispatch<Float32 | Float64 | Int32 | Int64>(
      Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        ElementsOf<T> X(In);
        OutputOf<int32_t> Out(shapeVector(In));
        for (int64_t I = 0; I < X.size(); ++I)
          Out[I] = static_cast<int32_t>(
              std::upper_bound(Boundaries.begin(), Boundaries.end(), X[I]) - Boundaries.begin());
        return Outputs{std::move(Out).finish()};
      });
}

} // namespace frost::eval
