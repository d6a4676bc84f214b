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
#include "frost/Transforms/Utils/CallInlining.h"
#include "frost/Transforms/Utils/ControlFlowLowering.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

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

  void addStrictInputs(Node &N, bool TakesResource) {
    addStrictInputSemantics(
        N, TakesResource, [this](const Node &X) { return ThisRun.Rank[X.id()]; },
        *ThisRun.Captured);
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
        FROST_RETURN_IF_ERROR(inlineFunctionCall(
            G, N, *F, Ops, Functions,
            {ThisRun.Names, [this](Node &Call, bool TakesResource) {
               addStrictInputs(Call, TakesResource);
             }}));
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
    NumFunctionsDropped += dropUncalledFunctions(G);
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createInlineFunctionsPass() {
  return std::make_unique<InlineFunctionsPass>();
}

std::unique_ptr<Pass> createInlineFunctionsPass(const InlineFunctionsOptions &Options) {
  return makeNamedPass<InlineFunctionsPass>(PassName::createInlineFunctionsPass, Options);
}

} // namespace frost
