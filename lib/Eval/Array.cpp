//===- Array.cpp - Shape, reshape, concat/split, transpose, tile ops ------===//
//
// TensorFlow's shape_ops.h, reshape_op.h, concat_op.cc, pack_op.cc,
// unpack_op.cc, split_op.cc, split_v_op.cc, transpose_op.cc,
// tile_ops.cc, broadcast_to_op.cc, bcast_ops.cc and reverse_op.cc, with their
// checks and messages. Elements are moved as bytes or strings (ArraySupport.h);
// Fill.cpp makes tensors from shapes and scalars; Slice.cpp slices, gathers
// and pads.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "absl/strings/str_join.h"

#include <limits>
#include <set>
#include <unordered_set>

namespace frost::eval {

namespace {

using tensorflow::DataType;

constexpr DTypeMask Int32Or64 = dtypeBit(tensorflow::DT_INT32) | dtypeBit(tensorflow::DT_INT64);

/// An int32 or int64 tensor of `Shape` holding `Values` (which fit).
TensorData intTensor(DataType DType, std::vector<int64_t> Shape, llvm::ArrayRef<int64_t> Values) {
  if (DType == tensorflow::DT_INT64)
    return TensorData::owned(DType, std::move(Shape),
                             std::string(reinterpret_cast<const char *>(Values.data()),
                                         Values.size() * sizeof(int64_t)));
  std::string Bytes(Values.size() * sizeof(int32_t), '\0');
  for (size_t I = 0; I < Values.size(); ++I) {
    int32_t V = static_cast<int32_t>(Values[I]);
    std::memcpy(Bytes.data() + I * sizeof(V), &V, sizeof(V));
  }
  return TensorData::owned(DType, std::move(Shape), std::move(Bytes));
}

/// The `out_type` attribute (int32 by default) of Shape, ShapeN and Size.
absl::StatusOr<DataType> outTypeAttr(const KernelContext &Ctx) {
  DataType Out = tensorflow::DT_INT32;
  if (Ctx.attr("out_type")) {
    FROST_ASSIGN_OR_RETURN(Out, Ctx.typeAttr("out_type"));
  }
  if (Out != tensorflow::DT_INT32 && Out != tensorflow::DT_INT64)
    return Ctx.unimplementedType(Out);
  return Out;
}

/// Splits `In` along `Axis` into pieces of the given sizes (which sum to the
/// dim): each piece is a view when it is contiguous.
absl::StatusOr<Outputs> splitAlong(const TensorData &In, int64_t Axis,
                                   llvm::ArrayRef<int64_t> Sizes) {
  Outputs Out;
  std::vector<int64_t> Start(In.shape().size(), 0);
  for (int64_t Size : Sizes) {
    std::vector<int64_t> Shape = shapeVector(In);
    Shape[Axis] = Size;
    FROST_ASSIGN_OR_RETURN(TensorData Piece, sliceTensor(In, Start, std::move(Shape)));
    Out.push_back(std::move(Piece));
    Start[Axis] += Size;
  }
  return Out;
}

/// Concatenates `Values` (same dtype and rank, equal dims but `Axis`) along
/// `Axis` into a tensor of `Shape`.
absl::StatusOr<TensorData> concatAlong(const KernelContext &Ctx,
                                       llvm::ArrayRef<const TensorData *> Values, int64_t Axis,
                                       std::vector<int64_t> Shape) {
  DataType DType = Values[0]->dtype();
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, DType, Shape, Values).status());
  int64_t Outer = 1;
  for (int64_t D = 0; D < Axis; ++D)
    Outer *= Shape[D];
  ElementWriter Out(DType, std::move(Shape));
  // Each input is [Outer, its own row]; output rows interleave them.
  std::vector<int64_t> Rows;
  for (const TensorData *V : Values)
    Rows.push_back(Outer ? V->numElements() / Outer : 0);
  for (int64_t O = 0; O < Outer; ++O)
    for (size_t I = 0; I < Values.size(); ++I)
      if (Rows[I])
        Out.append(*Values[I], O * Rows[I], Rows[I]);
  return std::move(Out).finish();
}

