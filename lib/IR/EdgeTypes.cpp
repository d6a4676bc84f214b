//===- EdgeTypes.cpp - Resource, reference or value, edge by edge ---------===//
#include "frost/IR/EdgeTypes.h"

#include "frost/IR/FunctionBody.h"
#include "llvm/ADT/SmallPtrSet.h"

#include "frost/IR/Graph.h"
#include "frost/IR/OpClasses.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace frost {

namespace {

/// DT_FLOAT_REF and friends are the base type + 100.
constexpr int RefOffset = 100;

EdgeKind kindOfType(tensorflow::DataType T) {
  if (T == tensorflow::DT_INVALID)
    return EdgeKind::Unknown;
  if (T > RefOffset)
    return EdgeKind::Ref;
  return T == tensorflow::DT_RESOURCE ? EdgeKind::Resource : EdgeKind::Value;
}

EdgeKind kindOfTypeAttr(const Node &N, llvm::StringRef Attr) {
  const tensorflow::AttrValue *A = N.findAttr(Attr);
  return A && A->value_case() == tensorflow::AttrValue::kType ? kindOfType(A->type())
                                                              : EdgeKind::Unknown;
}

using ArgDefs = google::protobuf::RepeatedPtrField<tensorflow::OpDef::ArgDef>;

/// The argument of `Args` that flat index `Index` falls in, in a node `N` of
/// the op they describe; `Index` becomes the index within it.
const tensorflow::OpDef::ArgDef *argAt(const Node &N, const ArgDefs &Args, int &Index) {
  auto Find = [&N](llvm::StringRef Name) { return N.findAttr(Name); };
  for (const tensorflow::OpDef::ArgDef &Arg : Args) {
    absl::StatusOr<int> Length = argLength(Arg, Find);
    if (!Length.ok())
      return nullptr;
    if (Index < *Length)
      return &Arg;
    Index -= *Length;
  }
  return nullptr;
}

/// The dtype of argument `Index` (flat) of `Args` in node `N`, with `_REF`
/// for reference arguments; DT_INVALID when unknown.
tensorflow::DataType dtypeOfArg(const Node &N, const ArgDefs &Args, int Index) {
  const tensorflow::OpDef::ArgDef *Arg = argAt(N, Args, Index);
  if (!Arg)
    return tensorflow::DT_INVALID;
  tensorflow::DataType T = tensorflow::DT_INVALID;
  if (Arg->type() != tensorflow::DT_INVALID) {
    T = Arg->type();
  } else if (!Arg->type_attr().empty()) {
    const tensorflow::AttrValue *A = N.findAttr(Arg->type_attr());
    if (A && A->value_case() == tensorflow::AttrValue::kType)
      T = A->type();
  } else if (const tensorflow::AttrValue *List = N.findAttr(Arg->type_list_attr());
             List && Index < List->list().type_size()) {
    T = static_cast<tensorflow::DataType>(List->list().type(Index));
  }
  if (Arg->is_ref() && T != tensorflow::DT_INVALID && T < RefOffset)
    T = static_cast<tensorflow::DataType>(T + RefOffset);
  return T;
}

/// What argument `Index` (flat) of `Args` carries in node `N`.
EdgeKind kindOfArg(const Node &N, const ArgDefs &Args, int Index) {
  int Within = Index;
  const tensorflow::OpDef::ArgDef *Arg = argAt(N, Args, Within);
  if (Arg && Arg->is_ref())
    return EdgeKind::Ref;
  return kindOfType(dtypeOfArg(N, Args, Index));
}

bool startsWithAny(llvm::StringRef Op, std::initializer_list<llvm::StringRef> Prefixes) {
  return llvm::any_of(Prefixes, [&](llvm::StringRef P) { return Op.starts_with(P); });
}

/// Input 0 of the common variable and table ops, for graphs without OpDefs
/// (a GraphDef read from a .pb).
EdgeKind knownStateInput(llvm::StringRef Op) {
  static const llvm::StringSet<> Resource = {
      "AssignVariableOp",  "AssignAddVariableOp", "AssignSubVariableOp",
      "ReadVariableOp",    "VarIsInitializedOp",  "VariableShape",
      "DestroyResourceOp", "ResourceGather",      "ResourceGatherNd",
      "ResourceStridedSliceAssign", "ResourceCountUpTo", "LookupTableFindV2",
      "LookupTableImportV2", "LookupTableInsertV2", "LookupTableRemoveV2",
      "LookupTableSizeV2", "LookupTableExportV2", "InitializeTableV2",
      "InitializeTableFromTextFileV2"};
  static const llvm::StringSet<> Ref = {
      "Assign", "AssignAdd", "AssignSub", "CountUpTo", "IsVariableInitialized",
      "StridedSliceAssign", "ScatterUpdate", "ScatterAdd", "ScatterSub", "ScatterMul",
      "ScatterDiv", "ScatterMin", "ScatterMax", "ScatterNdUpdate", "ScatterNdAdd",
      "ScatterNdSub", "InitializeTable", "InitializeTableFromTextFile", "LookupTableFind",
      "LookupTableImport", "LookupTableInsert", "LookupTableSize", "LookupTableExport"};
  if (Resource.contains(Op) ||
      startsWithAny(Op, {"ResourceApply", "ResourceSparseApply", "ResourceScatter"}))
    return EdgeKind::Resource;
  if (Ref.contains(Op) || startsWithAny(Op, {"Apply", "SparseApply"}))
    return EdgeKind::Ref;
  return EdgeKind::Unknown;
}

const char *kindName(EdgeKind K) {
  switch (K) {
  case EdgeKind::Resource: return "a resource";
  case EdgeKind::Ref: return "a reference";
  case EdgeKind::Value: return "a value";
  case EdgeKind::Unknown: break;
  }
  return "something unknown";
}

} // namespace

