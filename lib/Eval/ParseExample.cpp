//===- ParseExample.cpp - ParseExampleV2, ParseExample, ParseSingleExample -===//
//
// Serialized tf.train.Example protos (proto/example.proto, Frost's own
// schema; protobuf parses the bytes) into dense, sparse and ragged tensors,
// as TensorFlow's ParseExample kernels do: a dense feature missing from an
// example takes its default or, without one, is an error; a feature of
// another list type or a dense feature with the wrong count of values is an
// error with TensorFlow's message; a feature with no list at all counts as
// missing. Variable-length dense features (FixedLenSequenceFeature) are not
// run (Unimplemented).
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "frost/proto/example.pb.h"

#include "absl/strings/escaping.h"

namespace frost::eval {

namespace {

using tensorflow::DataType;

enum class Kind { Sparse, Dense, Ragged };

struct FeatureSpec {
  std::string Key;
  Kind K = Kind::Dense;
  DataType DType = tensorflow::DT_INVALID;
  /// Dense: the shape of one example's value; its default (no elements:
  /// the feature is required).
  std::vector<int64_t> Shape;
  const TensorData *Default = nullptr;
  /// Ragged: the row splits' dtype.
  DataType SplitDType = tensorflow::DT_INT64;
};

/// The data type a Feature holds, as TensorFlow names it; "" for none.
DataType listDType(const tensorflow::Feature &F) {
  switch (F.kind_case()) {
  case tensorflow::Feature::kBytesList:
    return tensorflow::DT_STRING;
  case tensorflow::Feature::kFloatList:
    return tensorflow::DT_FLOAT;
  case tensorflow::Feature::kInt64List:
    return tensorflow::DT_INT64;
  default:
    return tensorflow::DT_INVALID;
  }
}

/// The Feature list that holds `DType`, as TensorFlow's messages name it.
llvm::StringRef listName(DataType DType) {
  return DType == tensorflow::DT_FLOAT   ? "float_list"
         : DType == tensorflow::DT_INT64 ? "int64_list"
                                         : "bytes_list";
}

int64_t listSize(const tensorflow::Feature &F) {
  switch (F.kind_case()) {
  case tensorflow::Feature::kBytesList:
    return F.bytes_list().value_size();
  case tensorflow::Feature::kFloatList:
    return F.float_list().value_size();
  case tensorflow::Feature::kInt64List:
    return F.int64_list().value_size();
  default:
    return 0;
  }
}

/// The values of one output, gathered feature by feature.
class Collected {
public:
  explicit Collected(DataType DType) : DType(DType) {}
  int64_t size() const { return Count; }
  void append(const tensorflow::Feature &F) {
    if (DType == tensorflow::DT_FLOAT)
      Floats.insert(Floats.end(), F.float_list().value().begin(), F.float_list().value().end());
    else if (DType == tensorflow::DT_INT64)
      Ints.insert(Ints.end(), F.int64_list().value().begin(), F.int64_list().value().end());
    else
      Strings.insert(Strings.end(), F.bytes_list().value().begin(), F.bytes_list().value().end());
    Count += listSize(F);
  }
  /// All elements of `T` (of this dtype).
  void append(const TensorData &T) {
    if (DType == tensorflow::DT_FLOAT) {
      std::vector<float> V = T.values<float>();
      Floats.insert(Floats.end(), V.begin(), V.end());
    } else if (DType == tensorflow::DT_INT64) {
      std::vector<int64_t> V = T.values<int64_t>();
      Ints.insert(Ints.end(), V.begin(), V.end());
    } else {
      Strings.insert(Strings.end(), T.elements().begin(), T.elements().end());
    }
    Count += T.numElements();
  }
  TensorData finish(std::vector<int64_t> Shape) && {
    if (DType == tensorflow::DT_STRING)
      return TensorData::strings(DType, std::move(Shape), std::move(Strings));
    std::string Bytes = DType == tensorflow::DT_FLOAT
                            ? std::string(reinterpret_cast<const char *>(Floats.data()),
                                          Floats.size() * sizeof(float))
                            : std::string(reinterpret_cast<const char *>(Ints.data()),
                                          Ints.size() * sizeof(int64_t));
    return TensorData::owned(DType, std::move(Shape), std::move(Bytes));
  }

private:
  DataType DType;
  int64_t Count = 0;
  std::vector<float> Floats;
  std::vector<int64_t> Ints;
  std::vector<std::string> Strings;
};

TensorData int64Tensor(std::vector<int64_t> Shape, const std::vector<int64_t> &V) {
  return TensorData::owned(tensorflow::DT_INT64, std::move(Shape),
                           std::string(reinterpret_cast<const char *>(V.data()),
                                       V.size() * sizeof(int64_t)));
}

TensorData splitsTensor(DataType DType, const std::vector<int64_t> &V) {
  std::vector<int64_t> Shape = {static_cast<int64_t>(V.size())};
  if (DType == tensorflow::DT_INT64)
    return int64Tensor(std::move(Shape), V);
  std::vector<int32_t> Narrow(V.begin(), V.end());
  return TensorData::owned(DType, std::move(Shape),
                           std::string(reinterpret_cast<const char *>(Narrow.data()),
                                       Narrow.size() * sizeof(int32_t)));
}

/// A serialized example for an error message: escaped to one line and cut.
std::string shownBytes(llvm::StringRef Bytes) {
  constexpr size_t Shown = 64;
  std::string S = absl::CEscape(absl::string_view(Bytes.data(), std::min(Bytes.size(), Shown)));
  if (Bytes.size() > Shown)
    absl::StrAppend(&S, "... (", Bytes.size(), " bytes)");
  return S;
}

absl::Status checkFeatureDType(const KernelContext &Ctx, DataType DType) {
  if (DType != tensorflow::DT_FLOAT && DType != tensorflow::DT_INT64 &&
      DType != tensorflow::DT_STRING)
    return Ctx.invalid(absl::StrCat("features must be float, int64 or string, got ",
                                    dataTypeName(DType)));
  return absl::OkStatus();
}

/// Parses `Serialized` (a scalar or a vector of examples) for `Specs`, in
/// the outputs' order: sparse indices, values and shapes, dense values,
/// ragged values and row splits (each group in the order of its specs).
absl::StatusOr<Outputs> parseExamples(const KernelContext &Ctx, const TensorData &Serialized,
                                      const TensorData *Names,
                                      const std::vector<FeatureSpec> &Specs) {
  if (Serialized.dtype() != tensorflow::DT_STRING)
    return Ctx.invalid("serialized must be a string tensor");
  if (Serialized.shape().size() > 1)
    return Ctx.invalid(absl::StrCat("Expected serialized to be a scalar or vector, got shape: ",
                                    shapeOf(Serialized)));
  bool Batched = Serialized.shape().size() == 1;
  int64_t BatchSize = Serialized.numElements();
  if (Names && Names->numElements() != 0 &&
      (Names->dtype() != tensorflow::DT_STRING || Names->shape() != Serialized.shape()))
    return Ctx.invalid(absl::StrCat(
        "Expected names have the same shape as serialized: name.shape=", shapeOf(*Names),
        ", serialized.shape=", shapeOf(Serialized)));
  int DenseIndex = -1;
  for (const FeatureSpec &S : Specs) {
    FROST_RETURN_IF_ERROR(checkFeatureDType(Ctx, S.DType));
    if (S.K != Kind::Dense)
      continue;
    ++DenseIndex;
    for (int64_t D : S.Shape)
      if (D < 0)
        return Ctx.unimplemented(absl::StrCat("feature '", S.Key,
                                              "' is variable-length dense "
                                              "(FixedLenSequenceFeature), which is not run"));
    FROST_ASSIGN_OR_RETURN(int64_t Elements, checkOutputShape(Ctx, S.DType, S.Shape));
    if (S.Default->dtype() != S.DType)
      return Ctx.invalid(absl::StrCat("dense_defaults for '", S.Key, "' is ",
                                      dataTypeName(S.Default->dtype()), ", expected ",
                                      dataTypeName(S.DType)));
    // TensorFlow takes a default of the feature's shape or of its element
    // count, and an empty one as "required".
    if (S.Default->numElements() != 0 && S.Default->numElements() != Elements)
      return Ctx.invalid(absl::StrCat("def_value[", DenseIndex, "].shape() == ",
                                      shapeOf(*S.Default), " is not compatible with dense_shapes_[",
                                      DenseIndex, "] == ", shapeString(S.Shape)));
  }

  std::vector<tensorflow::Example> Examples(static_cast<size_t>(BatchSize));
  for (int64_t B = 0; B < BatchSize; ++B)
    if (!Examples[B].ParseFromString(Serialized.elements()[B]))
      return Ctx.invalid(absl::StrCat("Could not parse example input, value: '",
                                      shownBytes(Serialized.elements()[B]), "'"));
  auto nameOf = [&](int64_t B) -> std::string {
    if (Names && Names->numElements() != 0)
      return Names->elements()[B];
    return "<unknown>";
  };

  Outputs SparseIndices, SparseValues, SparseShapes, Dense, RaggedValues, RaggedSplits;
  for (const FeatureSpec &S : Specs) {
    Collected Values(S.DType);
    std::vector<int64_t> Indices, Splits = {0};
    int64_t Widest = 0;
    for (int64_t B = 0; B < BatchSize; ++B) {
      // Of a key repeated on the wire, the map holds the last value.
      const auto &Map = Examples[B].features().feature();
      auto It = Map.find(S.Key);
      const tensorflow::Feature *F =
          It != Map.end() && listDType(It->second) != tensorflow::DT_INVALID ? &It->second
                                                                              : nullptr;
      // TensorFlow names the example in a batch, not a single one.
      std::string Where = Batched ? absl::StrCat("Name: ", nameOf(B), ", Key: ", S.Key,
                                                 ", Index: ", B, ".  ")
                                  : absl::StrCat("Key: ", S.Key, ".  ");
      if (F && listDType(*F) != S.DType) {
        absl::StrAppend(&Where, "Data types don't match. ");
        if (S.K == Kind::Dense)
          return Ctx.invalid(absl::StrCat(Where, "Data type: ", dataTypeName(listDType(*F)),
                                          " but expected type: ", dataTypeName(S.DType)));
        return Ctx.invalid(absl::StrCat(Where, "Expected type: ", dataTypeName(S.DType),
                                        ", Actual type: ", dataTypeName(listDType(*F))));
      }
      if (S.K == Kind::Dense) {
        int64_t Expected = *numElements(S.Shape);
        if (!F) {
          if (S.Default->numElements() == 0)
            return Ctx.invalid(absl::StrCat(Batched ? absl::StrCat("Name: ", nameOf(B), ", ") : "",
                                            "Feature: ", S.Key, " (data type: ",
                                            dataTypeName(S.DType),
                                            ") is required but could not be found."));
          Values.append(*S.Default);
          continue;
        }
        // TensorFlow's words differ by path: a single example's, a batch's
        // strings (too many stop the parse), a batch's numbers.
        bool Strings = S.DType == tensorflow::DT_STRING;
        if (listSize(*F) != Expected && !Batched)
          return Ctx.invalid(absl::StrCat(
              Where, "Can't parse serialized Example: ",
              Strings && listSize(*F) > Expected ? "Parsing bytes_list failed."
                      : absl::StrCat("Some ", listName(S.DType).str(), " slice was not parsed.")));
        if (listSize(*F) > Expected && Strings)
          return Ctx.invalid(absl::StrCat(Where, "Can't parse serialized Example."));
        if (listSize(*F) != Expected)
          return Ctx.invalid(absl::StrCat(Where, "Number of ",
                                          Strings ? "bytes" : dataTypeName(S.DType),
                                          " values != expected.  Values size: ", listSize(*F),
                                          " but output shape: ", shapeString(S.Shape)));
        Values.append(*F);
        continue;
      }
      int64_t Count = F ? listSize(*F) : 0;
      if (F)
        Values.append(*F);
      if (S.K == Kind::Sparse)
        for (int64_t J = 0; J < Count; ++J) {
          if (Batched)
            Indices.push_back(B);
          Indices.push_back(J);
        }
      Widest = std::max(Widest, Count);
      Splits.push_back(Splits.back() + Count);
    }
    int64_t Total = Values.size();
    switch (S.K) {
    case Kind::Dense: {
      std::vector<int64_t> Shape = S.Shape;
      if (Batched)
        Shape.insert(Shape.begin(), BatchSize);
      FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, S.DType, Shape).status());
      Dense.push_back(std::move(Values).finish(std::move(Shape)));
      break;
    }
    case Kind::Sparse: {
      int64_t Rank = Batched ? 2 : 1;
      SparseIndices.push_back(int64Tensor({Total, Rank}, Indices));
      SparseValues.push_back(std::move(Values).finish({Total}));
      SparseShapes.push_back(int64Tensor({Rank}, Batched ? std::vector<int64_t>{BatchSize, Widest}
                                                         : std::vector<int64_t>{Widest}));
      break;
    }
    case Kind::Ragged:
      RaggedValues.push_back(std::move(Values).finish({Total}));
      // A single example's ragged feature is its values; no row splits.
      RaggedSplits.push_back(splitsTensor(S.SplitDType, Batched ? Splits
                                                                : std::vector<int64_t>{}));
      break;
    }
  }
  Outputs Out;
  for (Outputs *Group : {&SparseIndices, &SparseValues, &SparseShapes, &Dense, &RaggedValues,
                         &RaggedSplits})
    for (TensorData &T : *Group)
      Out.push_back(std::move(T));
  return Out;
}

