//===- Slice.cpp - Slicing, gathering and padding ops ---------------------===//
//
// TensorFlow's strided_slice_op.cc (with util/strided_slice_op.cc's
// ValidateStridedSliceOp: masks, clamping, shrinking), slice_op.cc,
// gather_op.cc, pad_op.cc and mirror_pad_op.cc, with their checks and
// messages. Elements are moved as bytes or strings (ArraySupport.h).
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

namespace frost::eval {

namespace {

using tensorflow::DataType;

constexpr DTypeMask Int32Or64 = dtypeBit(tensorflow::DT_INT32) | dtypeBit(tensorflow::DT_INT64);

bool isVector(const TensorData &T) { return T.shape().size() == 1; }

/// Offsets (in elements of a tensor of `Shape`) of `Begin + k * Stride` for
/// k below `Size` along dim `D`.
std::vector<int64_t> stridedOffsets(int64_t Begin, int64_t Stride, int64_t Size,
                                    int64_t ElementStride) {
  std::vector<int64_t> Offsets(Size);
  for (int64_t K = 0; K < Size; ++K)
    Offsets[K] = (Begin + K * Stride) * ElementStride;
  return Offsets;
}

} // namespace

// --- StridedSlice
// --------------------------------------------------------------

absl::StatusOr<Outputs> evalStridedSlice(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(4));
  const TensorData &In = Ctx.input(0), &BeginT = Ctx.input(1), &EndT = Ctx.input(2),
                   &StridesT = Ctx.input(3);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(),
                                   dtypes::Pod | dtypes::Float8 | dtypes::Quantized8And32 |
                                       dtypes::String | dtypes::Variant));
  int64_t Masks[5];
  const char *MaskNames[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                             "shrink_axis_mask"};
  for (int I = 0; I < 5; ++I) {
    FROST_ASSIGN_OR_RETURN(int64_t M, Ctx.intAttr(MaskNames[I], 0));
    Masks[I] = static_cast<uint32_t>(static_cast<int32_t>(M));
  }
  auto [BeginMask, EndMask, EllipsisMask, NewAxisMask, ShrinkMask] = Masks;

  int64_t SparseDims = StridesT.numElements();
  bool BeginWrong = !(isVector(BeginT) && BeginT.numElements() == SparseDims &&
                      BeginT.numElements() < 32); // 32-bit masks
  bool EndWrong = !(isVector(EndT) && EndT.numElements() == SparseDims);
  if (BeginWrong || EndWrong || !isVector(StridesT))
    return Ctx.invalid(absl::StrCat("Expected begin, end, and strides to be 1D "
                                    "equal size tensors, but got shapes ",
                                    shapeOf(BeginT), ", ", shapeOf(EndT), ", and ",
                                    shapeOf(StridesT), " instead."));
  if (EllipsisMask & (EllipsisMask - 1))
    return Ctx.invalid("Multiple ellipses in slice spec not allowed");
  DTypeMask IndexTypes = Int32Or64 | dtypeBit(tensorflow::DT_INT16);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SparseBegin, intElements(Ctx, 1, IndexTypes));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SparseEnd, intElements(Ctx, 2, IndexTypes));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> SparseStrides, intElements(Ctx, 3, IndexTypes));
  auto Bit = [](int64_t Mask, int64_t I) { return I < 64 && ((Mask >> I) & 1); };

  // The sparse spec (one entry per begin/end/strides element) gains an
  // ellipsis at its end when it has none.
  int64_t AddAxisAfterEllipsis = 0;
  bool EllipsisSeen = false;
  for (int64_t I = 0; I < SparseDims; ++I) {
    if (EllipsisSeen && Bit(NewAxisMask, I))
      ++AddAxisAfterEllipsis;
    if (Bit(EllipsisMask, I))
      EllipsisSeen = true;
  }
  if (!EllipsisSeen)
    EllipsisMask |= int64_t(1) << SparseDims++;

  // The dense spec: one entry per input dim; the final shape gathers
  // processed dims, drops shrunk ones and inserts new axes.
  constexpr int64_t ShrinkAxis = -1, NewAxis = -2;
  int64_t Rank = In.shape().size();
  std::vector<int64_t> Begin(Rank, 0), End(Rank, 0), Strides(Rank, 0), FinalGather;
  std::vector<bool> DenseBeginMask(Rank), DenseEndMask(Rank), DenseShrink(Rank);
  int64_t Full = 0;
  for (int64_t I = 0; I < SparseDims; ++I) {
    if (Bit(EllipsisMask, I)) {
      int64_t Next = std::min(Rank - (SparseDims - I) + 1 + AddAxisAfterEllipsis, Rank);
      for (; Full < Next; ++Full) {
        Strides[Full] = 1;
        DenseBeginMask[Full] = DenseEndMask[Full] = true;
        FinalGather.push_back(Full);
      }
    } else if (Bit(NewAxisMask, I)) {
      FinalGather.push_back(NewAxis);
    } else {
      if (Full == Rank && Rank == 0)
        return Ctx.invalid("Attempting to slice scalar input.");
      if (Full == Rank)
        return Ctx.invalid(absl::StrCat("Index out of range using input dim ", Full,
                                        "; input has only ", Rank, " dims"));
      Begin[Full] = SparseBegin[I];
      End[Full] = SparseEnd[I];
      Strides[Full] = SparseStrides[I];
      DenseBeginMask[Full] = Bit(BeginMask, I);
      DenseEndMask[Full] = Bit(EndMask, I);
      DenseShrink[Full] = Bit(ShrinkMask, I);
      FinalGather.push_back(DenseShrink[Full] ? ShrinkAxis : Full);
      ++Full;
    }
  }

  // Canonical begin/end per dim (masks, negative indices, clamping) and the
  // processing shape.
  std::vector<int64_t> Processing;
  bool IsIdentity = true, SliceDim0 = true;
  for (int64_t I = 0; I < Rank; ++I) {
    int64_t Stride = Strides[I], Dim = In.shape()[I];
    if (Stride == 0)
      return Ctx.invalid(absl::StrCat("strides[", I, "] must be non-zero"));
    const int64_t Valid[2] = {Stride > 0 ? 0 : -1, Stride > 0 ? Dim : Dim - 1};
    const bool Masked[2] = {DenseBeginMask[I], DenseEndMask[I]};
    auto Canonical = [&](int64_t X, int C) {
      if (Masked[C])
        return Stride > 0 ? Valid[C] : Valid[(C + 1) & 1];
      int64_t Forward = X < 0 ? Dim + X : X;
      return std::clamp(Forward, Valid[0], Valid[1]);
    };
    if (DenseShrink[I] && Stride <= 0)
      return Ctx.invalid("only stride 1 allowed on non-range indexing.");
    if (DenseShrink[I]) {
      int64_t Forward = Begin[I] < 0 ? Dim + Begin[I] : Begin[I];
      if (Forward < 0 || Forward >= Dim)
        return Ctx.invalid(
            absl::StrCat("slice index ", Forward, " of dimension ", I, " out of bounds."));
      Begin[I] = Forward;
      End[I] = Forward + 1;
    } else {
      Begin[I] = Canonical(Begin[I], 0);
      End[I] = Canonical(End[I], 1);
    }
    bool TakeAll = Stride == 1 && Begin[I] == 0 && End[I] == Dim;
    IsIdentity &= TakeAll;
    SliceDim0 &= (I == 0 && Stride == 1) || TakeAll;
    int64_t Interval = End[I] - Begin[I];
    int64_t Size = 0;
    if (Interval != 0 && (Interval < 0) == (Stride < 0))
      Size = Interval / Stride + (Interval % Stride != 0);
    Processing.push_back(Size);
  }
  std::vector<int64_t> Shape;
  for (int64_t G : FinalGather)
    if (G >= 0)
      Shape.push_back(Processing[G]);
    else if (G == NewAxis)
      Shape.push_back(1);
  if (IsIdentity)
    return Outputs{reshaped(In, std::move(Shape))};
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, In.dtype(), Shape));
  if (Count > 0 && !SliceDim0 && Rank > 8)
    return absl::UnimplementedError(
        absl::StrCat(Ctx.op().str(), ": Unhandled input dimensions ", Rank));
  std::vector<int64_t> InStrides = stridesOf(In.shape());
  std::vector<std::vector<int64_t>> Offsets;
  for (int64_t I = 0; I < Rank; ++I)
    Offsets.push_back(stridedOffsets(Begin[I], Strides[I], Processing[I], InStrides[I]));
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape)));
  return Outputs{std::move(Out)};
}

