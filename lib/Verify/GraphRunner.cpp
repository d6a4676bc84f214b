//===- GraphRunner.cpp - Running an inference graph on given inputs ------===//
#include "frost/Verify/GraphRunner.h"

#include "frost/Eval/Eval.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/Reachability.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/IR/ConstValue.h"
#include "frost/IR/ExecutionOrder.h"

#include "frost/Support/File.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"

namespace frost::verify {

namespace {

/// What became of one node.
struct NodeState {
  enum Kind { NotRun, Ran, Dead, Failed } State = NotRun;
  /// Ran: one value per output, nullopt where the output is dead (Switch).
  std::vector<std::optional<TensorData>> Outputs;
  /// Failed: the node to blame.
  std::shared_ptr<const NotComputed> Why;
  /// Consumers among the needed nodes still to run; the outputs are freed
  /// at zero unless fetched.
  size_t PendingUses = 0;
  /// Bytes of Outputs, counted against the run's budget.
  uint64_t Bytes = 0;
};

TensorData scalarInt32(int32_t V) {
  return TensorData::owned(tensorflow::DT_INT32, {}, std::string(reinterpret_cast<char *>(&V), 4));
}

class Runner {
public:
  Runner(const Graph &G, const RunRequest &Request)
      : G(G), Request(Request), States(G.idBound()), Budget(Request.Budget) {}

  absl::StatusOr<RunResult> run();

private:
  /// Runs `N` once its inputs have: its outputs, or why it has none.
  void runNode(const Node &N);
  absl::StatusOr<std::vector<std::optional<TensorData>>> compute(const Node &N,
                                                                 std::vector<TensorData> Inputs);
  void fail(const Node &N, std::string Reason, bool NoKernel = false, bool OverLimit = false);
  void release(const Node &Producer);

  const Graph &G;
  const RunRequest &Request;
  std::vector<NodeState> States;
  std::vector<bool> Fetched;
  RunResult Result;
  /// Bytes of the values held now (a value shared by two nodes counts
  /// twice: the budget errs on the safe side).
  uint64_t LiveBytes = 0;
  /// What is left of the run's budget, and why the run stopped if it is spent.
  eval::EvalBudget Budget;
  absl::Status OverBudget;
};

/// The most a run may hold at once: a graph that needs more is not run
/// (each kernel also refuses outputs over 2 GiB).
constexpr uint64_t MaxLiveBytes = uint64_t{4} << 30;

uint64_t bytesOf(const std::vector<std::optional<TensorData>> &Values) {
  uint64_t Bytes = 0;
  for (const std::optional<TensorData> &V : Values)
    if (V) {
      Bytes += V->bytes().size();
      for (const std::string &E : V->elements())
        Bytes += E.size();
    }
  return Bytes;
}

void Runner::fail(const Node &N, std::string Reason, bool NoKernel, bool OverLimit) {
  NodeState &S = States[N.id()];
  S.State = NodeState::Failed;
  S.Why = std::make_shared<NotComputed>(
      NotComputed{N.name().str(), N.op().str(), std::move(Reason), NoKernel, OverLimit});
  if (NoKernel)
    Result.NoKernel[N.op().str()].push_back(N.name().str());
}

void Runner::release(const Node &Producer) {
  NodeState &S = States[Producer.id()];
  if (S.PendingUses > 0 && --S.PendingUses == 0 && !Fetched[Producer.id()]) {
    S.Outputs.clear();
    LiveBytes -= S.Bytes;
    S.Bytes = 0;
  }
}

absl::StatusOr<std::vector<std::optional<TensorData>>>
Runner::compute(const Node &N, std::vector<TensorData> Inputs) {
  using Outs = std::vector<std::optional<TensorData>>;
  llvm::StringRef Op = N.op();
  if (Op == "Const") {
    // A splat's size is known before it is expanded.
    if (std::optional<uint64_t> Bytes = decodedValueBytes(N); Bytes && *Bytes > Budget.MaxTensorBytes) {
      Budget.Exceeded = eval::EvalBudget::Limit::TensorBytes;
      return absl::ResourceExhaustedError(
          absl::StrCat("its value would take ", formatBytes(*Bytes), " expanded, over the limit of ",
                       formatBytes(Budget.MaxTensorBytes), " per tensor"));
    }
    FROST_ASSIGN_OR_RETURN(TensorData V, constValue(N));
    return Outs{std::move(V)};
  }
  if (isPlaceholderOp(Op)) {
    if (auto It = Request.Feeds.find(N.name()); It != Request.Feeds.end()) {
      const tensorflow::AttrValue *DType = N.findAttr("dtype");
      if (DType && DType->type() != It->second.dtype())
        return absl::InvalidArgumentError(
            absl::StrCat("declares ", dataTypeName(DType->type()), " but is fed ",
                         dataTypeName(It->second.dtype())));
      return Outs{It->second};
    }
    if (Op == "PlaceholderWithDefault" && !Inputs.empty())
      return Outs{std::move(Inputs[0])};
    return absl::InvalidArgumentError("no value fed");
  }
  if (isAnyVariableOp(Op)) {
    if (!Request.VariableValue)
      return absl::InvalidArgumentError("a variable, and no checkpoint gives its value");
    FROST_ASSIGN_OR_RETURN(TensorData V, Request.VariableValue(N));
    return Outs{std::move(V)};
  }
  // A variable's handle or reference is carried as its value.
  if (Op == "ReadVariableOp" || Op == "Identity" || Op == "RefIdentity" ||
      Op == "StopGradient" || Op == "Snapshot") {
    if (Inputs.size() != 1)
      return absl::InvalidArgumentError(absl::StrCat("expected 1 input, got ", Inputs.size()));
    return Outs{std::move(Inputs[0])};
  }
  if (Op == "ResourceGather") {
    if (Inputs.size() != 2)
      return absl::InvalidArgumentError(absl::StrCat("expected 2 inputs, got ", Inputs.size()));
    // TensorFlow's ResourceGather gathers along axis batch_dims (what
    // freezing writes: GatherV2 with axis = batch_dims).
    eval::AttrMap Attrs;
    int32_t Axis = 0;
    if (const tensorflow::AttrValue *B = N.findAttr("batch_dims")) {
      Attrs["batch_dims"] = *B;
      Axis = static_cast<int32_t>(B->i());
    }
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                           eval::evaluate("GatherV2", {Inputs[0], Inputs[1], scalarInt32(Axis)},
                                          Attrs, eval::Exactness::WithinRounding, &Budget));
    return Outs{std::move(Out[0])};
  }
  if (Op == "NoOp")
    return Outs{};
  if (isSwitchOp(Op)) {
    if (Inputs.size() != 2 || Inputs[1].dtype() != tensorflow::DT_BOOL ||
        !Inputs[1].shape().empty())
      return absl::InvalidArgumentError("expected data and a scalar bool predicate");
    bool Taken = Inputs[1].element<uint8_t>(0) != 0;
    Outs O(2);
    O[Taken ? 1 : 0] = std::move(Inputs[0]);
    return O;
  }
  FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                         eval::evaluate(Op, Inputs, N.attrs(), eval::Exactness::WithinRounding,
                                        &Budget));
  return Outs(std::make_move_iterator(Out.begin()), std::make_move_iterator(Out.end()));
}

