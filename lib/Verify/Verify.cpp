//===- Verify.cpp - Proving a frozen graph computes what its source did --===//
#include "frost/Verify/Verify.h"

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Eval/Eval.h"
#include "frost/IR/EdgeTypes.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpRegistry.h"
#include "frost/IR/Reachability.h"
#include "frost/IR/TensorName.h"
#include "frost/Inspect/ValueFormat.h"
#include "frost/Support/File.h"
#include "frost/Support/Json.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/SmallFloat.h"
#include "frost/Transforms/Utils/ConstValue.h"
#include "frost/Transforms/Variables.h"
#include "frost/Verify/GraphRunner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <filesystem>
#include <random>

namespace frost::verify {

namespace {

using tensorflow::DataType;

std::string inQuotes(llvm::StringRef S) { return absl::StrCat("'", S.str(), "'"); }

std::string formatDiff(double V) {
  if (std::isinf(V))
    return "inf";
  return absl::StrFormat("%.3g", V);
}

/// Element `I` of `T` as text, exactly (numbers as JSON spells them).
std::string elementText(const TensorData &T, int64_t I) {
  inspect::ElementFormatter F(T.dtype(), T.bytes(), T.elements(), inspect::Style::Json);
  return F.supported() ? F(static_cast<uint64_t>(I)) : "?";
}

/// `T` converted by the evaluator's Cast (TensorFlow's conversions).
absl::StatusOr<TensorData> castTo(const TensorData &T, DataType To) {
  if (T.dtype() == To)
    return T;
  eval::AttrMap Attrs;
  Attrs["SrcT"].set_type(T.dtype());
  Attrs["DstT"].set_type(To);
  FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, eval::evaluate("Cast", {T}, Attrs));
  return std::move(Out.front());
}

bool isFloating(DataType T) {
  return T == tensorflow::DT_FLOAT || T == tensorflow::DT_DOUBLE || T == tensorflow::DT_HALF ||
         T == tensorflow::DT_BFLOAT16;
}

bool isComplex(DataType T) {
  return T == tensorflow::DT_COMPLEX64 || T == tensorflow::DT_COMPLEX128;
}

/// Real component `K` of a float or complex tensor (a complex element has
/// two), read in place: outputs of gigabytes are compared without copies.
double componentAt(const TensorData &T, uint64_t K) {
  auto load = [&T, K](auto V) {
    std::memcpy(&V, T.bytes().data() + K * sizeof(V), sizeof(V));
    return V;
  };
  switch (T.dtype()) {
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_COMPLEX64:
    return load(float());
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_COMPLEX128:
    return load(double());
  case tensorflow::DT_HALF:
    return halfToDouble(load(uint16_t()));
  case tensorflow::DT_BFLOAT16:
    return bfloat16ToDouble(load(uint16_t()));
  default:
    return NAN;
  }
}

uint64_t numComponents(const TensorData &T) {
  return static_cast<uint64_t>(T.numElements()) * (isComplex(T.dtype()) ? 2 : 1);
}

/// Whether `T` has numbers to subtract (else it compares exactly).
bool isArithmetic(const TensorData &T) { return isFloating(T.dtype()) || isComplex(T.dtype()); }

//===----------------------------------------------------------------------===//
// Check 1: frozen constants hold the checkpoint's bytes
//===----------------------------------------------------------------------===//

/// Every variable freezing made a constant, with the key it was read from,
/// by name. FreezeResult::Frozen lists only the constants left at the end;
/// --optimize folds some into others (a batch norm into `<conv>_weights`),
/// and those still have a value in the source.
std::map<std::string, VariableSource, std::less<>>
convertedVariables(const FreezeResult &Expected) {
  std::map<std::string, VariableSource, std::less<>> Out;
  if (!Expected.M)
    return Out;
  for (const auto &[Name, Source] : Expected.M->variableSources()) {
    const Node *N = Expected.M->graph().findNode(Name);
    if (!N || !isAnyVariableOp(N->op()))
      Out.emplace(Name, Source);
  }
  return Out;
}

/// The variables freezing the source again leaves variables (--only,
/// --except): the frozen graph may read them too.
llvm::StringSet<> keptVariables(const FreezeResult &Expected) {
  llvm::StringSet<> Kept;
  if (Expected.M)
    for (const Node &N : Expected.M->graph())
      if (isAnyVariableOp(N.op()))
        Kept.insert(N.name());
  return Kept;
}

/// The value freezing read for `V`: its key's tensor, or the slice of it.
absl::StatusOr<TensorData> checkpointValue(const CheckpointReader &Reader,
                                           const VariableSource &Source) {
  FROST_ASSIGN_OR_RETURN(TensorData Full, Reader.read(Source.Key));
  if (Source.Slice.empty())
    return Full;
  FROST_ASSIGN_OR_RETURN(SliceSpec Spec, parseSliceSpec(Source.Slice));
  return cutSlice(Full, Spec);
}

/// Why `Got` (the frozen Const) is not `Want` (the checkpoint's value), or
/// nothing. A float Const may hold the same numbers in another float dtype
/// (compute-in-float32 widens half weights).
std::optional<std::string> constantDifference(const TensorData &Got, const TensorData &Want) {
  if (Got.shape() != Want.shape())
    return absl::StrCat("has shape ", formatShape(Got.shape()), ", the checkpoint ",
                        formatShape(Want.shape()));
  if (Got.dtype() != Want.dtype() &&
      !(isFloating(Got.dtype()) && isFloating(Want.dtype())))
    return absl::StrCat("is ", dataTypeName(Got.dtype()), ", the checkpoint ",
                        dataTypeName(Want.dtype()));
  int64_t First = -1, Count = 0;
  if (Got.dtype() == Want.dtype() && Got.isFixedSize()) {
    if (Got.bytes() == Want.bytes())
      return std::nullopt;
    size_t Size = dataTypeSize(Got.dtype());
    for (int64_t I = 0; I < Got.numElements(); ++I)
      if (Got.bytes().substr(I * Size, Size) != Want.bytes().substr(I * Size, Size)) {
        First = First < 0 ? I : First;
        ++Count;
      }
  } else if (Got.dtype() == Want.dtype()) {
    for (int64_t I = 0; I < Got.numElements(); ++I)
      if (Got.elements()[I] != Want.elements()[I]) {
        First = First < 0 ? I : First;
        ++Count;
      }
  } else {
    if (!isArithmetic(Got) || !isArithmetic(Want) || numComponents(Got) != numComponents(Want))
      return "cannot be compared with the checkpoint's value";
    for (uint64_t I = 0; I < numComponents(Got); ++I) {
      double G = componentAt(Got, I), W = componentAt(Want, I);
      if (G != W && !(std::isnan(G) && std::isnan(W))) {
        First = First < 0 ? static_cast<int64_t>(I) : First;
        ++Count;
      }
    }
  }
  if (Count == 0)
    return std::nullopt;
  return absl::StrCat(Count, " of ", Got.numElements(), " elements differ (first at element ",
                      First, ": ", elementText(Got, First), ", the checkpoint ",
                      elementText(Want, First), ")");
}

void checkConstants(const FreezeResult &Expected, const Model &Frozen,
                    const CheckpointReader *Reader, VerifyReport &R) {
  for (const auto &[Name, Source] : convertedVariables(Expected)) {
    auto finding = [&](std::string Message) {
      R.Findings.push_back({"constants", Name, std::move(Message)});
    };
    const Node *N = Frozen.graph().findNode(Name);
    if (!N) { // folded into other constants, or not needed
      ++R.ConstantsAbsent;
      continue;
    }
    ++R.ConstantsChecked;
    std::string Key = absl::StrCat("checkpoint key ", inQuotes(Source.Key),
                                   Source.Slice.empty() ? ""
                                                        : absl::StrCat(" (slice ", inQuotes(Source.Slice), ")"));
    if (N->op() != "Const") {
      finding(absl::StrCat("is a ", N->op().str(), ", not the Const holding ", Key));
      continue;
    }
    absl::StatusOr<TensorData> Got = constValue(*N);
    if (!Got.ok()) {
      finding(std::string(Got.status().message()));
      continue;
    }
    if (!Reader) {
      finding(absl::StrCat("holds ", Key, " but no checkpoint was read"));
      continue;
    }
    absl::StatusOr<TensorData> Want = checkpointValue(*Reader, Source);
    if (!Want.ok()) {
      finding(absl::StrCat(Key, ": ", Want.status().message()));
      continue;
    }
    if (std::optional<std::string> Why = constantDifference(*Got, *Want))
      finding(absl::StrCat("(Const) does not hold ", Key, ": ", *Why));
  }
}

//===----------------------------------------------------------------------===//
// Check 2: what the outputs reach
//===----------------------------------------------------------------------===//

/// The nodes `Outputs` need in `G`, as names; an unknown output is a finding.
std::vector<bool> reached(const Graph &G, const std::vector<std::string> &Outputs) {
  absl::StatusOr<std::vector<bool>> Needed = nodesNeededBy(G, Outputs);
  return Needed.ok() ? *std::move(Needed) : std::vector<bool>(G.idBound(), false);
}

std::vector<std::string> outputNodes(const FreezeResult &Expected) {
  std::vector<std::string> Nodes;
  for (const FreezeOutput &O : Expected.Outputs)
    Nodes.push_back(O.Node);
  for (const std::string &I : Expected.Initializers)
    if (!llvm::is_contained(Nodes, I))
      Nodes.push_back(I);
  return Nodes;
}

/// The placeholders of the source that its outputs need (after binding),
/// and a TF2 signature's inputs: what a frozen graph may be fed.
llvm::StringSet<> declaredInputs(const FreezeResult &Expected) {
  llvm::StringSet<> Inputs;
  for (const auto &[Key, Tensor] : Expected.SignatureInputs)
    Inputs.insert(llvm::StringRef(Tensor).split(':').first);
  if (!Expected.Source)
    return Inputs;
  const Graph &S = Expected.Source->graph();
  std::vector<bool> Needed = reached(S, outputNodes(Expected));
  for (const Node &N : S)
    if (Needed[N.id()] && isPlaceholderOp(N.op()))
      Inputs.insert(N.name());
  return Inputs;
}

OpRegistry verifyOpRegistry(const FreezeResult &Expected, const Model &Frozen) {
  OpRegistry Ops;
  if (Expected.Source)
    if (const tensorflow::MetaGraphDef *Meta = Expected.Source->metaGraph())
      Ops.add(Meta->meta_info_def().stripped_op_list());
  if (const tensorflow::MetaGraphDef *Meta = Frozen.metaGraph())
    Ops.add(Meta->meta_info_def().stripped_op_list());
  Ops.add(Frozen.graph().library());
  return Ops;
}

/// Each input of the source is an input of the frozen graph, of the same
/// dtype and a shape that fits the source's.
void checkInputs(const FreezeResult &Expected, const Graph &G, VerifyReport &R) {
  if (!Expected.Source)
    return;
  const Graph &S = Expected.Source->graph();
  for (const llvm::StringMapEntry<std::nullopt_t> &Entry : declaredInputs(Expected)) {
    llvm::StringRef Name = Entry.getKey();
    const Node *Want = S.findNode(Name), *Got = G.findNode(Name);
    auto finding = [&](std::string Message) {
      R.Findings.push_back({"structure", Name.str(), std::move(Message)});
    };
    // A TF1 signature may name any tensor as an input (an Identity after a
    // parse): only placeholders are fed, and only they are compared.
    if (!Want || !isPlaceholderOp(Want->op()))
      continue;
    if (!Got) {
      finding("is an input of the source but not in the frozen graph");
      continue;
    }
    if (!isPlaceholderOp(Got->op())) {
      finding(absl::StrCat("is an input of the source but no placeholder in the frozen graph (",
                           Got->op().str(), "; bind it when freezing: --bind)"));
      continue;
    }
    const tensorflow::AttrValue *WantType = Want->findAttr("dtype"),
                               *GotType = Got->findAttr("dtype");
    if (WantType && GotType && WantType->type() != GotType->type()) {
      finding(absl::StrCat("(", Got->op().str(), ") is ", dataTypeName(GotType->type()),
                           ", the source's input ", dataTypeName(WantType->type())));
      continue;
    }
    const tensorflow::AttrValue *WantShape = Want->findAttr("shape"),
                               *GotShape = Got->findAttr("shape");
    if (!WantShape || !GotShape || WantShape->shape().unknown_rank() ||
        GotShape->shape().unknown_rank())
      continue;
    const tensorflow::TensorShapeProto &A = WantShape->shape(), &B = GotShape->shape();
    bool Fits = A.dim_size() == B.dim_size();
    for (int D = 0; Fits && D < A.dim_size(); ++D)
      Fits = A.dim(D).size() < 0 || B.dim(D).size() < 0 || A.dim(D).size() == B.dim(D).size();
    if (!Fits)
      finding(absl::StrCat("(", Got->op().str(), ") has shape ", formatPartialShape(B),
                           ", the source's input ", formatPartialShape(A)));
  }
}

void checkStructure(const FreezeResult &Expected, const Model &Frozen, VerifyReport &R) {
  const Graph &G = Frozen.graph();
  auto finding = [&](llvm::StringRef Node, std::string Message) {
    R.Findings.push_back({"structure", Node.str(), std::move(Message)});
  };
  std::vector<std::string> Outputs;
  for (const std::string &O : outputNodes(Expected)) {
    if (G.findNode(O))
      Outputs.push_back(O);
    else
      finding(O, "is an output of the source but not in the frozen graph");
  }
  std::vector<bool> Needed = reached(G, Outputs);
  llvm::StringSet<> Inputs = declaredInputs(Expected);
  llvm::StringSet<> Kept = keptVariables(Expected);
  llvm::StringSet<> Named;
  for (const std::string &O : Outputs)
    Named.insert(O);
  for (const Node &N : G) {
    // A Saver node named as an output is kept as asked (TensorFlow's
    // freezing keeps it too).
    if (isSaveRestoreOp(N.op()) && !Named.contains(N.name()))
      finding(N.name(), absl::StrCat("(", N.op().str(), ") is a Saver node: freezing removes them"));
    for (const auto &[Name, Value] : N.attrs()) {
      bool Ref = (Value.value_case() == tensorflow::AttrValue::kType && Value.type() > 100) ||
                 llvm::any_of(Value.list().type(), [](int T) { return T > 100; });
      if (Ref)
        finding(N.name(), absl::StrCat("(", N.op().str(), ") has a reference dtype in attribute ",
                                       inQuotes(Name), ": a frozen graph holds values"));
    }
    if (!Needed[N.id()])
      continue;
    ++R.NodesReached;
    if (isAnyVariableOp(N.op()) && !Kept.contains(N.name()))
      finding(N.name(), absl::StrCat("(", N.op().str(),
                                     ") is a variable the outputs read: it was not frozen"));
    else if (isPlaceholderOp(N.op()) && !Inputs.contains(N.name()))
      finding(N.name(), absl::StrCat("(", N.op().str(),
                                     ") is an input the source does not have"));
  }
  checkInputs(Expected, G, R);
  OpRegistry Ops = verifyOpRegistry(Expected, Frozen);
  R.HasOpDefs = !Ops.empty();
  for (const IllTypedEdge &E : findIllTypedEdges(G, Ops))
    finding(E.User->name(), describeIllTypedEdge(E));
  for (const MistypedEdge &E : findMistypedEdges(G, Ops, &R.EdgesTyped)) {
    const Input &In = E.User->input(E.Input);
    finding(E.User->name(),
            absl::StrCat("(", E.User->op().str(), ") input ", E.Input, " takes ",
                         dataTypeName(E.Expected), " but ", inQuotes(In.Src->name()),
                         In.Port ? absl::StrCat(":", In.Port) : "", " (", In.Src->op().str(),
                         ") gives ", dataTypeName(E.Given)));
  }
}

//===----------------------------------------------------------------------===//
// Check 3: both graphs run on the same inputs
//===----------------------------------------------------------------------===//

/// A seeded random value for placeholder `N`: floats in [-1, 1), integers
/// in [0, 3) (valid indices for most lookups), uint8 in [0, 256), booleans.
absl::StatusOr<TensorData> randomInput(const Node &N, const NumericOptions &Options) {
  const tensorflow::AttrValue *DTypeAttr = N.findAttr("dtype");
  DataType DType = DTypeAttr ? DTypeAttr->type() : tensorflow::DT_INVALID;
  std::vector<int64_t> Shape;
  if (auto It = Options.InputShapes.find(N.name()); It != Options.InputShapes.end()) {
    Shape = It->second;
  } else {
    const tensorflow::AttrValue *ShapeAttr = N.findAttr("shape");
    if (!ShapeAttr || !ShapeAttr->has_shape() || ShapeAttr->shape().unknown_rank())
      return absl::InvalidArgumentError(
          absl::StrCat("input ", inQuotes(N.name()),
                       " has no known rank: give --input-shape ", N.name().str(), "=D,D,..."));
    for (const auto &D : ShapeAttr->shape().dim())
      Shape.push_back(D.size() >= 0 ? D.size() : Shape.empty() ? 1 : 8);
  }
  FROST_ASSIGN_OR_RETURN(int64_t Count, numElements(Shape));
  if (Count > (int64_t{1} << 24))
    return absl::InvalidArgumentError(absl::StrCat(
        "input ", inQuotes(N.name()), " of shape ", formatShape(Shape),
        " is too large to verify with: give a smaller --input-shape"));
  if (DType == tensorflow::DT_STRING)
    return TensorData::strings(DType, Shape, std::vector<std::string>(Count, "frost"));
  // One stream per input, so adding an input does not change the others.
  std::mt19937_64 Random(Options.Seed ^ llvm::xxh3_64bits(N.name()));
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
        "input ", inQuotes(N.name()), " is ", dataTypeName(DType), ", which verification cannot feed"));
  return Typed;
}

