//===- TensorProtoCodec.cpp - TensorData <-> TensorProto ------------------===//
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Tensor/SmallFloat.h"
#include "frost/proto/tensor.pb.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace frost {

using tensorflow::DataType;

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

namespace {

/// The largest tensor decoded: what a GraphDef (under 2 GiB) can hold.
constexpr uint64_t MaxDecodedBytes = 0x7fffffff;

/// Applies the count rules to a typed field holding `Count` values.
absl::Status checkCount(int64_t Count, int64_t N, llvm::StringRef Where, llvm::StringRef Field,
                        bool Exact) {
  if (Count == N || (!Exact && Count < N))
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(Where.str(), ": ", Field.str(), " has ", Count,
                                                 " values for ", N, " elements"));
}

/// Writes N elements of Width bytes, each from Get(i) for i < Count and the
/// last value repeated after that (zeros when Count is 0).
template <typename Getter>
std::string fill(int64_t N, int64_t Count, size_t Width, Getter Get) {
  std::string Out(static_cast<size_t>(N) * Width, '\0');
  char *P = Out.data();
  for (int64_t I = 0; I < N && I < Count; ++I)
    Get(I, P + I * Width);
  if (Count > 0)
    for (int64_t I = Count; I < N; ++I)
      std::memcpy(P + I * Width, P + (Count - 1) * Width, Width);
  return Out;
}

template <typename Field> int64_t fieldSize(const Field &F) { return F.size(); }

} // namespace

absl::StatusOr<TensorData> decodeTensorValues(DataType DType, std::vector<int64_t> Shape,
                                              const tensorflow::TensorProto &Proto,
                                              llvm::StringRef Where, bool Exact) {
  FROST_ASSIGN_OR_RETURN(int64_t N, numElements(Shape));
  if (DType == tensorflow::DT_STRING || DType == tensorflow::DT_VARIANT) {
    bool IsString = DType == tensorflow::DT_STRING;
    int64_t Count = IsString ? Proto.string_val_size() : Proto.variant_val_size();
    FROST_RETURN_IF_ERROR(
        checkCount(Count, N, Where, IsString ? "string_val" : "variant_val", Exact));
    // Repeating the last value must not turn a tiny proto into a huge tensor.
    if (Count != N && N > (int64_t(1) << 24))
      return absl::InvalidArgumentError(absl::StrCat(Where.str(), ": ", Count,
                                                     " values would expand to ", N, " elements"));
    std::vector<std::string> Elements;
    Elements.reserve(static_cast<size_t>(N));
    for (int64_t I = 0; I < N; ++I) {
      int64_t From = std::min(I, Count - 1);
      if (From < 0)
        Elements.emplace_back();
      else if (IsString)
        Elements.push_back(Proto.string_val(static_cast<int>(From)));
      else
        Elements.push_back(Proto.variant_val(static_cast<int>(From)).SerializeAsString());
    }
    return TensorData::strings(DType, std::move(Shape), std::move(Elements));
  }

  size_t Width = dataTypeSize(DType);
  if (Width == 0)
    return absl::UnimplementedError(absl::StrCat(Where.str(), ": cannot decode a ",
                                                 dataTypeName(DType), " tensor"));
  uint64_t Bytes;
  // A GraphDef holds under 2 GiB, so only a value spread over a declared
  // shape (a splat) can be larger: such a tensor is refused rather than
  // allocated.
  if (__builtin_mul_overflow(static_cast<uint64_t>(N), Width, &Bytes) || Bytes > MaxDecodedBytes)
    return absl::InvalidArgumentError(absl::StrCat(Where.str(), ": tensor of ", N,
                                                   " elements is too large (over 2 GiB)"));
  if (!Proto.tensor_content().empty()) {
    if (Proto.tensor_content().size() != Bytes)
      return absl::InvalidArgumentError(absl::StrCat(
          Where.str(), ": tensor_content has ", Proto.tensor_content().size(), " bytes, expected ",
          Bytes, " (", N, " elements of ", Width, " bytes)"));
    return TensorData::owned(DType, std::move(Shape), Proto.tensor_content());
  }

  // Integer fields narrow to the element width (little-endian host).
  auto FromInts = [&](const auto &Values, llvm::StringRef Name) -> absl::StatusOr<std::string> {
    int64_t Count = fieldSize(Values);
    FROST_RETURN_IF_ERROR(checkCount(Count, N, Where, Name, Exact));
    return fill(N, Count, Width, [&](int64_t I, char *Out) {
      auto V = Values.Get(static_cast<int>(I));
      std::memcpy(Out, &V, Width);
    });
  };
  // Complex fields hold (real, imaginary) pairs.
  auto FromPairs = [&](const auto &Values, llvm::StringRef Name) -> absl::StatusOr<std::string> {
    if (Values.size() % 2)
      return absl::InvalidArgumentError(
          absl::StrCat(Where.str(), ": ", Name.str(), " has an odd number of values"));
    int64_t Count = Values.size() / 2;
    FROST_RETURN_IF_ERROR(checkCount(Count, N, Where, Name, Exact));
    return fill(N, Count, Width, [&](int64_t I, char *Out) {
      std::memcpy(Out, Values.data() + 2 * I, Width);
    });
  };

  absl::StatusOr<std::string> Data;
  switch (DType) {
  case tensorflow::DT_FLOAT:
    Data = FromInts(Proto.float_val(), "float_val");
    break;
  case tensorflow::DT_DOUBLE:
    Data = FromInts(Proto.double_val(), "double_val");
    break;
  case tensorflow::DT_INT32:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT8:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QINT8:
  case tensorflow::DT_QUINT8:
  case tensorflow::DT_QINT16:
  case tensorflow::DT_QUINT16:
  case tensorflow::DT_QINT32:
  case tensorflow::DT_INT4:
  case tensorflow::DT_UINT4:
  case tensorflow::DT_INT2:
  case tensorflow::DT_UINT2:
    Data = FromInts(Proto.int_val(), "int_val");
    break;
  case tensorflow::DT_INT64:
    Data = FromInts(Proto.int64_val(), "int64_val");
    break;
  case tensorflow::DT_UINT32:
    Data = FromInts(Proto.uint32_val(), "uint32_val");
    break;
  case tensorflow::DT_UINT64:
    Data = FromInts(Proto.uint64_val(), "uint64_val");
    break;
  case tensorflow::DT_BOOL:
    Data = FromInts(Proto.bool_val(), "bool_val");
    break;
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16:
    Data = FromInts(Proto.half_val(), "half_val");
    break;
  case tensorflow::DT_COMPLEX64:
    Data = FromPairs(Proto.scomplex_val(), "scomplex_val");
    break;
  case tensorflow::DT_COMPLEX128:
    Data = FromPairs(Proto.dcomplex_val(), "dcomplex_val");
    break;
  default:
    if (isMinifloatDataType(DType)) {
      const std::string &Values = Proto.float8_val();
      int64_t Count = static_cast<int64_t>(Values.size());
      FROST_RETURN_IF_ERROR(checkCount(Count, N, Where, "float8_val", Exact));
      Data = fill(N, Count, 1, [&](int64_t I, char *Out) { *Out = Values[I]; });
      break;
    }
    return absl::UnimplementedError(absl::StrCat(Where.str(), ": cannot decode a ",
                                                 dataTypeName(DType), " tensor"));
  }
  if (!Data.ok())
    return Data.status();
  return TensorData::owned(DType, std::move(Shape), *std::move(Data));
}

