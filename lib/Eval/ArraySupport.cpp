//===- ArraySupport.cpp - Dtype sets, output bounds, element writer -------===//
#include "ArraySupport.h"

#include "absl/strings/str_join.h"

namespace frost::eval {

absl::Status checkDType(const KernelContext &Ctx, tensorflow::DataType DType, DTypeMask Allowed) {
  bool Held = isFixedSizeDataType(DType) || DType == tensorflow::DT_STRING ||
              DType == tensorflow::DT_VARIANT;
  if (Held && DType > 0 && DType < 64 && (Allowed & dtypeBit(DType)))
    return absl::OkStatus();
  return Ctx.unimplementedType(DType);
}

absl::StatusOr<int64_t> checkOutputShape(const KernelContext &Ctx, tensorflow::DataType DType,
                                         llvm::ArrayRef<int64_t> Shape,
                                         llvm::ArrayRef<const TensorData *> Sources) {
  // TensorShape multiplies dim by dim: an overflow before a zero dim is
  // still an error.
  int64_t Count = 1;
  for (int64_t D : Shape) {
    assert(D >= 0 && "dims are checked before the output's size");
    if (__builtin_mul_overflow(Count, D, &Count))
      return Ctx.invalid(
          absl::StrCat("Shape ", shapeString(Shape), " would have more than 2**63 - 1 elements"));
  }
  if (Count == 0)
    return 0;
  // A string element costs its std::string and at most the longest source
  // string (Count is small by then, so the product fits).
  int64_t ElementBytes = dataTypeSize(DType);
  if (!ElementBytes) {
    ElementBytes = sizeof(std::string);
    if (Count <= MaxOutputBytes / ElementBytes)
      for (const TensorData *Source : Sources)
        for (const std::string &S : Source->elements())
          ElementBytes = std::max<int64_t>(ElementBytes, sizeof(std::string) + S.size());
  }
  uint64_t Bytes;
  if (!__builtin_mul_overflow(static_cast<uint64_t>(Count), static_cast<uint64_t>(ElementBytes),
                              &Bytes))
    FROST_RETURN_IF_ERROR(Ctx.checkTensorBytes(Bytes, Shape));
  if (Count > MaxOutputBytes / ElementBytes)
    return Ctx.unimplemented(absl::StrCat("output of shape ", shapeString(Shape),
                                          " is larger than a constant can hold (2 GiB)"));
  return Count;
}

absl::Status addDims(const KernelContext &Ctx, tensorflow::DataType DType,
                     llvm::ArrayRef<int64_t> Dims) {
  int64_t Count = 1;
  for (int64_t D : Dims) {
    if (D < 0)
      return Ctx.invalid(absl::StrCat("Expected a non-negative size, got ", D));
    int64_t Next;
    if (__builtin_mul_overflow(Count, D, &Next))
      return Ctx.invalid(absl::StrCat("Encountered overflow when multiplying ", Count, " with ", D,
                                      ", result: -1"));
    Count = Next;
  }
  return checkOutputShape(Ctx, DType, Dims).status();
}

absl::StatusOr<std::vector<int64_t>> makeShape(const KernelContext &Ctx, tensorflow::DataType DType,
                                               std::vector<int64_t> Dims) {
  int64_t Count = 1;
  for (int64_t D : Dims) {
    if (D < 0)
      return Ctx.invalid(absl::StrCat("Dimension ", D, " must be >= 0"));
    if (__builtin_mul_overflow(Count, D, &Count))
      return Ctx.invalid(
          absl::StrCat("Shape ", shapeString(Dims), " would have more than 2**63 - 1 elements"));
  }
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, DType, Dims).status());
  return Dims;
}

std::vector<int64_t> stridesOf(llvm::ArrayRef<int64_t> Shape) {
  std::vector<int64_t> Strides(Shape.size(), 1);
  for (size_t D = Shape.size(); D-- > 1;)
    Strides[D - 1] = Strides[D] * Shape[D];
  return Strides;
}

absl::StatusOr<std::vector<int64_t>> intElements(const KernelContext &Ctx, size_t I,
                                                 DTypeMask Allowed) {
  const TensorData &T = Ctx.input(I);
  std::vector<int64_t> Out;
  Out.reserve(T.numElements());
  auto Read = [&](auto Tag) {
    using E = typename decltype(Tag)::type;
    for (int64_t K = 0; K < T.numElements(); ++K)
      Out.push_back(T.element<E>(K));
  };
  tensorflow::DataType DType = T.dtype();
  if (DType <= 0 || DType >= 64 || !(Allowed & dtypeBit(DType)))
    return Ctx.unimplemented(absl::StrCat("index input ", I, " of dtype ", dataTypeName(DType)));
  switch (DType) {
  case tensorflow::DT_INT8:
    Read(TypeTag<int8_t>{});
    break;
  case tensorflow::DT_UINT8:
    Read(TypeTag<uint8_t>{});
    break;
  case tensorflow::DT_INT16:
    Read(TypeTag<int16_t>{});
    break;
  case tensorflow::DT_INT32:
    Read(TypeTag<int32_t>{});
    break;
  case tensorflow::DT_INT64:
    Read(TypeTag<int64_t>{});
    break;
  default:
    return Ctx.unimplemented(absl::StrCat("index input ", I, " of dtype ", dataTypeName(DType)));
  }
  return Out;
}