void Runner::runNode(const Node &N) {
  NodeState &S = States[N.id()];
  // Merge forwards its first live data input, whatever its control inputs
  // (TensorFlow's executor: a merge is dead only when all its data inputs
  // are; lowered conds wait on both branches' control nodes); every other
  // node needs all of its inputs live, and is dead when one is dead.
  bool Merge = isMergeOp(N.op());
  std::vector<TensorData> Inputs;
  std::shared_ptr<const NotComputed> FailedInput;
  bool AnyDead = false;
  std::optional<size_t> LiveMergeInput;
  for (const Input &In : N.inputs()) {
    const NodeState &P = States[In.Src->id()];
    if (P.State == NodeState::Failed) {
      FailedInput = FailedInput ? FailedInput : P.Why;
      continue;
    }
    bool Dead = P.State == NodeState::Dead ||
                (!In.isControl() && (static_cast<size_t>(In.Port) >= P.Outputs.size() ||
                                     !P.Outputs[In.Port]));
    // A Merge waits for its control inputs, dead or alive (TensorFlow's
    // executor): a lowered cond's branch_executed joins both branches so.
    if (In.isControl()) {
      AnyDead |= !Merge && P.State == NodeState::Dead;
      continue;
    }
    if (Merge) {
      if (!Dead && !LiveMergeInput) {
        LiveMergeInput = static_cast<size_t>(&In - N.inputs().data());
        Inputs.push_back(*P.Outputs[In.Port]);
      }
      continue;
    }
    if (Dead) {
      AnyDead = true;
      continue;
    }
    Inputs.push_back(*P.Outputs[In.Port]);
  }
  for (const Input &In : N.inputs())
    release(*In.Src);

  if (Merge && LiveMergeInput && !AnyDead) {
    S.State = NodeState::Ran;
    S.Outputs = {std::move(Inputs.front()),
                 scalarInt32(static_cast<int32_t>(*LiveMergeInput))};
    return;
  }
  if (FailedInput) {
    S.State = NodeState::Failed;
    S.Why = FailedInput;
    return;
  }
  if (AnyDead || Merge) {
    S.State = NodeState::Dead;
    return;
  }
  absl::StatusOr<std::vector<std::optional<TensorData>>> Out = compute(N, std::move(Inputs));
  if (absl::IsResourceExhausted(Out.status())) {
    std::string Message = absl::StrCat("node '", N.name().str(), "' (", N.op().str(),
                                       "): ", Out.status().message());
    // Memory that ran out is no flag's.
    if (Budget.Exceeded == eval::EvalBudget::Limit::Work)
      absl::StrAppend(&Message, "; raise it with --eval-budget=N");
    else if (Budget.Exceeded == eval::EvalBudget::Limit::TensorBytes)
      absl::StrAppend(&Message, "; raise it with --eval-max-bytes=N");
    OverBudget = absl::ResourceExhaustedError(Message);
    return fail(N, Message);
  }
  if (!Out.ok()) {
    bool NoKernel = absl::IsUnimplemented(Out.status());
    return fail(N, std::string(Out.status().message()), NoKernel);
  }
  uint64_t Bytes = bytesOf(*Out);
  if (LiveBytes + Bytes > MaxLiveBytes)
    return fail(N, absl::StrCat("the run would hold more than ", MaxLiveBytes >> 30,
                                " GiB of tensors (verification's budget); feed smaller "
                                "inputs with --input-shape"),
                /*NoKernel=*/false, /*OverLimit=*/true);
  ++Result.NodesRun;
  S.State = NodeState::Ran;
  S.Outputs = *std::move(Out);
  S.Bytes = Bytes;
  LiveBytes += Bytes;
}