/// ConcatBaseOp: the axis input at `AxisInput`, values in [First, Last).
absl::StatusOr<Outputs> concat(const KernelContext &Ctx, size_t AxisInput, size_t First,
                               size_t Last, llvm::StringRef AxisName, DTypeMask AxisTypes) {
  const TensorData &AxisTensor = Ctx.input(AxisInput);
  llvm::ArrayRef<int64_t> AxisShape = AxisTensor.shape();
  if (!(AxisShape.empty() || (AxisShape.size() == 1 && AxisShape[0] == 1)))
    return Ctx.invalid(absl::StrCat(
        AxisName.str(), " tensor should be a scalar integer, but got shape ", shapeOf(AxisTensor)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> AxisValue, intElements(Ctx, AxisInput, AxisTypes));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, First, Last));
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, Ctx.input(First).dtype(),
                 dtypes::Pod | dtypes::Float8 | dtypes::Quantized | dtypes::String));
  int64_t ConcatDim = AxisValue[0];
  const TensorData &First0 = Ctx.input(First);
  int64_t Rank = First0.shape().size();
  if (Rank == 0)
    return Ctx.invalid("ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  int64_t Axis = ConcatDim < 0 ? ConcatDim + Rank : ConcatDim;
  if (Axis < 0 || Axis >= Rank)
    return Ctx.invalid(absl::StrCat("ConcatOp : Expected concatenating dimensions in the range [",
                                    -Rank, ", ", Rank, "), but got ", ConcatDim));
  std::vector<int64_t> Shape = shapeVector(First0);
  Shape[Axis] = 0;
  std::vector<const TensorData *> Values;
  for (size_t I = First; I < Last; ++I) {
    const TensorData &In = Ctx.input(I);
    if (static_cast<int64_t>(In.shape().size()) != Rank)
      return Ctx.invalid(absl::StrCat(
          "ConcatOp : Ranks of all input tensors should match: shape[0] = ", shapeOf(First0),
          " vs. shape[", I - First, "] = ", shapeOf(In)));
    for (int64_t D = 0; D < Rank; ++D)
      if (D != Axis && In.shape()[D] != First0.shape()[D])
        return Ctx.invalid(
            absl::StrCat("ConcatOp : Dimension ", D, " in both shapes must be equal: shape[0] = ",
                         shapeOf(First0), " vs. shape[", I - First, "] = ", shapeOf(In)));
    Shape[Axis] += In.shape()[Axis];
    Values.push_back(&In);
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, concatAlong(Ctx, Values, Axis, std::move(Shape)));
  return Outputs{std::move(Out)};
}

} // namespace

// --- Shapes ------------------------------------------------------------------

absl::StatusOr<Outputs> evalShape(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(DataType OutType, outTypeAttr(Ctx));
  llvm::ArrayRef<int64_t> Shape = Ctx.input(0).shape();
  if (OutType == tensorflow::DT_INT32)
    for (size_t I = 0; I < Shape.size(); ++I)
      if (Shape[I] >= std::numeric_limits<int32_t>::max())
        return Ctx.invalid(
            absl::StrCat("Shape output type is 32-bit  but dim ", I, " is ", Shape[I]));
  return Outputs{intTensor(OutType, {static_cast<int64_t>(Shape.size())}, Shape)};
}

