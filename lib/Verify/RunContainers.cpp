//===- RunContainers.cpp - TensorLists and TensorArrays of one run --------===//
#include "RunContainers.h"

#include "ContainerValues.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringSwitch.h"

namespace frost::verify {
namespace {

constexpr llvm::StringLiteral ListTag = "frost-tensor-list:";

} // namespace

using namespace containers;

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

} // namespace frost::verify
