//===- Tensor.cpp - Tensor values: views and owned tensors ----------------===//
#include "frost/Tensor/Tensor.h"

#include "frost/Tensor/SmallFloat.h"
#include "frost/proto/tensor.pb.h"

#include "absl/strings/str_cat.h"

namespace frost {

using tensorflow::DataType;

static int64_t countOf(llvm::ArrayRef<int64_t> Shape) {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return N;
}

TensorData TensorData::borrowed(DataType DType, std::vector<int64_t> Shape, llvm::StringRef Bytes,
                                std::shared_ptr<const void> Keeper) {
  TensorData T;
  T.DType = DType;
  T.NumElements = countOf(Shape);
  T.Shape = std::move(Shape);
  assert(static_cast<uint64_t>(T.NumElements) * dataTypeSize(DType) == Bytes.size());
  T.Bytes = Bytes;
  T.Borrowed = true;
  T.Keeper = std::move(Keeper);
  return T;
}

TensorData TensorData::owned(DataType DType, std::vector<int64_t> Shape, std::string Bytes) {
  TensorData T;
  T.DType = DType;
  T.NumElements = countOf(Shape);
  T.Shape = std::move(Shape);
  assert(static_cast<uint64_t>(T.NumElements) * dataTypeSize(DType) == Bytes.size());
  auto Buffer = std::make_shared<const std::string>(std::move(Bytes));
  T.Bytes = *Buffer;
  T.Keeper = std::move(Buffer);
  return T;
}

TensorData TensorData::strings(DataType DType, std::vector<int64_t> Shape,
                               std::vector<std::string> Elements) {
  TensorData T;
  T.DType = DType;
  T.NumElements = countOf(Shape);
  T.Shape = std::move(Shape);
  assert(static_cast<uint64_t>(T.NumElements) == Elements.size());
  T.Strings = std::make_shared<const std::vector<std::string>>(std::move(Elements));
  return T;
}

absl::Status TensorData::toTensorProto(tensorflow::TensorProto &Proto) const {
  Proto.Clear();
  Proto.set_dtype(DType);
  for (int64_t D : Shape)
    Proto.mutable_tensor_shape()->add_dim()->set_size(D);
  if (isFixedSize()) {
    Proto.set_tensor_content(Bytes.data(), Bytes.size());
    return absl::OkStatus();
  }
  if (DType == tensorflow::DT_STRING) {
    Proto.mutable_string_val()->Reserve(static_cast<int>(elements().size()));
    for (const std::string &S : elements())
      Proto.add_string_val(S);
    return absl::OkStatus();
  }
  if (DType == tensorflow::DT_VARIANT) {
    for (size_t I = 0; I < elements().size(); ++I)
      if (!Proto.add_variant_val()->ParseFromString(elements()[I]))
        return absl::DataLossError(
            absl::StrCat("variant element ", I, " is not a VariantTensorDataProto"));
    return absl::OkStatus();
  }
  return absl::UnimplementedError(
      absl::StrCat("cannot store a ", dataTypeName(DType), " tensor in a TensorProto"));
}

absl::StatusOr<TensorData> sliceTensor(const TensorData &Full, llvm::ArrayRef<int64_t> Start,
                                       std::vector<int64_t> Size) {
  llvm::ArrayRef<int64_t> Shape = Full.shape();
  size_t Rank = Shape.size();
  assert(Start.size() == Rank && Size.size() == Rank && "slice of another rank");
  if (llvm::ArrayRef<int64_t>(Size) == Shape)
    return Full;
  FROST_ASSIGN_OR_RETURN(int64_t Count, numElements(Size));
  // Row-major strides of the full tensor, in elements.
  std::vector<int64_t> Stride(Rank, 1);
  for (size_t D = Rank; D-- > 1;)
    Stride[D - 1] = Stride[D] * Shape[D];
  int64_t First = 0;
  for (size_t D = 0; D < Rank; ++D)
    First += Start[D] * Stride[D];
  // Contiguous when, after the first dimension that is cut, every dimension
  // is whole, and before it every dimension has one index.
  size_t Cut = 0;
  while (Cut < Rank && Size[Cut] == Shape[Cut] && Shape[Cut] == 1)
    ++Cut;
  bool Contiguous = Count == 0 || (Cut < Rank && [&] {
                      for (size_t D = Cut + 1; D < Rank; ++D)
                        if (Size[D] != Shape[D])
                          return false;
                      return true;
                    }());
  if (Full.isFixedSize() && Contiguous) {
    size_t Elem = dataTypeSize(Full.dtype());
    return TensorData::borrowed(Full.dtype(), std::move(Size),
                                Full.bytes().substr(First * Elem, Count * Elem), Full.keeper());
  }
  // Copy runs along the last dimension; Index counts the outer dimensions
  // in slice coordinates.
  int64_t Run = Rank ? Size[Rank - 1] : 1;
  int64_t Runs = Run ? Count / Run : 0;
  std::vector<int64_t> Index(Rank, 0);
  auto offsetOf = [&] {
    int64_t Off = 0;
    for (size_t D = 0; D < Rank; ++D)
      Off += (Start[D] + Index[D]) * Stride[D];
    return Off;
  };
  auto nextRun = [&] {
    for (size_t D = Rank - 1; D-- > 0;) {
      if (++Index[D] < Size[D])
        return;
      Index[D] = 0;
    }
  };
  if (Full.isFixedSize()) {
    size_t Elem = dataTypeSize(Full.dtype());
    std::string Bytes;
    Bytes.reserve(static_cast<size_t>(Count) * Elem);
    for (int64_t R = 0; R < Runs; ++R, nextRun())
      Bytes.append(Full.bytes().data() + offsetOf() * Elem, Run * Elem);
    return TensorData::owned(Full.dtype(), std::move(Size), std::move(Bytes));
  }
  std::vector<std::string> Elements;
  Elements.reserve(static_cast<size_t>(Count));
  for (int64_t R = 0; R < Runs; ++R, nextRun()) {
    int64_t Off = offsetOf();
    for (int64_t I = 0; I < Run; ++I)
      Elements.push_back(Full.elements()[Off + I]);
  }
  return TensorData::strings(Full.dtype(), std::move(Size), std::move(Elements));
}

std::optional<long double> elementAsNumber(const TensorData &T, int64_t I, long double &Imag) {
  Imag = 0;
  switch (T.dtype()) {
  case tensorflow::DT_FLOAT:
    return T.element<float>(I);
  case tensorflow::DT_DOUBLE:
    return T.element<double>(I);
  case tensorflow::DT_HALF:
    return halfToDouble(T.element<uint16_t>(I));
  case tensorflow::DT_BFLOAT16:
    return bfloat16ToDouble(T.element<uint16_t>(I));
  case tensorflow::DT_INT8:
  case tensorflow::DT_QINT8:
    return T.element<int8_t>(I);
  case tensorflow::DT_UINT8:
  case tensorflow::DT_QUINT8:
    return T.element<uint8_t>(I);
  case tensorflow::DT_BOOL:
    return T.element<uint8_t>(I) != 0;
  case tensorflow::DT_INT16:
  case tensorflow::DT_QINT16:
    return T.element<int16_t>(I);
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QUINT16:
    return T.element<uint16_t>(I);
  case tensorflow::DT_INT32:
  case tensorflow::DT_QINT32:
    return T.element<int32_t>(I);
  case tensorflow::DT_UINT32:
    return T.element<uint32_t>(I);
  case tensorflow::DT_INT64:
    return T.element<int64_t>(I);
  case tensorflow::DT_UINT64:
    return T.element<uint64_t>(I);
  case tensorflow::DT_COMPLEX64: {
    llvm::StringRef B = T.bytes().substr(I * 8, 8);
    float Parts[2];
    std::memcpy(Parts, B.data(), sizeof(Parts));
    Imag = Parts[1];
    return Parts[0];
  }
  case tensorflow::DT_COMPLEX128: {
    llvm::StringRef B = T.bytes().substr(I * 16, 16);
    double Parts[2];
    std::memcpy(Parts, B.data(), sizeof(Parts));
    Imag = Parts[1];
    return Parts[0];
  }
  default:
    if (isMinifloatDataType(T.dtype()))
      return minifloatToDouble(T.dtype(), T.element<uint8_t>(I));
    return std::nullopt;
  }
}


} // namespace frost