absl::StatusOr<Outputs> evalShapeN(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1, /*AtLeast=*/true));
  FROST_ASSIGN_OR_RETURN(DataType OutType, outTypeAttr(Ctx));
  Outputs Out;
  for (size_t I = 0; I < Ctx.numInputs(); ++I) {
    llvm::ArrayRef<int64_t> Shape = Ctx.input(I).shape();
    if (OutType == tensorflow::DT_INT32)
      for (size_t J = 0; J < Shape.size(); ++J)
        if (Shape[J] >= std::numeric_limits<int32_t>::max())
          return Ctx.invalid(absl::StrCat("ShapeN output type is 32-bit but shape ", I, " dim ", J,
                                          " is ", Shape[J]));
    Out.push_back(intTensor(OutType, {static_cast<int64_t>(Shape.size())}, Shape));
  }
  return Out;
}

absl::StatusOr<Outputs> evalSize(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(DataType OutType, outTypeAttr(Ctx));
  int64_t Size = Ctx.input(0).numElements();
  if (OutType == tensorflow::DT_INT32 && Size >= std::numeric_limits<int32_t>::max())
    return Ctx.invalid("Number of elements was larger than representable by "
                       "32-bit output type");
  return Outputs{intTensor(OutType, {}, {Size})};
}

absl::StatusOr<Outputs> evalRank(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  return Outputs{
      intTensor(tensorflow::DT_INT32, {}, {static_cast<int64_t>(Ctx.input(0).shape().size())})};
}

// --- Reshaping ---------------------------------------------------------------

absl::StatusOr<Outputs> evalReshape(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &Sizes = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Any));
  if (Sizes.shape().size() > 1)
    return Ctx.invalid(absl::StrCat("sizes input must be 1-D, not ", shapeOf(Sizes)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, intElements(Ctx, 1));
  if (Shape.size() >= 254)
    return Ctx.invalid(
        absl::StrCat("too many dimensions: must be < 254, but received ", Shape.size()));
  // ValidateSizes: zeros do not count in the product that infers the -1.
  int64_t Product = 1, Count = 1;
  int Unknown = -1;
  bool HasZero = false;
  for (size_t D = 0; D < Shape.size(); ++D) {
    int64_t Size = Shape[D];
    if (Size == -1) {
      if (Unknown != -1)
        return Ctx.invalid(
            absl::StrCat("Only one input size may be -1, not both ", Unknown, " and ", D));
      Unknown = static_cast<int>(D);
    } else if (Size < 0) {
      return Ctx.invalid(absl::StrCat("Size ", D, " must be non-negative, not ", Size));
    } else if (Size == 0) {
      HasZero = true;
      Count = 0;
    } else {
      // Only the shape's element count is checked (after a zero dim it
      // cannot overflow); the product of non-zero dims wraps as TensorFlow's.
      if (__builtin_mul_overflow(Count, Size, &Count))
        return Ctx.invalid(
            absl::StrCat("Shape [", absl::StrJoin(Shape, ", "), "] has too many elements"));
      Product = static_cast<int64_t>(static_cast<uint64_t>(Product) * static_cast<uint64_t>(Size));
    }
  }
  if (Unknown != -1) {
    int64_t InputCount = 1;
    bool InputHasZero = false;
    for (int64_t D : In.shape()) {
      if (D > 0 || !HasZero)
        InputCount *= D;
      else
        InputHasZero = true;
    }
    int64_t Missing = InputCount / Product;
    if (!InputHasZero && Product * Missing != InputCount)
      return Ctx.invalid(absl::StrCat("Input to reshape is a tensor with ", InputCount,
                                      " values, but the requested shape requires a multiple of ",
                                      Product));
    Shape[Unknown] = Missing;
    Count = HasZero ? 0 : Count * Missing;
  }
  if (Count != In.numElements())
    return Ctx.invalid(absl::StrCat("Input to reshape is a tensor with ", In.numElements(),
                                    " values, but the requested shape has ", Count));
  return Outputs{reshaped(In, std::move(Shape))};
}

