//===- Verifier.cpp - Structural checks of a graph ------------------------===//
#include "frost/IR/Verifier.h"

#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/EdgeTypes.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Graph.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Support/Escape.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/DataType.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/message_differencer.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <limits>

namespace frost {

namespace {

std::string describe(const Node &N) {
  return absl::StrCat("node '", N.name().str(), "' (", N.op().str(), ")");
}

/// A back edge of a TF1 while loop: NextIteration feeds Merge. TensorFlow's
/// importer breaks cycles there only: NextIteration into anything else is
/// an ordinary edge.
bool isLoopBackEdge(const Node &Src, const Node &Dst) {
  return isNextIterationOp(Src.op()) && isMergeOp(Dst.op());
}

void checkCycles(const Graph &G, std::vector<std::string> &Errors) {
  std::vector<const Node *> All;
  All.reserve(G.size());
  for (const Node &N : G)
    All.push_back(&N);
  std::vector<const Node *> Stuck = nodesBehindCycles(All);
  if (Stuck.empty())
    return;
  std::vector<std::string> Names;
  for (const Node *N : llvm::ArrayRef(Stuck).take_front(8))
    Names.push_back(absl::StrCat("'", N->name().str(), "'"));
  Errors.push_back(absl::StrCat("cycle not broken by a NextIteration back edge, through ",
                                Stuck.size(), " nodes including ", absl::StrJoin(Names, ", ")));
}

/// TensorFlow's node name rule ([A-Za-z0-9._][A-Za-z0-9_.\-/>]*): a
/// name with a blank or control byte would not import, nor read back as binary.
bool isValidTensorFlowName(llvm::StringRef Name) {
  auto inner = [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '.' || C == '-' || C == '/' || C == '>';
  };
  return !Name.empty() && (llvm::isAlnum(Name[0]) || Name[0] == '.' || Name[0] == '_') &&
         llvm::all_of(Name.drop_front(), inner);
}

/// Op names follow no rule in TensorFlow (function names may hold `<`), but
/// a blank or control byte would break every reader and message.
bool hasBlankOrControlByte(llvm::StringRef Name) {
  return llvm::any_of(Name, [](char C) {
    auto U = static_cast<unsigned char>(C);
    return U <= 0x20 || U == 0x7f;
  });
}

/// The function-valued attributes an op needs to name library functions.
llvm::ArrayRef<const char *> functionAttrsOf(llvm::StringRef Op) {
  static const char *const While[] = {"cond", "body"};
  static const char *const If[] = {"then_branch", "else_branch"};
  static const char *const Case[] = {"branches"};
  static const char *const Call[] = {"f"};
  if (Op == "While" || Op == "StatelessWhile")
    return While;
  if (Op == "If" || Op == "StatelessIf")
    return If;
  if (Op == "Case" || Op == "StatelessCase")
    return Case;
  // (SymbolicGradient's f may name a primitive op instead.)
  if (Op == "PartitionedCall" || Op == "StatefulPartitionedCall")
    return Call;
  return {};
}

/// A call or control-flow node whose functions are not in the library would
/// not run (TensorFlow's lowering and inlining fail on it).
/// `Where` names the node, built only for a finding (this runs after every
/// pass, over every library node).
void checkFunctionsExist(llvm::StringRef Op, llvm::function_ref<std::string()> Where,
                         llvm::function_ref<const tensorflow::AttrValue *(llvm::StringRef)> Attr,
                         const FunctionIndex &Functions, std::vector<std::string> &Errors) {
  for (const char *Name : functionAttrsOf(Op)) {
    const tensorflow::AttrValue *V = Attr(Name);
    if (!V || (!V->has_func() && !V->has_list())) {
      Errors.push_back(absl::StrCat(Where(), ": has no function attribute '", Name, "'"));
      continue;
    }
    forEachFunctionName(*V, [&](const std::string &Callee) {
      if (!Functions.find(Callee))
        Errors.push_back(absl::StrCat(Where(), ": ", Name, " function '", Callee,
                                      "' is not in the graph's library"));
    });
  }
}

/// The same inside the library's functions: inlining makes their nodes the
/// graph's.
void checkFunctionBodies(const Graph &G, const FunctionIndex &Functions,
                         std::vector<std::string> &Errors) {
  for (const tensorflow::FunctionDef &F : G.library().function())
    for (const tensorflow::NodeDef &N : F.node_def())
      checkFunctionsExist(
          N.op(),
          [&] {
            return absl::StrCat("function '", F.signature().name(), "', node '", N.name(),
                                "' (", N.op(), ")");
          },
          [&](llvm::StringRef Name) -> const tensorflow::AttrValue * {
            auto It = N.attr().find(std::string(Name));
            return It == N.attr().end() ? nullptr : &It->second;
          },
          Functions, Errors);
}

/// TensorFlow's importer refuses `_class: "loc:@x"` naming no node.
void checkColocation(const Graph &G, const Node &N, std::vector<std::string> &Errors) {
  const tensorflow::AttrValue *Class = N.findAttr("_class");
  if (!Class || !Class->has_list())
    return;
  for (const std::string &Entry : Class->list().s()) {
    llvm::StringRef Target(Entry);
    if (Target.consume_front("loc:@") && !G.findNode(Target))
      Errors.push_back(absl::StrCat(describe(N), ": colocated with '", Target.str(),
                                    "' (_class loc:@), which is not in the graph"));
  }
}

/// TensorFlow refuses two different functions of one name ("a different
/// function with the same name already exists"); identical twins are merged.
void checkFunctionNames(const Graph &G, std::vector<std::string> &Errors) {
  // Compared as TensorFlow's FunctionDefsEqual does: node order, argument
  // attributes and resource ids aside.
  auto canonical = [](const tensorflow::FunctionDef &F) {
    tensorflow::FunctionDef C = F;
    C.clear_arg_attr();
    C.clear_resource_arg_unique_id();
    std::sort(C.mutable_node_def()->begin(), C.mutable_node_def()->end(),
              [](const tensorflow::NodeDef &A, const tensorflow::NodeDef &B) {
                return A.name() < B.name();
              });
    return C;
  };
  llvm::StringMap<const tensorflow::FunctionDef *> Seen;
  for (const tensorflow::FunctionDef &F : G.library().function()) {
    auto [It, New] = Seen.try_emplace(F.signature().name(), &F);
    if (!New && !google::protobuf::util::MessageDifferencer::Equals(canonical(*It->second),
                                                                    canonical(F)))
      Errors.push_back(absl::StrCat("function '", F.signature().name(),
                                    "' is defined twice, differently, in the graph's library"));
  }
}

} // namespace

std::vector<const Node *> nodesBehindCycles(llvm::ArrayRef<const Node *> Nodes) {
  std::vector<const Node *> Stuck;
  if (Nodes.empty())
    return Stuck;
  // Kahn's algorithm; what is never ready sits on (or behind) a cycle.
  // Counts are indexed by id over the ids `Nodes` span: the whole graph after
  // every pass, one body's consecutive ids when a function is copied; no
  // hashing on the verifier's path.
  auto [Lo, Hi] = std::minmax_element(Nodes.begin(), Nodes.end(), [](const Node *A, const Node *B) {
    return A->id() < B->id();
  });
  const unsigned First = (*Lo)->id();
  constexpr unsigned Outside = std::numeric_limits<unsigned>::max();
  std::vector<unsigned> Pending((*Hi)->id() - First + 1, Outside);
  const Graph &G = Nodes.front()->graph();
  auto slot = [&](const Node &N) -> unsigned * {
    unsigned I = N.id() - First; // wraps past the end for a lower id
    return &N.graph() == &G && I < Pending.size() && Pending[I] != Outside ? &Pending[I]
                                                                          : nullptr;
  };
  for (const Node *N : Nodes)
    Pending[N->id() - First] = 0;
  std::vector<const Node *> Ready;
  for (const Node *N : Nodes) {
    unsigned &Count = *slot(*N);
    for (const Input &In : N->inputs())
      if (!isLoopBackEdge(*In.Src, *N) && slot(*In.Src))
        ++Count;
    if (Count == 0)
      Ready.push_back(N);
  }
  size_t Visited = 0;
  while (!Ready.empty()) {
    const Node *N = Ready.back();
    Ready.pop_back();
    ++Visited;
    for (const Use &U : N->uses()) {
      if (isLoopBackEdge(*N, *U.User))
        continue;
      if (unsigned *Count = slot(*U.User); Count && --*Count == 0)
        Ready.push_back(U.User);
    }
  }
  if (Visited == Nodes.size())
    return Stuck;
  for (const Node *N : Nodes)
    if (*slot(*N) != 0)
      Stuck.push_back(N);
  return Stuck;
}

namespace {
/// Calls `Missing` with each attribute `Def` requires (one without a default)
/// that `Has` says the node lacks.
void forEachMissingAttr(const tensorflow::OpDef &Def, llvm::function_ref<bool(const std::string &)> Has,
                        llvm::function_ref<void(const std::string &)> Missing) {
  for (const tensorflow::OpDef::AttrDef &A : Def.attr())
    if (!A.has_default_value() && !Has(A.name()))
      Missing(A.name());
}

std::string lacksAttrKind(llvm::StringRef Op, llvm::StringRef Attr) {
  return absl::StrCat(Op.str(), " without '", Attr.str(), "'");
}
} // namespace

std::vector<OpDefViolation> findOpDefViolations(const Graph &G, const OpRegistry &Ops) {
  std::vector<OpDefViolation> Found;
  // TensorFlow's "NodeDef missing attr 'T'".
  for (const Node &N : G)
    if (const tensorflow::OpDef *Def = Ops.find(N.op()))
      forEachMissingAttr(
          *Def, [&](const std::string &A) { return N.findAttr(A) != nullptr; },
          [&](const std::string &A) {
            Found.push_back({absl::StrCat(describe(N), ": lacks attribute '", A,
                                          "', which op ", N.op().str(), " requires"),
                             lacksAttrKind(N.op(), A)});
          });
  // TensorFlow's "Input 0 of node y was passed int32 from x:0 incompatible
  // with expected float". An input expecting a variable (reference or
  // resource) fed a value is a write to a frozen variable: freezing leaves
  // those for its final check (findIllTypedEdges), which says so.
  for (const MistypedEdge &E : findMistypedEdges(G, Ops)) {
    if (E.Expected == tensorflow::DT_RESOURCE || E.Expected > tensorflow::DT_FLOAT_REF - 1)
      continue;
    const Input &In = E.User->input(E.Input);
    Found.push_back({absl::StrCat(describe(*E.User), ": input ", E.Input, " takes ",
                                  dataTypeName(E.Expected), " but ", describe(*In.Src),
                                  " gives ", dataTypeName(E.Given)),
                     absl::StrCat(E.User->op().str(), " input ", E.Input, " ",
                                  dataTypeName(E.Expected), " fed ", dataTypeName(E.Given))});
  }
  return Found;
}

std::vector<std::string> functionOpDefViolationKinds(const Graph &G, const OpRegistry &Ops) {
  std::vector<std::string> Kinds;
  if (G.library().function_size() == 0)
    return Kinds;
  for (const tensorflow::FunctionDef *F : reachableFunctions(G, FunctionIndex(G.library()))) {
    // Attributes from the node_defs themselves: a body that does not
    // instantiate is still inlined node by node.
    for (const tensorflow::NodeDef &ND : F->node_def())
      if (const tensorflow::OpDef *Def = Ops.find(ND.op()))
        forEachMissingAttr(
            *Def, [&](const std::string &A) { return ND.attr().contains(A); },
            [&](const std::string &A) { Kinds.push_back(lacksAttrKind(ND.op(), A)); });
    if (absl::StatusOr<std::unique_ptr<StandaloneBody>> S = instantiateStandalone(*F, Ops); S.ok())
      for (OpDefViolation &V : findOpDefViolations((*S)->Body, Ops))
        Kinds.push_back(std::move(V.Kind));
  }
  return Kinds;
}

absl::Status verifyGraph(const Graph &G) {

  std::vector<std::string> Errors;
  // Output counts per producer id: -2 not looked up yet, -1 unknown op.
  std::vector<int> Outputs(G.idBound(), -2);
  FunctionIndex Functions(G.library());
  checkFunctionNames(G, Errors);
  checkFunctionBodies(G, Functions, Errors);
  for (const Node &N : G) {
    if (!isValidTensorFlowName(N.name()))
      Errors.push_back(absl::StrCat("node '", escapeBytes(N.name(), '\'', ByteEscape::Hex),
                                    "': not a valid TensorFlow node name"));
    if (N.op().empty())
      Errors.push_back(absl::StrCat(describe(N), ": has no op"));
    else if (hasBlankOrControlByte(N.op()))
      Errors.push_back(absl::StrCat("node '", N.name().str(), "': op '",
                                    escapeBytes(N.op(), '\'', ByteEscape::Hex),
                                    "' has a blank or control character"));
    checkFunctionsExist(
        N.op(), [&] { return describe(N); },
        [&](llvm::StringRef Name) { return N.findAttr(Name); }, Functions, Errors);
    checkColocation(G, N, Errors);
    bool SeenControl = false;
    for (unsigned I = 0; I < N.numInputs(); ++I) {
      const Input &In = N.input(I);
      if (&In.Src->graph() != &G) {
        Errors.push_back(absl::StrCat(describe(N), ": input ", I, " comes from another graph"));
        continue;
      }
      if (In.isControl()) {
        SeenControl = true;
        continue;
      }
      if (SeenControl)
        Errors.push_back(absl::StrCat(describe(N), ": data input ", I,
                                      " comes after a control input"));
      int &Count = Outputs[In.Src->id()];
      if (Count == -2)
        Count = numOutputs(*In.Src).value_or(-1);
      if (Count >= 0 && In.Port >= Count)
        Errors.push_back(absl::StrCat(describe(N), ": input ", I, " reads output ", In.Port,
                                      " of ", describe(*In.Src), ", which has ", Count,
                                      Count == 1 ? " output" : " outputs"));
    }
  }
  checkCycles(G, Errors);
  if (Errors.empty())
    return absl::OkStatus();
  return absl::InvalidArgumentError(joinFindings(Errors));
}

} // namespace frost
