//===- Search.cpp - LowerBound, UpperBound, HistogramFixedWidth -----------===//
//
// TensorFlow's searchsorted_op.cc (each row of values searched in the same
// row of sorted_inputs with std::lower_bound / std::upper_bound) and
// histogram_op.cc (bin = min((x clamped to [lo, hi], as double, - lo) /
// step, nbins - 1) truncated, step = hi / nbins - lo / nbins in double; one
// bin counts everything). Both are exact. A step that is not finite is
// refused: TensorFlow's bin index is then undefined.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

namespace frost::eval {

namespace {

constexpr unsigned SearchTypes = Numbers;

template <bool Upper> absl::StatusOr<Outputs> searchSorted(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType OutType, Ctx.typeAttr("out_type"));
  const TensorData &Sorted = Ctx.input(0), &Values = Ctx.input(1);
  // The op's shape function (run when the graph was built) wants matrices.
  for (const TensorData *T : {&Sorted, &Values})
    if (T->shape().size() != 2)
      return Ctx.invalid(
          absl::StrCat("Shape must be rank 2 but is rank ", T->shape().size()));
  if (Sorted.shape()[0] != Values.shape()[0])
    return Ctx.invalid("Leading dim_size of both tensors must match.");
  const int64_t Rows = Sorted.shape()[0], N = Sorted.shape()[1], M = Values.shape()[1];
  if (OutType != tensorflow::DT_INT32 && OutType != tensorflow::DT_INT64)
    return Ctx.unimplementedType(OutType);
  if (OutType == tensorflow::DT_INT32 && N >= std::numeric_limits<int32_t>::max())
    return Ctx.invalid(absl::StrCat(
        "trailing dim_size must less than INT_MAX for int32 output type, was ", N));
  return dispatch<SearchTypes>(Ctx, Sorted.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> S(Sorted), V(Values);
    std::vector<int64_t> Index(static_cast<size_t>(Rows * M));
    for (int64_t R = 0; R < Rows; ++R) {
      const T *Begin = S.data() + R * N, *End = Begin + N;
      for (int64_t I = 0; I < M; ++I) {
        const T &X = V[R * M + I];
        Index[R * M + I] =
            (Upper ? std::upper_bound(Begin, End, X) : std::lower_bound(Begin, End, X)) - Begin;
      }
    }
    std::vector<int64_t> Shape{Rows, M};
    if (OutType == tensorflow::DT_INT32) {
      OutputOf<int32_t> Out(Shape);
      for (size_t I = 0; I < Index.size(); ++I)
        Out[static_cast<int64_t>(I)] = static_cast<int32_t>(Index[I]);
      return Outputs{std::move(Out).finish()};
    }
    OutputOf<int64_t> Out(Shape);
    std::copy(Index.begin(), Index.end(), Out.data());
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace

absl::StatusOr<Outputs> evalLowerBound(const KernelContext &Ctx) {
  return searchSorted<false>(Ctx);
}
absl::StatusOr<Outputs> evalUpperBound(const KernelContext &Ctx) {
  return searchSorted<true>(Ctx);
}

absl::StatusOr<Outputs> evalHistogramFixedWidth(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType OutType, Ctx.typeAttr("dtype"));
  if (OutType != tensorflow::DT_INT32 && OutType != tensorflow::DT_INT64)
    return Ctx.unimplementedType(OutType);
  const TensorData &Values = Ctx.input(0), &Range = Ctx.input(1), &NBins = Ctx.input(2);
  if (Range.shape().size() != 1)
    return Ctx.invalid("value_range should be a vector.");
  if (Range.numElements() != 2)
    return Ctx.invalid("value_range should be a vector of 2 elements.");
  if (!NBins.shape().empty())
    return Ctx.invalid("nbins should be a scalar.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> NBinsV,
                         intElements(Ctx, 2, dtypeBit(tensorflow::DT_INT32)));
  const int64_t Bins = NBinsV[0];
  constexpr unsigned Types = Int32 | Int64 | Float32 | Float64;
  return dispatch<Types>(Ctx, Values.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(Values), R(Range);
    const T Lo = R[0], Hi = R[1];
    if (!(Lo < Hi))
      return Ctx.invalid(absl::StrCat(
          "value_range should satisfy value_range[0] < value_range[1], but got '[",
          Lo, ", ", Hi, "]'"));
    if (Bins <= 0)
      return Ctx.invalid(
          absl::StrCat("nbins should be a positive number, but got '", Bins, "'"));
    FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, OutType, {Bins}).status());
    std::vector<int64_t> Counts(static_cast<size_t>(Bins), 0);
    if (Bins == 1) {
      Counts[0] = X.size();
    } else {
      // The step from each bound divided separately, so it cannot overflow.
      const double Step = static_cast<double>(Hi) / static_cast<double>(Bins) -
                          static_cast<double>(Lo) / static_cast<double>(Bins);
      const double LastBin = static_cast<double>(Bins - 1);
      for (int64_t I = 0; I < X.size(); ++I)
        if constexpr (!std::is_integral_v<T>)
          if (std::isnan(X[I]))
            return Ctx.invalid("Histogram values must not contain NaN");
      if (!std::isfinite(Step))
        return Ctx.unimplemented("a value range whose width is not finite");
      for (int64_t I = 0; I < X.size(); ++I) {
        const T V = X[I];
        const T Clamped = V < Lo ? Lo : (Hi < V ? Hi : V);
        const double Bin = std::min(
            (static_cast<double>(Clamped) - static_cast<double>(Lo)) / Step, LastBin);
        if (!(Bin >= 0))
          return Ctx.unimplemented("a value whose bin is undefined");
        ++Counts[static_cast<size_t>(static_cast<int32_t>(Bin))];
      }
    }
    std::vector<int64_t> Shape{Bins};
    if (OutType == tensorflow::DT_INT32) {
      OutputOf<int32_t> Out(Shape);
      for (int64_t B = 0; B < Bins; ++B)
        Out[B] = static_cast<int32_t>(Counts[B]);
      return Outputs{std::move(Out).finish()};
    }
    OutputOf<int64_t> Out(Shape);
    std::copy(Counts.begin(), Counts.end(), Out.data());
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace frost::eval