absl::StatusOr<Outputs> evalExpandDims(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Any));
  if (Ctx.input(1).numElements() != 1)
    return Ctx.invalid("'dim' must be a tensor with a single value");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> DimValue, intElements(Ctx, 1));
  int64_t Dim = DimValue[0], Rank = In.shape().size();
  if (Dim < -1 - Rank || Dim > Rank)
    return Ctx.invalid(
        absl::StrCat("Tried to expand dim index ", Dim, " for tensor with ", Rank, " dimensions."));
  if (Dim < 0)
    Dim += Rank + 1;
  std::vector<int64_t> Shape = shapeVector(In);
  Shape.insert(Shape.begin() + Dim, 1);
  return Outputs{reshaped(In, std::move(Shape))};
}

absl::StatusOr<Outputs> evalSqueeze(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Any));
  // The OpDef's attribute is squeeze_dims (Python's `axis`).
  const tensorflow::AttrValue *Dims = Ctx.attr("squeeze_dims");
  if (!Dims)
    Dims = Ctx.attr("axis");
  if (Dims && Dims->value_case() != tensorflow::AttrValue::kList)
    return Ctx.invalid("attribute 'squeeze_dims' is not a list");
  int64_t Rank = In.shape().size();
  // TensorFlow keeps the dims in an unordered_set and checks them in its
  // order: the same container reports the same bad dim first.
  std::unordered_set<int32_t> Requested;
  if (Dims)
    for (int64_t Dim : Dims->list().i())
      Requested.insert(static_cast<int32_t>(Dim));
  std::set<int64_t> Squeezed;
  for (int32_t D : Requested) {
    if (D < -Rank || D >= Rank)
      return Ctx.invalid(absl::StrCat("Tried to squeeze dim index ", D, " for tensor with ", Rank,
                                      " dimensions."));
    Squeezed.insert(D < 0 ? D + Rank : D);
  }
  std::vector<int64_t> Shape;
  for (int64_t I = 0; I < Rank; ++I) {
    int64_t D = In.shape()[I];
    if (Squeezed.empty()) {
      if (D != 1)
        Shape.push_back(D);
    } else if (Squeezed.count(I)) {
      if (D != 1)
        return Ctx.invalid(
            absl::StrCat("Can not squeeze dim[", I, "], expected a dimension of 1, got ", D));
    } else {
      Shape.push_back(D);
    }
  }
  return Outputs{reshaped(In, std::move(Shape))};
}

// --- Concatenating and splitting -------------------------------------------

absl::StatusOr<Outputs> evalConcatV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3, /*AtLeast=*/true));
  size_t N = Ctx.numInputs() - 1;
  return concat(Ctx, N, 0, N, "axis", Int32Or64);
}

absl::StatusOr<Outputs> evalConcat(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3, /*AtLeast=*/true));
  return concat(Ctx, 0, 1, Ctx.numInputs(), "concat_dim", dtypeBit(tensorflow::DT_INT32));
}

absl::StatusOr<Outputs> evalPack(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1, /*AtLeast=*/true));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, Ctx.numInputs()));
  const TensorData &First = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, First.dtype(),
                                   dtypes::Pod | dtypes::Float8 | dtypes::Quantized |
                                       dtypes::String | dtypes::Variant));
  FROST_ASSIGN_OR_RETURN(int64_t AxisAttr, Ctx.intAttr("axis", 0));
  int64_t Expanded = First.shape().size() + 1;
  int64_t Axis = AxisAttr < 0 ? AxisAttr + Expanded : AxisAttr;
  if (Axis < 0 || Axis >= Expanded)
    return Ctx.invalid(
        absl::StrCat("axis = ", AxisAttr, " not in [", -Expanded, ", ", Expanded, ")"));
  std::vector<int64_t> Shape = shapeVector(First);
  Shape.insert(Shape.begin() + Axis, static_cast<int64_t>(Ctx.numInputs()));
  if (Ctx.numInputs() == 1)
    return Outputs{reshaped(First, std::move(Shape))};
  std::vector<const TensorData *> Values;
  for (size_t I = 0; I < Ctx.numInputs(); ++I) {
    if (Ctx.input(I).shape() != First.shape())
      return Ctx.invalid(
          absl::StrCat("Shapes of all inputs must match: values[0].shape = ", shapeOf(First),
                       " != values[", I, "].shape = ", shapeOf(Ctx.input(I))));
    Values.push_back(&Ctx.input(I));
  }
  // Packing is concatenating inputs seen with a size-1 dim at `Axis`.
  FROST_ASSIGN_OR_RETURN(TensorData Out, concatAlong(Ctx, Values, Axis, std::move(Shape)));
  return Outputs{std::move(Out)};
}

