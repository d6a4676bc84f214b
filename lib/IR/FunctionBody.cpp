//===- FunctionBody.cpp - Copying a FunctionDef's body into a graph -------===//
#include "frost/IR/FunctionBody.h"

#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/IR/Verifier.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <map>
#include <set>

namespace frost {

const tensorflow::FunctionDef *findFunction(const Graph &G, llvm::StringRef Name) {
  for (const tensorflow::FunctionDef &F : G.library().function())
    if (F.signature().name() == Name)
      return &F;
  return nullptr;
}

namespace {

bool hasAttrPlaceholder(const tensorflow::AttrValue &V) {
  return !V.placeholder().empty();
}

class BodyCopier {
public:
  BodyCopier(Graph &G, const tensorflow::FunctionDef &F, const OpRegistry &Ops,
             const BodyCopyOptions &Options)
      : G(G), F(F), Ops(Ops), Options(Options) {}

  absl::StatusOr<BodyCopy> run();

private:
  absl::Status error(llvm::StringRef Node, const std::string &Message) const {
    return absl::InvalidArgumentError(
        absl::StrCat("function '", F.signature().name(), "'",
                     Node.empty() ? "" : absl::StrCat(", node '", Node.str(), "'"), ": ",
                     Message));
  }
  /// The indices of F's node_defs in the order to create them.
  std::vector<unsigned> creationOrder() const;
  /// The graph tensor a body edge ("arg", "node:out:k", "node:k") names.
  absl::StatusOr<TensorOf> resolve(llvm::StringRef User, llvm::StringRef Text) const;

