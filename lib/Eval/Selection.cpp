//===- Selection.cpp - TopKV2, OneHot, Where ------------------------------===//
//
// TensorFlow's topk_op.cc, one_hot_op.cc and where_op.cc on CPU, with their
// checks and messages. TopKV2 orders by value, then by index for equal
// values (TensorFlow's stable order); the order TensorFlow gives NaNs and the
// unsorted order of a partial selection are its sort's, not specified, so
// Frost refuses those rather than guess.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <numeric>

namespace frost::eval {

// --- TopKV2 ------------------------------------------------------------------

absl::StatusOr<Outputs> evalTopKV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &KT = Ctx.input(1);
  FROST_ASSIGN_OR_RETURN(bool Sorted, Ctx.boolAttr("sorted", true));
  tensorflow::DataType IndexType = tensorflow::DT_INT32; // Before index_type existed.
  if (Ctx.attr("index_type")) {
    FROST_ASSIGN_OR_RETURN(IndexType, Ctx.typeAttr("index_type"));
  }
  if (!KT.shape().empty())
    return Ctx.invalid(absl::StrCat("k must be scalar, got shape ", shapeOf(KT)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> KV,
                         intElements(Ctx, 1,
                                     dtypeBit(tensorflow::DT_INT16) |
                                         dtypeBit(tensorflow::DT_INT32) |
                                         dtypeBit(tensorflow::DT_INT64)));
  int64_t K = KV[0];
  if (K < 0)
    return Ctx.invalid(absl::StrCat("Need k >= 0, got ", K));
  if (In.shape().empty())
    return Ctx.invalid(absl::StrCat("input must be >= 1-D, got shape ", shapeOf(In)));
  int64_t Cols = In.shape().back();
  if (Cols < K)
    return Ctx.invalid(absl::StrCat("input must have at least k columns. Had ", Cols,
                                    ", needed ", K));
  std::vector<int64_t> OutShape = shapeVector(In);
  OutShape.back() = K;
  int64_t Rows = 1;
  for (size_t D = 0; D + 1 < OutShape.size(); ++D)
    Rows *= OutShape[D];
  if (!Sorted && K > 1 && K < Cols)
    return Ctx.unimplemented("sorted=false: the order of an unsorted selection is "
                             "TensorFlow's sort's, not specified");
  return dispatch<Numbers>(Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(In);
    if constexpr (!std::is_integral_v<T>)
      for (const T &V : X)
        if (Eigen::numext::isnan(V))
          return Ctx.unimplemented("input with NaN: TensorFlow orders NaNs as its sort "
                                   "happens to, not specified");
    OutputOf<T> Values(OutShape);
    std::vector<int64_t> Indices(static_cast<size_t>(Rows * K));
    std::vector<int64_t> Order(static_cast<size_t>(Cols));
    for (int64_t R = 0; R < Rows && K > 0; ++R) {
      const T *Row = X.data() + R * Cols;
      std::iota(Order.begin(), Order.end(), 0);
      // Larger values first; equal values by index.
      std::partial_sort(Order.begin(), Order.begin() + K, Order.end(),
                        [Row](int64_t A, int64_t B) {
                          if (Row[B] < Row[A])
                            return true;
                          if (Row[A] < Row[B])
                            return false;
                          return A < B;
                        });
      for (int64_t I = 0; I < K; ++I) {
        Values[R * K + I] = Row[Order[I]];
        Indices[R * K + I] = Order[I];
      }
    }
    FROST_ASSIGN_OR_RETURN(
        TensorData IndexT,
        visitType<absl::StatusOr<TensorData>>(
            Ctx, IndexType, Int16 | Int32 | Int64, [&](auto IndexTag) -> absl::StatusOr<TensorData> {
              using I = typename decltype(IndexTag)::type;
              OutputOf<I> Out(OutShape);
              for (size_t N = 0; N < Indices.size(); ++N)
                Out[N] = static_cast<I>(Indices[N]);
              return std::move(Out).finish();
            }));
    return Outputs{std::move(Values).finish(), std::move(IndexT)};
  });
}

// --- OneHot ------------------------------------------------------------------

