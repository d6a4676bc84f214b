//===- ControlFlowLowering.cpp - Functional control flow to Switch/Merge --===//
//
// TensorFlow's lower_if_op.cc, lower_case_op.cc and lower_while_op.cc, node
// for node: the same names, ops, inputs (in the same order) and attributes,
// created in the same order so that the walk of inline-functions reaches them
// as Grappler's does. Colocation (`_class`) is not copied: TensorFlow's final
// re-import of a frozen function drops it anyway.
//
//===----------------------------------------------------------------------===//
#include "frost/Transforms/Utils/ControlFlowLowering.h"

#include "frost/IR/EdgeTypes.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Matchers.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpRegistry.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include <optional>

namespace frost {

std::string NameCounter::newName(const Graph &G, llvm::StringRef Prefix) {
  std::string Name;
  do
    Name = absl::StrCat(Prefix.str(), "/_", Next++);
  while (G.findNode(Name));
  return Name;
}

bool shouldLowerControlFlow(const Node &N) {
  llvm::StringRef Op = N.op();
  if (!isIfOp(Op) && !isCaseOp(Op) && !isWhileOp(Op))
    return false;
  const tensorflow::AttrValue *Lower = N.findAttr("_lower_using_switch_merge");
  return Lower && Lower->value_case() == tensorflow::AttrValue::kB && Lower->b();
}

bool controlFlowTakesResource(const Node &N) {
  bool IsWhile = isWhileOp(N.op());
  const tensorflow::AttrValue *Types = N.findAttr(IsWhile ? "T" : "Tin");
  return Types && llvm::is_contained(Types->list().type(), tensorflow::DT_RESOURCE);
}

void addStrictInputSemantics(Node &N, bool TakesResource,
                             llvm::function_ref<unsigned(const Node &)> Rank,
                             const llvm::StringSet<> &Captured) {
  std::vector<Node *> ControlSources;
  for (const Input &In : N.controlInputs())
    ControlSources.push_back(In.Src);
  bool ReadsConstantEnter = llvm::any_of(N.inputs(), [](const Input &In) {
    const tensorflow::AttrValue *Constant = In.Src->findAttr("is_constant");
    return matchOp(In.Src, "Enter") && Constant && Constant->b();
  });
  if (!((ControlSources.empty() && TakesResource) || ReadsConstantEnter))
    return;
  std::vector<Node *> Sources;
  for (const Input &In : N.dataInputs())
    if (!llvm::is_contained(ControlSources, In.Src) &&
        !matchOp(In.Src, {"Placeholder", "VarHandleOp"}) && !Captured.contains(In.Src->name()))
      Sources.push_back(In.Src);
  // By rank, ties in input order (a stable sort without std::stable_sort,
  // which clang flags in libstdc++ 12 for its deprecated temporary buffer).
  std::vector<std::pair<unsigned, unsigned>> Order;
  for (unsigned I = 0; I < Sources.size(); ++I)
    Order.push_back({Rank(*Sources[I]), I});
  llvm::sort(Order);
  for (const auto &Entry : Order)
    N.addControlInput(Sources[Entry.second]);
}

namespace {

/// Lowers one node; every check runs before the graph changes.
class Lowering {
public:
  Lowering(Graph &G, Node &N, NameCounter &Names)
      : G(G), N(N), Names(Names), Name(N.name().str()) {}

