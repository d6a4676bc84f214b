//===- InlineFunctions.cpp - Replace function calls by their bodies -------===//
//
// What Grappler's function optimizer does for convert_variables_to_constants_v2:
// every PartitionedCall, StatefulPartitionedCall and direct call of a library
// function is replaced by the function's body, named as TensorFlow's
// InlineFunctionBody names it so downstream tools see TensorFlow's graph:
//   Func/<call>/input/_N                Identity of each argument
//   Func/<call>/input_control_node/_N   NoOp carrying the call's control inputs
//   <call>/<body node>                  the body
//   Func/<call>/output/_N               Identity of each result
//   Func/<call>/output_control_node/_N  NoOp after the body's control outputs
// `_N` counts up across the whole pass, as Graph::NewName does. Calls inside
// inlined bodies are inlined in turn (they are appended to the graph, and the
// walk reaches them). Functions nothing calls any more leave the library.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <set>

namespace frost {

namespace {

class InlineFunctionsPass : public Pass {
  Statistic NumInlined{*this, "calls-inlined", "Function calls replaced by their bodies"};
  Statistic NumFunctionsDropped{*this, "functions-dropped",
                                "Library functions no node calls any more"};

  unsigned Counter = 0;

  std::string newName(Graph &G, llvm::StringRef Prefix) {
    std::string Name;
    do
      Name = absl::StrCat(Prefix.str(), "/_", Counter++);
    while (G.findNode(Name));
    return Name;
  }

  /// The function `Call` calls, or null when it calls none to inline.
  const tensorflow::FunctionDef *callee(const Graph &G, const Node &Call) const {
    std::string Name;
    if (Call.op() == "PartitionedCall" || Call.op() == "StatefulPartitionedCall") {
      const tensorflow::AttrValue *F = Call.findAttr("f");
      if (!F || !F->has_func())
        return nullptr;
      Name = F->func().name();
    } else {
      Name = Call.op().str();
    }
    const tensorflow::FunctionDef *Def = findFunction(G, Name);
    if (!Def)
      return nullptr;
    if (auto It = Def->attr().find("_noinline"); It != Def->attr().end() && It->second.b())
      return nullptr;
    return Def;
  }