/// The tolerance of an output of dtype `T` whose source values reach `Scale`.
double toleranceFor(DataType T, double Scale, const NumericOptions &Options) {
  double Atol = 1e-6, Rtol = 1e-4;
  if (T == tensorflow::DT_DOUBLE || T == tensorflow::DT_COMPLEX128)
    Atol = 1e-12, Rtol = 1e-9;
  else if (T == tensorflow::DT_HALF)
    Atol = 1e-3, Rtol = 1e-2;
  else if (T == tensorflow::DT_BFLOAT16)
    Atol = 1e-2, Rtol = 5e-2;
  else if (!isFloating(T) && !isComplex(T))
    return 0; // integers, booleans, strings: exactly, whatever --atol says
  return Options.Atol.value_or(Atol) + Options.Rtol.value_or(Rtol) * Scale;
}

/// Compares output `Got` (frozen) with `Want` (source).
void compareOutput(const TensorData &Got, const TensorData &Want, const NumericOptions &Options,
                   OutputCheck &Out) {
  Out.DType = dataTypePythonName(Want.dtype());
  Out.Shape.assign(Want.shape().begin(), Want.shape().end());
  Out.Elements = static_cast<uint64_t>(Want.numElements());
  if (Got.dtype() != Want.dtype() || Got.shape() != Want.shape()) {
    Out.Differing = Out.Elements;
    Out.MaxAbs = Out.MaxRel = INFINITY;
    return;
  }
  // Integers, booleans, strings and the dtypes without arithmetic (quantized,
  // float8, int4) compare exactly, element by element.
  if (!isArithmetic(Want)) {
    Out.Exact = true;
    size_t Size = dataTypeSize(Want.dtype());
    for (int64_t I = 0; I < Want.numElements(); ++I)
      Out.Differing += Size ? Got.bytes().substr(I * Size, Size) != Want.bytes().substr(I * Size, Size)
                            : Got.elements()[I] != Want.elements()[I];
    return;
  }
  uint64_t Count = numComponents(Want);
  double Scale = 0;
  for (uint64_t K = 0; K < Count; ++K)
    if (double V = componentAt(Want, K); std::isfinite(V))
      Scale = std::max(Scale, std::fabs(V));
  Out.Tolerance = toleranceFor(Want.dtype(), Scale, Options);
  uint64_t Width = isComplex(Want.dtype()) ? 2 : 1;
  for (uint64_t I = 0; I < Count; I += Width) {
    bool Differs = false;
    for (uint64_t K = I; K < I + Width; ++K) {
      double A = componentAt(Got, K), B = componentAt(Want, K);
      if (std::isnan(A) || std::isnan(B) || std::isinf(A) || std::isinf(B)) {
        bool Same = (std::isnan(A) && std::isnan(B)) || A == B;
        if (!Same)
          Out.MaxAbs = Out.MaxRel = INFINITY;
        Differs |= !Same;
        continue;
      }
      double Abs = std::fabs(A - B);
      Out.MaxAbs = std::max(Out.MaxAbs, Abs);
      if (Abs > 0)
        Out.MaxRel = std::max(Out.MaxRel, Abs / std::max(std::fabs(B), 1e-30));
      Differs |= Abs > Out.Tolerance;
    }
    Out.Differing += Differs;
  }
}

