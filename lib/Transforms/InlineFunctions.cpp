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
// `_N` counts up across the whole run, as Graph::NewName does.
//
// The walk is Grappler's: nodes in the order TensorFlow's GraphConstructor
// gives them (their ids), then the nodes each step creates, in creation order,
// so calls inside inlined bodies are inlined in turn. A body is created in the
// order TensorFlow instantiates it. With `lower-control-flow`, an If, Case or
// While marked `_lower_using_switch_merge` is lowered to Switch/Merge when the
// walk reaches it (see Utils/ControlFlowLowering.h), on the same counter, and
// the branch calls it creates are inlined later in the walk, as TensorFlow's
// convert_variables_to_constants_v2 does by default. Functions nothing calls
// any more leave the library.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/Transforms/Utils/ControlFlowLowering.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <set>

namespace frost {

namespace {

bool isTrue(const Node &N, std::string_view Attr) {
  const tensorflow::AttrValue *V = N.findAttr(Attr);
  return V && V->value_case() == tensorflow::AttrValue::kB && V->b();
}

class InlineFunctionsPass : public Pass {
public:
  InlineFunctionsPass() = default;
  explicit InlineFunctionsPass(const InlineFunctionsOptions &O) {
    LowerControlFlow.set(O.LowerControlFlow);
  }

private:
  Option<bool> LowerControlFlow{
      *this, "lower-control-flow",
      "Also lower If/Case/While marked _lower_using_switch_merge to Switch/Merge in the same "
      "walk, and inline their branches (TensorFlow's lower_control_flow=True)",
      false};
  Option<int64_t> MaxNewNodes{
      *this, "max-new-nodes",
      "Fail rather than create more nodes than this (a library whose calls multiply)",
      1000000};
  Statistic NumInlined{*this, "calls-inlined", "Function calls replaced by their bodies"};
  Statistic NumLowered{*this, "control-flow-lowered", "If, Case and While nodes lowered"};
  Statistic NumFunctionsDropped{*this, "functions-dropped",
                                "Library functions no node calls any more"};

  /// What one run's walk builds. Started afresh by each run: the instance
  /// runs on model after model, and each model's `_N` count starts at 0.
  struct RunState {
    NameCounter Names;
    /// Each node's position in the walk (Grappler's node id), by Node::id().
    std::vector<unsigned> Rank;
    /// The model's captured inputs (Placeholders to Grappler).
    const llvm::StringSet<> *Captured = nullptr;
  };
  RunState ThisRun;

  std::string newName(Graph &G, llvm::StringRef Prefix) {
    return ThisRun.Names.newName(G, Prefix);
  }
  void addStrictInputs(Node &N, bool TakesResource) {
    addStrictInputSemantics(
        N, TakesResource, [this](const Node &X) { return ThisRun.Rank[X.id()]; },
        *ThisRun.Captured);
  }

  /// Grappler's IsFunctionCall.
  static bool isFunctionCall(const FunctionIndex &Functions, const Node &N) {
    return isPartitionedCallOp(N.op()) || N.op() == "SymbolicGradient" ||
           Functions.find(N.op());
  }

  /// The function `Call` calls, or null when it calls none to inline.
  const tensorflow::FunctionDef *callee(const FunctionIndex &Functions, const Node &Call) const {
    for (std::string_view Attr : {"_xla_compile_id", "_tpu_replicate", "_XlaMustCompile"})
      if (const tensorflow::AttrValue *V = Call.findAttr(Attr); V && (!V->s().empty() || V->b()))
        return nullptr; // left to XLA, as Grappler does
    std::string Name;
    if (isPartitionedCallOp(Call.op())) {
      const tensorflow::AttrValue *F = Call.findAttr("f");
      if (!F || !F->has_func())
        return nullptr;
      Name = F->func().name();
    } else {
      Name = Call.op().str();
    }
    const tensorflow::FunctionDef *Def = Functions.find(Name);
    if (!Def)
      return nullptr;
    // Grappler leaves api_implements functions to the implementation selector.
    return expands(*Def) ? Def : nullptr;
  }

