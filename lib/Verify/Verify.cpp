//===- Verify.cpp - Proving a frozen graph computes what its source did --===//
#include "frost/Verify/Verify.h"

#include "VerifyInternal.h"

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Support/Context.h"
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
#include "frost/IR/ConstValue.h"
#include "frost/Checkpoint/TensorSlice.h"
#include "frost/Verify/GraphRunner.h"
#include "frost/IR/FunctionBody.h"
#include "frost/Tensor/TensorProtoCodec.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <cmath>
#include <filesystem>
#include <random>


namespace frost::verify {

namespace detail {

using tensorflow::DataType;

std::string inQuotes(llvm::StringRef S) { return absl::StrCat("'", S.str(), "'"); }

std::string formatDiff(double V) {
  if (std::isinf(V))
    return "inf";
  return absl::StrFormat("%.3g", V);
}

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
  bool Complex = isComplex(T.dtype());
  long double Imag;
  std::optional<long double> Real = elementAsNumber(T, Complex ? K / 2 : K, Imag);
  if (!Real)
    return NAN;
  return static_cast<double>(Complex && K % 2 ? Imag : *Real);
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
std::optional<std::string> constantDifference(const TensorData &Got, const TensorData &Want,
                                              llvm::StringRef Whose = "the checkpoint") {
  if (Got.shape() != Want.shape())
    return absl::StrCat("has shape ", formatShape(Got.shape()), ", ", Whose.str(), " ",
                        formatShape(Want.shape()));
  if (Got.dtype() != Want.dtype() &&
      !(isFloating(Got.dtype()) && isFloating(Want.dtype())))
    return absl::StrCat("is ", dataTypeName(Got.dtype()), ", ", Whose.str(), " ",
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
                      First, ": ", elementText(Got, First), ", ", Whose.str(), " ",
                      elementText(Want, First), ")");
}

/// Why Const value `Got` is not `Want`, the same-named Const of the source,
/// or nothing. `Refrozen` gives that Const in the source frozen again the
/// same way (decoded only when `Got` differs from the source): a pass that
/// rewrote it (--optimize) rewrote it alike.
std::optional<std::string>
sourceConstantDifference(const TensorData &Got, const TensorData &Want,
                         llvm::function_ref<std::optional<TensorData>()> Refrozen) {
  std::optional<std::string> Why = constantDifference(Got, Want, "the source");
  if (!Why)
    return std::nullopt;
  if (std::optional<TensorData> Again = Refrozen(); Again && !constantDifference(Got, *Again))
    return std::nullopt;
  return Why;
}

/// A function's Consts by node name.
llvm::StringMap<const tensorflow::NodeDef *> constsOf(const tensorflow::FunctionDef *F) {
  llvm::StringMap<const tensorflow::NodeDef *> Consts;
  if (F)
    for (const tensorflow::NodeDef &D : F->node_def())
      if (D.op() == "Const")
        Consts.try_emplace(D.name(), &D);
  return Consts;
}

/// The value of function Const `D`, if it has one that decodes.
std::optional<TensorData> functionConstValue(const tensorflow::NodeDef *D) {
  if (!D)
    return std::nullopt;
  auto It = D->attr().find("value");
  if (It == D->attr().end())
    return std::nullopt;
  absl::StatusOr<TensorData> V = decodeTensorProto(It->second.tensor(), D->name());
  if (!V.ok())
    return std::nullopt;
  return *std::move(V);
}

/// Every Const the frozen graph kept from the source (by name, a Const
/// there too), in the graph and in the library's functions, holds the
/// source's bytes: not only those that came from variables. A tampered
/// anchor is caught even where no output can be computed.
void checkSourceConstants(const FreezeResult &Expected, const Model &Frozen, VerifyReport &R) {
  if (!Expected.Source)
    return;
  std::map<std::string, VariableSource, std::less<>> Converted = convertedVariables(Expected);
  const Graph &S = Expected.Source->graph();
  const Graph *Refrozen = Expected.M ? &Expected.M->graph() : nullptr;
  for (const Node &N : Frozen.graph()) {
    if (N.op() != "Const" || Converted.count(N.name()))
      continue;
    const Node *Want = S.findNode(N.name());
    if (!Want || Want->op() != "Const")
      continue;
    absl::StatusOr<TensorData> GotValue = constValue(N), WantValue = constValue(*Want);
    if (!GotValue.ok() || !WantValue.ok())
      continue; // a Const that does not decode is the structure check's
    ++R.SourceConstantsChecked;
    auto refrozenValue = [&]() -> std::optional<TensorData> {
      const Node *Again = Refrozen ? Refrozen->findNode(N.name()) : nullptr;
      if (!Again || Again->op() != "Const")
        return std::nullopt;
      absl::StatusOr<TensorData> V = constValue(*Again);
      if (!V.ok())
        return std::nullopt;
      return *std::move(V);
    };
    if (std::optional<std::string> Why =
            sourceConstantDifference(*GotValue, *WantValue, refrozenValue))
      R.Findings.push_back({"constants", N.name().str(),
                            absl::StrCat("(Const) does not hold the source's value: ", *Why)});
  }
  // Functions of the same name: their Consts by node name, each function's
  // indexed once.
  FunctionIndex SourceFunctions(S.library());
  std::optional<FunctionIndex> RefrozenFunctions;
  if (Refrozen)
    RefrozenFunctions.emplace(Refrozen->library());
  for (const tensorflow::FunctionDef &F : Frozen.graph().library().function()) {
    const std::string &Function = F.signature().name();
    const tensorflow::FunctionDef *SourceF = SourceFunctions.find(Function);
    if (!SourceF)
      continue;
    llvm::StringMap<const tensorflow::NodeDef *> SourceConsts = constsOf(SourceF);
    std::optional<llvm::StringMap<const tensorflow::NodeDef *>> RefrozenConsts;
    for (const tensorflow::NodeDef &D : F.node_def()) {
      if (D.op() != "Const")
        continue;
      std::optional<TensorData> Want = functionConstValue(SourceConsts.lookup(D.name()));
      std::optional<TensorData> Got = functionConstValue(&D);
      if (!Want || !Got)
        continue;
      ++R.SourceConstantsChecked;
      auto refrozenValue = [&]() -> std::optional<TensorData> {
        if (!RefrozenFunctions)
          return std::nullopt;
        if (!RefrozenConsts)
          RefrozenConsts = constsOf(RefrozenFunctions->find(Function));
        return functionConstValue(RefrozenConsts->lookup(D.name()));
      };
      if (std::optional<std::string> Why = sourceConstantDifference(*Got, *Want, refrozenValue))
        R.Findings.push_back(
            {"constants", absl::StrCat(Function, "/", D.name()),
             absl::StrCat("(Const in function ", inQuotes(Function),
                          ") does not hold the source's value: ", *Why)});
    }
  }
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
  Ops.fallBackToStandardOps();
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
    if (!Fits) {
      finding(absl::StrCat("(", Got->op().str(), ") has shape ", formatPartialShape(B),
                           ", the source's input ", formatPartialShape(A)));
      continue;
    }
    // Dimensions the freeze flags fix (--batch-size, --input-shape) where
    // the source leaves them unknown: the frozen graph must have them.
    const Node *Told = Expected.M ? Expected.M->graph().findNode(Name) : nullptr;
    const tensorflow::AttrValue *ToldShape = Told ? Told->findAttr("shape") : nullptr;
    if (!ToldShape || ToldShape->shape().unknown_rank() ||
        ToldShape->shape().dim_size() != A.dim_size())
      continue;
    const tensorflow::TensorShapeProto &C = ToldShape->shape();
    bool AsTold = true;
    for (int D = 0; AsTold && D < A.dim_size(); ++D)
      AsTold = A.dim(D).size() >= 0 || C.dim(D).size() < 0 || B.dim(D).size() == C.dim(D).size();
    if (!AsTold)
      finding(absl::StrCat("(", Got->op().str(), ") has shape ", formatPartialShape(B),
                           "; freezing with these flags fixes it to ", formatPartialShape(C)));
  }
}

/// Variable writes the outputs reach in the frozen graph, or in the
/// functions the nodes they reach call (a branch of an If, a loop's body):
/// a frozen graph has no variables to write, so TensorFlow cannot run
/// them. Writes to a variable freezing left (--except) are fine; inside
/// functions, which variable is written is not traced, so they are left
/// alone then.
void checkVariableWrites(const Graph &G, const std::vector<bool> &Needed,
                         const llvm::StringSet<> &Kept, VerifyReport &R) {
  FunctionIndex Functions(G.library());
  std::vector<std::pair<const tensorflow::FunctionDef *, std::string>> Work;
  llvm::StringSet<> Seen;
  auto call = [&](const std::string &Name, llvm::StringRef Caller) {
    if (const tensorflow::FunctionDef *F = Functions.find(Name); F && Seen.insert(Name).second)
      Work.push_back({F, Caller.str()});
  };
  for (const Node &N : G) {
    if (!Needed[N.id()])
      continue;
    if (isAssignOp(N.op())) {
      const Node *Target = N.numInputs() ? N.input(0).Src : nullptr;
      if (!Target || !Kept.contains(Target->name()))
        R.Findings.push_back({"structure", N.name().str(),
                              absl::StrCat("(", N.op().str(), ") writes a variable, which a "
                                           "frozen graph has not: TensorFlow cannot run it")});
      continue;
    }
    call(N.op().str(), N.name());
    for (const auto &[Name, Value] : N.attrs())
      forEachFunctionName(Value, [&](const std::string &F) { call(F, N.name()); });
  }
  if (!Kept.empty())
    return;
  for (size_t I = 0; I < Work.size(); ++I) {
    auto [F, Caller] = Work[I];
    for (const tensorflow::NodeDef &D : F->node_def()) {
      if (isAssignOp(D.op()))
        R.Findings.push_back(
            {"structure", Caller,
             absl::StrCat("calls function ", inQuotes(F->signature().name()), ", whose ",
                          inQuotes(D.name()), " (", D.op(), ") writes a variable, which a "
                          "frozen graph has not: TensorFlow cannot run it")});
      call(D.op(), Caller);
      for (const auto &[Name, Value] : D.attr())
        forEachFunctionName(Value, [&, Caller = Caller](const std::string &Callee) {
          call(Callee, Caller);
        });
    }
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
  checkVariableWrites(G, Needed, Kept, R);
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

} // namespace detail

using namespace detail;


bool VerifyReport::complete() const { return NumericRun && unchecked() == 0; }

size_t VerifyReport::unchecked() const {
  return llvm::count_if(Outputs, [](const OutputCheck &O) { return !O.NotChecked.empty(); });
}

absl::StatusOr<VerifyReport> verifyFrozen(Context &Ctx, const FreezeResult &Expected,
                                          const Model &Frozen,
                                          llvm::StringRef FrozenPath,
                                          const NumericOptions &Options) {
  // A shape for a node that is not there would silently shape nothing.
  for (const auto &Entry : Options.InputShapes)
    FROST_RETURN_IF_ERROR(resolveTensorName(Frozen.graph(), Entry.first, "--input-shape").status());
  VerifyReport R;
  R.Frozen = FrozenPath.str();
  R.Source = Expected.GraphPath;
  R.Checkpoint = Expected.Checkpoint;
  R.Seed = Options.Seed;
  R.AllowUnchecked = Options.AllowUnchecked;
  R.NumericAsked = Options.Run;
  std::unique_ptr<CheckpointReader> Reader;
  if (!Expected.Checkpoint.empty()) {
    // As the user named it (--checkpoint train/): resolved as freezing did.
    FROST_ASSIGN_OR_RETURN(ResolvedCheckpoint Where, resolveCheckpoint(Ctx, Expected.Checkpoint));
    FROST_ASSIGN_OR_RETURN(Reader, CheckpointReader::open(Ctx, Where.Prefix));
  }
  checkConstants(Expected, Frozen, Reader.get(), R);
  checkSourceConstants(Expected, Frozen, R);
  checkStructure(Expected, Frozen, R);
  if (Options.Run)
    checkNumeric(Ctx, Expected, Frozen, Reader.get(), Options, R);
  // The freezes behind `Expected` (and `Frozen`) checked their checkpoint's
  // checksums in the background: a pass needs them all.
  FROST_RETURN_IF_ERROR(Ctx.background().wait());
  return R;
}
} // namespace frost::verify
