//===- RunContainers.cpp - TensorLists and TensorArrays of one run --------===//
#include "RunContainers.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringSwitch.h"

namespace frost::verify {

namespace {

constexpr llvm::StringLiteral ListTag = "frost-tensor-list:";
constexpr llvm::StringLiteral ArrayTag = "frost-tensor-array:";

using Shape = std::vector<int64_t>;

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

} // namespace

bool RunContainers::runs(llvm::StringRef Op) {
  return llvm::StringSwitch<bool>(Op)
      .Cases("EmptyTensorList", "TensorListReserve", "TensorListFromTensor", "TensorListSetItem",
             "TensorListGetItem", "TensorListStack", true)
      .Cases("TensorListLength", "TensorListElementShape", "TensorListPushBack",
             "TensorListPopBack", "TensorListGather", true)
      .Cases("TensorListConcat", "TensorListConcatV2", "TensorListSplit", "TensorListResize", true)
      .Cases("TensorArrayV3", "TensorArrayWriteV3", "TensorArrayReadV3", "TensorArrayGatherV3",
             "TensorArrayScatterV3", "TensorArraySizeV3", true)
      .Cases("TensorArrayConcatV3", "TensorArrayCloseV3", true)
      .Default(false);
}

TensorData RunContainers::newList(Container C) {
  Lists.push_back(std::move(C));
  return TensorData::strings(tensorflow::DT_VARIANT, {},
                             {absl::StrCat(ListTag.str(), Lists.size() - 1)});
}

absl::StatusOr<const RunContainers::Container *>
RunContainers::list(const TensorData &Handle) const {
  size_t Id;
  if (Handle.dtype() != tensorflow::DT_VARIANT || Handle.numElements() != 1 ||
      !llvm::StringRef(Handle.elements()[0]).starts_with(ListTag) ||
      llvm::StringRef(Handle.elements()[0]).drop_front(ListTag.size()).getAsInteger(10, Id) ||
      Id >= Lists.size())
    return absl::InvalidArgumentError("its input is no TensorList this run made (a variant "
                                      "from a constant or a feed is not run)");
  return &Lists[Id];
}

absl::StatusOr<RunContainers::Container *> RunContainers::array(const TensorData &Handle) {
  size_t Id;
  if (Handle.numElements() != 1 || Handle.isFixedSize() ||
      !llvm::StringRef(Handle.elements()[0]).starts_with(ArrayTag) ||
      llvm::StringRef(Handle.elements()[0]).drop_front(ArrayTag.size()).getAsInteger(10, Id) ||
      Id >= Arrays.size())
    return absl::InvalidArgumentError("its handle is no TensorArray this run made");
  return &Arrays[Id];
}

absl::StatusOr<std::vector<TensorData>> RunContainers::run(const Node &N,
                                                           std::vector<TensorData> Inputs,
                                                           eval::EvalBudget &Budget) {
  if (N.op().starts_with("TensorArray"))
    return runArray(N, Inputs, Budget);
  return runList(N, Inputs, Budget);
}

absl::StatusOr<std::vector<TensorData>>
RunContainers::runList(const Node &N, std::vector<TensorData> &In, eval::EvalBudget &Budget) {
  llvm::StringRef Op = N.op();
  tensorflow::DataType DType = typeAttr(N, "element_dtype");
  if (Op == "EmptyTensorList" || Op == "TensorListReserve") {
    FROST_RETURN_IF_ERROR(arity(In, 2));
    Container C;
    C.ElementDType = DType;
    FROST_ASSIGN_OR_RETURN(C.ElementShape, shapeInput(In[0]));
    if (Op == "TensorListReserve") {
      FROST_ASSIGN_OR_RETURN(int64_t Size, scalarInt(In[1], "num_elements"));
      if (Size < 0 || static_cast<uint64_t>(Size) > Budget.MaxTensorBytes)
        return absl::InvalidArgumentError(absl::StrCat("num_elements ", Size, " is out of range"));
      C.Items.resize(static_cast<size_t>(Size));
    }
    return std::vector<TensorData>{newList(std::move(C))};
  }
  if (Op == "TensorListFromTensor") {
    FROST_RETURN_IF_ERROR(arity(In, 2));
    if (In[0].shape().empty())
      return absl::InvalidArgumentError("the tensor must have at least one dimension");
    Container C;
    C.ElementDType = In[0].dtype();
    FROST_ASSIGN_OR_RETURN(std::optional<Shape> Given, shapeInput(In[1]));
    FROST_ASSIGN_OR_RETURN(C.ElementShape,
                           mergeShapes(Given, Shape(In[0].shape().begin() + 1, In[0].shape().end())));
    for (int64_t I = 0; I < In[0].shape()[0]; ++I) {
      FROST_ASSIGN_OR_RETURN(TensorData Row, row(In[0], I));
      C.Items.push_back(std::move(Row));
    }
    return std::vector<TensorData>{newList(std::move(C))};
  }
  if (Op == "TensorListSplit")
    return splitList(In, Budget);
  if (In.empty())
    return absl::InvalidArgumentError("expected a TensorList input");
  FROST_ASSIGN_OR_RETURN(const Container *L, list(In[0]));
  if (Op == "TensorListConcat" || Op == "TensorListConcatV2")
    return concatList(N, *L, In, Budget);
  if (Op == "TensorListResize") {
    FROST_RETURN_IF_ERROR(arity(In, 2));
    FROST_ASSIGN_OR_RETURN(int64_t Size, scalarInt(In[1], "size"));
    if (Size < 0) // TensorFlow's words, its kernel's name included
      return absl::InvalidArgumentError(
          absl::StrCat("TensorListSlice expects size to be non-negative. Got: ", Size));
    if (static_cast<uint64_t>(Size) > Budget.MaxTensorBytes)
      return absl::InvalidArgumentError(absl::StrCat("size ", Size, " is out of range"));
    Container C = *L;
    C.Items.resize(static_cast<size_t>(Size));
    Budget.WorkLeft -= std::min<uint64_t>(Budget.WorkLeft, C.Items.size());
    return std::vector<TensorData>{newList(std::move(C))};
  }
  if (Op == "TensorListLength")
    return std::vector<TensorData>{scalarOf(tensorflow::DT_INT32, L->Items.size())};
  if (Op == "TensorListElementShape") {
    tensorflow::DataType T = typeAttr(N, "shape_type");
    if (!L->ElementShape)
      return std::vector<TensorData>{scalarOf(T, -1)};
    std::string Bytes;
    for (int64_t D : *L->ElementShape) {
      TensorData V = scalarOf(T, D);
      Bytes += V.bytes().str();
    }
    return std::vector<TensorData>{
        TensorData::owned(T == tensorflow::DT_INT64 ? T : tensorflow::DT_INT32,
                          {static_cast<int64_t>(L->ElementShape->size())}, std::move(Bytes))};
  }
  if (Op == "TensorListSetItem") {
    FROST_RETURN_IF_ERROR(arity(In, 3));
    FROST_ASSIGN_OR_RETURN(int64_t Index, scalarInt(In[1], "index"));
    FROST_RETURN_IF_ERROR(checkItem(In[2], L->ElementDType, L->ElementShape));
    Container C = *L;
    const tensorflow::AttrValue *Resize = N.findAttr("resize_if_index_out_of_bounds");
    if (Resize && Resize->b() && Index >= 0 && static_cast<uint64_t>(Index) >= C.Items.size())
      C.Items.resize(static_cast<size_t>(Index) + 1);
    FROST_RETURN_IF_ERROR(inRange(Index, C.Items.size()));
    C.Items[Index] = In[2];
    Budget.WorkLeft -= std::min<uint64_t>(Budget.WorkLeft, C.Items.size());
    return std::vector<TensorData>{newList(std::move(C))};
  }
  if (Op == "TensorListPushBack") {
    FROST_RETURN_IF_ERROR(arity(In, 2));
    FROST_RETURN_IF_ERROR(checkItem(In[1], L->ElementDType, L->ElementShape));
    Container C = *L;
    C.Items.push_back(In[1]);
    Budget.WorkLeft -= std::min<uint64_t>(Budget.WorkLeft, C.Items.size());
    return std::vector<TensorData>{newList(std::move(C))};
  }
  if (Op == "TensorListGetItem" || Op == "TensorListPopBack") {
    bool Pop = Op == "TensorListPopBack";
    FROST_RETURN_IF_ERROR(arity(In, Pop ? 2 : 3));
    int64_t Index = static_cast<int64_t>(L->Items.size()) - 1;
    if (Pop) {
      if (L->Items.empty())
        return absl::InvalidArgumentError("pops from an empty list");
    } else {
      FROST_ASSIGN_OR_RETURN(Index, scalarInt(In[1], "index"));
      FROST_RETURN_IF_ERROR(inRange(Index, L->Items.size()));
    }
    TensorData Item;
    if (L->Items[Index]) {
      Item = *L->Items[Index];
    } else {
      FROST_ASSIGN_OR_RETURN(std::optional<Shape> Given, shapeInput(In.back()));
      FROST_ASSIGN_OR_RETURN(std::optional<Shape> S, mergeShapes(L->ElementShape, Given));
      if (!fullyDefined(S))
        return absl::InvalidArgumentError(absl::StrCat(
            "item ", Index, " was never set and the element shape is not fully known"));
      FROST_ASSIGN_OR_RETURN(Item, zeros(L->ElementDType, *S, Budget));
    }
    if (!Pop)
      return std::vector<TensorData>{std::move(Item)};
    Container C = *L;
    C.Items.pop_back();
    return std::vector<TensorData>{newList(std::move(C)), std::move(Item)};
  }
  if (Op == "TensorListStack" || Op == "TensorListGather") {
    bool Gather = Op == "TensorListGather";
    FROST_RETURN_IF_ERROR(arity(In, Gather ? 3 : 2));
    FROST_ASSIGN_OR_RETURN(std::optional<Shape> Given, shapeInput(In.back()));
    FROST_ASSIGN_OR_RETURN(std::optional<Shape> S, mergeShapes(L->ElementShape, Given));
    std::vector<std::optional<TensorData>> Items;
    if (Gather) {
      FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Indices, intValues(In[1], "indices"));
      for (int64_t I : Indices) {
        FROST_RETURN_IF_ERROR(inRange(I, L->Items.size()));
        Items.push_back(L->Items[I]);
      }
    } else {
      const tensorflow::AttrValue *Num = N.findAttr("num_elements");
      if (Num && Num->i() != -1 && Num->i() != static_cast<int64_t>(L->Items.size()))
        return absl::InvalidArgumentError(absl::StrCat("the list has ", L->Items.size(),
                                                       " elements, not num_elements ", Num->i()));
      Items = L->Items;
    }
    FROST_ASSIGN_OR_RETURN(TensorData Out, stack(L->ElementDType, Items, S, Budget));
    return std::vector<TensorData>{std::move(Out)};
  }
  return absl::UnimplementedError(absl::StrCat("no kernel for ", Op.str()));
}