// --- Slice
// -----------------------------------------------------------------------

absl::StatusOr<Outputs> evalSlice(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0), &BeginT = Ctx.input(1), &SizeT = Ctx.input(2);
  FROST_RETURN_IF_ERROR(checkDType(
      Ctx, In.dtype(), dtypes::Pod | dtypes::Float8 | dtypes::Quantized8And32 | dtypes::String));
  int64_t Rank = In.shape().size();
  if (!(isVector(BeginT) && isVector(SizeT) && BeginT.numElements() == Rank &&
        SizeT.numElements() == Rank))
    return Ctx.invalid(absl::StrCat("Expected begin and size arguments to be 1-D tensors of size ",
                                    Rank, ", but got shapes ", shapeOf(BeginT), " and ",
                                    shapeOf(SizeT), " instead."));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Begin, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Size, intElements(Ctx, 2));
  bool IsIdentity = true;
  for (int64_t I = 0; I < Rank; ++I) {
    int64_t Dim = In.shape()[I];
    if (Size[I] == -1)
      Size[I] = Dim - Begin[I];
    int64_t B = Begin[I], S = Size[I];
    if (Dim == 0) {
      if (B != 0 || S != 0)
        return Ctx.invalid(absl::StrCat("Expected begin[", I, "] == 0 (got ", B, ") and size[", I,
                                        "] == 0 (got ", S, ") when input.dim_size(", I, ") == 0"));
    } else {
      if (B < 0 || B > Dim)
        return Ctx.invalid(absl::StrCat("Expected begin[", I, "] in [0, ", Dim, "], but got ", B));
      if (S < 0 || B + S > Dim)
        return Ctx.invalid(
            absl::StrCat("Expected size[", I, "] in [0, ", Dim - B, "], but got ", S));
    }
    IsIdentity &= B == 0 && S == Dim;
  }
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, In.dtype(), Size));
  if (!IsIdentity && Count > 0 && Rank > 8)
    return absl::UnimplementedError(
        absl::StrCat(Ctx.op().str(), ": SliceOp : Unhandled input dimensions"));
  FROST_ASSIGN_OR_RETURN(TensorData Out, sliceTensor(In, Begin, std::move(Size)));
  return Outputs{std::move(Out)};
}

