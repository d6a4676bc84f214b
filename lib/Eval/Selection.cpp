//===- Selection.cpp - TopKV2, OneHot, Where, Unique ----------------------===//
//
// TensorFlow's topk_op.cc, one_hot_op.cc, where_op.cc and unique_op.cc on
// CPU, with their checks and messages. TopKV2 orders by value, then by index for equal
// values (TensorFlow's stable order); the order TensorFlow gives NaNs and the
// unsorted order of a partial selection are its sort's, not specified, so
// Frost refuses those rather than guess.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>

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

// --- Unique ---------------------------------------------------------------------

namespace {

/// Each element of `In` (of a dtype Unique registers) as the bytes equal
/// elements share: C++'s == on T, as TensorFlow's hash maps compare them. A
/// float zero of either sign, and a subnormal (read as zero: TensorFlow's
/// kernels run with denormals as zeros), is +0; NaN, equal to nothing, is
/// std::nullopt.
class ElementKeys {
public:
  explicit ElementKeys(const TensorData &In) : In(In) {}

  std::optional<llvm::StringRef> key(int64_t I, std::string &Buffer) const {
    using namespace tensorflow;
    if (In.dtype() == DT_STRING)
      return llvm::StringRef(In.elements()[I]);
    const size_t Size = dataTypeSize(In.dtype());
    const char *P = In.bytes().data() + I * Size;
    uint64_t Bits = 0;
    std::memcpy(&Bits, P, Size);
    bool IsNaN = false;
    switch (In.dtype()) {
    case DT_FLOAT:
    case DT_BFLOAT16:
      Bits = canonical(Bits, Size * 8, 8, IsNaN);
      break;
    case DT_DOUBLE:
      Bits = canonical(Bits, 64, 11, IsNaN);
      break;
    case DT_HALF: // Half subnormals are normal floats: only the sign of zero.
      Bits = canonical(Bits, 16, 5, IsNaN, /*FlushSubnormals=*/false);
      break;
    case DT_BOOL:
      Bits = Bits != 0;
      break;
    default:
      break;
    }
    if (IsNaN)
      return std::nullopt;
    Buffer.assign(reinterpret_cast<const char *>(&Bits), Size);
    return llvm::StringRef(Buffer);
  }

  /// Whether elements I and J compare equal with different bits (0.0 and
  /// -0.0, a subnormal and a zero).
  bool equalWithOtherBits(int64_t I, int64_t J) const {
    if (In.dtype() == tensorflow::DT_STRING)
      return false;
    const size_t Size = dataTypeSize(In.dtype());
    return std::memcmp(In.bytes().data() + I * Size, In.bytes().data() + J * Size, Size) != 0;
  }

private:
  /// A float's bits of `Width` with `ExponentBits`: +0 for zeros (and
  /// subnormals); `IsNaN` is set for NaN.
  static uint64_t canonical(uint64_t Bits, unsigned Width, unsigned ExponentBits, bool &IsNaN,
                            bool FlushSubnormals = true) {
    const unsigned MantissaBits = Width - 1 - ExponentBits;
    const uint64_t Mantissa = (uint64_t(1) << MantissaBits) - 1;
    const uint64_t Exponent = ((uint64_t(1) << ExponentBits) - 1) << MantissaBits;
    IsNaN = (Bits & Exponent) == Exponent && (Bits & Mantissa) != 0;
    if ((Bits & Exponent) == 0 && (FlushSubnormals || (Bits & Mantissa) == 0))
      return 0;
    return Bits;
  }