absl::StatusOr<std::vector<DataType>> typeListAttr(const KernelContext &Ctx,
                                                    llvm::StringRef Name) {
  const tensorflow::AttrValue *A = Ctx.attr(Name);
  std::vector<DataType> Out;
  if (A)
    for (int T : A->list().type())
      Out.push_back(static_cast<DataType>(T));
  return Out;
}

absl::StatusOr<std::vector<std::vector<int64_t>>> shapeListAttr(const KernelContext &Ctx,
                                                                 llvm::StringRef Name) {
  const tensorflow::AttrValue *A = Ctx.attr(Name);
  std::vector<std::vector<int64_t>> Out;
  if (A)
    for (const tensorflow::TensorShapeProto &S : A->list().shape()) {
      if (S.unknown_rank())
        return Ctx.unimplemented(absl::StrCat(Name.str(), " has a shape of unknown rank"));
      std::vector<int64_t> Dims;
      for (const auto &D : S.dim())
        Dims.push_back(D.size());
      Out.push_back(std::move(Dims));
    }
  return Out;
}

/// The string keys of a vector input (ParseExampleV2's *_keys).
absl::StatusOr<std::vector<std::string>> keysInput(const KernelContext &Ctx, size_t I,
                                                   llvm::StringRef What) {
  const TensorData &T = Ctx.input(I);
  if (T.dtype() != tensorflow::DT_STRING || T.shape().size() > 1)
    return Ctx.invalid(absl::StrCat(What.str(), " must be a string vector, got ",
                                    dataTypeName(T.dtype()), " ", shapeOf(T)));
  return std::vector<std::string>(T.elements().begin(), T.elements().end());
}