absl::StatusOr<RunResult> Runner::run() {
  for (const std::string &F : Request.Fetches)
    if (!G.findNode(F))
      return absl::NotFoundError(absl::StrCat("no node '", F, "' to fetch"));
  FROST_ASSIGN_OR_RETURN(std::vector<bool> Needed, nodesNeededBy(G, Request.Fetches));
  Fetched.assign(G.idBound(), false);
  for (const std::string &F : Request.Fetches)
    Fetched[G.findNode(F)->id()] = true;
  for (const Node &N : G)
    if (Needed[N.id()])
      for (const Input &In : N.inputs())
        ++States[In.Src->id()].PendingUses;

  // A Merge runs after both branches of its cond: then its live input is
  // known.
  // executionOrder only reads the graph (it hands out mutable nodes for the
  // passes that reorder): no copy of a graph of gigabytes of weights.
  ExecutionOrder Order = executionOrder(const_cast<Graph &>(G), ReadyPolicy::GraphPosition,
                                        MergeReadiness::AllInputs);
  for (Node *N : Order.Sorted) {
    if (Needed[N->id()])
      runNode(*N);
    if (!OverBudget.ok())
      return OverBudget;
  }
  // TF1 while loops never get ready, nor does what follows them: blamed on
  // the loop's first Merge (else its first node in the graph, which may be
  // an output that follows the loop).
  std::shared_ptr<const NotComputed> Loop;
  const Node *Blamed = nullptr;
  for (Node *N : Order.Unordered)
    if (Needed[N->id()] && (!Blamed || (isMergeOp(N->op()) && !isMergeOp(Blamed->op()))))
      Blamed = N;
  if (Blamed) {
    Loop = std::make_shared<NotComputed>(
        NotComputed{Blamed->name().str(), Blamed->op().str(),
                    "a while loop or a cycle, which verification does not run", true});
    Result.NoKernel["(while loop)"].push_back(Blamed->name().str());
  }
  for (Node *N : Order.Unordered) {
    if (!Needed[N->id()])
      continue;
    States[N->id()].State = NodeState::Failed;
    States[N->id()].Why = Loop;
  }
  for (auto &[Op, Nodes] : Result.NoKernel)
    llvm::sort(Nodes);

  for (const std::string &F : Request.Fetches) {
    const Node &N = *G.findNode(F);
    NodeState &S = States[N.id()];
    FetchedNode Out{F, {}, std::nullopt, S.State == NodeState::Dead};
    if (S.State == NodeState::Failed)
      Out.Missing = *S.Why;
    else if (S.State == NodeState::Ran)
      Out.Outputs = S.Outputs;
    Result.Fetched.push_back(std::move(Out));
  }
  return std::move(Result);
}

} // namespace

absl::StatusOr<RunResult> runGraph(const Graph &G, const RunRequest &Request) {
  return Runner(G, Request).run();
}

} // namespace frost::verify