EdgeKind outputKind(const Node &N, int Port, const OpRegistry &Ops) {
  if (const tensorflow::OpDef *Def = Ops.find(N.op()))
    return kindOfArg(N, Def->output_arg(), Port);
  llvm::StringRef Op = N.op();
  if (Op == "VarHandleOp" || (Op.contains("HashTable") && Op.ends_with("V2")))
    return EdgeKind::Resource;
  if (Op == "VariableV2" || Op == "Variable" || Op == "TemporaryVariable" ||
      Op.contains("HashTable"))
    return EdgeKind::Ref;
  if (Op == "Const" || Op == "Placeholder" || Op == "PlaceholderWithDefault")
    return kindOfTypeAttr(N, "dtype");
  if (Op == "Identity" || Op == "Snapshot")
    return kindOfTypeAttr(N, "T");
  return EdgeKind::Unknown;
}

EdgeKind expectedInputKind(const Node &N, unsigned Index, const OpRegistry &Ops) {
  if (const tensorflow::OpDef *Def = Ops.find(N.op()))
    return kindOfArg(N, Def->input_arg(), static_cast<int>(Index));
  return Index == 0 ? knownStateInput(N.op()) : EdgeKind::Unknown;
}

std::vector<IllTypedEdge> findIllTypedEdges(const Graph &G, const OpRegistry &Ops) {
  std::vector<IllTypedEdge> Found;
  for (const Node &N : G)
    for (unsigned I = 0; I < N.numDataInputs(); ++I) {
      EdgeKind Expected = expectedInputKind(N, I, Ops);
      if (Expected == EdgeKind::Unknown)
        continue;
      const Input &In = N.input(I);
      EdgeKind Given = outputKind(*In.Src, In.Port, Ops);
      // A reference reads as its value wherever a value is expected.
      bool Fits = Given == EdgeKind::Unknown || Given == Expected ||
                  (Expected == EdgeKind::Value && Given == EdgeKind::Ref);
      if (!Fits)
        Found.push_back({&N, I, Expected, Given});
    }
  return Found;
}

tensorflow::DataType outputDType(const Node &N, int Port, const OpRegistry &Ops) {
  if (const tensorflow::OpDef *Def = Ops.find(N.op()))
    return dtypeOfArg(N, Def->output_arg(), Port);
  llvm::StringRef Op = N.op();
  auto typeAttr = [&N](llvm::StringRef Name) {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->value_case() == tensorflow::AttrValue::kType ? A->type()
                                                                : tensorflow::DT_INVALID;
  };
  if (Port == 0 && (Op == "Const" || isPlaceholderOp(Op)))
    return typeAttr("dtype");
  if (Port == 0 && (Op == "Identity" || Op == "Snapshot"))
    return typeAttr("T");
  return tensorflow::DT_INVALID;
}

