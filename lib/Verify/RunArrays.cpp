//===- RunArrays.cpp - TensorArrays of one run ----------------------------===//
#include "ContainerValues.h"
#include "RunContainers.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"

namespace frost::verify {

namespace {

constexpr llvm::StringLiteral ArrayTag = "frost-tensor-array:";

} // namespace

using namespace containers;

absl::StatusOr<RunContainers::Container *> RunContainers::array(const TensorData &Handle) {
  size_t Id;
  if (Handle.numElements() != 1 || Handle.isFixedSize() ||
      !llvm::StringRef(Handle.elements()[0]).starts_with(ArrayTag) ||
      llvm::StringRef(Handle.elements()[0]).drop_front(ArrayTag.size()).getAsInteger(10, Id) ||
      Id >= Arrays.size())
    return absl::InvalidArgumentError("its handle is no TensorArray this run made");
  return &Arrays[Id];
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