absl::StatusOr<TensorData> decodeTensorProto(const tensorflow::TensorProto &Proto,
                                             llvm::StringRef Where, bool Exact) {
  absl::StatusOr<std::vector<int64_t>> Shape = shapeFromProto(Proto.tensor_shape());
  if (!Shape.ok())
    return absl::InvalidArgumentError(
        absl::StrCat(Where.str(), ": ", Shape.status().message()));
  return decodeTensorValues(Proto.dtype(), *std::move(Shape), Proto, Where, Exact);
}

//===----------------------------------------------------------------------===//
// Typed fields, as make_tensor_proto and Grappler write them
//===----------------------------------------------------------------------===//

namespace {

/// Appends the first `Count` elements of `Bytes`, read as `Elem`, to `Out`.
template <typename Elem, typename FieldT>
bool appendAs(llvm::StringRef Bytes, int64_t Count, google::protobuf::RepeatedField<FieldT> *Out) {
  assert(static_cast<size_t>(Count) * sizeof(Elem) <= Bytes.size());
  Out->Reserve(Out->size() + static_cast<int>(Count));
  for (int64_t I = 0; I < Count; ++I) {
    Elem V;
    std::memcpy(&V, Bytes.data() + I * sizeof(Elem), sizeof(Elem));
    Out->Add(static_cast<FieldT>(V));
  }
  return true;
}

/// Appends `Count` elements of `DT` from `Bytes` to the typed field both
/// writers use for numbers, bool, half/bfloat16 (the 16-bit patterns, in an
/// int32 field) and complex (real and imaginary parts interleaved); false,
/// appending nothing, for the other dtypes.
bool appendNumericValues(DataType DT, llvm::StringRef Bytes, int64_t Count,
                         tensorflow::TensorProto &P) {
  switch (DT) {
  case tensorflow::DT_FLOAT: return appendAs<float>(Bytes, Count, P.mutable_float_val());
  case tensorflow::DT_DOUBLE: return appendAs<double>(Bytes, Count, P.mutable_double_val());
  case tensorflow::DT_INT32:
  case tensorflow::DT_QINT32: return appendAs<int32_t>(Bytes, Count, P.mutable_int_val());
  case tensorflow::DT_INT16:
  case tensorflow::DT_QINT16: return appendAs<int16_t>(Bytes, Count, P.mutable_int_val());
  case tensorflow::DT_UINT16:
  case tensorflow::DT_QUINT16: return appendAs<uint16_t>(Bytes, Count, P.mutable_int_val());
  case tensorflow::DT_INT8:
  case tensorflow::DT_QINT8: return appendAs<int8_t>(Bytes, Count, P.mutable_int_val());
  case tensorflow::DT_UINT8:
  case tensorflow::DT_QUINT8: return appendAs<uint8_t>(Bytes, Count, P.mutable_int_val());
  case tensorflow::DT_INT64: return appendAs<int64_t>(Bytes, Count, P.mutable_int64_val());
  case tensorflow::DT_UINT32: return appendAs<uint32_t>(Bytes, Count, P.mutable_uint32_val());
  case tensorflow::DT_UINT64: return appendAs<uint64_t>(Bytes, Count, P.mutable_uint64_val());
  case tensorflow::DT_BOOL: return appendAs<uint8_t>(Bytes, Count, P.mutable_bool_val());
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16: return appendAs<uint16_t>(Bytes, Count, P.mutable_half_val());
  case tensorflow::DT_COMPLEX64: return appendAs<float>(Bytes, 2 * Count, P.mutable_scomplex_val());
  case tensorflow::DT_COMPLEX128:
    return appendAs<double>(Bytes, 2 * Count, P.mutable_dcomplex_val());
  default: return false;
  }
}

/// Appends every element of `T` to the typed field make_tensor_proto uses for
/// its dtype. Unimplemented for dtypes a TensorProto cannot hold.
absl::Status appendTypedValues(const TensorData &T, tensorflow::TensorProto &P) {
  int64_t N = T.numElements();
  if (appendNumericValues(T.dtype(), T.bytes(), N, P))
    return absl::OkStatus();
  switch (T.dtype()) {
  case tensorflow::DT_INT4:
  case tensorflow::DT_INT2: {
    // One byte per element; the value is the sign-extended low bits.
    int Bits = T.dtype() == tensorflow::DT_INT4 ? 4 : 2;
    for (int64_t I = 0; I < N; ++I) {
      int V = T.element<uint8_t>(I) & ((1 << Bits) - 1);
      P.add_int_val(V >= (1 << (Bits - 1)) ? V - (1 << Bits) : V);
    }
    return absl::OkStatus();
  }
  case tensorflow::DT_UINT4:
  case tensorflow::DT_UINT2: {
    int Mask = T.dtype() == tensorflow::DT_UINT4 ? 0xf : 0x3;
    for (int64_t I = 0; I < N; ++I)
      P.add_int_val(T.element<uint8_t>(I) & Mask);
    return absl::OkStatus();
  }
  case tensorflow::DT_STRING:
    for (const std::string &S : T.elements())
      P.add_string_val(S);
    return absl::OkStatus();
  default:
    if (isMinifloatDataType(T.dtype())) {
      P.mutable_float8_val()->append(T.bytes().data(), T.bytes().size());
      return absl::OkStatus();
    }
    break;
  }
  return absl::UnimplementedError(absl::StrCat("a ", dataTypeName(T.dtype()),
                                               " value cannot be stored in a Const"));
}

/// The dtypes make_tensor_proto stores in tensor_content when a tensor has
/// more than one element (tensor_util._TENSOR_CONTENT_TYPES); the others
/// (bool, complex, uint16, string, int4, ...) always use the typed field.
bool usesTensorContent(DataType DT) {
  switch (DT) {
  case tensorflow::DT_HALF:
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_INT32:
  case tensorflow::DT_UINT8:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT8:
  case tensorflow::DT_INT64:
  case tensorflow::DT_QINT8:
  case tensorflow::DT_QUINT8:
  case tensorflow::DT_QINT16:
  case tensorflow::DT_QUINT16:
  case tensorflow::DT_QINT32:
  case tensorflow::DT_UINT32:
  case tensorflow::DT_UINT64:
  case tensorflow::DT_BFLOAT16:
    return true;
  default:
    return isMinifloatDataType(DT);
  }
}

} // namespace