// --- Gather
// ------------------------------------------------------------------------

namespace {

/// TensorFlow's SliceDebugString: the multi-index of flat element `Flat`.
std::string indexString(llvm::ArrayRef<int64_t> Shape, int64_t Flat) {
  if (Shape.empty())
    return "";
  std::vector<int64_t> Index(Shape.size());
  for (size_t D = Shape.size(); D-- > 0;) {
    Index[D] = Shape[D] ? Flat % Shape[D] : 0;
    Flat = Shape[D] ? Flat / Shape[D] : 0;
  }
  return shapeString(Index);
}

/// GatherOp::Compute; `HasAxis` for GatherV2 (axis input, batch_dims).
absl::StatusOr<Outputs> gather(const KernelContext &Ctx, bool HasAxis) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(HasAxis ? 3 : 2));
  const TensorData &Params = Ctx.input(0), &Indices = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, Params.dtype(),
                                   dtypes::Pod | dtypes::Float8 | dtypes::Quantized |
                                       dtypes::String | dtypes::Variant));
  DataType IndexType = Indices.dtype();
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Index,
                         intElements(Ctx, 1, Int32Or64 | dtypeBit(tensorflow::DT_INT16)));
  int64_t BatchDims = 0;
  if (HasAxis) {
    FROST_ASSIGN_OR_RETURN(int64_t Attr, Ctx.intAttr("batch_dims", 0));
    BatchDims = static_cast<int32_t>(Attr);
  }
  int64_t Rank = Params.shape().size(), IndicesRank = Indices.shape().size();
  if (Rank == 0)
    return Ctx.invalid("params must be at least 1 dimensional");
  int64_t Axis = 0;
  if (HasAxis) {
    const TensorData &AxisT = Ctx.input(2);
    if (!AxisT.shape().empty())
      return Ctx.invalid("axis must be scalar");
    if (AxisT.dtype() != tensorflow::DT_INT32 && AxisT.dtype() != tensorflow::DT_INT64)
      return Ctx.invalid("axis must be int32 or int64.");
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> AxisValue, intElements(Ctx, 2));
    Axis = AxisValue[0];
  }
  if (BatchDims != 0 && (BatchDims < -IndicesRank || BatchDims > IndicesRank))
    return Ctx.invalid(absl::StrCat("Expected batch_dims in the range [", -IndicesRank, ", ",
                                    IndicesRank, "], but got ", BatchDims));
  if (Rank < BatchDims)
    return Ctx.invalid(absl::StrCat("params must have at least ", BatchDims,
                                    " (batch_dims) dimensions but it has shape ", shapeOf(Params)));
  int64_t MinRank = Axis < 0 ? -Axis : Axis + 1;
  if (Rank < MinRank)
    return Ctx.invalid(
        absl::StrCat("Shape must be at least rank ", MinRank, " but is rank ", Rank));
  if (Axis < 0)
    Axis += Rank;
  if (BatchDims != 0) {
    if (BatchDims < 0)
      BatchDims += IndicesRank;
    if (BatchDims >= Rank)
      return Ctx.invalid(absl::StrCat("batch_dims (", BatchDims,
                                      ") must be less than rank(params) (", Rank, ")."));
    if (Axis < BatchDims)
      return Ctx.invalid(absl::StrCat("batch_dims (", BatchDims,
                                      ") must be less than or equal to axis (", Axis, ")."));
    for (int64_t I = 0; I < BatchDims; ++I)
      if (Params.shape()[I] != Indices.shape()[I])
        return Ctx.invalid(absl::StrCat("params.shape[", I, "]: ", Params.shape()[I],
                                        " should be equal to indices.shape[", I,
                                        "]: ", Indices.shape()[I]));
  }
  int64_t Limit = Params.shape()[Axis];
  int64_t IndexMax = IndexType == tensorflow::DT_INT16   ? std::numeric_limits<int16_t>::max()
                     : IndexType == tensorflow::DT_INT32 ? std::numeric_limits<int32_t>::max()
                                                         : std::numeric_limits<int64_t>::max();
  if (Limit > IndexMax)
    return Ctx.invalid(absl::StrCat("params.shape[", Axis, "] too large for ",
                                    dataTypeName(IndexType), " indexing: ", Limit, " > ",
                                    IndexMax));
  // params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:]
  std::vector<int64_t> Shape;
  int64_t Batch = 1, Outer = 1, Inner = 1;
  for (int64_t I = 0; I < BatchDims; ++I) {
    Shape.push_back(Params.shape()[I]);
    Batch *= Params.shape()[I];
  }
  for (int64_t I = BatchDims; I < Axis; ++I) {
    Shape.push_back(Params.shape()[I]);
    Outer *= Params.shape()[I];
  }
  for (int64_t I = BatchDims; I < IndicesRank; ++I)
    Shape.push_back(Indices.shape()[I]);
  for (int64_t I = Axis + 1; I < Rank; ++I) {
    Shape.push_back(Params.shape()[I]);
    Inner *= Params.shape()[I];
  }
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, Params.dtype(), Shape, {&Params}));
  ElementWriter Out(Params.dtype(), Shape);
  // Nothing to copy, nothing checked (TensorFlow returns early too).
  if (Count > 0) {
    int64_t PerBatch = static_cast<int64_t>(Index.size()) / Batch;
    for (int64_t B = 0; B < Batch; ++B)
      for (int64_t O = 0; O < Outer; ++O)
        for (int64_t J = 0; J < PerBatch; ++J) {
          int64_t Flat = B * PerBatch + J;
          int64_t I = Index[Flat];
          if (I < 0 || I >= Limit)
            return Ctx.invalid(absl::StrCat("indices", indexString(Indices.shape(), Flat), " = ", I,
                                            " is not in [0, ", Limit, ")"));
          Out.append(Params, ((B * Outer + O) * Limit + I) * Inner, Inner);
        }
  }
  return Outputs{std::move(Out).finish()};
}

} // namespace