/// Specs from keys and the attributes every ParseExample variant shares;
/// `Defaults`: the dense defaults, one per dense key.
absl::StatusOr<std::vector<FeatureSpec>>
specsOf(const KernelContext &Ctx, const std::vector<std::string> &SparseKeys,
        const std::vector<std::string> &DenseKeys, const std::vector<std::string> &RaggedKeys,
        llvm::ArrayRef<TensorData> Defaults) {
  FROST_ASSIGN_OR_RETURN(std::vector<DataType> SparseTypes, typeListAttr(Ctx, "sparse_types"));
  FROST_ASSIGN_OR_RETURN(std::vector<DataType> DenseTypes, typeListAttr(Ctx, "Tdense"));
  FROST_ASSIGN_OR_RETURN(std::vector<std::vector<int64_t>> DenseShapes,
                         shapeListAttr(Ctx, "dense_shapes"));
  FROST_ASSIGN_OR_RETURN(std::vector<DataType> RaggedTypes,
                         typeListAttr(Ctx, "ragged_value_types"));
  FROST_ASSIGN_OR_RETURN(std::vector<DataType> SplitTypes,
                         typeListAttr(Ctx, "ragged_split_types"));
  if (SparseKeys.size() != SparseTypes.size())
    return Ctx.invalid(absl::StrCat("len(sparse_keys) != len(sparse_types): ", SparseKeys.size(),
                                    " vs. ", SparseTypes.size()));
  if (DenseKeys.size() != DenseTypes.size() || DenseKeys.size() != DenseShapes.size() ||
      DenseKeys.size() != Defaults.size())
    return Ctx.invalid(absl::StrCat("len(dense_keys) != len(dense_types), len(dense_shapes) or "
                                    "len(dense_defaults): ",
                                    DenseKeys.size(), " vs. ", DenseTypes.size(), ", ",
                                    DenseShapes.size(), ", ", Defaults.size()));
  if (RaggedKeys.size() != RaggedTypes.size() || RaggedKeys.size() != SplitTypes.size())
    return Ctx.invalid(absl::StrCat("len(ragged_keys) != len(ragged_value_types) or "
                                    "len(ragged_split_types): ",
                                    RaggedKeys.size(), " vs. ", RaggedTypes.size(), ", ",
                                    SplitTypes.size()));
  std::vector<FeatureSpec> Specs;
  for (size_t I = 0; I < SparseKeys.size(); ++I)
    Specs.push_back({SparseKeys[I], Kind::Sparse, SparseTypes[I], {}, nullptr});
  for (size_t I = 0; I < DenseKeys.size(); ++I)
    Specs.push_back({DenseKeys[I], Kind::Dense, DenseTypes[I], DenseShapes[I], &Defaults[I]});
  for (size_t I = 0; I < RaggedKeys.size(); ++I) {
    if (SplitTypes[I] != tensorflow::DT_INT32 && SplitTypes[I] != tensorflow::DT_INT64)
      return Ctx.invalid("ragged_split_types must be int32 or int64");
    Specs.push_back({RaggedKeys[I], Kind::Ragged, RaggedTypes[I], {}, nullptr, SplitTypes[I]});
  }
  return Specs;
}

} // namespace