absl::StatusOr<Outputs> evalUnpack(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::Float8 | dtypes::String | dtypes::Variant));
  FROST_ASSIGN_OR_RETURN(int64_t Num, Ctx.intAttr("num"));
  FROST_ASSIGN_OR_RETURN(int64_t AxisAttr, Ctx.intAttr("axis", 0));
  int64_t Rank = In.shape().size();
  int64_t Axis = AxisAttr < 0 ? AxisAttr + Rank : AxisAttr;
  if (Axis < 0 || Axis >= Rank)
    return Ctx.invalid(absl::StrCat("axis = ", AxisAttr, " not in [", -Rank, ", ", Rank, ")"));
  if (In.shape()[Axis] != Num)
    return Ctx.invalid(
        absl::StrCat("Input shape axis ", Axis, " must equal ", Num, ", got shape ", shapeOf(In)));
  FROST_ASSIGN_OR_RETURN(Outputs Pieces, splitAlong(In, Axis, std::vector<int64_t>(Num, 1)));
  std::vector<int64_t> Shape = shapeVector(In);
  Shape.erase(Shape.begin() + Axis);
  for (TensorData &Piece : Pieces)
    Piece = reshaped(Piece, Shape);
  return Pieces;
}

namespace {
/// Split and SplitV's check of the split dim (int32, may be negative).
absl::StatusOr<int64_t> splitDim(const KernelContext &Ctx, int64_t Orig, int64_t Rank) {
  int32_t Dim = static_cast<int32_t>(Orig);
  int64_t Wrapped = Dim < 0 ? Dim + Rank : Dim;
  if (Wrapped < 0 || Wrapped >= Rank)
    return Ctx.invalid(absl::StrCat("-input rank(-", Rank, ") <= split_dim < input rank (", Rank,
                                    "), but got ", Dim));
  return Wrapped;
}

constexpr DTypeMask SplitTypes = dtypes::Pod | dtypes::Float8 | dtypes::Int4 |
                                 dtypeBit(tensorflow::DT_QUINT8) | dtypes::String | dtypes::Variant;
} // namespace

absl::StatusOr<Outputs> evalSplit(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(1), &DimTensor = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), SplitTypes));
  FROST_ASSIGN_OR_RETURN(int64_t NumSplit, Ctx.intAttr("num_split"));
  if (!DimTensor.shape().empty())
    return Ctx.invalid(
        absl::StrCat("split_dim must be a scalar but has rank ", DimTensor.shape().size()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> DimValue,
                         intElements(Ctx, 0, dtypeBit(tensorflow::DT_INT32)));
  int64_t Rank = In.shape().size();
  FROST_ASSIGN_OR_RETURN(int64_t Axis, splitDim(Ctx, DimValue[0], Rank));
  if (NumSplit <= 0)
    return Ctx.invalid(absl::StrCat("Number of ways to split should be > 0, but got ", NumSplit));
  int64_t Size = In.shape()[Axis];
  if (Size % NumSplit != 0)
    return Ctx.invalid(absl::StrCat("Number of ways to split should evenly divide the split "
                                    "dimension, but got split_dim ",
                                    Axis, " (size = ", Size, ") and num_split ", NumSplit));
  return splitAlong(In, Axis, std::vector<int64_t>(NumSplit, Size / NumSplit));
}