std::string notComputedText(const NotComputed &Why) {
  return absl::StrCat("needs ", inQuotes(Why.Node), " (", Why.Op, "), which ",
                      Why.NoKernel ? "has no kernel" : "failed", ": ", Why.Reason);
}

/// Writes `T` as a .npy file; false for dtypes numpy cannot hold.
bool writeNpy(const std::string &Path, const TensorData &T) {
  static const std::map<DataType, const char *> Descr = {
      {tensorflow::DT_FLOAT, "<f4"},  {tensorflow::DT_DOUBLE, "<f8"},
      {tensorflow::DT_HALF, "<f2"},   {tensorflow::DT_INT8, "|i1"},
      {tensorflow::DT_INT16, "<i2"},  {tensorflow::DT_INT32, "<i4"},
      {tensorflow::DT_INT64, "<i8"},  {tensorflow::DT_UINT8, "|u1"},
      {tensorflow::DT_UINT16, "<u2"}, {tensorflow::DT_UINT32, "<u4"},
      {tensorflow::DT_UINT64, "<u8"}, {tensorflow::DT_BOOL, "|b1"},
      {tensorflow::DT_COMPLEX64, "<c8"}, {tensorflow::DT_COMPLEX128, "<c16"}};
  auto It = Descr.find(T.dtype());
  if (It == Descr.end())
    return false;
  std::vector<std::string> Dims;
  for (int64_t D : T.shape())
    Dims.push_back(std::to_string(D));
  std::string Header = absl::StrCat("{'descr': '", It->second, "', 'fortran_order': False, 'shape': (",
                                    absl::StrJoin(Dims, ", "), Dims.size() == 1 ? ",), }" : "), }");
  size_t Total = 10 + Header.size() + 1;
  Header.append((64 - Total % 64) % 64, ' ');
  Header += '\n';
  std::string Bytes = "\x93NUMPY\x01";
  Bytes += '\0';
  uint16_t Length = static_cast<uint16_t>(Header.size());
  Bytes += static_cast<char>(Length & 0xff);
  Bytes += static_cast<char>(Length >> 8);
  Bytes += Header;
  Bytes += T.bytes().str();
  return writeStringAtomically(Path, Bytes).ok();
}

