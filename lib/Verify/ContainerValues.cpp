//===- ContainerValues.cpp - What the TensorList and TensorArray runs share -===//
#include "ContainerValues.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"

namespace frost::verify::containers {

/// The bytes `Count` tensors of `DType` and shape `S` (all dimensions known)
/// take (strings: 8 a string), refused over the budget's limit per tensor
/// before anything is allocated.
absl::StatusOr<uint64_t> checkedBytes(tensorflow::DataType DType, const Shape &S, uint64_t Count,
                                      llvm::StringRef What, eval::EvalBudget &Budget) {
  FROST_ASSIGN_OR_RETURN(int64_t PerItem, numElements(S));
  uint64_t ElementBytes = isFixedSizeDataType(DType) ? dataTypeSize(DType) : 8;
  uint64_t Elements = static_cast<uint64_t>(PerItem);
  bool Overflows = Count && Elements && Elements > UINT64_MAX / ElementBytes / Count;
  uint64_t Bytes = Elements * Count * ElementBytes;
  if (Overflows || Bytes > Budget.MaxTensorBytes) {
    Budget.Exceeded = eval::EvalBudget::Limit::TensorBytes;
    return absl::ResourceExhaustedError(
        absl::StrCat(What.str(), " would take ",
                     Overflows ? "more than 2^64" : std::to_string(Bytes),
                     " bytes, over the limit per tensor"));
  }
  return Bytes;
}

/// `T` with another shape of as many elements (shares the storage).
TensorData reshaped(const TensorData &T, Shape NewShape) {
  if (T.isFixedSize())
    return TensorData::borrowed(T.dtype(), std::move(NewShape), T.bytes(), T.keeper());
  return TensorData::strings(T.dtype(), std::move(NewShape),
                             std::vector<std::string>(T.elements().begin(), T.elements().end()));
}

/// An item never set: zeros of shape `S`, within the budget's limit.
absl::StatusOr<TensorData> zeros(tensorflow::DataType DType, Shape S, eval::EvalBudget &Budget) {
  FROST_RETURN_IF_ERROR(checkedBytes(DType, S, 1, "an item never set, as zeros,", Budget).status());
  int64_t N = *numElements(S);
  if (isFixedSizeDataType(DType))
    return TensorData::owned(DType, std::move(S),
                             std::string(static_cast<size_t>(N) * dataTypeSize(DType), '\0'));
  return TensorData::strings(DType, std::move(S), std::vector<std::string>(N));
}

TensorData scalarOf(tensorflow::DataType DType, int64_t V) {
  if (DType == tensorflow::DT_INT64)
    return TensorData::owned(DType, {}, std::string(reinterpret_cast<const char *>(&V), 8));
  int32_t V32 = static_cast<int32_t>(V);
  return TensorData::owned(tensorflow::DT_INT32, {},
                           std::string(reinterpret_cast<const char *>(&V32), 4));
}

absl::StatusOr<int64_t> scalarInt(const TensorData &T, llvm::StringRef What) {
  if (T.numElements() != 1 ||
      (T.dtype() != tensorflow::DT_INT32 && T.dtype() != tensorflow::DT_INT64))
    return absl::InvalidArgumentError(absl::StrCat(What.str(), " must be an int32 or int64 scalar"));
  return T.dtype() == tensorflow::DT_INT32 ? T.element<int32_t>(0) : T.element<int64_t>(0);
}

absl::StatusOr<std::vector<int64_t>> intValues(const TensorData &T, llvm::StringRef What) {
  if (T.dtype() == tensorflow::DT_INT32) {
    std::vector<int32_t> V = T.values<int32_t>();
    return std::vector<int64_t>(V.begin(), V.end());
  }
  if (T.dtype() == tensorflow::DT_INT64)
    return T.values<int64_t>();
  return absl::InvalidArgumentError(absl::StrCat(What.str(), " must be int32 or int64"));
}

/// An element_shape input: a scalar -1 is an unknown rank.
absl::StatusOr<std::optional<Shape>> shapeInput(const TensorData &T) {
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, intValues(T, "element_shape"));
  if (T.shape().empty())
    return std::optional<Shape>();
  return std::optional<Shape>(std::move(V));
}

std::optional<Shape> shapeAttr(const Node &N, llvm::StringRef Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  if (!A || !A->has_shape() || A->shape().unknown_rank())
    return std::nullopt;
  Shape S;
  for (const auto &D : A->shape().dim())
    S.push_back(D.size());
  return S;
}

tensorflow::DataType typeAttr(const Node &N, llvm::StringRef Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  return A ? A->type() : tensorflow::DT_INVALID;
}

