//===- RunTables.cpp - The lookup tables of one run ----------------------===//
#include "RunTables.h"

#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstring>

namespace frost::verify {

namespace {

constexpr llvm::StringLiteral TableTag = "frost-lookup-table:";

bool isV1(llvm::StringRef Op) { return !Op.ends_with("V2"); }

tensorflow::DataType typeAttr(const Node &N, llvm::StringRef Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  return A ? A->type() : tensorflow::DT_INVALID;
}

/// Element `I` of `T` as bytes: a string's own, a number's in memory.
std::string elementBytes(const TensorData &T, int64_t I) {
  if (!T.isFixedSize())
    return T.elements()[I];
  size_t Size = dataTypeSize(T.dtype());
  return T.bytes().substr(I * Size, Size).str();
}

/// Element `I` of `T` as TensorFlow's messages print it.
std::string elementText(const TensorData &T, int64_t I) {
  switch (T.dtype()) {
  case tensorflow::DT_STRING:
    return T.elements()[I];
  case tensorflow::DT_FLOAT:
    return absl::StrCat(T.element<float>(I));
  case tensorflow::DT_DOUBLE:
    return absl::StrCat(T.element<double>(I));
  case tensorflow::DT_INT32:
    return absl::StrCat(T.element<int32_t>(I));
  case tensorflow::DT_INT64:
    return absl::StrCat(T.element<int64_t>(I));
  case tensorflow::DT_BOOL:
    return T.element<uint8_t>(I) ? "1" : "0";
  default:
    return "?";
  }
}

/// All of `T` (dtype, shape, elements) as one string, to compare two
/// initializations.
std::string contentOf(const TensorData &T) {
  std::string S = absl::StrCat(T.dtype(), ":", absl::StrJoin(T.shape(), ","), ":");
  if (T.isFixedSize())
    return S + T.bytes().str();
  for (const std::string &E : T.elements())
    absl::StrAppend(&S, E.size(), ":", E);
  return S;
}

/// TensorFlow's executor's message for inputs of other dtypes than the
/// table's: "Signature mismatch, have: resource, int32, float->float
/// expected: resource, int64, float->float".
absl::Status signatureMismatch(llvm::StringRef HandleType,
                               llvm::ArrayRef<tensorflow::DataType> Have,
                               llvm::ArrayRef<tensorflow::DataType> Expected,
                               llvm::StringRef Outputs) {
  auto list = [&](llvm::ArrayRef<tensorflow::DataType> Types) {
    std::string S = HandleType.str();
    for (tensorflow::DataType T : Types)
      absl::StrAppend(&S, ", ", dataTypeName(T));
    return absl::StrCat(S, "->", Outputs.str());
  };
  return absl::InvalidArgumentError(
      absl::StrCat("Signature mismatch, have: ", list(Have), " expected: ", list(Expected)));
}

absl::Status arity(const std::vector<TensorData> &In, size_t N) {
  if (In.size() != N)
    return absl::InvalidArgumentError(absl::StrCat("expected ", N, " inputs, got ", In.size()));
  return absl::OkStatus();
}

} // namespace

bool RunTables::runs(llvm::StringRef Op) {
  return llvm::StringSwitch<bool>(Op)
      .Cases("HashTable", "HashTableV2", "MutableHashTable", "MutableHashTableV2", true)
      .Cases("MutableHashTableOfTensors", "MutableHashTableOfTensorsV2", true)
      .Cases("InitializeTable", "InitializeTableV2", "LookupTableImport", "LookupTableImportV2",
             true)
      .Cases("LookupTableFind", "LookupTableFindV2", "LookupTableSize", "LookupTableSizeV2", true)
      .Default(false);
}

absl::StatusOr<RunTables::Table *> RunTables::table(const TensorData &Handle) {
  size_t Id = 0;
  if (Handle.isFixedSize() || Handle.numElements() != 1 ||
      !llvm::StringRef(Handle.elements()[0]).starts_with(TableTag) ||
      llvm::StringRef(Handle.elements()[0]).drop_front(TableTag.size()).getAsInteger(10, Id) ||
      Id >= Tables.size())
    return absl::InvalidArgumentError("its table handle is no lookup table this run made");
  return &Tables[Id];
}

absl::Status RunTables::fill(Table &T, const TensorData &Keys, const TensorData &Values,
                             bool Import, llvm::StringRef HandleType) {
  if (Keys.dtype() != T.KeyDType || Values.dtype() != T.ValueDType)
    return signatureMismatch(HandleType, {Keys.dtype(), Values.dtype()},
                             {T.KeyDType, T.ValueDType}, "");
  int64_t RowElements = 1;
  for (int64_t D : T.ValueShape)
    RowElements *= D;
  int64_t Count = Keys.numElements();
  if (Values.numElements() != Count * RowElements)
    return absl::InvalidArgumentError(absl::StrCat("Expected shape ", formatShape(Keys.shape()),
                                                   " plus the value shape for argument 'values', "
                                                   "got ",
                                                   formatShape(Values.shape())));
  if (T.Mutable) {
    // An import replaces a mutable table's contents; the last of equal keys wins.
    T.Rows.clear();
    T.FixedValues.clear();
    T.StringValues.clear();
  } else if (T.Initialized) {
    // A static table is filled once: TensorFlow's import then does nothing,
    // another initialization must bring the same data.
    if (Import || (T.InitKeys == contentOf(Keys) && T.InitValues == contentOf(Values)))
      return absl::OkStatus();
    return absl::FailedPreconditionError("Table was already initialized with different data.");
  } else if (!Import && Count == 0) {
    return absl::InvalidArgumentError("keys and values cannot be empty tensors.");
  }
  size_t ValueBytes = Values.isFixedSize() ? dataTypeSize(Values.dtype()) * RowElements : 0;
  for (int64_t I = 0; I < Count; ++I) {
    std::string Key = elementBytes(Keys, I);
    auto [It, Inserted] = T.Rows.try_emplace(Key, static_cast<int64_t>(T.Rows.size()));
    int64_t Row = It->second;
    if (!Inserted && !T.Mutable) {
      // A static table takes a repeated key only with the same value.
      bool Same = Values.isFixedSize()
                      ? std::memcmp(T.FixedValues.data() + Row * ValueBytes,
                                    Values.bytes().data() + I * ValueBytes, ValueBytes) == 0
                      : T.StringValues[Row] == Values.elements()[I];
      if (!Same) {
        std::string Had = Values.isFixedSize()
                              ? elementText(TensorData::borrowed(Values.dtype(), {},
                                                                 llvm::StringRef(T.FixedValues)
                                                                     .substr(Row * ValueBytes,
                                                                             ValueBytes),
                                                                 nullptr),
                                            0)
                              : T.StringValues[Row];
        T.Rows.clear();
        T.FixedValues.clear();
        T.StringValues.clear();
        return absl::FailedPreconditionError(
            absl::StrCat("HashTable has different value for same key. Key ", elementText(Keys, I),
                         " has ", Had, " and trying to add value ", elementText(Values, I)));
      }
      continue;
    }
    if (Values.isFixedSize()) {
      llvm::StringRef Bytes = Values.bytes().substr(I * ValueBytes, ValueBytes);
      if (Inserted)
        T.FixedValues.append(Bytes.data(), Bytes.size());
      else
        T.FixedValues.replace(Row * ValueBytes, ValueBytes, Bytes.data(), Bytes.size());
    } else {
      std::vector<std::string> Row(Values.elements().begin() + I * RowElements,
                                   Values.elements().begin() + (I + 1) * RowElements);
      if (Inserted)
        T.StringValues.insert(T.StringValues.end(), Row.begin(), Row.end());
      else
        std::copy(Row.begin(), Row.end(), T.StringValues.begin() + It->second * RowElements);
    }
  }
  T.Initialized = true;
  if (!T.Mutable) {
    T.InitKeys = contentOf(Keys);
    T.InitValues = contentOf(Values);
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TensorData>> RunTables::run(const Node &N, llvm::StringRef Name,
                                                       std::vector<TensorData> In) {
  llvm::StringRef Op = N.op();
  // TensorFlow 1's tables are string references; TensorFlow 2's resources.
  llvm::StringRef HandleType = isV1(Op) ? "string_ref" : "resource";
  if (Op.contains("HashTable")) {
    FROST_RETURN_IF_ERROR(arity(In, 0));
    // The table a node makes is the same every time it runs; one shared by
    // name is the same for every node naming it.
    std::string Id = Name.str();
    const tensorflow::AttrValue *Shared = N.findAttr("shared_name");
    const tensorflow::AttrValue *Container = N.findAttr("container");
    if (Shared && !Shared->s().empty())
      Id = absl::StrCat("shared:", Container ? Container->s() : "", "/", Shared->s());
    auto [It, Inserted] = ByName.try_emplace(Id, Tables.size());
    if (Inserted) {
      Table T;
      T.Mutable = Op.starts_with("Mutable");
      T.KeyDType = typeAttr(N, "key_dtype");
      T.ValueDType = typeAttr(N, "value_dtype");
      if (const tensorflow::AttrValue *S = N.findAttr("value_shape"); S && Op.contains("OfTensors"))
        for (const auto &D : S->shape().dim()) {
          if (D.size() < 0)
            return absl::InvalidArgumentError("its value_shape is not fully defined");
          T.ValueShape.push_back(D.size());
        }
      Tables.push_back(std::move(T));
    }
    return std::vector<TensorData>{TensorData::strings(
        isV1(Op) ? tensorflow::DT_STRING : tensorflow::DT_RESOURCE, {},
        {absl::StrCat(TableTag.str(), It->second)})};
  }
  if (In.empty())
    return absl::InvalidArgumentError("expected a table handle input");
  FROST_ASSIGN_OR_RETURN(Table * T, table(In[0]));
  if (Op.starts_with("InitializeTable") || Op.starts_with("LookupTableImport")) {
    FROST_RETURN_IF_ERROR(arity(In, 3));
    if (!T->Mutable && Op.starts_with("InitializeTable") && In[1].shape().size() != 1)
      return absl::InvalidArgumentError(
          absl::StrCat("Keys must be a vector, but received shape", formatShape(In[1].shape())));
    FROST_RETURN_IF_ERROR(fill(*T, In[1], In[2], Op.starts_with("LookupTableImport"), HandleType));
    return std::vector<TensorData>{};
  }
  if (Op.starts_with("LookupTableSize")) {
    FROST_RETURN_IF_ERROR(arity(In, 1));
    int64_t Size = static_cast<int64_t>(T->Rows.size());
    return std::vector<TensorData>{TensorData::owned(
        tensorflow::DT_INT64, {}, std::string(reinterpret_cast<const char *>(&Size), 8))};
  }
  // LookupTableFind(V2): keys of any shape; values of that shape plus the
  // value shape; a missing key takes the default.
  FROST_RETURN_IF_ERROR(arity(In, 3));
  const TensorData &Keys = In[1], &Default = In[2];
  if (Keys.dtype() != T->KeyDType || Default.dtype() != T->ValueDType)
    return signatureMismatch(HandleType, {Keys.dtype(), Default.dtype()},
                             {T->KeyDType, T->ValueDType}, dataTypeName(T->ValueDType));
  if (!T->Mutable && !T->Initialized)
    return absl::FailedPreconditionError("Table not initialized.");
  int64_t RowElements = 1;
  for (int64_t D : T->ValueShape)
    RowElements *= D;
  // A static table's default is its first element; a table of tensors'
  // default is one value.
  if (T->ValueShape.empty() ? Default.numElements() < 1 : Default.numElements() != RowElements)
    return absl::InvalidArgumentError(
        absl::StrCat("Expected shape ", formatShape(T->ValueShape), " for argument "
                     "'default_value', got ", formatShape(Default.shape())));
  std::vector<int64_t> OutShape(Keys.shape().begin(), Keys.shape().end());
  OutShape.insert(OutShape.end(), T->ValueShape.begin(), T->ValueShape.end());
  int64_t Count = Keys.numElements();
  if (Default.isFixedSize()) {
    size_t ValueBytes = dataTypeSize(Default.dtype()) * RowElements;
    std::string Out;
    Out.reserve(Count * ValueBytes);
    for (int64_t I = 0; I < Count; ++I) {
      auto It = T->Rows.find(elementBytes(Keys, I));
      if (It == T->Rows.end())
        Out.append(Default.bytes().data(), ValueBytes);
      else
        Out.append(T->FixedValues, It->second * ValueBytes, ValueBytes);
    }
    return std::vector<TensorData>{TensorData::owned(Default.dtype(), std::move(OutShape),
                                                     std::move(Out))};
  }
  std::vector<std::string> Out;
  Out.reserve(Count * RowElements);
  for (int64_t I = 0; I < Count; ++I) {
    auto It = T->Rows.find(elementBytes(Keys, I));
    const std::string *First = It == T->Rows.end()
                                   ? Default.elements().data()
                                   : T->StringValues.data() + It->second * RowElements;
    Out.insert(Out.end(), First, First + RowElements);
  }
  return std::vector<TensorData>{TensorData::strings(Default.dtype(), std::move(OutShape),
                                                     std::move(Out))};
}

} // namespace frost::verify