  /// Functions that would be copied: neither _noinline nor left to an
  /// implementation selector.
  static bool expands(const tensorflow::FunctionDef &F) {
    if (auto It = F.attr().find("_noinline"); It != F.attr().end() && It->second.b())
      return false;
    return !F.attr().count("api_implements");
  }

  /// Before any copy: a function reachable from the graph that calls itself
  /// would be inlined for ever, and a library whose calls multiply (each
  /// level calling the next twice) would exhaust memory.
  absl::Status checkInlinable(const Graph &G, const FunctionIndex &Functions) const {
    ExpandedSizes Sizes;
    CallWalkState Visited;
    const uint64_t Limit = static_cast<uint64_t>(std::max<int64_t>(*MaxNewNodes, 0));
    uint64_t Total = 0;
    for (const Node &N : G) {
      std::vector<const tensorflow::FunctionDef *> Roots;
      if (const tensorflow::FunctionDef *F = Functions.find(N.op()))
        Roots.push_back(F);
      for (const auto &Entry : N.attrs())
        forEachFunctionName(Entry.second, [&](const std::string &Name) {
          if (const tensorflow::FunctionDef *F = Functions.find(Name))
            Roots.push_back(F);
        });
      if (absl::Status S = checkNoCallCycle(Roots, Functions, expands, Visited); !S.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("node '", N.name().str(), "': ", S.message()));
      for (const tensorflow::FunctionDef *F : Roots)
        if (expands(*F))
          Total = std::min(Total + expandedBodySize(*F, Functions, expands, Limit, Sizes),
                           Limit + 1);
      if (Total > Limit)
        return absl::ResourceExhaustedError(absl::StrCat(
            "node '", N.name().str(), "': inlining would create more than ", Limit,
            " nodes (max-new-nodes): the library's calls multiply too much to inline"));
    }
    return absl::OkStatus();
  }

  absl::Status inlineCall(Graph &G, Node &Call, const tensorflow::FunctionDef &F,
                          const OpRegistry &Ops, const FunctionIndex &Functions);
  void dropUnusedFunctions(Graph &G);

  absl::Status run(Model &M, PassContext &) override {
    ThisRun = RunState();
    Graph &G = M.graph();
    if (G.library().function_size() == 0)
      return absl::OkStatus();
    OpRegistry Ops = modelOpRegistry(M);
    // Neither inlining nor lowering changes the library until the walk ends.
    FunctionIndex Functions(G.library());
    ThisRun.Captured = &M.capturedInputs();
    FROST_RETURN_IF_ERROR(checkInlinable(G, Functions));
    std::vector<Node *> Walk = graphConstructionOrder(G);
    std::vector<unsigned> &Rank = ThisRun.Rank;
    Rank.assign(G.idBound(), 0);
    const uint64_t NodesBefore = G.idBound();
    for (unsigned I = 0; I < Walk.size(); ++I)
      Rank[Walk[I]->id()] = I;
    for (size_t I = 0; I < Walk.size(); ++I) {
      Node &N = *Walk[I];
      unsigned Bound = G.idBound();
      if (*LowerControlFlow && shouldLowerControlFlow(N)) {
        addStrictInputs(N, controlFlowTakesResource(N));
        FROST_RETURN_IF_ERROR(lowerControlFlowNode(G, N, ThisRun.Names));
        ++NumLowered;
      } else if (const tensorflow::FunctionDef *F = callee(Functions, N)) {
        FROST_RETURN_IF_ERROR(inlineCall(G, N, *F, Ops, Functions));
        ++NumInlined;
      } else {
        continue;
      }
      // A safety net behind checkInlinable's estimate (N may be gone now).
      if (static_cast<int64_t>(G.idBound() - NodesBefore) > *MaxNewNodes)
        return absl::ResourceExhaustedError(
            absl::StrCat("inlining has created more than ", *MaxNewNodes,
                         " nodes (max-new-nodes): the library's calls multiply too much to "
                         "inline"));
      // The new nodes are the tail of the node list, in creation order.
      auto First = G.end();
      while (First != G.begin() && std::prev(First)->id() >= Bound)
        --First;
      Rank.resize(G.idBound());
      for (auto It = First; It != G.end(); ++It) {
        Rank[It->id()] = Walk.size();
        Walk.push_back(&*It);
      }
    }
    dropUnusedFunctions(G);
    return absl::OkStatus();
  }
};

absl::Status InlineFunctionsPass::inlineCall(Graph &G, Node &Call,
                                             const tensorflow::FunctionDef &F,
                                             const OpRegistry &Ops,
                                             const FunctionIndex &Functions) {
  const tensorflow::OpDef &Sig = F.signature();
  std::string CallName = Call.name().str();
  std::string Where = absl::StrCat("node '", CallName, "' (call of ", Sig.name(), ")");
  if (static_cast<int>(Call.numDataInputs()) != Sig.input_arg_size())
    return absl::InvalidArgumentError(absl::StrCat(Where, ": ", Call.numDataInputs(),
                                                   " inputs for ", Sig.input_arg_size(),
                                                   " arguments"));
  std::string Prefix = absl::StrCat("Func/", CallName);

  // Grappler's AddStrictInputSemantics (instantiate-signature's captured
  // inputs stand for TensorFlow's captured Placeholders and are skipped too).
  addStrictInputs(Call, llvm::any_of(Sig.input_arg(), [](const tensorflow::OpDef::ArgDef &A) {
                    return A.type() == tensorflow::DT_RESOURCE;
                  }));
  // Grappler's multi-device inlining (calls and lowered branches) waits for
  // the body's control outputs, single-device inlining for the results.
  bool MultiDevice = isPartitionedCallOp(Call.op()) || isTrue(Call, "_lower_as_multi_device_function");

  // Each argument through an Identity; the call's control inputs through a
  // NoOp, made first.
  BodyCopyOptions Options;
  Options.Prefix = CallName + "/";
  Options.ConstructionOrder = true;
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
    // Body nodes without inputs, and calls without control inputs, wait for
    // the call's control inputs too.
    if (InputControl && (N->inputs().empty() ||
                         (isFunctionCall(Functions, *N) && N->controlInputs().empty())))
      N->addControlInput(InputControl);
  }