/// The most two partial shapes say together, or an error when they differ.
absl::StatusOr<std::optional<Shape>> mergeShapes(const std::optional<Shape> &A,
                                                 const std::optional<Shape> &B) {
  if (!A)
    return B;
  if (!B)
    return A;
  if (A->size() != B->size())
    return absl::InvalidArgumentError(absl::StrCat("shapes ", formatShape(*A), " and ",
                                                   formatShape(*B), " differ in rank"));
  Shape M = *A;
  for (size_t I = 0; I < M.size(); ++I) {
    if (M[I] < 0)
      M[I] = (*B)[I];
    else if ((*B)[I] >= 0 && (*B)[I] != M[I])
      return absl::InvalidArgumentError(absl::StrCat("shapes ", formatShape(*A), " and ",
                                                     formatShape(*B), " are incompatible"));
  }
  return std::optional<Shape>(std::move(M));
}

bool fullyDefined(const std::optional<Shape> &S) {
  return S && llvm::all_of(*S, [](int64_t D) { return D >= 0; });
}

/// Items stacked along a new first axis; unset items are zeros of
/// `ElementShape` (which must then be fully defined).
absl::StatusOr<TensorData> stack(tensorflow::DataType DType,
                                 llvm::ArrayRef<std::optional<TensorData>> Items,
                                 const std::optional<Shape> &KnownShape, eval::EvalBudget &Budget) {
  std::optional<Shape> ElementShape = KnownShape;
  for (const std::optional<TensorData> &Item : Items)
    if (Item) {
      FROST_ASSIGN_OR_RETURN(ElementShape,
                             mergeShapes(ElementShape, Shape(Item->shape().begin(),
                                                             Item->shape().end())));
    }
  if (!fullyDefined(ElementShape))
    return absl::InvalidArgumentError(
        "the element shape is not known (no item set, no full element_shape)");
  Shape Out = {static_cast<int64_t>(Items.size())};
  Out.insert(Out.end(), ElementShape->begin(), ElementShape->end());
  FROST_ASSIGN_OR_RETURN(uint64_t Bytes, checkedBytes(DType, *ElementShape, Items.size(),
                                                      "the stacked tensor", Budget));
  int64_t PerItem = *numElements(*ElementShape);
  if (Budget.WorkLeft < Bytes) {
    Budget.Exceeded = eval::EvalBudget::Limit::Work;
    return absl::ResourceExhaustedError("over the evaluation budget");
  }
  Budget.WorkLeft -= Bytes;
  if (isFixedSizeDataType(DType)) {
    std::string Data;
    Data.reserve(Bytes);
    std::string Zero(static_cast<size_t>(PerItem) * dataTypeSize(DType), '\0');
    for (const std::optional<TensorData> &Item : Items) {
      if (Item)
        Data.append(Item->bytes().data(), Item->bytes().size());
      else
        Data.append(Zero);
    }
    return TensorData::owned(DType, std::move(Out), std::move(Data));
  }
  std::vector<std::string> Elements;
  for (const std::optional<TensorData> &Item : Items)
    if (Item)
      Elements.insert(Elements.end(), Item->elements().begin(), Item->elements().end());
    else
      Elements.resize(Elements.size() + PerItem);
  return TensorData::strings(DType, std::move(Out), std::move(Elements));
}

/// Row `I` of `T` along its first axis.
absl::StatusOr<TensorData> row(const TensorData &T, int64_t I) {
  Shape Start(T.shape().size(), 0), Size(T.shape().begin(), T.shape().end());
  Start[0] = I;
  Size[0] = 1;
  FROST_ASSIGN_OR_RETURN(TensorData Row, sliceTensor(T, Start, Size));
  return reshaped(Row, Shape(T.shape().begin() + 1, T.shape().end()));
}

absl::Status checkItem(const TensorData &Item, tensorflow::DataType DType,
                       const std::optional<Shape> &ElementShape) {
  if (DType != tensorflow::DT_INVALID && Item.dtype() != DType)
    return absl::InvalidArgumentError(absl::StrCat("an item of ", dataTypeName(Item.dtype()),
                                                   " in a container of ", dataTypeName(DType)));
  return mergeShapes(ElementShape, Shape(Item.shape().begin(), Item.shape().end())).status();
}

absl::Status inRange(int64_t Index, size_t Size) {
  if (Index < 0 || static_cast<uint64_t>(Index) >= Size)
    return absl::InvalidArgumentError(
        absl::StrCat("index ", Index, " is out of range for ", Size, " elements"));
  return absl::OkStatus();
}

absl::Status arity(const std::vector<TensorData> &In, size_t N) {
  if (In.size() != N)
    return absl::InvalidArgumentError(absl::StrCat("expected ", N, " inputs, got ", In.size()));
  return absl::OkStatus();
}

} // namespace frost::verify::containers