absl::StatusOr<Outputs> evalSplitV(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0), &SizesTensor = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), SplitTypes));
  FROST_ASSIGN_OR_RETURN(int64_t NumSplit, Ctx.intAttr("num_split"));
  if (Ctx.input(2).numElements() != 1)
    return Ctx.invalid("split_dim_tensor must have exactly one element.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> DimValue,
                         intElements(Ctx, 2, dtypeBit(tensorflow::DT_INT32)));
  if (SizesTensor.shape().size() != 1 || SizesTensor.numElements() != NumSplit)
    return Ctx.invalid(absl::StrCat("size of the split_tensor must be 1-D and "
                                    "have the same elements as outputs got ",
                                    SizesTensor.shape().size(), " -D and ",
                                    SizesTensor.numElements(), " elements"));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Sizes,
                         intElements(Ctx, 1, Int32Or64 | dtypeBit(tensorflow::DT_INT8)));
  if (NumSplit <= 0)
    return Ctx.invalid(absl::StrCat("Number of ways to split should be > 0, but got ", NumSplit));
  int64_t Rank = In.shape().size();
  FROST_ASSIGN_OR_RETURN(int64_t Axis, splitDim(Ctx, DimValue[0], Rank));
  // TensorFlow sums the sizes in their own type (Tlen), wrapping.
  auto InTlen = [&](int64_t V) -> int64_t {
    switch (SizesTensor.dtype()) {
    case tensorflow::DT_INT8:
      return static_cast<int8_t>(V);
    case tensorflow::DT_INT32:
      return static_cast<int32_t>(V);
    default:
      return V;
    }
  };
  int64_t DimSize = InTlen(In.shape()[Axis]);
  if (NumSplit == 1) {
    if (Sizes[0] != DimSize)
      return Ctx.invalid(absl::StrCat("If there is only one output, it must have the same size "
                                      "as the input. Input size: ",
                                      DimSize, " output size: ", Sizes[0]));
    return Outputs{In};
  }
  int64_t NegOne = -1;
  uint64_t Determined = 0;
  for (int64_t D = 0; D < NumSplit; ++D) {
    if (Sizes[D] == -1) {
      if (NegOne != -1)
        return Ctx.invalid("There can only be one -1 in the input.");
      NegOne = D;
    } else {
      Determined += static_cast<uint64_t>(Sizes[D]);
    }
  }
  int64_t Sum = InTlen(static_cast<int64_t>(Determined));
  if (!((NegOne == -1 && Sum == DimSize) || (NegOne >= 0 && Sum <= DimSize)))
    return Ctx.invalid(absl::StrCat("Determined shape must either match input "
                                    "shape along split_dim exactly if fully "
                                    "specified, or be less than the size of "
                                    "the input along split_dim if not fully "
                                    "specified.  Got: ",
                                    Sum));
  if (NegOne >= 0)
    Sizes[NegOne] = InTlen(DimSize - Sum);
  for (int64_t D = 0; D < NumSplit; ++D)
    if (Sizes[D] < 0)
      return Ctx.invalid(absl::StrCat("Split size at index ", D, " must be >= 0. Got: ", Sizes[D]));
  // Sizes that passed but do not add up to the dim (a wrapped Tlen sum):
  // TensorFlow reads past the input; Frost does not.
  int64_t Total = 0;
  for (int64_t Size : Sizes)
    Total += Size;
  if (Total != In.shape()[Axis])
    return Ctx.unimplemented("split sizes that only add up in a wrapped int8/int32 sum");
  return splitAlong(In, Axis, Sizes);
}

// --- Permuting and repeating ------------------------------------------------