/// Saves what the numeric check computed, for a comparison with TensorFlow.
absl::Status saveValues(const std::string &Dir, const TensorMap &Feeds,
                        const RunResult &Source, const RunResult &Frozen) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  if (EC)
    return absl::InvalidArgumentError(absl::StrCat(Dir, ": ", EC.message()));
  std::string Index;
  llvm::raw_string_ostream OS(Index);
  {
    JsonWriter J(OS);
    J.objectBegin();
    int File = 0;
    auto save = [&](llvm::StringRef Role, llvm::StringRef Tensor, const TensorData &T) {
      std::string Name = absl::StrCat(File++, ".npy");
      if (!writeNpy(Dir + "/" + Name, T))
        return;
      J.objectBegin();
      J.member("role", Role);
      J.member("tensor", Tensor);
      J.member("file", Name);
      J.objectEnd();
    };
    J.key("values");
    J.arrayBegin();
    for (const auto &[Name, T] : Feeds)
      save("input", absl::StrCat(Name, ":0"), T);
    for (auto [Role, Run] : {std::pair<llvm::StringRef, const RunResult *>{"source", &Source},
                             {"frozen", &Frozen}})
      for (const FetchedNode &F : Run->Fetched)
        for (size_t Port = 0; Port < F.Outputs.size(); ++Port)
          if (F.Outputs[Port])
            save(Role, absl::StrCat(F.Node, ":", Port), *F.Outputs[Port]);
    J.arrayEnd();
    J.objectEnd();
  }
  return writeStringAtomically(Dir + "/index.json", Index);
}