  absl::Status inlineCall(Graph &G, Node &Call, const tensorflow::FunctionDef &F,
                          const OpRegistry &Ops);
  void dropUnusedFunctions(Graph &G);

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    if (G.library().function_size() == 0)
      return absl::OkStatus();
    OpRegistry Ops;
    if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
      Ops.add(Meta->meta_info_def().stripped_op_list());
    Ops.add(G.library());
    // Bodies are appended to the node list, so the walk reaches the calls
    // inside them too: after a call is replaced, it goes on from the node
    // that preceded it.
    for (auto It = G.begin(); It != G.end();) {
      Node &N = *It;
      const tensorflow::FunctionDef *F = callee(G, N);
      if (!F) {
        ++It;
        continue;
      }
      Node *Prev = It == G.begin() ? nullptr : &*std::prev(It);
      FROST_RETURN_IF_ERROR(inlineCall(G, N, *F, Ops));
      ++NumInlined;
      It = Prev ? std::next(Graph::NodeList::iterator(*Prev)) : G.begin();
    }
    dropUnusedFunctions(G);
    return absl::OkStatus();
  }
};

absl::Status InlineFunctionsPass::inlineCall(Graph &G, Node &Call,
                                             const tensorflow::FunctionDef &F,
                                             const OpRegistry &Ops) {
  const tensorflow::OpDef &Sig = F.signature();
  std::string CallName = Call.name().str();
  std::string Where = absl::StrCat("node '", CallName, "' (call of ", Sig.name(), ")");
  if (static_cast<int>(Call.numDataInputs()) != Sig.input_arg_size())
    return absl::InvalidArgumentError(absl::StrCat(Where, ": ", Call.numDataInputs(),
                                                   " inputs for ", Sig.input_arg_size(),
                                                   " arguments"));
  std::string Prefix = absl::StrCat("Func/", CallName);

  // Grappler's AddStrictInputSemantics: a call taking a resource and no
  // control input first waits for its data inputs that are no Placeholder
  // (instantiate-signature's VarHandleOps stand for TensorFlow's captured
  // Placeholders).
  if (Call.controlInputs().empty() &&
      llvm::any_of(Sig.input_arg(), [](const tensorflow::OpDef::ArgDef &A) {
        return A.type() == tensorflow::DT_RESOURCE;
      })) {
    std::vector<Node *> Sources;
    for (const Input &In : Call.dataInputs())
      if (In.Src->op() != "Placeholder" && In.Src->op() != "VarHandleOp" &&
          !llvm::is_contained(Sources, In.Src))
        Sources.push_back(In.Src);
    for (Node *Src : Sources)
      Call.addControlInput(Src);
  }

  // Each argument through an Identity; the call's control inputs through a
  // NoOp, made first.
  BodyCopyOptions Options;
  Options.Prefix = CallName + "/";
  Node *InputControl = nullptr;
  if (!Call.controlInputs().empty()) {
    InputControl = G.createNode(newName(G, Prefix + "/input_control_node"), "NoOp");
    InputControl->setDevice(Call.device());
    for (const Input &In : Call.controlInputs())
      InputControl->addControlInput(In.Src);
  }
  for (unsigned I = 0; I < Call.numDataInputs(); ++I) {
    Node *Id = G.createNode(newName(G, Prefix + "/input"), "Identity");
    Id->setDevice(Call.device());
    Id->attr("T").set_type(Sig.input_arg(I).type());
    Id->addDataInput(Call.input(I).Src, Call.input(I).Port);
    if (InputControl)
      Id->addControlInput(InputControl);
    Options.Args.push_back({Id, 0});
  }

  FROST_ASSIGN_OR_RETURN(BodyCopy Body, copyFunctionBody(G, F, Ops, Options));
  for (Node *N : Body.Nodes) {
    if (N->device().empty())
      N->setDevice(Call.device());
    // Body nodes without inputs wait for the call's control inputs too.
    if (InputControl && N->inputs().empty())
      N->addControlInput(InputControl);
  }

  // Each result through an Identity, read where the call's outputs were.
  for (unsigned I = 0; I < Body.Returns.size(); ++I) {
    Node *Out = G.createNode(newName(G, Prefix + "/output"), "Identity");
    Out->setDevice(Call.device());
    Out->attr("T").set_type(Sig.output_arg(I).type());
    Out->addDataInput(Body.Returns[I].Src, Body.Returns[I].Port);
    Call.replaceUsesOfOutput(static_cast<int>(I), Out, 0);
  }
  bool HasControlUsers = llvm::any_of(
      Call.uses(), [&](const Use &U) { return U.User->input(U.InputIndex).isControl(); });
  if (HasControlUsers) {
    Node *OutputControl = G.createNode(newName(G, Prefix + "/output_control_node"), "NoOp");
    OutputControl->setDevice(Call.device());
    for (Node *N : Body.ControlReturns)
      OutputControl->addControlInput(N);
    Call.replaceUsesOfOutput(ControlPort, OutputControl, ControlPort);
  }
  if (Call.hasUses())
    return absl::InvalidArgumentError(
        absl::StrCat(Where, ": read through an output the function does not have"));
  G.eraseNode(&Call);
  return absl::OkStatus();
}

void InlineFunctionsPass::dropUnusedFunctions(Graph &G) {
  tensorflow::FunctionDefLibrary &Lib = *G.mutableOtherFields().mutable_library();
  std::map<std::string, const tensorflow::FunctionDef *> ByName;
  for (const tensorflow::FunctionDef &F : Lib.function())
    ByName[F.signature().name()] = &F;
  std::set<std::string> Used;
  std::vector<std::string> Work;
  auto use = [&](const std::string &Name) {
    if (ByName.count(Name) && Used.insert(Name).second)
      Work.push_back(Name);
  };
  auto useAttrs = [&](const auto &Attrs) {
    for (const auto &Entry : Attrs) {
      const tensorflow::AttrValue &V = Entry.second;
      if (V.has_func())
        use(V.func().name());
      else if (V.has_list())
        for (const tensorflow::NameAttrList &Func : V.list().func())
          use(Func.name());
    }
  };
  for (const Node &N : G) {
    use(N.op().str());
    useAttrs(N.attrs());
  }
  while (!Work.empty()) {
    const tensorflow::FunctionDef &F = *ByName[Work.back()];
    Work.pop_back();
    for (const tensorflow::NodeDef &ND : F.node_def()) {
      use(ND.op());
      useAttrs(ND.attr());
    }
  }
  // Gradients of dropped functions go with them.
  google::protobuf::RepeatedPtrField<tensorflow::FunctionDef> Kept;
  for (tensorflow::FunctionDef &F : *Lib.mutable_function())
    if (Used.count(F.signature().name()))
      Kept.Add(std::move(F));
    else
      ++NumFunctionsDropped;
  Lib.mutable_function()->Swap(&Kept);
  google::protobuf::RepeatedPtrField<tensorflow::GradientDef> Grads;
  for (tensorflow::GradientDef &D : *Lib.mutable_gradient())
    if (Used.count(D.function_name()))
      Grads.Add(std::move(D));
  Lib.mutable_gradient()->Swap(&Grads);
  if (Lib.function_size() == 0 && Lib.gradient_size() == 0 &&
      Lib.registered_gradients_size() == 0)
    G.mutableOtherFields().clear_library();
}

} // namespace

std::unique_ptr<Pass> createInlineFunctionsPass() {
  return std::make_unique<InlineFunctionsPass>();
}

} // namespace frost