  Graph &G;
  const tensorflow::FunctionDef &F;
  const OpRegistry &Ops;
  const BodyCopyOptions &Options;
  std::map<std::string, int, std::less<>> ArgIndex;
  /// Body node name -> (its copy, its NodeDef).
  std::map<std::string, std::pair<Node *, const tensorflow::NodeDef *>, std::less<>> Copies;
};

absl::StatusOr<TensorOf> BodyCopier::resolve(llvm::StringRef User, llvm::StringRef Text) const {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ':');
  if (Parts.size() == 1) {
    if (auto It = ArgIndex.find(Text); It != ArgIndex.end())
      return Options.Args[It->second];
    if (auto It = Copies.find(Text); It != Copies.end())
      return TensorOf{It->second.first, 0};
    return error(User, absl::StrCat("input '", Text.str(), "' names no argument or node"));
  }
  auto It = Copies.find(Parts[0]);
  if (It == Copies.end())
    return error(User, absl::StrCat("input '", Text.str(), "' names no node"));
  Node *Src = It->second.first;
  const tensorflow::NodeDef &SrcDef = *It->second.second;
  int Index = 0;
  if (Parts.size() == 2) {
    // "node:k", accepted as TensorFlow's own resolvers do.
    if (Parts[1].getAsInteger(10, Index) || Index < 0)
      return error(User, absl::StrCat("input '", Text.str(), "' is malformed"));
    return TensorOf{Src, Index};
  }
  if (Parts.size() != 3 || Parts[2].getAsInteger(10, Index) || Index < 0)
    return error(User, absl::StrCat("input '", Text.str(), "' is malformed"));
  const tensorflow::OpDef *Def = Ops.find(SrcDef.op());
  if (!Def && Index == 0 && numOutputs(*Src) == std::optional<int>(1))
    return TensorOf{Src, 0}; // one output: whatever its name, it is port 0
  if (!Def)
    return error(User, absl::StrCat("input '", Text.str(), "': op ", SrcDef.op(),
                                    " has no OpDef in the model's op list, so its output '",
                                    Parts[1].str(), "' cannot be numbered"));
  absl::StatusOr<int> Port = flatOutputIndex(*Def, SrcDef.attr(), Parts[1], Index);
  if (!Port.ok())
    return error(User, absl::StrCat("input '", Text.str(), "': ", Port.status().message()));
  return TensorOf{Src, *Port};
}

std::vector<unsigned> BodyCopier::creationOrder() const {
  unsigned Size = F.node_def_size();
  std::vector<unsigned> Order;
  if (!Options.ConstructionOrder) {
    for (unsigned I = 0; I < Size; ++I)
      Order.push_back(I);
    return Order;
  }
  // GraphConstructor over [_Arg..., node_def..., _Retval...]: the arguments
  // come first (nothing precedes them), the _Retvals after every node. So an
  // input from an argument is met before any node is made, and one naming
  // nothing is reported later by run().
  std::map<llvm::StringRef, unsigned> Index;
  for (unsigned I = 0; I < Size; ++I)
    Index.emplace(F.node_def(I).name(), I);
  std::vector<std::vector<unsigned>> Readers(Size);
  std::vector<int> Pending(Size);
  for (unsigned I = 0; I < Size; ++I) {
    const tensorflow::NodeDef &ND = F.node_def(I);
    int Count = ND.input_size(), FromArgs = 0;
    bool LoopMerge = false;
    for (const std::string &In : ND.input()) {
      llvm::StringRef Text(In);
      bool Control = Text.consume_front("^");
      llvm::StringRef Src = Text.split(':').first;
      auto It = Index.find(Src);
      if (It == Index.end()) {
        ++FromArgs;
        continue;
      }
      bool BackEdge = isMergeOp(ND.op()) && isNextIterationOp(F.node_def(It->second).op());
      if (!Control && BackEdge)
        LoopMerge = true;
      if (!BackEdge)
        Readers[It->second].push_back(I);
    }
    if (LoopMerge) {
      Count = 1;
      for (const std::string &In : ND.input())
        Count += llvm::StringRef(In).starts_with("^");
    }
    // The arguments' edges count down first; a count passing zero there was
    // ready at zero, as in GraphConstructor.
    Pending[I] = std::max(Count - FromArgs, 0);
  }
  return constructionOrder(std::move(Pending), Readers);
}

absl::StatusOr<BodyCopy> BodyCopier::run() {
  const tensorflow::OpDef &Sig = F.signature();
  if (static_cast<int>(Options.Args.size()) != Sig.input_arg_size())
    return error("", absl::StrCat("called with ", Options.Args.size(), " arguments but takes ",
                                  Sig.input_arg_size()));
  for (int I = 0; I < Sig.input_arg_size(); ++I)
    ArgIndex.emplace(Sig.input_arg(I).name(), I);

  BodyCopy Out;
  for (unsigned Index : creationOrder()) {
    const tensorflow::NodeDef &ND = F.node_def(Index);
    for (const auto &[Name, Value] : ND.attr())
      if (hasAttrPlaceholder(Value))
        return absl::UnimplementedError(absl::StrCat(
            "function '", Sig.name(), "', node '", ND.name(), "': attribute '", Name,
            "' is the placeholder $", Value.placeholder(),
            " (a polymorphic function); only concrete functions can be copied"));
    std::string Name = Options.Prefix + ND.name();
    if (G.findNode(Name)) {
      if (!Options.UniquifyNames)
        return error(ND.name(), absl::StrCat("the graph already has a node '", Name, "'"));
      Name = G.uniqueName(Name);
    }
    Node *N = G.createNode(Name, ND.op());
    N->setDevice(ND.device());
    for (const auto &[Key, Value] : ND.attr())
      N->attr(Key) = Value;
    if (const tensorflow::OpDef *Def = Ops.find(ND.op()))
      addDefaultAttrs(*Def, N->mutableAttrs());
    else
      addKnownDefaultAttrs(*N);
    if (!Copies.emplace(ND.name(), std::make_pair(N, &ND)).second)
      return error(ND.name(), "two body nodes have this name");
    Out.Nodes.push_back(N);
  }
  for (const tensorflow::NodeDef &ND : F.node_def()) {
    Node *N = Copies.find(ND.name())->second.first;
    // Colocation with body nodes follows them to their new names; with
    // nodes outside the body (the graph the function was traced in) it
    // cannot hold and is dropped.
    if (auto It = N->mutableAttrs().find("_class");
        It != N->mutableAttrs().end() && It->second.has_list()) {
      google::protobuf::RepeatedPtrField<std::string> Kept;
      for (const std::string &Entry : It->second.list().s()) {
        if (!llvm::StringRef(Entry).starts_with("loc:@")) {
          Kept.Add(std::string(Entry));
        } else if (auto Target = Copies.find(Entry.substr(5)); Target != Copies.end()) {
          Kept.Add(absl::StrCat("loc:@", Target->second.first->name().str()));
        }
      }
      if (Kept.empty())
        N->eraseAttr("_class");
      else
        It->second.mutable_list()->mutable_s()->Swap(&Kept);
    }
    for (const std::string &In : ND.input()) {
      llvm::StringRef Text(In);
      if (Text.consume_front("^")) {
        if (auto It = Copies.find(Text); It != Copies.end())
          N->addControlInput(It->second.first);
        else if (auto ArgIt = ArgIndex.find(Text); ArgIt != ArgIndex.end())
          N->addControlInput(Options.Args[ArgIt->second].Src);
        else
          return error(ND.name(), absl::StrCat("control input '", In, "' names no node"));
        continue;
      }
      FROST_ASSIGN_OR_RETURN(TensorOf T, resolve(ND.name(), Text));
      N->addDataInput(T.Src, T.Port);
    }
  }
  // TensorFlow's GraphConstructor refuses such a body ("nodes in a cycle");
  // copied into a graph it would cycle through every caller.
  if (std::vector<const Node *> Stuck = nodesBehindCycles(Out.Nodes); !Stuck.empty()) {
    auto Named = llvm::find_if(Copies, [&](const auto &C) { return C.second.first == Stuck[0]; });
    return error(Named->first,
                 absl::StrCat("the body has a cycle not broken by a NextIteration back edge (",
                              Stuck.size(), Stuck.size() == 1 ? " node" : " nodes",
                              " on or behind it)"));
  }
  for (const tensorflow::OpDef::ArgDef &Arg : Sig.output_arg()) {
    auto It = F.ret().find(Arg.name());
    if (It == F.ret().end())
      return error("", absl::StrCat("output '", Arg.name(), "' has no `ret` entry"));
    FROST_ASSIGN_OR_RETURN(TensorOf T, resolve("", It->second));
    Out.Returns.push_back(T);
  }
  std::vector<std::string> ControlNames(Sig.control_output().begin(), Sig.control_output().end());
  if (ControlNames.empty()) {
    for (const auto &Entry : F.control_ret())
      ControlNames.push_back(Entry.first);
    std::sort(ControlNames.begin(), ControlNames.end()); // protobuf maps have no order
  }
  for (const std::string &Name : ControlNames) {
    auto It = F.control_ret().find(Name);
    llvm::StringRef Target = It == F.control_ret().end() ? llvm::StringRef(Name)
                                                          : llvm::StringRef(It->second);
    auto Copy = Copies.find(Target);
    if (Copy == Copies.end())
      return error("", absl::StrCat("control output '", Name, "' names no node"));
    Out.ControlReturns.push_back(Copy->second.first);
  }
  return Out;
}

} // namespace