void checkNumeric(const FreezeResult &Expected, const Model &Frozen,
                  const CheckpointReader *Reader, const NumericOptions &Options,
                  VerifyReport &R) {
  if (!Expected.Source)
    return;
  const Model *Source = Expected.Source.get();
  const Graph *FrozenGraph = &Frozen.graph();
  std::vector<std::string> Outputs;
  for (const FreezeOutput &O : Expected.Outputs)
    if (FrozenGraph->findNode(O.Node) && Source->graph().findNode(O.Node) &&
        !llvm::is_contained(Outputs, O.Node))
      Outputs.push_back(O.Node);

  // The inputs: the source's placeholders its outputs need, as the source
  // declares them (the structure check compares the frozen graph's).
  RunRequest FrozenRun, SourceRun;
  FrozenRun.Fetches = SourceRun.Fetches = Outputs;
  std::vector<bool> Needed = reached(Source->graph(), Outputs);
  std::string InputProblem;
  for (const Node &N : Source->graph()) {
    if (!Needed[N.id()] || !isPlaceholderOp(N.op()))
      continue;
    absl::StatusOr<TensorData> V = randomInput(N, Options);
    if (!V.ok()) {
      InputProblem = std::string(V.status().message());
      continue;
    }
    R.Inputs.push_back({N.name().str(), dataTypePythonName(V->dtype()),
                        std::vector<int64_t>(V->shape().begin(), V->shape().end())});
    FrozenRun.Feeds[N.name().str()] = *V;
    SourceRun.Feeds[N.name().str()] = *std::move(V);
  }
  // Both graphs read the checkpoint: the source for every variable, the
  // frozen graph for those freezing leaves variables (--except), restored
  // by name as TensorFlow's Saver does, and for any it failed to freeze
  // (which the structure check names), so the outputs still compare.
  std::map<std::string, VariableSource, std::less<>> Sources = convertedVariables(Expected);
  llvm::StringSet<> Kept = keptVariables(Expected);
  SourceRun.VariableValue = FrozenRun.VariableValue =
      [&](const Node &N) -> absl::StatusOr<TensorData> {
    auto It = Sources.find(N.name());
    if (It == Sources.end() && !Kept.contains(N.name()))
      return absl::InvalidArgumentError("a variable freezing left unfrozen");
    if (!Reader)
      return absl::InvalidArgumentError("no checkpoint was read");
    if (It == Sources.end())
      return Reader->read(N.name());
    return checkpointValue(*Reader, It->second);
  };

  absl::StatusOr<RunResult> SourceResult = runGraph(Source->graph(), SourceRun);
  absl::StatusOr<RunResult> FrozenResult = runGraph(*FrozenGraph, FrozenRun);
  if (!SourceResult.ok() || !FrozenResult.ok()) {
    R.Findings.push_back({"numeric", "", std::string((!SourceResult.ok() ? SourceResult : FrozenResult)
                                                         .status()
                                                         .message())});
    return;
  }
  R.NumericRun = true;
  for (const RunResult *Run : {&*SourceResult, &*FrozenResult})
    for (const auto &[Op, Nodes] : Run->NoKernel)
      for (const std::string &N : Nodes)
        if (!llvm::is_contained(R.NoKernel[Op], N))
          R.NoKernel[Op].push_back(N);

  for (size_t I = 0; I < Outputs.size(); ++I) {
    const FetchedNode &S = SourceResult->Fetched[I], &F = FrozenResult->Fetched[I];
    auto notChecked = [&](std::string Tensor, std::string Why) {
      OutputCheck C;
      C.Tensor = std::move(Tensor);
      C.NotChecked = std::move(Why);
      R.Outputs.push_back(std::move(C));
    };
    if (S.Missing || F.Missing) {
      const FetchedNode &Failed = S.Missing ? S : F;
      std::string Why = absl::StrCat(S.Missing ? "the source " : "the frozen graph ",
                                     notComputedText(*Failed.Missing));
      if (!InputProblem.empty() && Failed.Missing->Reason == "no value fed")
        Why = InputProblem;
      // A frozen graph failing where the source ran is its fault, unless
      // the evaluator lacks a kernel there.
      if (!S.Missing && !F.Missing->NoKernel)
        R.Findings.push_back({"numeric", F.Node, absl::StrCat("does not run: ", Why)});
      notChecked(F.Node, Why);
      continue;
    }
    if (S.Dead != F.Dead) {
      R.Findings.push_back({"numeric", F.Node, S.Dead ? "is computed where the source's is dead"
                                                      : "is dead where the source's is computed"});
      continue;
    }
    // TensorFlow refuses to fetch a dead tensor: nothing to compare, which
    // must not pass for a comparison.
    if (S.Dead) {
      notChecked(F.Node, "dead in both graphs (on a branch not taken)");
      continue;
    }
    if (S.Outputs.size() != F.Outputs.size()) {
      R.Findings.push_back({"numeric", F.Node, absl::StrCat("has ", F.Outputs.size(),
                                                            " outputs, the source's ",
                                                            S.Outputs.size())});
      continue;
    }
    for (size_t Port = 0; Port < S.Outputs.size(); ++Port) {
      std::string Tensor = absl::StrCat(F.Node, ":", Port);
      if (!S.Outputs[Port] || !F.Outputs[Port]) {
        if (S.Outputs[Port].has_value() != F.Outputs[Port].has_value())
          R.Findings.push_back({"numeric", Tensor, "is dead in one graph only"});
        else
          notChecked(Tensor, "dead in both graphs (on a branch not taken)");
        continue;
      }
      OutputCheck C;
      C.Tensor = Tensor;
      compareOutput(*F.Outputs[Port], *S.Outputs[Port], Options, C);
      if (F.Outputs[Port]->dtype() != S.Outputs[Port]->dtype() ||
          F.Outputs[Port]->shape() != S.Outputs[Port]->shape())
        R.Findings.push_back(
            {"numeric", Tensor,
             absl::StrCat("is ", dataTypePythonName(F.Outputs[Port]->dtype()), " ",
                          formatShape(F.Outputs[Port]->shape()), ", the source's ",
                          dataTypePythonName(S.Outputs[Port]->dtype()), " ",
                          formatShape(S.Outputs[Port]->shape()))});
      else if (C.Differing)
        R.Findings.push_back(
            {"numeric", Tensor,
             absl::StrCat("differs from the source in ", C.Differing, " of ", C.Elements,
                          C.Exact ? " values (compared exactly)"
                                  : absl::StrCat(" values: max abs diff ", formatDiff(C.MaxAbs),
                                                 ", max rel diff ", formatDiff(C.MaxRel),
                                                 " (tolerance ", formatDiff(C.Tolerance), ")"))});
      R.Outputs.push_back(std::move(C));
    }
  }
  if (!Options.SaveValues.empty())
    if (absl::Status S = saveValues(Options.SaveValues, SourceRun.Feeds, *SourceResult,
                                    *FrozenResult);
        !S.ok())
      R.Findings.push_back({"numeric", "", std::string(S.message())});
}

} // namespace

