//===- VerifyInputs.cpp - What check 3 feeds both graphs ------------------===//
//
// The inputs the source's outputs need (placeholders, and a TF1 signature's
// inputs other nodes compute), their shapes (--input-shape, the node's, the
// signature's, candidates for an unknown rank) and seeded random values:
// numbers, strings, or serialized tf.train.Examples for a ParseExample input.
//
//===----------------------------------------------------------------------===//
#include "VerifyInternal.h"

#include "frost/IR/ConstValue.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/proto/example.pb.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <cstring>
#include <random>

namespace frost::verify {

using namespace detail;
using tensorflow::DataType;

namespace {

/// The ParseExample, ParseExampleV2 or ParseSingleExample node that parses
/// what placeholder `P` holds (directly or through Identity), if any.
const Node *exampleParser(const Graph &G, const Node &P) {
  for (const Node &N : G) {
    if (N.op() != "ParseExampleV2" && N.op() != "ParseExample" && N.op() != "ParseSingleExample")
      continue;
    if (N.numDataInputs() == 0)
      continue;
    const Node *Src = N.inputs()[0].Src;
    while (Src && Src->op() == "Identity" && Src->numDataInputs() == 1)
      Src = Src->inputs()[0].Src;
    if (Src == &P)
      return &N;
  }
  return nullptr;
}

/// The value of input `I` of `N` when a Const gives it (through Identity).
std::optional<TensorData> constInput(const Node &N, unsigned I) {
  if (I >= N.numDataInputs())
    return std::nullopt;
  const Node *Src = N.inputs()[I].Src;
  while (Src && Src->op() == "Identity" && Src->numDataInputs() == 1)
    Src = Src->inputs()[0].Src;
  if (!Src || Src->op() != "Const")
    return std::nullopt;
  absl::StatusOr<TensorData> V = constValue(*Src);
  return V.ok() ? std::optional<TensorData>(*std::move(V)) : std::nullopt;
}

/// `Count` serialized tf.train.Examples holding what `Parser` asks for:
/// every dense feature in the even examples, only the required ones in the
/// odd ones (their defaults are used), 0, 1 or 2 values of each sparse and
/// ragged feature; floats in [0, 1) (features are often amounts or counts
/// that a log1p or a sqrt takes), integers in [0, 3), strings "frost".
std::vector<std::string> randomExamples(const Node &Parser, int64_t Count, std::mt19937_64 &Random) {
  struct Wanted {
    std::string Key;
    DataType DType;
    int64_t Values = -1; // dense: fixed; -1: 0..2 (sparse, ragged)
    bool Required = true;
  };
  std::vector<Wanted> Features;
  auto types = [&](llvm::StringRef Name) {
    std::vector<DataType> Out;
    if (const tensorflow::AttrValue *A = Parser.findAttr(Name))
      for (int T : A->list().type())
        Out.push_back(static_cast<DataType>(T));
    return Out;
  };
  std::vector<int64_t> DenseSizes;
  if (const tensorflow::AttrValue *A = Parser.findAttr("dense_shapes"))
    for (const auto &S : A->list().shape()) {
      int64_t Size = 1;
      for (const auto &D : S.dim())
        Size *= std::max<int64_t>(D.size(), 1);
      DenseSizes.push_back(Size);
    }
  std::vector<std::string> SparseKeys, DenseKeys, RaggedKeys;
  unsigned FirstDefault = 0;
  auto keysOf = [&](unsigned I) {
    std::vector<std::string> Out;
    if (std::optional<TensorData> K = constInput(Parser, I); K && !K->isFixedSize())
      Out.assign(K->elements().begin(), K->elements().end());
    return Out;
  };
  if (Parser.op() == "ParseExampleV2") {
    SparseKeys = keysOf(2), DenseKeys = keysOf(3), RaggedKeys = keysOf(4);
    FirstDefault = 5;
  } else if (Parser.op() == "ParseExample") {
    size_t Sparse = types("sparse_types").size(), Dense = types("Tdense").size();
    for (size_t I = 0; I < Sparse + Dense; ++I) {
      std::vector<std::string> K = keysOf(2 + I);
      (I < Sparse ? SparseKeys : DenseKeys).push_back(K.empty() ? "" : K[0]);
    }
    FirstDefault = 2 + Sparse + Dense;
  } else {
    for (auto [Attr, Keys] : {std::pair{"sparse_keys", &SparseKeys}, {"dense_keys", &DenseKeys}})
      if (const tensorflow::AttrValue *A = Parser.findAttr(Attr))
        Keys->assign(A->list().s().begin(), A->list().s().end());
    FirstDefault = 1;
  }
  std::vector<DataType> SparseTypes = types("sparse_types"), DenseTypes = types("Tdense"),
                        RaggedTypes = types("ragged_value_types");
  for (size_t I = 0; I < SparseKeys.size() && I < SparseTypes.size(); ++I)
    Features.push_back({SparseKeys[I], SparseTypes[I]});
  for (size_t I = 0; I < DenseKeys.size() && I < DenseTypes.size() && I < DenseSizes.size(); ++I) {
    std::optional<TensorData> Default = constInput(Parser, FirstDefault + I);
    Features.push_back({DenseKeys[I], DenseTypes[I], DenseSizes[I],
                        !Default || Default->numElements() == 0});
  }
  for (size_t I = 0; I < RaggedKeys.size() && I < RaggedTypes.size(); ++I)
    Features.push_back({RaggedKeys[I], RaggedTypes[I]});

  std::uniform_real_distribution<double> Uniform(0, 1);
  std::vector<std::string> Out;
  for (int64_t B = 0; B < Count; ++B) {
    tensorflow::Example E;
    auto &Map = *E.mutable_features()->mutable_feature();
    for (const Wanted &W : Features) {
      if (!W.Required && B % 2 == 1)
        continue;
      int64_t Size = W.Values >= 0 ? W.Values : static_cast<int64_t>(Random() % 3);
      tensorflow::Feature &F = Map[W.Key];
      for (int64_t I = 0; I < Size; ++I) {
        if (W.DType == tensorflow::DT_FLOAT)
          F.mutable_float_list()->add_value(static_cast<float>(Uniform(Random)));
        else if (W.DType == tensorflow::DT_INT64)
          F.mutable_int64_list()->add_value(static_cast<int64_t>(Random() % 3));
        else
          F.mutable_bytes_list()->add_value("frost");
      }
      // An empty list still says which list it is.
      if (Size == 0) {
        if (W.DType == tensorflow::DT_FLOAT)
          F.mutable_float_list();
        else if (W.DType == tensorflow::DT_INT64)
          F.mutable_int64_list();
        else
          F.mutable_bytes_list();
      }
    }
    Out.push_back(E.SerializeAsString());
  }
  return Out;
}

/// Unknown dimensions as verification picks them: 1 for the first (the
/// batch), 8 for the others.
std::vector<int64_t> chosenDims(const tensorflow::TensorShapeProto &S) {
  std::vector<int64_t> Shape;
  for (const auto &D : S.dim())
    Shape.push_back(D.size() >= 0 ? D.size() : Shape.empty() ? 1 : 8);
  return Shape;
}

/// The shape an input is fed: --input-shape; a batch of one Example for a
/// ParseExample input of unknown rank (or, for ParseExample, an old graph's
/// empty shape attribute, which meant "unknown": it takes only a vector);
/// else the node's, else the signature's; none when the rank is unknown.
std::optional<std::vector<int64_t>> declaredShape(const Node &N, const Node *Parser,
                                                  const tensorflow::TensorInfo *Sig,
                                                  const NumericOptions &Options) {
  if (auto It = Options.InputShapes.find(N.name()); It != Options.InputShapes.end())
    return It->second;
  const tensorflow::AttrValue *ShapeAttr = N.findAttr("shape");
  bool Known = ShapeAttr && ShapeAttr->has_shape() && !ShapeAttr->shape().unknown_rank();
  bool SigKnown = Sig && Sig->has_tensor_shape() && !Sig->tensor_shape().unknown_rank();
  if (Parser && ((!Known && !SigKnown) ||
                 (Known && Parser->op() == "ParseExample" && ShapeAttr->shape().dim_size() == 0)))
    return std::vector<int64_t>{1};
  if (Known)
    return chosenDims(ShapeAttr->shape());
  if (SigKnown)
    return chosenDims(Sig->tensor_shape());
  return std::nullopt;
}

} // namespace

/// The shapes tried, in order, for inputs of unknown rank: the first the
/// source graph runs on is kept.
const std::vector<std::vector<int64_t>> &detail::unknownRankCandidates() {
  static const std::vector<std::vector<int64_t>> Candidates = {{3}, {2, 3}, {}, {1, 4, 4, 3}};
  return Candidates;
}

/// A seeded random value for input `Name`: floats in [-1, 1), integers in
/// [0, 3) (valid indices for most lookups), uint8 in [0, 256), booleans;
/// strings "frost", or serialized tf.train.Examples where `Parser` (a
/// ParseExample op) parses them.
absl::StatusOr<TensorData> detail::randomValue(llvm::StringRef Name, DataType DType,
                                       const std::vector<int64_t> &Shape,
                                       const NumericOptions &Options,
                                       const Node *Parser) {
  FROST_ASSIGN_OR_RETURN(int64_t Count, numElements(Shape));
  if (Count > (int64_t{1} << 24))
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", inQuotes(Name), " of shape ", formatShape(Shape),
        " is too large to verify with: give a smaller --input-shape"));
  // One stream per input, so adding an input does not change the others.
  std::mt19937_64 Random(Options.Seed ^ llvm::xxh3_64bits(Name));
  if (DType == tensorflow::DT_STRING) {
    if (Parser)
      return TensorData::strings(DType, Shape, randomExamples(*Parser, Count, Random));
    return TensorData::strings(DType, Shape, std::vector<std::string>(Count, "frost"));
  }
  bool Integer = !isFloating(DType) && !isComplex(DType);
  double Low = -1, High = 1;
  if (DType == tensorflow::DT_UINT8)
    Low = 0, High = 256;
  else if (DType == tensorflow::DT_BOOL)
    Low = 0, High = 2;
  else if (Integer)
    Low = 0, High = 3;
  std::uniform_real_distribution<double> Uniform(Low, High);
  size_t Width = isComplex(DType) ? 2 : 1;
  std::vector<double> Values(static_cast<size_t>(Count) * Width);
  for (double &V : Values)
    V = Integer ? std::floor(Uniform(Random)) : Uniform(Random);
  std::string Bytes(Values.size() * sizeof(double), '\0');
  std::memcpy(Bytes.data(), Values.data(), Bytes.size());
  TensorData Doubles = TensorData::owned(
      isComplex(DType) ? tensorflow::DT_COMPLEX128 : tensorflow::DT_DOUBLE, Shape, std::move(Bytes));
  absl::StatusOr<TensorData> Typed = castTo(Doubles, DType);
  if (!Typed.ok())
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", inQuotes(Name), " is ", dataTypeName(DType), ", which verification cannot feed"));
  return Typed;
}