absl::StatusOr<BodyCopy> copyFunctionBody(Graph &G, const tensorflow::FunctionDef &F,
                                          const OpRegistry &Ops, const BodyCopyOptions &Options) {
  return BodyCopier(G, F, Ops, Options).run();
}

namespace {

/// Calls `Visit` for each reference of F's body to a library function, once
/// per node that makes it: ops naming one, then function-valued attributes in
/// key order (the same order on every run).
void forEachReference(const tensorflow::FunctionDef &F, const FunctionIndex &Functions,
                      llvm::function_ref<void(const tensorflow::FunctionDef *)> Visit) {
  for (const tensorflow::NodeDef &N : F.node_def()) {
    if (const tensorflow::FunctionDef *Callee = Functions.find(N.op()))
      Visit(Callee);
    std::vector<const std::string *> Keys;
    for (const auto &Entry : N.attr())
      Keys.push_back(&Entry.first);
    llvm::sort(Keys, [](const std::string *A, const std::string *B) { return *A < *B; });
    for (const std::string *Key : Keys)
      forEachFunctionName(N.attr().at(*Key), [&](const std::string &Name) {
        if (const tensorflow::FunctionDef *Callee = Functions.find(Name))
          Visit(Callee);
      });
  }
}

} // namespace

void forEachFunctionName(const tensorflow::AttrValue &V,
                         llvm::function_ref<void(const std::string &)> Visit) {
  if (V.has_func())
    Visit(V.func().name());
  else if (V.has_list())
    for (const tensorflow::NameAttrList &Func : V.list().func())
      Visit(Func.name());
}