bool VerifyReport::complete() const {
  return NumericRun && llvm::all_of(Outputs, [](const OutputCheck &O) {
           return O.NotChecked.empty();
         });
}

absl::StatusOr<VerifyReport> verifyFrozen(const FreezeResult &Expected, const Model &Frozen,
                                          llvm::StringRef FrozenPath,
                                          const NumericOptions &Options) {
  VerifyReport R;
  R.Frozen = FrozenPath.str();
  R.Source = Expected.GraphPath;
  R.Checkpoint = Expected.Checkpoint;
  R.Seed = Options.Seed;
  std::unique_ptr<CheckpointReader> Reader;
  if (!Expected.Checkpoint.empty()) {
    FROST_ASSIGN_OR_RETURN(Reader, CheckpointReader::open(Expected.Checkpoint));
  }
  checkConstants(Expected, Frozen, Reader.get(), R);
  checkStructure(Expected, Frozen, R);
  if (Options.Run)
    checkNumeric(Expected, Frozen, Reader.get(), Options, R);
  return R;
}

namespace {

std::string noKernelText(const std::map<std::string, std::vector<std::string>> &NoKernel) {
  std::vector<std::string> Parts;
  for (const auto &[Op, Nodes] : NoKernel) {
    std::vector<std::string> Shown(Nodes.begin(), Nodes.begin() + std::min<size_t>(Nodes.size(), 3));
    Parts.push_back(absl::StrCat(Op, " (", absl::StrJoin(Shown, ", "),
                                 Nodes.size() > 3 ? absl::StrCat(", ", Nodes.size() - 3, " more")
                                                  : "",
                                 ")"));
  }
  return absl::StrJoin(Parts, "; ");
}

void printFindings(llvm::raw_ostream &OS, const VerifyReport &R) {
  for (const Finding &F : R.Findings)
    OS << "error: " << R.Frozen << ": " << F.Check << ": "
       << (F.Node.empty() ? std::string() : absl::StrCat(inQuotes(F.Node), " ")) << F.Message
       << "\n";
}

} // namespace