absl::StatusOr<Outputs> evalTranspose(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &Perm = Ctx.input(1);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::Float8 | dtypes::String | dtypes::Variant));
  if (Perm.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("perm must be rank 1, got shape ", shapeOf(Perm)));
  int64_t Rank = In.shape().size();
  if (Perm.numElements() != Rank)
    return Ctx.invalid(absl::StrCat("transpose expects a vector of size ", Rank,
                                    ". But input(1) is a vector of size ", Perm.numElements()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> PermValues, intElements(Ctx, 1));
  std::vector<int32_t> Permutation(PermValues.begin(), PermValues.end());
  std::vector<bool> Seen(Rank, false);
  std::vector<int64_t> Shape;
  std::vector<int64_t> InStrides = stridesOf(In.shape());
  std::vector<std::vector<int64_t>> Offsets;
  for (int64_t I = 0; I < Rank; ++I) {
    int64_t D = Permutation[I];
    if (D < 0)
      D += Rank;
    if (D < 0 || D >= Rank)
      return Ctx.invalid(absl::StrCat(D, " is out of range [0 .. ", Rank, ")"));
    Seen[D] = true;
    Shape.push_back(In.shape()[D]);
  }
  for (int64_t I = 0; I < Rank; ++I)
    if (!Seen[I])
      return Ctx.invalid(
          absl::StrCat(I, " is missing from {", absl::StrJoin(Permutation, ","), "}."));
  for (int64_t I = 0; I < Rank; ++I) {
    int64_t D = Permutation[I] < 0 ? Permutation[I] + Rank : Permutation[I];
    std::vector<int64_t> Dim(Shape[I]);
    for (int64_t K = 0; K < Shape[I]; ++K)
      Dim[K] = K * InStrides[D];
    Offsets.push_back(std::move(Dim));
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape)));
  return Outputs{std::move(Out)};
}

absl::StatusOr<Outputs> evalTile(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &Multiples = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Any));
  if (Multiples.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat("Expected multiples to be 1-D, but got shape ", shapeOf(Multiples)));
  int64_t Rank = In.shape().size();
  if (Multiples.numElements() != Rank)
    return Ctx.invalid(absl::StrCat("Expected multiples argument to be a vector of length ", Rank,
                                    " but got length ", Multiples.numElements()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Times, intElements(Ctx, 1));
  std::vector<int64_t> Shape;
  for (int64_t D = 0; D < Rank; ++D) {
    if (Times[D] < 0)
      return Ctx.invalid(absl::StrCat("Expected multiples[", D, "] >= 0, but got ", Times[D]));
    Shape.push_back(static_cast<int64_t>(static_cast<uint64_t>(In.shape()[D]) *
                                         static_cast<uint64_t>(Times[D])));
  }
  FROST_RETURN_IF_ERROR(addDims(Ctx, In.dtype(), Shape));
  // TensorFlow forwards an unchanged or empty result before it looks at the
  // dtype (its kernel lacks uint16, the quantized and the sub-byte types).
  if (In.shape() == llvm::ArrayRef<int64_t>(Shape))
    return Outputs{In};
  constexpr DTypeMask TileTypes =
      (dtypes::Pod & ~dtypeBit(tensorflow::DT_UINT16)) | dtypes::String | dtypes::Variant;
  if (In.numElements() > 0 && llvm::all_of(Times, [](int64_t T) { return T > 0; }) &&
      !checkDType(Ctx, In.dtype(), TileTypes).ok())
    return Ctx.unimplemented(absl::StrCat("TileOp : The input data type is not supported, "
                                          "DataType : ",
                                          dataTypeName(In.dtype()), ", Dimension : ", Rank));
  // Output index k of dim d reads index k mod the input's dim.
  std::vector<int64_t> InStrides = stridesOf(In.shape());
  std::vector<std::vector<int64_t>> Offsets;
  for (int64_t D = 0; D < Rank; ++D) {
    std::vector<int64_t> Dim(Shape[D]);
    for (int64_t K = 0; K < Shape[D]; ++K)
      Dim[K] = (K % In.shape()[D]) * InStrides[D];
    Offsets.push_back(std::move(Dim));
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape)));
  return Outputs{std::move(Out)};
}