std::vector<const tensorflow::FunctionDef *> referencedFunctions(const tensorflow::FunctionDef &F,
                                                                 const FunctionIndex &Functions) {
  std::vector<const tensorflow::FunctionDef *> Out;
  llvm::SmallPtrSet<const tensorflow::FunctionDef *, 8> Seen;
  forEachReference(F, Functions, [&](const tensorflow::FunctionDef *Callee) {
    if (Seen.insert(Callee).second)
      Out.push_back(Callee);
  });
  return Out;
}

std::vector<const tensorflow::FunctionDef *> reachableFunctions(const Graph &G,
                                                                const FunctionIndex &Functions) {
  std::vector<const tensorflow::FunctionDef *> Reached;
  llvm::SmallPtrSet<const tensorflow::FunctionDef *, 8> Seen;
  auto reach = [&](llvm::StringRef Name) {
    if (const tensorflow::FunctionDef *F = Functions.find(Name); F && Seen.insert(F).second)
      Reached.push_back(F);
  };
  for (const Node &N : G) {
    reach(N.op());
    for (const auto &Entry : N.attrs())
      forEachFunctionName(Entry.second, reach);
  }
  for (size_t I = 0; I < Reached.size(); ++I)
    forEachReference(*Reached[I], Functions,
                     [&](const tensorflow::FunctionDef *Callee) {
                       if (Seen.insert(Callee).second)
                         Reached.push_back(Callee);
                     });
  return Reached;
}

absl::StatusOr<std::unique_ptr<StandaloneBody>>
instantiateStandalone(const tensorflow::FunctionDef &F, const OpRegistry &Ops) {
  auto S = std::make_unique<StandaloneBody>();
  BodyCopyOptions Options;
  Options.UniquifyNames = false;
  for (const tensorflow::OpDef::ArgDef &Arg : F.signature().input_arg()) {
    Node *P = S->Body.createNode(absl::StrCat("^", Arg.name()), "Placeholder");
    if (Arg.type() != tensorflow::DT_INVALID)
      P->attr("dtype").set_type(Arg.type());
    Options.Args.push_back({P, 0});
    S->ArgName[P] = Arg.name();
  }
  FROST_ASSIGN_OR_RETURN(S->Copy, copyFunctionBody(S->Body, F, Ops, Options));
  return S;
}

uint64_t expandedBodySize(const tensorflow::FunctionDef &Root, const FunctionIndex &Functions,
                          llvm::function_ref<bool(const tensorflow::FunctionDef &)> Expands,
                          uint64_t Limit, ExpandedSizes &Memo) {
  // Iterative post-order (no call cycle: checkNoCallCycle ran first).
  struct Frame {
    const tensorflow::FunctionDef *F;
    std::vector<const tensorflow::FunctionDef *> Calls;
    size_t Next = 0;
    uint64_t Sum = 0;
  };
  auto open = [&](const tensorflow::FunctionDef *F) {
    Frame Fr{F, {}, 0, static_cast<uint64_t>(F->node_def_size())};
    forEachReference(*F, Functions, [&](const tensorflow::FunctionDef *Callee) {
      if (Expands(*Callee))
        Fr.Calls.push_back(Callee);
    });
    return Fr;
  };
  if (auto It = Memo.find(&Root); It != Memo.end())
    return It->second;
  std::vector<Frame> Stack;
  Stack.push_back(open(&Root));
  while (true) {
    Frame &Top = Stack.back();
    if (Top.Next < Top.Calls.size()) {
      const tensorflow::FunctionDef *Callee = Top.Calls[Top.Next];
      if (auto It = Memo.find(Callee); It != Memo.end()) {
        Top.Sum = std::min(Top.Sum + It->second, Limit + 1);
        ++Top.Next;
      } else {
        Stack.push_back(open(Callee));
      }
      continue;
    }
    uint64_t Size = std::min(Top.Sum, Limit + 1);
    Memo[Top.F] = Size;
    Stack.pop_back();
    if (Stack.empty())
      return Size;
    Frame &Caller = Stack.back();
    Caller.Sum = std::min(Caller.Sum + Size, Limit + 1);
    ++Caller.Next;
  }
}