void printVerifyReport(llvm::raw_ostream &OS, const VerifyReport &R, llvm::StringRef Tool,
                       bool FindingsOnly) {
  if (FindingsOnly) {
    printFindings(OS, R);
    return;
  }
  OS << Tool << ": " << R.Frozen << " against " << R.Source
     << (R.Checkpoint.empty() ? std::string() : absl::StrCat(" (checkpoint ", R.Checkpoint, ")"))
     << "\n";
  OS << "constants: " << R.ConstantsChecked
     << (R.ConstantsChecked == 1 ? " frozen variable" : " frozen variables")
     << " compared with the checkpoint";
  if (R.ConstantsAbsent)
    OS << " (" << R.ConstantsAbsent << " folded into other constants or not needed)";
  OS << "\n";
  OS << "structure: " << R.NodesReached << " nodes reached from the outputs; ";
  if (R.HasOpDefs)
    OS << R.EdgesTyped << " edge dtypes checked against OpDefs\n";
  else
    OS << "no OpDefs in the source or the frozen graph: edge dtypes not checked\n";
  if (!R.NumericRun) {
    OS << "numeric: not run\n";
  } else {
    std::vector<std::string> Inputs;
    for (const FedInput &I : R.Inputs)
      Inputs.push_back(absl::StrCat(I.Node, " ", I.DType, " ", formatShape(I.Shape)));
    OS << "numeric: inputs " << (Inputs.empty() ? "none" : absl::StrJoin(Inputs, ", "))
       << " (seed " << R.Seed << ")\n";
    for (const OutputCheck &O : R.Outputs) {
      if (!O.NotChecked.empty()) {
        OS << "  " << O.Tensor << ": NOT CHECKED: " << O.NotChecked << "\n";
        continue;
      }
      OS << "  " << O.Tensor << " " << O.DType << " " << formatShape(O.Shape) << ": ";
      if (O.Exact)
        OS << O.Differing << " of " << O.Elements << " differ (compared exactly)\n";
      else
        OS << "max abs diff " << formatDiff(O.MaxAbs) << ", max rel diff "
           << formatDiff(O.MaxRel) << " (" << O.Elements
           << (O.Elements == 1 ? " value" : " values") << ", tolerance "
           << formatDiff(O.Tolerance) << ")\n";
    }
    if (!R.NoKernel.empty())
      OS << "numeric: no kernel for " << noKernelText(R.NoKernel) << "\n";
  }
  printFindings(OS, R);
  size_t Unchecked = llvm::count_if(R.Outputs, [](const OutputCheck &O) {
    return !O.NotChecked.empty();
  });
  if (!R.passed())
    OS << Tool << ": FAILED: " << R.Findings.size()
       << (R.Findings.size() == 1 ? " finding" : " findings") << "\n";
  else if (!R.complete())
    OS << Tool << ": PASSED what was checked; NOT CHECKED numerically: "
       << (R.NumericRun ? absl::StrCat(Unchecked, Unchecked == 1 ? " output" : " outputs")
                        : std::string("every output"))
       << "\n";
  else
    OS << Tool << ": PASSED\n";
}