/// Inputs: serialized, names, sparse_keys, dense_keys, ragged_keys,
/// dense_defaults...
absl::StatusOr<Outputs> evalParseExampleV2(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(5, /*AtLeast=*/true));
  FROST_ASSIGN_OR_RETURN(std::vector<std::string> SparseKeys,
                         keysInput(Ctx, 2, "sparse_keys"));
  FROST_ASSIGN_OR_RETURN(std::vector<std::string> DenseKeys, keysInput(Ctx, 3, "dense_keys"));
  FROST_ASSIGN_OR_RETURN(std::vector<std::string> RaggedKeys, keysInput(Ctx, 4, "ragged_keys"));
  FROST_ASSIGN_OR_RETURN(int64_t NumSparse, Ctx.intAttr("num_sparse", 0));
  if (NumSparse != static_cast<int64_t>(SparseKeys.size()))
    return Ctx.invalid(absl::StrCat("Expected len(sparse_keys) == num_sparse: ",
                                    SparseKeys.size(), " vs. ", NumSparse));
  FROST_ASSIGN_OR_RETURN(std::vector<FeatureSpec> Specs,
                         specsOf(Ctx, SparseKeys, DenseKeys, RaggedKeys, Ctx.inputs().drop_front(5)));
  return parseExamples(Ctx, Ctx.input(0), &Ctx.input(1), Specs);
}