absl::Status checkNoCallCycle(llvm::ArrayRef<const tensorflow::FunctionDef *> Roots,
                              const FunctionIndex &Functions,
                              llvm::function_ref<bool(const tensorflow::FunctionDef &)> Expands,
                              CallWalkState &State) {
  // Iterative depth-first search (a deep call chain must not overflow the
  // stack): 1 = on the current path, 2 = done.
  struct Frame {
    const tensorflow::FunctionDef *F;
    std::vector<const tensorflow::FunctionDef *> Callees;
    size_t Next = 0;
  };
  for (const tensorflow::FunctionDef *Root : Roots) {
    if (!Expands(*Root) || State.count(Root))
      continue;
    std::vector<Frame> Path;
    Path.push_back({Root, referencedFunctions(*Root, Functions)});
    State[Root] = 1;
    while (!Path.empty()) {
      Frame &Top = Path.back();
      if (Top.Next == Top.Callees.size()) {
        State[Top.F] = 2;
        Path.pop_back();
        continue;
      }
      const tensorflow::FunctionDef *Callee = Top.Callees[Top.Next++];
      if (!Expands(*Callee))
        continue;
      int &S = State[Callee];
      if (S == 2)
        continue;
      if (S == 1) {
        auto Start = llvm::find_if(Path, [&](const Frame &Fr) { return Fr.F == Callee; });
        std::vector<std::string> Through;
        for (auto It = std::next(Start); It != Path.end(); ++It)
          Through.push_back(It->F->signature().name());
        return absl::InvalidArgumentError(absl::StrCat(
            "function '", Callee->signature().name(), "' calls itself",
            Through.empty() ? "" : absl::StrCat(" through ", absl::StrJoin(Through, ", ")),
            ": a recursive function cannot be inlined"));
      }
      S = 1;
      Path.push_back({Callee, referencedFunctions(*Callee, Functions)});
    }
  }
  return absl::OkStatus();
}

unsigned dropUncalledFunctions(Graph &G) {
  unsigned Dropped = 0;
  std::set<std::string> Used;
  for (const tensorflow::FunctionDef *F : reachableFunctions(G, FunctionIndex(G.library())))
    Used.insert(F->signature().name());
  tensorflow::FunctionDefLibrary &Lib = *G.mutableOtherFields().mutable_library();
  // Gradients of dropped functions go with them.
  google::protobuf::RepeatedPtrField<tensorflow::FunctionDef> Kept;
  for (tensorflow::FunctionDef &F : *Lib.mutable_function())
    if (Used.count(F.signature().name()))
      Kept.Add(std::move(F));
    else
      ++Dropped;
  Lib.mutable_function()->Swap(&Kept);
  google::protobuf::RepeatedPtrField<tensorflow::GradientDef> Grads;
  for (tensorflow::GradientDef &D : *Lib.mutable_gradient())
    if (Used.count(D.function_name()))
      Grads.Add(std::move(D));
  Lib.mutable_gradient()->Swap(&Grads);
  if (Lib.function_size() == 0 && Lib.gradient_size() == 0 &&
      Lib.registered_gradients_size() == 0)
    G.mutableOtherFields().clear_library();
  return Dropped;
}

} // namespace frost