absl::StatusOr<std::vector<TensorData>>
RunContainers::concatList(const Node &N, const Container &L, std::vector<TensorData> &In,
                          eval::EvalBudget &Budget) {
  // TensorFlow's TensorListConcat(V2): the items laid end to end along their
  // first axis, and each item's length. An item never set is zeros whose
  // first dimension comes from leading_dims (V2), else from the element
  // shape's first dimension, else from every set item having the same one.
  bool V2 = N.op() == "TensorListConcatV2";
  FROST_RETURN_IF_ERROR(arity(In, V2 ? 3 : 1));
  std::optional<Shape> ElementShape = L.ElementShape;
  if (V2) {
    FROST_ASSIGN_OR_RETURN(std::optional<Shape> Given, shapeInput(In[1]));
    FROST_ASSIGN_OR_RETURN(ElementShape, mergeShapes(ElementShape, Given));
  } else {
    FROST_ASSIGN_OR_RETURN(ElementShape, mergeShapes(ElementShape, shapeAttr(N, "element_shape")));
  }
  if (ElementShape && ElementShape->empty())
    return absl::InvalidArgumentError(
        "Concat requires elements to be at least vectors, found scalars instead.");
  int64_t FirstDim = ElementShape ? (*ElementShape)[0] : -1;
  std::optional<Shape> Rest;
  if (ElementShape)
    Rest = Shape(ElementShape->begin() + 1, ElementShape->end());
  bool Infer = FirstDim < 0;
  int64_t Inferred = FirstDim;
  for (size_t I = 0; I < L.Items.size(); ++I) {
    if (!L.Items[I])
      continue;
    const TensorData &T = *L.Items[I];
    if (T.shape().empty())
      return absl::InvalidArgumentError(absl::StrCat(
          "Concat saw a scalar shape at index ", I, " but requires at least vectors."));
    FROST_ASSIGN_OR_RETURN(Rest, mergeShapes(Rest, Shape(T.shape().begin() + 1, T.shape().end())));
    if (FirstDim >= 0 && T.shape()[0] != FirstDim)
      return absl::InvalidArgumentError(absl::StrCat(
          "First entry of element_shape input does not match the first dim of list element at "
          "index: ", I, " Expected: ", FirstDim, " Actual: ", T.shape()[0]));
    if (Infer) {
      if (Inferred < 0)
        Inferred = T.shape()[0];
      else if (Inferred != T.shape()[0]) {
        Inferred = -1;
        Infer = false;
      }
    }
  }
  if (!fullyDefined(Rest))
    return absl::InvalidArgumentError(
        L.Items.empty() ? "All except the first dimension must be fully defined when concating "
                          "an empty tensor list."
                        : "Trying to concat list with only uninitialized tensors but "
                          "element_shape_except_first_dim is not fully defined");
  std::vector<int64_t> LeadingDims;
  if (V2) {
    FROST_ASSIGN_OR_RETURN(LeadingDims, intValues(In[2], "leading_dims"));
  }
  std::vector<int64_t> Dims;
  int64_t Total = 0;
  for (size_t I = 0; I < L.Items.size(); ++I) {
    int64_t Dim;
    if (L.Items[I]) {
      Dim = L.Items[I]->shape()[0];
    } else if (I >= LeadingDims.size() && Inferred >= 0) {
      Dim = Inferred;
    } else if (!V2) {
      return absl::InvalidArgumentError(
          "Concating lists with uninitialized tensors is not supported in this version of "
          "TensorListConcat. Consider updating your GraphDef to run the newer version.");
    } else if (I >= LeadingDims.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("List contains uninitialized tensor at index ", I,
                       " but leading_dims has only ", LeadingDims.size(), " elements."));
    } else {
      Dim = LeadingDims[I];
    }
    if (Dim < 0)
      return absl::InvalidArgumentError(absl::StrCat("leading_dims[", I, "] is ", Dim));
    if (Dim > INT64_MAX - Total)
      return absl::InvalidArgumentError("the concatenated length overflows");
    Total += Dim;
    Dims.push_back(Dim);
  }
  // The items' elements laid end to end (an unset item: its zeros), within
  // the per-tensor limit before anything is allocated.
  Shape Out = {Total};
  Out.insert(Out.end(), Rest->begin(), Rest->end());
  FROST_ASSIGN_OR_RETURN(uint64_t Bytes, checkedBytes(L.ElementDType, Out, 1,
                                                      "the concatenated tensor", Budget));
  const int64_t RowElements = *numElements(*Rest);
  TensorData Joined;
  if (isFixedSizeDataType(L.ElementDType)) {
    const size_t RowBytes = static_cast<size_t>(RowElements) * dataTypeSize(L.ElementDType);
    std::string Data;
    Data.reserve(Bytes);
    for (size_t I = 0; I < L.Items.size(); ++I) {
      if (L.Items[I])
        Data.append(L.Items[I]->bytes().data(), L.Items[I]->bytes().size());
      else
        Data.append(static_cast<size_t>(Dims[I]) * RowBytes, '\0');
    }
    Joined = TensorData::owned(L.ElementDType, std::move(Out), std::move(Data));
  } else {
    std::vector<std::string> Elements;
    for (size_t I = 0; I < L.Items.size(); ++I) {
      if (L.Items[I])
        Elements.insert(Elements.end(), L.Items[I]->elements().begin(),
                        L.Items[I]->elements().end());
      else
        Elements.resize(Elements.size() + static_cast<size_t>(Dims[I] * RowElements));
    }
    Joined = TensorData::strings(L.ElementDType, std::move(Out), std::move(Elements));
  }
  std::string Lengths(reinterpret_cast<const char *>(Dims.data()), Dims.size() * 8);
  int64_t Count = static_cast<int64_t>(L.Items.size());
  return std::vector<TensorData>{
      std::move(Joined), TensorData::owned(tensorflow::DT_INT64, {Count}, std::move(Lengths))};
}

