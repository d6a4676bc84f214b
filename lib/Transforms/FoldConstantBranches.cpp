//===- FoldConstantBranches.cpp - If/Case on a constant become their branch ===//
//
// An If or StatelessIf whose `cond` is a constant, or a Case or
// StatelessCase whose `branch_index` is, always runs the same branch: the node
// is replaced by that branch's body, inlined (Utils/CallInlining), so the
// other branch and what it does (a batch norm's moving-average updates,
// AssignVariableOps on variables freezing makes constants) are gone.
// Grappler's constant folding makes a Case on a constant a PartitionedCall of
// its branch (SimplifyCase) and its function optimizer inlines that; this
// pass does both, for If too: the node becomes a (Stateful)PartitionedCall of
// the branch (Stateful for If and Case) with its other inputs, its control
// inputs and device, then is inlined as inline-functions would inline it:
// `Func/<node>/input/_N`, `<node>/<body node>`, `Func/<node>/output/_N`
// (which keep the node's `_output_shapes`), control users waiting for the
// body's control outputs. If/Case nodes in the copied body are folded in
// turn; the functions nothing calls any more leave the library.
//
// Constant: a Const without control inputs, possibly through Identity nodes
// without control inputs (as bind-placeholders folds Switches). If's truth
// is TensorFlow's: a scalar bool, a nonzero number, a non-empty string; a
// tensor of any other shape is true when it has elements. Case's index is an
// int32 scalar, and an index out of range runs the last branch, as Case's
// kernel does.
//
// With `fold-constants`, every round that folded a branch is followed by
// fold-constants (with this pass's inputs and outputs) and another round,
// until none folds: what the inlined bodies compute from constants is folded,
// and predicates only that folding makes constant are decided too.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/Tensor/Tensor.h"
#include "frost/Tensor/Truth.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/CallInlining.h"

#include "absl/strings/str_cat.h"

#include <optional>