  // Each result through an Identity, read where the call's outputs were.
  std::vector<Node *> Outputs;
  for (unsigned I = 0; I < Body.Returns.size(); ++I) {
    Node *Out = G.createNode(newName(G, Prefix + "/output"), "Identity");
    Out->setDevice(Call.device());
    Out->attr("T").set_type(Sig.output_arg(I).type());
    Out->addDataInput(Body.Returns[I].Src, Body.Returns[I].Port);
    Call.replaceUsesOfOutput(static_cast<int>(I), Out, 0);
    Outputs.push_back(Out);
  }
  bool HasControlUsers = llvm::any_of(
      Call.uses(), [&](const Use &U) { return U.User->input(U.InputIndex).isControl(); });
  if (HasControlUsers) {
    Node *OutputControl = G.createNode(newName(G, Prefix + "/output_control_node"), "NoOp");
    OutputControl->setDevice(Call.device());
    for (Node *N : MultiDevice ? Body.ControlReturns : Outputs)
      OutputControl->addControlInput(N);
    if (OutputControl->inputs().empty() && InputControl)
      OutputControl->addControlInput(InputControl);
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
  FunctionIndex ByName(Lib);
  std::set<std::string> Used;
  std::vector<const tensorflow::FunctionDef *> Work;
  auto use = [&](llvm::StringRef Name) {
    if (const tensorflow::FunctionDef *F = ByName.find(Name); F && Used.insert(Name.str()).second)
      Work.push_back(F);
  };
  auto useAttrs = [&](const auto &Attrs) {
    for (const auto &Entry : Attrs)
      forEachFunctionName(Entry.second, use);
  };
  for (const Node &N : G) {
    use(N.op());
    useAttrs(N.attrs());
  }
  while (!Work.empty()) {
    const tensorflow::FunctionDef &F = *Work.back();
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

std::unique_ptr<Pass> createInlineFunctionsPass(const InlineFunctionsOptions &Options) {
  return makeNamedPass<InlineFunctionsPass>(PassName::createInlineFunctionsPass, Options);
}

} // namespace frost