absl::StatusOr<Outputs> evalBroadcastTo(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &ShapeTensor = Ctx.input(1);
  FROST_RETURN_IF_ERROR(
      checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::Float8 | dtypes::String | dtypes::Variant));
  if (ShapeTensor.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat("shape must be a vector of {int32,int64}, got shape ", shapeOf(ShapeTensor)));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dims, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape, makeShape(Ctx, In.dtype(), Dims));
  if (In.shape() == llvm::ArrayRef<int64_t>(Shape))
    return Outputs{In};
  int64_t Rank = Shape.size(), InRank = In.shape().size();
  if (InRank > Rank)
    return Ctx.invalid(absl::StrCat(
        "Rank of input (", InRank, ") must be no greater than rank of output shape (", Rank, ")."));
  if (InRank > 0) {
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Broadcast, broadcastShapes(Ctx, In.shape(), Shape));
    if (Broadcast != Shape)
      return Ctx.invalid(absl::StrCat("Unable to broadcast tensor of shape ", shapeOf(In),
                                      " to tensor of shape ", shapeString(Shape)));
  }
  std::vector<std::vector<int64_t>> Offsets = broadcastOffsets(In.shape(), Shape);
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape)));
  return Outputs{std::move(Out)};
}

absl::StatusOr<Outputs> evalBroadcastArgs(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  std::vector<int64_t> Shapes[2];
  for (size_t I = 0; I < 2; ++I) {
    if (Ctx.input(I).shape().size() != 1)
      return Ctx.invalid(absl::StrCat("In[", I, "] must be a vector.", shapeOf(Ctx.input(I))));
    FROST_ASSIGN_OR_RETURN(Shapes[I], intElements(Ctx, I));
  }
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Out, broadcastShapes(Ctx, Shapes[0], Shapes[1]));
  return Outputs{intTensor(Ctx.input(0).dtype(), {static_cast<int64_t>(Out.size())}, Out)};
}

absl::StatusOr<Outputs> evalReverseV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &AxisTensor = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::String));
  // TensorFlow returns a scalar or an empty tensor as it is, whatever the
  // axes (TF-checked: even an out-of-range or a 2-D axis).
  int64_t Rank = In.shape().size();
  if (Rank == 0 || In.numElements() == 0)
    return Outputs{In};
  if (AxisTensor.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("'dims' must be 1-dimension, not ", AxisTensor.shape().size()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Axes, intElements(Ctx, 1));
  std::vector<bool> Reversed(Rank, false);
  for (size_t I = 0; I < Axes.size(); ++I) {
    int64_t Axis = Axes[I] < 0 ? Axes[I] + Rank : Axes[I];
    if (Axis < 0 || Axis >= Rank)
      return Ctx.invalid(
          absl::StrCat("'axis'[", I, "] = ", Axes[I], " is out of valid range [0, ", Rank - 1));
    if (Reversed[Axis])
      return Ctx.invalid(absl::StrCat("axis ", Axis, " specified more than once."));
    Reversed[Axis] = true;
  }
  if (Rank > 8)
    return Ctx.unimplemented("reverse is not implemented for tensors of rank > 8.");
  std::vector<int64_t> InStrides = stridesOf(In.shape());
  std::vector<std::vector<int64_t>> Offsets;
  for (int64_t D = 0; D < Rank; ++D) {
    int64_t N = In.shape()[D];
    std::vector<int64_t> Dim(N);
    for (int64_t K = 0; K < N; ++K)
      Dim[K] = (Reversed[D] ? N - 1 - K : K) * InStrides[D];
    Offsets.push_back(std::move(Dim));
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, shapeVector(In)));
  return Outputs{std::move(Out)};
}

} // namespace frost::eval