  const TensorData &In;
};

/// Unique, UniqueV2, UniqueWithCounts(V2) (unique_op.cc): the distinct
/// slices of the input along `axis` (its elements for a vector) in the
/// order they first appear, each slice's index into them, and with
/// `WithCounts` how often each appears. NaN equals nothing, so each NaN is
/// its own; 0.0 and -0.0 are one, kept as the first seen.
absl::StatusOr<Outputs> unique(const KernelContext &Ctx, bool HasAxis, bool WithCounts) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(HasAxis ? 2 : 1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(),
                 (dtypes::Pod & ~(dtypeBit(tensorflow::DT_COMPLEX64) |
                                  dtypeBit(tensorflow::DT_COMPLEX128))) |
                     dtypes::String));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType IndexType, Ctx.typeAttr("out_idx"));
  if (IndexType != tensorflow::DT_INT32 && IndexType != tensorflow::DT_INT64)
    return Ctx.unimplementedType(IndexType);
  if (In.numElements() > std::numeric_limits<int32_t>::max())
    return Ctx.invalid(absl::StrCat("unique does not support input tensors larger than ",
                                    std::numeric_limits<int32_t>::max(), " elements"));
  const int64_t Rank = In.shape().size();
  // The input as [Outer, Count, Inner] around the axis.
  int64_t Outer = 1, Count = In.numElements(), Inner = 1, Axis = 0;
  const TensorData *AxisT = HasAxis ? &Ctx.input(1) : nullptr;
  if (AxisT && AxisT->shape().size() != 1)
    return Ctx.invalid("axis expects a 1D vector.");
  if (AxisT && AxisT->numElements() > 1)
    return Ctx.invalid("axis does not support input tensors larger than 1 elements");
  if (!AxisT || AxisT->numElements() == 0) {
    if (Rank != 1)
      return Ctx.invalid("unique expects a 1D vector.");
  } else {
    if (AxisT->dtype() != tensorflow::DT_INT32 && AxisT->dtype() != tensorflow::DT_INT64)
      return Ctx.invalid(absl::StrCat("axis tensor should be int32 or int64, but got ",
                                      dataTypeName(AxisT->dtype())));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> AxisV, intElements(Ctx, 1));
    Axis = AxisV[0] < 0 ? AxisV[0] + Rank : AxisV[0];
    if (Axis < 0 || Axis >= Rank)
      return Ctx.invalid(absl::StrCat("axis has to be between [0, ", Rank, ")"));
    Outer = 1, Inner = 1;
    for (int64_t D = 0; D < Axis; ++D)
      Outer *= In.shape()[D];
    Count = In.shape()[Axis];
    for (int64_t D = Axis + 1; D < Rank; ++D)
      Inner *= In.shape()[D];
  }
  const bool IsReducedFloat =
      In.dtype() == tensorflow::DT_HALF || In.dtype() == tensorflow::DT_BFLOAT16;
  ElementKeys Keys(In);
  // Each slice's key: its elements' keys, each length-prefixed (strings).
  auto sliceKey = [&](int64_t J, std::string &Key) -> bool {
    Key.clear();
    std::string Buffer;
    for (int64_t O = 0; O < Outer; ++O)
      for (int64_t K = 0; K < Inner; ++K) {
        std::optional<llvm::StringRef> E = Keys.key((O * Count + J) * Inner + K, Buffer);
        if (!E)
          return false; // A NaN: the slice equals no other.
        const uint64_t Length = E->size();
        Key.append(reinterpret_cast<const char *>(&Length), sizeof(Length));
        Key.append(E->data(), E->size());
      }
    return true;
  };
  llvm::StringMap<int64_t> Seen;
  std::vector<int64_t> Index(static_cast<size_t>(Count)), First;
  std::string Key;
  for (int64_t J = 0; J < Count; ++J) {
    if (!sliceKey(J, Key)) {
      Index[J] = First.size();
      First.push_back(J);
      continue;
    }
    auto [It, New] = Seen.try_emplace(Key, static_cast<int64_t>(First.size()));
    Index[J] = It->second;
    if (New) {
      First.push_back(J);
      continue;
    }
    // TensorFlow hashes half and bfloat16 by their bits: whether 0.0 meets
    // -0.0 (or a subnormal a zero) is up to its hash buckets.
    if (IsReducedFloat)
      for (int64_t O = 0; O < Outer; ++O)
        for (int64_t K = 0; K < Inner; ++K)
          if (Keys.equalWithOtherBits((O * Count + J) * Inner + K,
                                      (O * Count + First[It->second]) * Inner + K))
            return Ctx.unimplemented(
                "equal half or bfloat16 values with other bits (0.0 and -0.0) are one "
                "value or two as TensorFlow's hash buckets fall");
  }
  const int64_t Unique = First.size();
  std::vector<int64_t> Shape = shapeVector(In);
  if (Rank > 0)
    Shape[Axis] = Unique;
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), Shape, {&In}).status());
  ElementWriter Values(In.dtype(), Shape);
  for (int64_t O = 0; O < Outer; ++O)
    for (int64_t U = 0; U < Unique; ++U)
      Values.append(In, (O * Count + First[U]) * Inner, Inner);
  auto indexTensor = [&](const std::vector<int64_t> &V) -> TensorData {
    const int64_t N = V.size();
    if (IndexType == tensorflow::DT_INT32) {
      OutputOf<int32_t> T({N});
      for (int64_t I = 0; I < N; ++I)
        T[I] = static_cast<int32_t>(V[I]);
      return std::move(T).finish();
    }
    OutputOf<int64_t> T({N});
    std::copy(V.begin(), V.end(), T.data());
    return std::move(T).finish();
  };
  Outputs Out{std::move(Values).finish(), indexTensor(Index)};
  if (WithCounts) {
    std::vector<int64_t> Counts(static_cast<size_t>(Unique), 0);
    for (int64_t I : Index)
      ++Counts[I];
    Out.push_back(indexTensor(Counts));
  }
  return Out;
}

} // namespace

absl::StatusOr<Outputs> evalUnique(const KernelContext &Ctx) { return unique(Ctx, false, false); }
absl::StatusOr<Outputs> evalUniqueV2(const KernelContext &Ctx) { return unique(Ctx, true, false); }
absl::StatusOr<Outputs> evalUniqueWithCounts(const KernelContext &Ctx) {
  return unique(Ctx, false, true);
}
absl::StatusOr<Outputs> evalUniqueWithCountsV2(const KernelContext &Ctx) {
  return unique(Ctx, true, true);
}

} // namespace frost::eval