absl::StatusOr<Outputs> evalGather(const KernelContext &Ctx) {
  return gather(Ctx, /*HasAxis=*/false);
}

absl::StatusOr<Outputs> evalGatherV2(const KernelContext &Ctx) {
  return gather(Ctx, /*HasAxis=*/true);
}

// --- Padding
// -------------------------------------------------------------------------

namespace {

/// Paddings input 1 as (before, after) pairs, checked as Pad and MirrorPad
/// do; `Separator` is between the two shapes in the rank message.
absl::StatusOr<std::vector<std::pair<int64_t, int64_t>>>
paddingsInput(const KernelContext &Ctx, int64_t MaxRank, llvm::StringRef Separator) {
  const TensorData &In = Ctx.input(0), &Paddings = Ctx.input(1);
  int64_t Rank = In.shape().size();
  if (Rank > MaxRank)
    return absl::UnimplementedError(
        absl::StrCat(Ctx.op().str(), ": inputs rank not in [0,", MaxRank, "]: ", Rank));
  if (!(Paddings.shape().size() == 2 && Paddings.shape()[1] == 2))
    return Ctx.invalid(
        absl::StrCat("paddings must be a matrix with 2 columns: ", shapeOf(Paddings)));
  if (Paddings.shape()[0] != Rank)
    return Ctx.invalid(absl::StrCat("The first dimension of paddings must be the rank of inputs",
                                    shapeOf(Paddings), Separator.str(), shapeOf(In)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Values, intElements(Ctx, 1));
  std::vector<std::pair<int64_t, int64_t>> Pairs;
  for (int64_t D = 0; D < Rank; ++D)
    Pairs.emplace_back(Values[2 * D], Values[2 * D + 1]);
  return Pairs;
}

/// Appends the padded elements of `In` from dim `D` on (`Offset` is the
/// element where the current row of `In` starts).
void appendPadded(ElementWriter &Out, const TensorData &In, const TensorData &Value,
                  llvm::ArrayRef<std::pair<int64_t, int64_t>> Pads,
                  llvm::ArrayRef<int64_t> OutStrides, llvm::ArrayRef<int64_t> InStrides, size_t D,
                  int64_t Offset) {
  if (D == Pads.size()) {
    Out.append(In, Offset);
    return;
  }
  int64_t Dim = In.shape()[D];
  Out.appendRepeated(Value, 0, Pads[D].first * OutStrides[D]);
  if (D + 1 == Pads.size())
    Out.append(In, Offset, Dim);
  else
    for (int64_t K = 0; K < Dim; ++K)
      appendPadded(Out, In, Value, Pads, OutStrides, InStrides, D + 1, Offset + K * InStrides[D]);
  Out.appendRepeated(Value, 0, Pads[D].second * OutStrides[D]);
}

absl::StatusOr<Outputs> pad(const KernelContext &Ctx, bool HasValue) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(HasValue ? 3 : 2));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::Quantized8And32 | dtypes::String));
  FROST_ASSIGN_OR_RETURN(auto Pads, paddingsInput(Ctx, 8, " "));
  TensorData Value = zeroScalar(In.dtype());
  if (HasValue) {
    const TensorData &Constant = Ctx.input(2);
    if (!Constant.shape().empty())
      return Ctx.invalid(
          absl::StrCat("constant_values must be a scalar. Found: ", shapeOf(Constant)));
    if (Constant.dtype() != In.dtype())
      return Ctx.invalid("constant_values must have the input's dtype");
    Value = Constant;
  }
  std::vector<int64_t> Shape;
  for (size_t D = 0; D < Pads.size(); ++D) {
    auto [Before, After] = Pads[D];
    if (Before < 0 || After < 0)
      return Ctx.invalid(absl::StrCat("Paddings must be non-negative: ", Before, " ", After));
    Shape.push_back(
        static_cast<int64_t>(uint64_t(Before) + uint64_t(In.shape()[D]) + uint64_t(After)));
  }
  FROST_RETURN_IF_ERROR(addDims(Ctx, In.dtype(), Shape));
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), Shape, {&In, &Value}).status());
  int64_t Count = 1;
  for (int64_t D : Shape)
    Count *= D;
  if (Count == In.numElements())
    return Outputs{reshaped(In, std::move(Shape))};
  std::vector<int64_t> OutStrides = stridesOf(Shape), InStrides = stridesOf(In.shape());
  ElementWriter Out(In.dtype(), Shape);
  appendPadded(Out, In, Value, Pads, OutStrides, InStrides, 0, 0);
  return Outputs{std::move(Out).finish()};
}

} // namespace