absl::StatusOr<std::vector<TensorData>>
RunContainers::splitList(std::vector<TensorData> &In, eval::EvalBudget &Budget) {
  // TensorFlow's TensorListSplit: consecutive slices of the tensor's first
  // axis, one item per length, which must use every row.
  FROST_RETURN_IF_ERROR(arity(In, 3));
  const TensorData &T = In[0];
  FROST_ASSIGN_OR_RETURN(std::optional<Shape> Given, shapeInput(In[1]));
  if (Given && Given->empty())
    return absl::InvalidArgumentError(
        "TensorListSplit requires element_shape to be at least of rank 1, but saw: []");
  if (T.shape().empty())
    return absl::InvalidArgumentError("Tensor must be at least a vector, but saw shape: []");
  Shape RestOfT(T.shape().begin() + 1, T.shape().end());
  if (Given) {
    Shape RestGiven(Given->begin() + 1, Given->end());
    if (!mergeShapes(RestGiven, RestOfT).ok())
      return absl::InvalidArgumentError(absl::StrCat("tensor shape ", formatShape(T.shape()),
                                                     " is not compatible with element_shape ",
                                                     formatShape(*Given)));
  }
  if (In[2].shape().size() != 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "Expected lengths to be a vector, received shape: ", formatShape(In[2].shape())));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Lengths, intValues(In[2], "lengths"));
  Container C;
  C.ElementDType = T.dtype();
  C.ElementShape = Given;
  int64_t Start = 0;
  for (int64_t Length : Lengths) {
    if (Length < 0)
      return absl::InvalidArgumentError(absl::StrCat("Invalid value in lengths: ", Length));
    if (Length > T.shape()[0] - Start)
      return absl::InvalidArgumentError(absl::StrCat("Attempting to slice [", Start, ", ",
                                                     Start + Length, "] from tensor with length ",
                                                     T.shape()[0]));
    Shape SliceStart(T.shape().size(), 0), Size(T.shape().begin(), T.shape().end());
    SliceStart[0] = Start;
    Size[0] = Length;
    FROST_ASSIGN_OR_RETURN(TensorData Item, sliceTensor(T, SliceStart, Size));
    C.Items.push_back(std::move(Item));
    Start += Length;
    Budget.WorkLeft -= std::min<uint64_t>(Budget.WorkLeft, 1);
  }
  if (Start != T.shape()[0])
    return absl::InvalidArgumentError(absl::StrCat("Unused values in tensor. Length of tensor: ",
                                                   T.shape()[0], " Values used: ", Start));
  return std::vector<TensorData>{newList(std::move(C))};
}