std::string verifyReportJson(const VerifyReport &R) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  {
    JsonWriter J(OS);
    auto number = [&J](double V) {
      if (std::isinf(V))
        J.string("inf");
      else
        J.raw(inspect::formatDouble(V, inspect::Style::Json));
    };
    J.objectBegin();
    J.member("frozen", R.Frozen);
    J.member("source", R.Source);
    J.member("checkpoint", R.Checkpoint);
    J.key("passed");
    J.boolean(R.passed());
    J.key("complete");
    J.boolean(R.complete());
    J.key("constants");
    J.objectBegin();
    J.key("compared");
    J.number(static_cast<uint64_t>(R.ConstantsChecked));
    J.key("absent");
    J.number(static_cast<uint64_t>(R.ConstantsAbsent));
    J.objectEnd();
    J.key("structure");
    J.objectBegin();
    J.key("nodes_reached");
    J.number(static_cast<uint64_t>(R.NodesReached));
    J.key("op_defs");
    J.boolean(R.HasOpDefs);
    J.key("edges_typed");
    J.number(static_cast<uint64_t>(R.EdgesTyped));
    J.objectEnd();
    J.key("numeric");
    J.objectBegin();
    J.key("run");
    J.boolean(R.NumericRun);
    J.key("seed");
    J.number(R.Seed);
    J.key("inputs");
    J.arrayBegin();
    for (const FedInput &I : R.Inputs) {
      J.objectBegin();
      J.member("node", I.Node);
      J.member("dtype", I.DType);
      J.key("shape");
      J.inlineArray(I.Shape);
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("outputs");
    J.arrayBegin();
    for (const OutputCheck &O : R.Outputs) {
      J.objectBegin();
      J.member("tensor", O.Tensor);
      if (!O.NotChecked.empty()) {
        J.member("not_checked", O.NotChecked);
      } else {
        J.member("dtype", O.DType);
        J.key("shape");
        J.inlineArray(O.Shape);
        J.key("values");
        J.number(O.Elements);
        J.key("differing");
        J.number(O.Differing);
        J.key("exact");
        J.boolean(O.Exact);
        J.key("max_abs_diff");
        number(O.MaxAbs);
        J.key("max_rel_diff");
        number(O.MaxRel);
        J.key("tolerance");
        number(O.Tolerance);
      }
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("no_kernel");
    J.objectBegin();
    for (const auto &[Op, Nodes] : R.NoKernel) {
      J.key(Op);
      J.inlineArray(Nodes);
    }
    J.objectEnd();
    J.objectEnd();
    J.key("findings");
    J.arrayBegin();
    for (const Finding &F : R.Findings) {
      J.objectBegin();
      J.member("check", F.Check);
      J.member("node", F.Node);
      J.member("message", F.Message);
      J.objectEnd();
    }
    J.arrayEnd();
    J.objectEnd();
  }
  return Text;
}

} // namespace frost::verify