bool makeTensorProtoUsesContent(const TensorData &T) {
  return T.numElements() > 1 && usesTensorContent(T.dtype());
}

absl::Status makeTensorProto(const TensorData &T, tensorflow::TensorProto &P) {
  if (T.dtype() == tensorflow::DT_VARIANT) {
    // make_tensor_proto cannot build these; keep the serialized elements.
    return T.toTensorProto(P);
  }
  P.Clear();
  P.set_dtype(T.dtype());
  P.mutable_tensor_shape(); // present even for a scalar
  for (int64_t D : T.shape())
    P.mutable_tensor_shape()->add_dim()->set_size(D);
  if (makeTensorProtoUsesContent(T)) {
    P.set_tensor_content(T.bytes().data(), T.bytes().size());
    return absl::OkStatus();
  }
  return appendTypedValues(T, P);
}

bool hasSplatForm(DataType DType) {
  tensorflow::TensorProto Scratch;
  return appendNumericValues(DType, llvm::StringRef(), 0, Scratch);
}

void appendSplatValue(DataType DType, llvm::StringRef Element, tensorflow::TensorProto &P) {
  assert(hasSplatForm(DType) && Element.size() == dataTypeSize(DType));
  if (llvm::any_of(Element, [](char C) { return C != 0; }))
    appendNumericValues(DType, Element, 1, P);
}

} // namespace frost