  absl::Status lowerIf();
  absl::Status lowerCase();
  absl::Status lowerWhile();

private:
  absl::Status error(const std::string &Message,
                     absl::StatusCode Code = absl::StatusCode::kInvalidArgument) const {
    return absl::Status(Code, absl::StrCat("node '", Name, "' (", N.op().str(), "): ", Message));
  }
  /// The producers of N's control inputs (read before N is rewired).
  std::vector<Node *> controlSources() const {
    std::vector<Node *> Out;
    for (const Input &In : N.controlInputs())
      Out.push_back(In.Src);
    return Out;
  }
  /// The types of list attribute `Attr`.
  absl::Status typeList(llvm::StringRef Attr, std::vector<tensorflow::DataType> &Out) const;
  /// A function attribute (`then_branch`, `cond`, ...).
  absl::Status function(llvm::StringRef Attr, tensorflow::NameAttrList &Out) const;
  /// Checks that the readers of N read outputs below NumOutputs.
  absl::Status checkUses(unsigned NumOutputs) const;
  /// Checks that function F (attribute `Attr`), when in the library, takes
  /// `Ins` and returns `Outs` (nullopt: any types, `NumOuts` of them), so the
  /// calls are wired to arguments and results F has.
  absl::Status checkSignature(llvm::StringRef Attr, const tensorflow::NameAttrList &F,
                              llvm::ArrayRef<tensorflow::DataType> Ins,
                              llvm::ArrayRef<tensorflow::DataType> Outs) const;

  Node *create(llvm::StringRef Suffix, llvm::StringRef Op) {
    Node *New = G.createNode(Names.newName(G, Name + "/" + Suffix.str()), Op);
    New->setDevice(N.device());
    return New;
  }
  static void setType(Node *X, tensorflow::DataType T) { X->attr("T").set_type(T); }
  /// A call of a branch function, named as reserved.
  Node *createCall(const std::string &CallName, const tensorflow::NameAttrList &F) {
    Node *Call = G.createNode(CallName, F.name());
    Call->setDevice(N.device());
    for (const auto &[Key, Value] : F.attr())
      Call->attr(Key) = Value;
    Call->attr("_lower_as_multi_device_function").set_b(true);
    return Call;
  }
  /// The NoOp that takes N's name once N is renamed away.
  Node *createNamesake(Node *After) {
    G.renameNode(&N, G.uniqueName(Name + "/lowered"));
    Node *NoOp = G.createNode(Name, "NoOp");
    NoOp->setDevice(N.device());
    NoOp->addControlInput(After);
    return NoOp;
  }
  /// Readers of output I read Outputs[I]; control readers wait for Done.
  void replaceUses(llvm::ArrayRef<TensorOf> Outputs, Node *Done) {
    for (unsigned I = 0; I < Outputs.size(); ++I)
      N.replaceUsesOfOutput(static_cast<int>(I), Outputs[I].Src, Outputs[I].Port);
    N.replaceUsesOfOutput(ControlPort, Done, ControlPort);
    G.eraseNode(&N);
  }