absl::StatusOr<int64_t> axisInput(const KernelContext &Ctx, size_t I, llvm::StringRef Message) {
  const TensorData &T = Ctx.input(I);
  if (!(T.shape().empty() || (T.shape().size() == 1 && T.shape()[0] == 1)))
    return Ctx.invalid(Message);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, intElements(Ctx, I));
  return V[0];
}

// --- ElementWriter -----------------------------------------------------------

ElementWriter::ElementWriter(tensorflow::DataType DType, std::vector<int64_t> Shape)
    : DType(DType), Shape(std::move(Shape)), ElementSize(dataTypeSize(DType)) {
  int64_t Count = 1;
  for (int64_t D : this->Shape)
    Count *= D;
  if (ElementSize)
    Bytes.reserve(static_cast<size_t>(Count) * ElementSize);
  else
    Strings.reserve(static_cast<size_t>(Count));
}

void ElementWriter::append(const TensorData &Src, int64_t Begin, int64_t Count) {
  assert(Src.dtype() == DType && Begin >= 0 && Begin + Count <= Src.numElements());
  if (ElementSize) {
    Bytes.append(Src.bytes().data() + Begin * ElementSize, Count * ElementSize);
    return;
  }
  Strings.insert(Strings.end(), Src.elements().begin() + Begin,
                 Src.elements().begin() + Begin + Count);
}

void ElementWriter::appendRepeated(const TensorData &Src, int64_t Index, int64_t Times) {
  assert(Src.dtype() == DType && Index >= 0 && Index < Src.numElements());
  if (ElementSize) {
    const char *Element = Src.bytes().data() + Index * ElementSize;
    if (ElementSize == 1) {
      Bytes.append(static_cast<size_t>(Times), *Element);
      return;
    }
    for (int64_t K = 0; K < Times; ++K)
      Bytes.append(Element, ElementSize);
    return;
  }
  Strings.insert(Strings.end(), static_cast<size_t>(Times), Src.elements()[Index]);
}

void ElementWriter::appendIndexed(const TensorData &Src, int64_t Base,
                                  llvm::ArrayRef<std::vector<int64_t>> Offsets) {
  size_t Rank = Offsets.size();
  for (const std::vector<int64_t> &Dim : Offsets)
    if (Dim.empty())
      return;
  if (Rank == 0) {
    append(Src, Base);
    return;
  }
  // The last dim is copied as one run when its offsets are consecutive.
  const std::vector<int64_t> &Last = Offsets.back();
  bool Run = true;
  for (size_t K = 1; K < Last.size() && Run; ++K)
    Run = Last[K] == Last[0] + static_cast<int64_t>(K);
  // Odometer over the outer dims; Partial[d] is Base plus the offsets of
  // the dims before d at their current positions.
  int Outer = static_cast<int>(Rank) - 1;
  std::vector<size_t> Pos(Rank, 0);
  std::vector<int64_t> Partial(Rank, Base);
  for (int D = 1; D <= Outer; ++D)
    Partial[D] = Partial[D - 1] + Offsets[D - 1][0];
  while (true) {
    if (Run)
      append(Src, Partial[Outer] + Last[0], Last.size());
    else
      for (int64_t Offset : Last)
        append(Src, Partial[Outer] + Offset);
    int D = Outer - 1;
    while (D >= 0 && ++Pos[D] == Offsets[D].size())
      Pos[D--] = 0;
    if (D < 0)
      return;
    for (int E = D + 1; E <= Outer; ++E)
      Partial[E] = Partial[E - 1] + Offsets[E - 1][Pos[E - 1]];
  }
}

TensorData ElementWriter::finish() && {
  if (ElementSize)
    return TensorData::owned(DType, std::move(Shape), std::move(Bytes));
  return TensorData::strings(DType, std::move(Shape), std::move(Strings));
}

TensorData zeroScalar(tensorflow::DataType DType) {
  if (size_t Size = dataTypeSize(DType))
    return TensorData::owned(DType, {}, std::string(Size, '\0'));
  return TensorData::strings(DType, {}, {std::string()});
}

absl::StatusOr<TensorData> gatherIndexed(const KernelContext &Ctx, const TensorData &Src,
                                         int64_t Base, llvm::ArrayRef<std::vector<int64_t>> Offsets,
                                         std::vector<int64_t> Shape) {
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Src.dtype(), Shape, {&Src}).status());
  ElementWriter Out(Src.dtype(), std::move(Shape));
  Out.appendIndexed(Src, Base, Offsets);
  return std::move(Out).finish();
}

std::vector<std::vector<int64_t>> broadcastOffsets(llvm::ArrayRef<int64_t> InShape,
                                                   llvm::ArrayRef<int64_t> Shape) {
  const int64_t Rank = Shape.size(), InRank = InShape.size();
  std::vector<int64_t> InStrides = stridesOf(InShape);
  std::vector<std::vector<int64_t>> Offsets;
  for (int64_t D = 0; D < Rank; ++D) {
    int64_t InD = D - (Rank - InRank);
    bool Repeats = InD < 0 || InShape[InD] == 1;
    std::vector<int64_t> Dim(Shape[D]);
    for (int64_t K = 0; K < Shape[D]; ++K)
      Dim[K] = Repeats ? 0 : K * InStrides[InD];
    Offsets.push_back(std::move(Dim));
  }
  return Offsets;
}

} // namespace frost::eval