absl::StatusOr<std::vector<TensorData>>
RunContainers::runArray(const Node &N, std::vector<TensorData> &In, eval::EvalBudget &Budget) {
  llvm::StringRef Op = N.op();
  TensorData Flow = TensorData::owned(tensorflow::DT_FLOAT, {}, std::string(4, '\0'));
  if (Op == "TensorArrayV3") {
    FROST_RETURN_IF_ERROR(arity(In, 1));
    FROST_ASSIGN_OR_RETURN(int64_t Size, scalarInt(In[0], "size"));
    if (Size < 0 || static_cast<uint64_t>(Size) > Budget.MaxTensorBytes)
      return absl::InvalidArgumentError(absl::StrCat("size ", Size, " is out of range"));
    Container C;
    C.ElementDType = typeAttr(N, "dtype");
    C.ElementShape = shapeAttr(N, "element_shape");
    const tensorflow::AttrValue *Dynamic = N.findAttr("dynamic_size");
    C.DynamicSize = Dynamic && Dynamic->b();
    const tensorflow::AttrValue *Clear = N.findAttr("clear_after_read");
    C.ClearAfterRead = !Clear || Clear->b();
    C.Items.resize(static_cast<size_t>(Size));
    C.Cleared.resize(C.Items.size());
    Arrays.push_back(std::move(C));
    TensorData Handle = TensorData::strings(tensorflow::DT_RESOURCE, {},
                                            {absl::StrCat(ArrayTag.str(), Arrays.size() - 1)});
    return std::vector<TensorData>{std::move(Handle), std::move(Flow)};
  }
  if (In.empty())
    return absl::InvalidArgumentError("expected a TensorArray handle");
  FROST_ASSIGN_OR_RETURN(Container * A, array(In[0]));
  auto write = [&](int64_t Index, TensorData Value) -> absl::Status {
    FROST_RETURN_IF_ERROR(checkItem(Value, A->ElementDType, A->ElementShape));
    if (A->DynamicSize && Index >= 0 && static_cast<uint64_t>(Index) >= A->Items.size()) {
      A->Items.resize(static_cast<size_t>(Index) + 1);
      A->Cleared.resize(A->Items.size());
    }
    FROST_RETURN_IF_ERROR(inRange(Index, A->Items.size()));
    if (A->Items[Index] || A->Cleared[Index])
      return absl::InvalidArgumentError(
          absl::StrCat("writes index ", Index, " twice (TensorFlow refuses)"));
    A->Items[Index] = std::move(Value);
    return absl::OkStatus();
  };
  // A read of an item: zeros for one never written when the element shape
  // is known; with clear_after_read, the item is gone after.
  auto read = [&](int64_t Index) -> absl::StatusOr<std::optional<TensorData>> {
    FROST_RETURN_IF_ERROR(inRange(Index, A->Items.size()));
    if (A->Cleared[Index])
      return absl::InvalidArgumentError(absl::StrCat(
          "reads index ", Index, " twice, and the array clears an item once read "
          "(clear_after_read)"));
    std::optional<TensorData> Item = A->Items[Index];
    if (A->ClearAfterRead) {
      A->Cleared[Index] = true;
      A->Items[Index].reset();
    }
    return Item;
  };
  if (Op == "TensorArrayCloseV3")
    return std::vector<TensorData>{};
  if (Op == "TensorArraySizeV3")
    return std::vector<TensorData>{scalarOf(tensorflow::DT_INT32, A->Items.size())};
  if (Op == "TensorArrayWriteV3") {
    FROST_RETURN_IF_ERROR(arity(In, 4));
    FROST_ASSIGN_OR_RETURN(int64_t Index, scalarInt(In[1], "index"));
    FROST_RETURN_IF_ERROR(write(Index, In[2]));
    return std::vector<TensorData>{std::move(Flow)};
  }
  if (Op == "TensorArrayScatterV3") {
    FROST_RETURN_IF_ERROR(arity(In, 4));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Indices, intValues(In[1], "indices"));
    if (In[2].shape().empty() || In[2].shape()[0] != static_cast<int64_t>(Indices.size()))
      return absl::InvalidArgumentError("value's first dimension must equal the indices' count");
    for (size_t I = 0; I < Indices.size(); ++I) {
      FROST_ASSIGN_OR_RETURN(TensorData Row, row(In[2], static_cast<int64_t>(I)));
      FROST_RETURN_IF_ERROR(write(Indices[I], std::move(Row)));
    }
    return std::vector<TensorData>{std::move(Flow)};
  }
  if (Op == "TensorArrayReadV3") {
    FROST_RETURN_IF_ERROR(arity(In, 3));
    FROST_ASSIGN_OR_RETURN(int64_t Index, scalarInt(In[1], "index"));
    FROST_ASSIGN_OR_RETURN(std::optional<TensorData> Item, read(Index));
    if (Item)
      return std::vector<TensorData>{*std::move(Item)};
    if (!fullyDefined(A->ElementShape))
      return absl::InvalidArgumentError(
          absl::StrCat("reads index ", Index, ", which was never written"));
    FROST_ASSIGN_OR_RETURN(TensorData Zeros, zeros(A->ElementDType, *A->ElementShape, Budget));
    return std::vector<TensorData>{std::move(Zeros)};
  }
  if (Op == "TensorArrayGatherV3") {
    FROST_RETURN_IF_ERROR(arity(In, 3));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Indices, intValues(In[1], "indices"));
    std::vector<std::optional<TensorData>> Items;
    for (int64_t I : Indices) {
      FROST_ASSIGN_OR_RETURN(std::optional<TensorData> Item, read(I));
      Items.push_back(std::move(Item));
    }
    FROST_ASSIGN_OR_RETURN(std::optional<Shape> S,
                           mergeShapes(A->ElementShape, shapeAttr(N, "element_shape")));
    FROST_ASSIGN_OR_RETURN(TensorData Out, stack(A->ElementDType, Items, S, Budget));
    return std::vector<TensorData>{std::move(Out)};
  }
  if (Op == "TensorArrayConcatV3") {
    FROST_RETURN_IF_ERROR(arity(In, 2));
    // Items joined along their first axis: each stacked as one row of
    // elements, then the rows laid end to end.
    std::vector<int64_t> Lengths;
    std::optional<Shape> Rest = shapeAttr(N, "element_shape_except0");
    std::string Bytes;
    std::vector<std::string> Strings;
    int64_t Total = 0;
    for (size_t I = 0; I < A->Items.size(); ++I) {
      FROST_ASSIGN_OR_RETURN(std::optional<TensorData> Item, read(static_cast<int64_t>(I)));
      if (!Item)
        return absl::InvalidArgumentError(absl::StrCat("index ", I, " was never written"));
      const TensorData &T = *Item;
      if (T.shape().empty())
        return absl::InvalidArgumentError("concatenates a scalar item");
      FROST_ASSIGN_OR_RETURN(Rest, mergeShapes(Rest, Shape(T.shape().begin() + 1, T.shape().end())));
      Lengths.push_back(T.shape()[0]);
      Total += T.shape()[0];
      if (T.isFixedSize())
        Bytes.append(T.bytes().data(), T.bytes().size());
      else
        Strings.insert(Strings.end(), T.elements().begin(), T.elements().end());
    }
    if (!fullyDefined(Rest))
      return absl::InvalidArgumentError("concatenates an empty array of unknown element shape");
    Shape Out = {Total};
    Out.insert(Out.end(), Rest->begin(), Rest->end());
    TensorData Value = isFixedSizeDataType(A->ElementDType)
                           ? TensorData::owned(A->ElementDType, Out, std::move(Bytes))
                           : TensorData::strings(A->ElementDType, Out, std::move(Strings));
    std::string LengthBytes(reinterpret_cast<const char *>(Lengths.data()), Lengths.size() * 8);
    return std::vector<TensorData>{
        std::move(Value),
        TensorData::owned(tensorflow::DT_INT64, {static_cast<int64_t>(Lengths.size())},
                          std::move(LengthBytes))};
  }
  return absl::UnimplementedError(absl::StrCat("no kernel for ", Op.str()));
}

} // namespace frost::verify