/// Inputs: serialized, names, Nsparse sparse keys, Ndense dense keys (string
/// scalars), Ndense defaults.
absl::StatusOr<Outputs> evalParseExample(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(int64_t NumSparse, Ctx.intAttr("Nsparse", 0));
  FROST_ASSIGN_OR_RETURN(int64_t NumDense, Ctx.intAttr("Ndense", 0));
  if (NumSparse < 0 || NumDense < 0)
    return Ctx.invalid("Nsparse and Ndense must not be negative");
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(static_cast<size_t>(2 + NumSparse + 2 * NumDense)));
  if (Ctx.input(0).shape().size() != 1)
    return Ctx.invalid(absl::StrCat("Expected serialized to be a vector, got shape: ",
                                    shapeOf(Ctx.input(0))));
  std::vector<std::string> Keys;
  for (int64_t I = 0; I < NumSparse + NumDense; ++I) {
    const TensorData &K = Ctx.input(2 + I);
    if (K.dtype() != tensorflow::DT_STRING || K.numElements() != 1)
      return Ctx.invalid(absl::StrCat("Expected ", I < NumSparse ? "sparse" : "dense",
                                      "_keys to be string scalars, got shape: ", shapeOf(K)));
    Keys.push_back(K.elements()[0]);
  }
  std::vector<std::string> SparseKeys(Keys.begin(), Keys.begin() + NumSparse);
  std::vector<std::string> DenseKeys(Keys.begin() + NumSparse, Keys.end());
  FROST_ASSIGN_OR_RETURN(std::vector<FeatureSpec> Specs,
                         specsOf(Ctx, SparseKeys, DenseKeys, {},
                                 Ctx.inputs().drop_front(2 + NumSparse + NumDense)));
  return parseExamples(Ctx, Ctx.input(0), &Ctx.input(1), Specs);
}

/// Inputs: one serialized example (a scalar), the dense defaults; the keys
/// are attributes.
absl::StatusOr<Outputs> evalParseSingleExample(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1, /*AtLeast=*/true));
  if (!Ctx.input(0).shape().empty())
    return Ctx.invalid(absl::StrCat("Expected serialized to be a scalar, got shape: ",
                                    shapeOf(Ctx.input(0))));
  auto stringList = [&](llvm::StringRef Name) {
    std::vector<std::string> Out;
    if (const tensorflow::AttrValue *A = Ctx.attr(Name))
      Out.assign(A->list().s().begin(), A->list().s().end());
    return Out;
  };
  FROST_ASSIGN_OR_RETURN(std::vector<FeatureSpec> Specs,
                         specsOf(Ctx, stringList("sparse_keys"), stringList("dense_keys"), {},
                                 Ctx.inputs().drop_front(1)));
  return parseExamples(Ctx, Ctx.input(0), nullptr, Specs);
}

} // namespace frost::eval