tensorflow::DataType expectedInputDType(const Node &N, unsigned Index, const OpRegistry &Ops) {
  if (const tensorflow::OpDef *Def = Ops.find(N.op()))
    return dtypeOfArg(N, Def->input_arg(), static_cast<int>(Index));
  return tensorflow::DT_INVALID;
}

bool dtypeFits(tensorflow::DataType Expected, tensorflow::DataType Given) {
  if (Expected == tensorflow::DT_INVALID || Given == tensorflow::DT_INVALID)
    return true;
  // A reference reads as its value wherever a value is expected.
  auto base = [](tensorflow::DataType T) {
    return T > RefOffset ? static_cast<tensorflow::DataType>(T - RefOffset) : T;
  };
  return Expected == Given || (Expected < RefOffset && base(Given) == Expected);
}

std::vector<MistypedEdge> findMistypedEdges(const Graph &G, const OpRegistry &Ops,
                                            size_t *Checked) {
  std::vector<MistypedEdge> Found;
  size_t Count = 0;
  for (const Node &N : G)
    for (unsigned I = 0; I < N.numDataInputs(); ++I) {
      tensorflow::DataType Expected = expectedInputDType(N, I, Ops);
      const Input &In = N.input(I);
      tensorflow::DataType Given = outputDType(*In.Src, In.Port, Ops);
      if (Expected == tensorflow::DT_INVALID || Given == tensorflow::DT_INVALID)
        continue;
      ++Count;
      if (!dtypeFits(Expected, Given))
        Found.push_back({&N, I, Expected, Given});
    }
  if (Checked)
    *Checked = Count;
  return Found;
}

const Node *constantSource(const Input &In) {
  const Node *N = In.Src;
  // Bounded: a malformed graph may have an Identity cycle.
  for (int Hops = 0; Hops < 64 && N; ++Hops) {
    if (N->op() == "Const")
      return N;
    if ((N->op() != "Identity" && N->op() != "Snapshot") || N->numDataInputs() == 0)
      return nullptr;
    N = N->input(0).Src;
  }
  return nullptr;
}

std::string describeIllTypedEdge(const IllTypedEdge &E) {
  const Input &In = E.User->input(E.Input);
  return absl::StrCat("input ", E.Input, " of node '", E.User->name().str(), "' (",
                      E.User->op().str(), ") takes ", kindName(E.Expected), " but '",
                      In.Src->name().str(), In.Port ? absl::StrCat(":", In.Port) : "", "' (",
                      In.Src->op().str(), ") gives ", kindName(E.Given));
}

std::vector<IllTypedFunctionEdge> findIllTypedFunctionEdges(const Graph &G,
                                                            const OpRegistry &Ops) {
  std::vector<IllTypedFunctionEdge> Found;
  if (G.library().function_size() == 0)
    return Found;
  for (const tensorflow::FunctionDef *F : reachableFunctions(G, FunctionIndex(G.library()))) {
    absl::StatusOr<std::unique_ptr<StandaloneBody>> S = instantiateStandalone(*F, Ops);
    if (!S.ok())
      continue;
    const auto &ArgName = (*S)->ArgName;
    const std::vector<TensorOf> &Returns = (*S)->Copy.Returns;
    for (const IllTypedEdge &E : findIllTypedEdges((*S)->Body, Ops)) {
      const Input &In = E.User->input(E.Input);
      auto Arg = ArgName.find(In.Src);
      bool Returned = llvm::any_of(Returns, [&](const TensorOf &T) { return T.Src == E.User; });
      bool Read = llvm::any_of(E.User->uses(), [](const Use &U) {
        return !U.User->input(U.InputIndex).isControl();
      });
      Found.push_back(
          {F->signature().name(), E.User->name().str(), E.Input, Returned || Read,
           Arg != ArgName.end(),
           Arg != ArgName.end()
               ? absl::StrCat("input ", E.Input, " of node '", E.User->name().str(), "' (",
                              E.User->op().str(), ") takes ", kindName(E.Expected),
                              " but argument '", Arg->second, "' gives ", kindName(E.Given))
               : describeIllTypedEdge(E)});
    }
  }
  return Found;
}

std::string describeIllTypedEdges(const std::vector<IllTypedEdge> &Edges) {
  if (Edges.empty())
    return "";
  return absl::StrCat(describeIllTypedEdge(Edges.front()),
                      Edges.size() > 1 ? absl::StrCat(" (and ", Edges.size() - 1, " more)") : "");
}

} // namespace frost