namespace frost {

namespace {

/// The Const N reads, through Identity nodes; null when there is none or a
/// node on the way has control inputs (it would order the branch).
const Node *constantThroughIdentities(const Node *N) {
  while (N && N->controlInputs().empty()) {
    if (N->op() == "Const")
      return N;
    if (N->op() != "Identity" || N->numDataInputs() != 1)
      return nullptr;
    N = N->input(0).Src;
  }
  return nullptr;
}

class FoldConstantBranchesPass : public Pass {
public:
  FoldConstantBranchesPass() = default;
  explicit FoldConstantBranchesPass(const FoldConstantBranchesOptions &O) {
    FoldConstants.set(O.FoldConstants);
    Inputs.setIfGiven(O.Inputs);
    Outputs.setIfGiven(O.Outputs);
  }

private:
  Option<bool> FoldConstants{
      *this, "fold-constants",
      "After a round that folded a branch, run fold-constants and fold again, until none folds",
      false};
  ListOption<std::string> Inputs{*this, "inputs", "Fed nodes, for fold-constants"};
  ListOption<std::string> Outputs{*this, "outputs", "Nodes that keep their names, for fold-constants"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Statistic NumFolded{*this, "branches-folded",
                      "If and Case nodes on a constant replaced by their branch"};
  Statistic NumFunctionsDropped{*this, "functions-dropped",
                                "Library functions no node calls any more"};

  /// The branch `N` (an If or Case) always takes, or null when its predicate
  /// is not a constant. Errors name the node.
  absl::StatusOr<const tensorflow::NameAttrList *> takenBranch(const Node &N) const;

  /// One walk over the graph, new nodes included: how many nodes it folded.
  absl::StatusOr<unsigned> foldRound(Model &M);

  absl::Status run(Model &M, PassContext &Ctx) override {
    while (true) {
      FROST_ASSIGN_OR_RETURN(unsigned Folded, foldRound(M));
      if (Folded == 0 || !*FoldConstants)
        break;
      std::unique_ptr<Pass> Fold =
          createFoldConstantsPass(FoldConstantsOptions{*Inputs, *Outputs});
      FROST_RETURN_IF_ERROR(Fold->run(M, Ctx));
    }
    Graph &G = M.graph();
    if (NumFolded.value() && G.library().function_size())
      NumFunctionsDropped += dropUncalledFunctions(G);
    return absl::OkStatus();
  }
};

absl::StatusOr<const tensorflow::NameAttrList *>
FoldConstantBranchesPass::takenBranch(const Node &N) const {
  if (N.numDataInputs() == 0)
    return nullptr;
  const Node *Predicate = constantThroughIdentities(N.input(0).Src);
  if (!Predicate || N.input(0).Port != 0)
    return nullptr;
  absl::StatusOr<TensorData> Value = constValue(*Predicate);
  if (!Value.ok())
    return nullptr; // the verifier names a Const that does not decode
  auto error = [&](const std::string &Message) {
    return absl::InvalidArgumentError(
        absl::StrCat("node '", N.name().str(), "' (", N.op().str(), "): ", Message));
  };
  if (isIfOp(N.op())) {
    std::optional<bool> Truth = truthOf(*Value);
    if (!Truth)
      return nullptr;
    const tensorflow::AttrValue *Branch = N.findAttr(*Truth ? "then_branch" : "else_branch");
    if (!Branch || !Branch->has_func())
      return error(absl::StrCat("has no function attribute '",
                                *Truth ? "then_branch" : "else_branch", "'"));
    return &Branch->func();
  }
  if (Value->dtype() != tensorflow::DT_INT32 || !Value->shape().empty())
    return nullptr;
  const tensorflow::AttrValue *Branches = N.findAttr("branches");
  if (!Branches || Branches->list().func_size() == 0)
    return error("has no function in attribute 'branches'");
  int Count = Branches->list().func_size();
  int32_t Index = Value->element<int32_t>(0);
  return &Branches->list().func(Index < 0 || Index >= Count ? Count - 1 : Index);
}

absl::StatusOr<unsigned> FoldConstantBranchesPass::foldRound(Model &M) {
  Graph &G = M.graph();
  if (G.library().function_size() == 0)
    return 0;
  OpRegistry Ops = modelOpRegistry(M);
  // Folding leaves the library as it is until the end of the run.
  FunctionIndex Functions(G.library());
  NameCounter Names;
  std::vector<Node *> Work;
  for (Node &N : G)
    Work.push_back(&N);
  unsigned Folded = 0;
  for (size_t I = 0; I < Work.size(); ++I) {
    Node &N = *Work[I];
    if (!isIfOp(N.op()) && !isCaseOp(N.op()))
      continue;
    FROST_ASSIGN_OR_RETURN(const tensorflow::NameAttrList *Branch, takenBranch(N));
    if (!Branch)
      continue;
    const tensorflow::FunctionDef *F = Functions.find(Branch->name());
    if (!F)
      return absl::InvalidArgumentError(absl::StrCat("node '", N.name().str(), "' (",
                                                     N.op().str(), "): branch function '",
                                                     Branch->name(), "' is not in the library"));
    // Inlined as the (Stateful)PartitionedCall of the branch Grappler makes
    // of it, the other inputs its arguments; inlining erases the node, so
    // its other attributes need no rewriting.
    std::optional<tensorflow::AttrValue> OutputShapes;
    if (N.findAttr("_output_shapes"))
      OutputShapes = std::move(N.attr("_output_shapes"));
    N.removeInput(0);
    N.setOp(llvm::StringRef(N.op()).starts_with("Stateless") ? "PartitionedCall"
                                                               : "StatefulPartitionedCall");
    unsigned Bound = G.idBound();
    std::vector<Node *> Results;
    FROST_RETURN_IF_ERROR(inlineFunctionCall(G, N, *F, Ops, Functions, {Names, {}, &Results}));
    if (OutputShapes)
      for (unsigned K = 0; K < Results.size(); ++K)
        if (static_cast<int>(K) < OutputShapes->list().shape_size())
          *Results[K]->attr("_output_shapes").mutable_list()->add_shape() =
              OutputShapes->list().shape(K);
    ++Folded;
    ++NumFolded;
    // The new nodes are the tail of the node list: nested If/Case next.
    auto First = G.end();
    while (First != G.begin() && std::prev(First)->id() >= Bound)
      --First;
    for (auto It = First; It != G.end(); ++It)
      Work.push_back(&*It);
  }
  return Folded;
}

} // namespace

std::unique_ptr<Pass> createFoldConstantBranchesPass() {
  return std::make_unique<FoldConstantBranchesPass>();
}

std::unique_ptr<Pass> createFoldConstantBranchesPass(const FoldConstantBranchesOptions &Options) {
  return makeNamedPass<FoldConstantBranchesPass>(PassName::createFoldConstantBranchesPass,
                                                 Options);
}

} // namespace frost