  Graph &G;
  Node &N;
  NameCounter &Names;
  std::string Name;
};

absl::Status Lowering::typeList(llvm::StringRef Attr,
                                std::vector<tensorflow::DataType> &Out) const {
  const tensorflow::AttrValue *V = N.findAttr(Attr);
  if (!V || V->value_case() != tensorflow::AttrValue::kList)
    return error(absl::StrCat("attribute '", Attr.str(), "' is missing or not a type list"));
  for (int T : V->list().type())
    Out.push_back(static_cast<tensorflow::DataType>(T));
  return absl::OkStatus();
}

absl::Status Lowering::function(llvm::StringRef Attr, tensorflow::NameAttrList &Out) const {
  const tensorflow::AttrValue *V = N.findAttr(Attr);
  if (!V || !V->has_func() || V->func().name().empty())
    return error(absl::StrCat("attribute '", Attr.str(), "' is missing or not a function"));
  Out = V->func();
  return absl::OkStatus();
}

absl::Status Lowering::checkUses(unsigned NumOutputs) const {
  for (const Use &U : N.uses()) {
    const Input &In = U.User->input(U.InputIndex);
    if (!In.isControl() && static_cast<unsigned>(In.Port) >= NumOutputs)
      return error(absl::StrCat("node '", U.User->name().str(), "' reads output ", In.Port,
                                " of ", NumOutputs));
  }
  return absl::OkStatus();
}

/// The type of a signature argument: its own, or the value its type attribute
/// takes in the call's attributes; DT_INVALID when it cannot be told.
static tensorflow::DataType argType(const tensorflow::OpDef::ArgDef &Arg,
                                    const tensorflow::NameAttrList &F) {
  if (Arg.type() != tensorflow::DT_INVALID)
    return Arg.type();
  auto It = F.attr().find(Arg.type_attr());
  return It != F.attr().end() && It->second.value_case() == tensorflow::AttrValue::kType
             ? It->second.type()
             : tensorflow::DT_INVALID;
}

/// Compares one side of a signature with what the node passes or expects.
static std::optional<std::string>
argsMismatch(const google::protobuf::RepeatedPtrField<tensorflow::OpDef::ArgDef> &Args,
             const tensorflow::NameAttrList &F, llvm::ArrayRef<tensorflow::DataType> Want,
             llvm::StringRef What) {
  for (const tensorflow::OpDef::ArgDef &Arg : Args)
    if (!Arg.number_attr().empty() || !Arg.type_list_attr().empty())
      return std::nullopt; // a list argument: its length is an attribute's
  if (static_cast<size_t>(Args.size()) != Want.size())
    return absl::StrCat("has ", Args.size(), " ", What.str(), Args.size() == 1 ? "" : "s", "; the node has ",
                        Want.size());
  for (int I = 0; I < Args.size(); ++I) {
    tensorflow::DataType Got = argType(Args[I], F);
    if (Got != tensorflow::DT_INVALID && Want[I] != tensorflow::DT_INVALID && Got != Want[I])
      return absl::StrCat(What.str(), " ", I, " ('", Args[I].name(), "') is ",
                          tensorflow::DataType_Name(Got), "; the node's is ",
                          tensorflow::DataType_Name(Want[I]));
  }
  return std::nullopt;
}

absl::Status Lowering::checkSignature(llvm::StringRef Attr, const tensorflow::NameAttrList &F,
                                      llvm::ArrayRef<tensorflow::DataType> Ins,
                                      llvm::ArrayRef<tensorflow::DataType> Outs) const {
  const tensorflow::FunctionDef *Def = findFunction(G, F.name());
  if (!Def)
    return absl::OkStatus(); // a function from elsewhere; the verifier names missing ones
  const tensorflow::OpDef &Sig = Def->signature();
  std::optional<std::string> Mismatch = argsMismatch(Sig.input_arg(), F, Ins, "input");
  if (!Mismatch)
    Mismatch = argsMismatch(Sig.output_arg(), F, Outs, "output");
  if (!Mismatch)
    return absl::OkStatus();
  return error(absl::StrCat(Attr.str(), " '", F.name(), "' ", *Mismatch));
}

absl::Status Lowering::lowerIf() {
  tensorflow::NameAttrList Then, Else;
  std::vector<tensorflow::DataType> Tin, Tout;
  FROST_RETURN_IF_ERROR(function("then_branch", Then));
  FROST_RETURN_IF_ERROR(function("else_branch", Else));
  FROST_RETURN_IF_ERROR(typeList("Tin", Tin));
  FROST_RETURN_IF_ERROR(typeList("Tout", Tout));
  if (N.numDataInputs() != Tin.size() + 1)
    return error(absl::StrCat(N.numDataInputs(), " data inputs for a condition and ",
                              Tin.size(), " Tin types"));
  // A Switch takes a bool predicate: the condition's type, from Tcond or
  // else from its producer, must be bool.
  const tensorflow::AttrValue *Cond = N.findAttr("Tcond");
  OpRegistry StandardOps;
  StandardOps.fallBackToStandardOps();
  tensorflow::DataType CondType =
      Cond ? Cond->type() : outputDType(*N.input(0).Src, N.input(0).Port, StandardOps);
  if (CondType != tensorflow::DT_BOOL && CondType != tensorflow::DT_INVALID)
    return error(absl::StrCat("a condition of type ", tensorflow::DataType_Name(CondType),
                              " cannot be lowered (only DT_BOOL)"),
                 absl::StatusCode::kUnimplemented);
  FROST_RETURN_IF_ERROR(checkUses(Tout.size()));
  FROST_RETURN_IF_ERROR(checkSignature("then_branch", Then, Tin, Tout));
  FROST_RETURN_IF_ERROR(checkSignature("else_branch", Else, Tin, Tout));

  std::string ThenName = Names.newName(G, Name + "/then");
  std::string ElseName = Names.newName(G, Name + "/else");
  std::vector<Input> Data(N.dataInputs().begin(), N.dataInputs().end());
  std::vector<Node *> Controls = controlSources();
  Input Pred = Data[0];

  Node *SwitchPred = create("switch_pred", "Switch");
  setType(SwitchPred, tensorflow::DT_BOOL);
  SwitchPred->addDataInput(Pred.Src, Pred.Port);
  SwitchPred->addDataInput(Pred.Src, Pred.Port);
  Node *PivotF = create("pivot_f", "Identity");
  setType(PivotF, tensorflow::DT_BOOL);
  PivotF->addDataInput(SwitchPred, 0);
  Node *PivotT = create("pivot_t", "Identity");
  setType(PivotT, tensorflow::DT_BOOL);
  PivotT->addDataInput(SwitchPred, 1);
  std::vector<Node *> Switches;
  for (unsigned I = 1; I < Data.size(); ++I) {
    Node *S = create(Data[I].Src->name(), "Switch");
    setType(S, Tin[I - 1]);
    S->addDataInput(Data[I].Src, Data[I].Port);
    S->addDataInput(Pred.Src, Pred.Port);
    Switches.push_back(S);
  }
  for (Node *C : Controls)
    SwitchPred->addControlInput(C);

  Node *ThenCall = createCall(ThenName, Then);
  for (Node *S : Switches)
    ThenCall->addDataInput(S, 1);
  ThenCall->addControlInput(PivotT);
  Node *ElseCall = createCall(ElseName, Else);
  for (Node *S : Switches)
    ElseCall->addDataInput(S, 0);
  ElseCall->addControlInput(PivotF);

  std::vector<TensorOf> Outputs;
  for (unsigned I = 0; I < Tout.size(); ++I) {
    Node *M = create("output", "Merge");
    setType(M, Tout[I]);
    M->attr("N").set_i(2);
    M->addDataInput(ThenCall, I);
    M->addDataInput(ElseCall, I);
    Outputs.push_back({M, 0});
  }
  Node *Executed = create("branch_executed", "Merge");
  setType(Executed, tensorflow::DT_BOOL);
  Executed->attr("N").set_i(2);
  Executed->addDataInput(PivotT, 0);
  Executed->addDataInput(PivotF, 0);
  Executed->addControlInput(ThenCall);
  Executed->addControlInput(ElseCall);
  createNamesake(Executed);
  replaceUses(Outputs, Executed);
  return absl::OkStatus();
}

absl::Status Lowering::lowerCase() {
  const tensorflow::AttrValue *Branches = N.findAttr("branches");
  if (!Branches || Branches->value_case() != tensorflow::AttrValue::kList ||
      Branches->list().func_size() == 0)
    return error("attribute 'branches' is missing or not a list of functions");
  std::vector<tensorflow::NameAttrList> Fns(Branches->list().func().begin(),
                                            Branches->list().func().end());
  std::vector<tensorflow::DataType> Tin, Tout;
  FROST_RETURN_IF_ERROR(typeList("Tin", Tin));
  FROST_RETURN_IF_ERROR(typeList("Tout", Tout));
  if (N.numDataInputs() != Tin.size() + 1)
    return error(absl::StrCat(N.numDataInputs(), " data inputs for a branch index and ",
                              Tin.size(), " Tin types"));
  FROST_RETURN_IF_ERROR(checkUses(Tout.size()));
  for (unsigned B = 0; B < Fns.size(); ++B)
    FROST_RETURN_IF_ERROR(checkSignature(absl::StrCat("branches[", B, "]"), Fns[B], Tin, Tout));

  unsigned NumBranches = Fns.size();
  std::vector<std::string> CallNames;
  for (unsigned B = 0; B < NumBranches; ++B)
    CallNames.push_back(Names.newName(G, absl::StrCat(Name, "/branch", B)));
  std::vector<Input> Data(N.dataInputs().begin(), N.dataInputs().end());
  std::vector<Node *> Controls = controlSources();
  Input Index = Data[0];

  auto switchN = [&](llvm::StringRef Suffix, tensorflow::DataType T, Input In) {
    Node *S = create(Suffix, "_SwitchN");
    setType(S, T);
    S->attr("num_outs").set_i(NumBranches);
    S->addDataInput(In.Src, In.Port);
    S->addDataInput(Index.Src, Index.Port);
    return S;
  };
  Node *IndexSwitch = switchN("branch_index", tensorflow::DT_INT32, Index);
  std::vector<Node *> Pivots;
  for (unsigned B = 0; B < NumBranches; ++B) {
    Node *P = create(absl::StrCat("pivot_", B), "Identity");
    setType(P, tensorflow::DT_INT32);
    P->addDataInput(IndexSwitch, B);
    Pivots.push_back(P);
  }
  std::vector<Node *> Switches;
  for (unsigned I = 1; I < Data.size(); ++I)
    Switches.push_back(switchN(Data[I].Src->name(), Tin[I - 1], Data[I]));
  for (Node *C : Controls)
    IndexSwitch->addControlInput(C);

  std::vector<Node *> Calls;
  for (unsigned B = 0; B < NumBranches; ++B) {
    Node *Call = createCall(CallNames[B], Fns[B]);
    for (Node *S : Switches)
      Call->addDataInput(S, B);
    Call->addControlInput(Pivots[B]);
    Calls.push_back(Call);
  }
  std::vector<TensorOf> Outputs;
  for (unsigned I = 0; I < Tout.size(); ++I) {
    Node *M = create("merge", "Merge");
    setType(M, Tout[I]);
    M->attr("N").set_i(NumBranches);
    for (Node *Call : Calls)
      M->addDataInput(Call, I);
    Outputs.push_back({M, 0});
  }
  Node *Executed = create("branch_executed", "Merge");
  setType(Executed, tensorflow::DT_INT32);
  Executed->attr("N").set_i(NumBranches);
  for (Node *P : Pivots)
    Executed->addDataInput(P, 0);
  for (Node *Call : Calls)
    Executed->addControlInput(Call);
  createNamesake(Executed);
  replaceUses(Outputs, Executed);
  return absl::OkStatus();
}

absl::Status Lowering::lowerWhile() {
  tensorflow::NameAttrList Cond, Body;
  std::vector<tensorflow::DataType> Types;
  FROST_RETURN_IF_ERROR(function("cond", Cond));
  FROST_RETURN_IF_ERROR(function("body", Body));
  FROST_RETURN_IF_ERROR(typeList("T", Types));
  if (N.numDataInputs() != Types.size())
    return error(absl::StrCat(N.numDataInputs(), " data inputs for ", Types.size(), " T types"));
  auto IsResource = [&](unsigned I) { return Types[I] == tensorflow::DT_RESOURCE; };
  unsigned First = 0;
  while (First < Types.size() && IsResource(First))
    ++First;
  if (First == Types.size())
    return error("a loop whose variables are all resources cannot be lowered",
                 absl::StatusCode::kUnimplemented);
  FROST_RETURN_IF_ERROR(checkUses(Types.size()));
  // The condition may return any scalar (TensorFlow converts it to bool).
  FROST_RETURN_IF_ERROR(checkSignature("cond", Cond, Types, {tensorflow::DT_INVALID}));
  FROST_RETURN_IF_ERROR(checkSignature("body", Body, Types, Types));
  int64_t Parallel = 10;
  if (const tensorflow::AttrValue *P = N.findAttr("parallel_iterations"))
    Parallel = P->i();

  std::string CondName = Names.newName(G, Name + "/cond");
  std::string BodyName = Names.newName(G, Name + "/body");
  std::vector<Input> Data(N.dataInputs().begin(), N.dataInputs().end());
  std::vector<Node *> Controls = controlSources();
  unsigned NumVars = Data.size();

  std::vector<Node *> Enters;
  for (unsigned I = 0; I < NumVars; ++I) {
    Node *E = create("enter", "Enter");
    setType(E, Types[I]);
    E->attr("frame_name").set_s(Name);
    E->attr("is_constant").set_b(IsResource(I));
    E->attr("parallel_iterations").set_i(Parallel);
    E->addDataInput(Data[I].Src, Data[I].Port);
    Enters.push_back(E);
  }
  if (!Controls.empty()) {
    Node *LoopControl = create("LoopControlInputs", "NoOp");
    for (Node *C : Controls)
      LoopControl->addControlInput(C);
    for (Node *E : Enters)
      E->addControlInput(LoopControl);
  }
  std::vector<Node *> Merges(NumVars), Switches(NumVars), Exits(NumVars);
  for (unsigned I = 0; I < NumVars; ++I) {
    if (IsResource(I))
      continue;
    Node *M = create("merge", "Merge");
    setType(M, Types[I]);
    M->attr("N").set_i(2);
    M->addDataInput(Enters[I], 0);
    M->addDataInput(Enters[I], 0); // becomes the NextIteration below
    Merges[I] = M;
  }
  Node *CondCall = createCall(CondName, Cond);
  for (unsigned I = 0; I < NumVars; ++I)
    CondCall->addDataInput(IsResource(I) ? Enters[I] : Merges[I], 0);
  CondCall->addControlInput(Merges[First]);
  Node *LoopCond = create("LoopCond", "LoopCond");
  LoopCond->addDataInput(CondCall, 0);
  for (unsigned I = 0; I < NumVars; ++I) {
    if (IsResource(I))
      continue;
    Node *S = create(absl::StrCat(Data[I].Src->name().str(), "_switch"), "Switch");
    setType(S, Types[I]);
    S->addDataInput(Merges[I], 0);
    S->addDataInput(LoopCond, 0);
    Switches[I] = S;
  }
  Node *BodyCall = createCall(BodyName, Body);
  for (unsigned I = 0; I < NumVars; ++I)
    if (IsResource(I))
      BodyCall->addDataInput(Enters[I], 0);
    else
      BodyCall->addDataInput(Switches[I], 1);
  Node *BodyControl = create("loop_body_control", "Identity");
  setType(BodyControl, Types[First]);
  BodyControl->addDataInput(Switches[First], 1);
  BodyCall->addControlInput(BodyControl);
  for (unsigned I = 0; I < NumVars; ++I) {
    if (IsResource(I))
      continue;
    Node *X = create("exit", "Exit");
    setType(X, Types[I]);
    X->addDataInput(Switches[I], 0);
    Exits[I] = X;
  }
  Node *Executed = create("LoopExecuted", "NoOp");
  for (Node *X : Exits)
    if (X)
      Executed->addControlInput(X);
  createNamesake(Executed);
  for (unsigned I = 0; I < NumVars; ++I) {
    if (IsResource(I))
      continue;
    Node *Next = create("next_iteration", "NextIteration");
    setType(Next, Types[I]);
    Next->addDataInput(BodyCall, I);
    Next->addControlInput(BodyCall);
    Merges[I]->setInput(1, Next, 0);
  }
  // A resource passes through the loop unchanged: its readers read what
  // entered.
  std::vector<TensorOf> Outputs;
  for (unsigned I = 0; I < NumVars; ++I)
    Outputs.push_back(IsResource(I) ? TensorOf{Data[I].Src, Data[I].Port} : TensorOf{Exits[I], 0});
  replaceUses(Outputs, Executed);
  return absl::OkStatus();
}

} // namespace

absl::Status lowerControlFlowNode(Graph &G, Node &N, NameCounter &Names) {
  assert(shouldLowerControlFlow(N) && "lowering a node that asks for none");
  Lowering L(G, N, Names);
  llvm::StringRef Op = N.op();
  if (isIfOp(Op))
    return L.lowerIf();
  if (isCaseOp(Op))
    return L.lowerCase();
  return L.lowerWhile();
}

} // namespace frost