/// The source's inputs its `Outputs` need. A TF1 SavedModel's signature
/// names the tensors TensorFlow Serving feeds, which other nodes may
/// compute (half_plus_two's x:0 is what ParseExample gives): those are fed
/// in their place, with the signature's dtype and shape, and what computes
/// them is not needed. Shapes: --input-shape, else the node's, else the
/// signature's.
std::vector<InputDecl> detail::declaredInputs(const Model &Source, const FreezeResult &Expected,
                                      const std::vector<std::string> &Outputs,
                                      const NumericOptions &Options) {
  const Graph &G = Source.graph();
  std::map<const Node *, const tensorflow::TensorInfo *> Signature;
  if (const tensorflow::MetaGraphDef *Meta = Source.metaGraph(); Meta && !Expected.Signature.empty())
    if (auto It = Meta->signature_def().find(Expected.Signature); It != Meta->signature_def().end())
      for (const auto &[Key, Info] : It->second.inputs()) {
        llvm::StringRef Tensor(Info.name());
        auto [Name, Port] = Tensor.split(':');
        // Fed in place only where that is the node's one value.
        if (const Node *N = G.findNode(Name);
            N && (Port.empty() || Port == "0") && numOutputs(*N).value_or(0) == 1)
          Signature[N] = &Info;
      }
  std::vector<bool> Seen(G.idBound(), false);
  std::vector<const Node *> Stack;
  for (const std::string &O : Outputs)
    if (const Node *N = G.findNode(O))
      Stack.push_back(N);
  std::vector<InputDecl> Inputs;
  while (!Stack.empty()) {
    const Node *N = Stack.back();
    Stack.pop_back();
    if (Seen[N->id()])
      continue;
    Seen[N->id()] = true;
    auto Sig = Signature.find(N);
    if (Sig == Signature.end() && !isPlaceholderOp(N->op())) {
      for (const Input &In : N->inputs())
        Stack.push_back(In.Src);
      continue;
    }
    InputDecl D{N, tensorflow::DT_INVALID, std::nullopt, !isPlaceholderOp(N->op())};
    if (const tensorflow::AttrValue *A = N->findAttr("dtype"))
      D.DType = A->type();
    else if (Sig != Signature.end())
      D.DType = Sig->second->dtype();
    if (D.DType == tensorflow::DT_STRING)
      D.Parser = exampleParser(G, *N);
    D.Shape = declaredShape(*N, D.Parser, Sig != Signature.end() ? Sig->second : nullptr, Options);
    Inputs.push_back(std::move(D));
  }
  llvm::sort(Inputs, [](const InputDecl &A, const InputDecl &B) { return A.N->id() < B.N->id(); });
  return Inputs;
}

absl::StatusOr<TensorData> randomInput(const Graph &G, const Node &N,
                                       const NumericOptions &Options) {
  const tensorflow::AttrValue *DTypeAttr = N.findAttr("dtype");
  DataType DType = DTypeAttr ? DTypeAttr->type() : tensorflow::DT_INVALID;
  const Node *Parser = DType == tensorflow::DT_STRING ? exampleParser(G, N) : nullptr;
  std::optional<std::vector<int64_t>> Shape = declaredShape(N, Parser, nullptr, Options);
  if (!Shape)
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", inQuotes(N.name()), " has no known rank: give --input-shape ", N.name().str(),
        "=D,D,..."));
  return randomValue(N.name(), DType, *Shape, Options, Parser);
}

} // namespace frost::verify