absl::StatusOr<Outputs> evalPad(const KernelContext &Ctx) { return pad(Ctx, false); }

absl::StatusOr<Outputs> evalPadV2(const KernelContext &Ctx) { return pad(Ctx, true); }

absl::StatusOr<Outputs> evalMirrorPad(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::Quantized8And32 | dtypes::String));
  FROST_ASSIGN_OR_RETURN(std::string Mode, Ctx.stringAttr("mode"));
  if (Mode != "REFLECT" && Mode != "SYMMETRIC")
    return Ctx.invalid("mode must be either REFLECT or SYMMETRIC.");
  // REFLECT leaves out the edge element, SYMMETRIC repeats it.
  int64_t EdgeOffset = Mode == "REFLECT" ? 1 : 0;
  FROST_ASSIGN_OR_RETURN(auto Pads, paddingsInput(Ctx, 5, ", "));
  std::vector<int64_t> Shape;
  for (size_t D = 0; D < Pads.size(); ++D) {
    auto [Before, After] = Pads[D];
    int64_t Dim = In.shape()[D];
    if (Before < 0 || After < 0)
      return Ctx.invalid(absl::StrCat("paddings must be non-negative: ", Before, " ", After));
    if (EdgeOffset == 0 && (Before > Dim || After > Dim))
      return Ctx.invalid(absl::StrCat("paddings must be no greater than the dimension size: ",
                                      Before, ", ", After, " greater than ", Dim));
    if (EdgeOffset == 1 && (Before >= Dim || After >= Dim))
      return Ctx.invalid(absl::StrCat("paddings must be less than the dimension size: ", Before,
                                      ", ", After, " not less than ", Dim));
    Shape.push_back(Before + Dim + After);
  }
  FROST_ASSIGN_OR_RETURN(int64_t Count, checkOutputShape(Ctx, In.dtype(), Shape));
  if (Count == In.numElements())
    return Outputs{reshaped(In, std::move(Shape))};
  std::vector<int64_t> InStrides = stridesOf(In.shape());
  std::vector<std::vector<int64_t>> Offsets;
  for (size_t D = 0; D < Pads.size(); ++D) {
    int64_t Dim = In.shape()[D];
    std::vector<int64_t> Map(Shape[D]);
    for (int64_t K = 0; K < Shape[D]; ++K) {
      int64_t I = K - Pads[D].first;
      if (I < 0)
        I = -I - 1 + EdgeOffset;
      else if (I >= Dim)
        I = 2 * Dim - 1 - EdgeOffset - I;
      Map[K] = I * InStrides[D];
    }
    Offsets.push_back(std::move(Map));
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape)));
  return Outputs{std::move(Out)};
}

} // namespace frost::eval