absl::StatusOr<Outputs> evalOneHot(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(4));
  const TensorData &IndicesT = Ctx.input(0), &DepthT = Ctx.input(1), &On = Ctx.input(2),
                   &Off = Ctx.input(3);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, On.dtype(),
                                   (dtypes::Pod | dtypes::String | dtypes::Variant)));
  if (Off.dtype() != On.dtype())
    return Ctx.invalid("on_value and off_value have different dtypes");
  FROST_ASSIGN_OR_RETURN(int64_t AxisAttr, Ctx.intAttr("axis", -1));
  int64_t IndicesRank = IndicesT.shape().size(), OutRank = IndicesRank + 1;
  if (!(AxisAttr == -1 || (AxisAttr >= 0 && AxisAttr < OutRank)))
    return Ctx.invalid(absl::StrCat("Expected axis to be -1 or between [0, ", OutRank,
                                    ").  But received: ", AxisAttr));
  if (!DepthT.shape().empty())
    return Ctx.invalid(absl::StrCat("depth must be a scalar, but got: ", shapeOf(DepthT)));
  if (!On.shape().empty())
    return Ctx.invalid(absl::StrCat("on_value must be a scalar, but got: ", shapeOf(On)));
  if (!Off.shape().empty())
    return Ctx.invalid(absl::StrCat("off_value must be a scalar, but got: ", shapeOf(Off)));
  int64_t Axis = AxisAttr == -1 ? IndicesRank : AxisAttr;
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> DepthV,
                         intElements(Ctx, 1, dtypeBit(tensorflow::DT_INT32)));
  int64_t Depth = DepthV[0];
  if (Depth < 0)
    return Ctx.invalid(absl::StrCat("depth must be non-negative, got: ", Depth));
  FROST_ASSIGN_OR_RETURN(
      std::vector<int64_t> Indices,
      intElements(Ctx, 0,
                  dtypeBit(tensorflow::DT_UINT8) | dtypeBit(tensorflow::DT_INT8) |
                      dtypeBit(tensorflow::DT_INT32) | dtypeBit(tensorflow::DT_INT64)));
  std::vector<int64_t> OutShape = shapeVector(IndicesT);
  OutShape.insert(OutShape.begin() + Axis, Depth);
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, On.dtype(), OutShape, {&On, &Off}).status());
  int64_t Prefix = 1, Suffix = 1;
  for (int64_t D = 0; D < Axis; ++D)
    Prefix *= IndicesT.shape()[D];
  for (int64_t D = Axis; D < IndicesRank; ++D)
    Suffix *= IndicesT.shape()[D];
  ElementWriter Out(On.dtype(), OutShape);
  for (int64_t P = 0; P < Prefix; ++P)
    for (int64_t D = 0; D < Depth; ++D)
      for (int64_t S = 0; S < Suffix; ++S)
        Out.append(Indices[P * Suffix + S] == D ? On : Off, 0);
  return Outputs{std::move(Out).finish()};
}

// --- Where -------------------------------------------------------------------

absl::StatusOr<Outputs> evalWhere(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  if (In.dtype() == tensorflow::DT_HALF)
    return Ctx.invalid("No WhereOp available for float16/half type on CPU; dying in CPU "
                       "WhereOp to avoid silently creating costly copies from device.");
  int64_t Rank = In.shape().size();
  return dispatch<AllFixed>(Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    if (Rank < 1 || Rank > 8)
      return Ctx.invalid(absl::StrCat("WhereOp : Unhandled input dimensions: ", Rank));
    ElementsOf<T> X(In);
    std::vector<int64_t> True;
    for (int64_t I = 0; I < X.size(); ++I)
      if (X[I] != T(0))
        True.push_back(I);
    OutputOf<int64_t> Out({static_cast<int64_t>(True.size()), Rank});
    std::vector<int64_t> Strides = stridesOf(In.shape());
    for (size_t N = 0; N < True.size(); ++N)
      for (int64_t D = 0; D < Rank; ++D)
        Out[N * Rank + D] = (True[N] / Strides[D]) % In.shape()[D];
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace frost::eval
