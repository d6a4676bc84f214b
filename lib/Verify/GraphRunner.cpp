//===- GraphRunner.cpp - Running an inference graph on given inputs ------===//
//
// A dataflow executor after TensorFlow's (RunExecutor.h): this file runs one
// node once its inputs arrived (its kernel, Merge's choice, the budget and
// the memory a run may hold) and is the entry point; RunFrames.cpp moves
// values between nodes, frames and iterations, RunCalls.cpp runs function
// calls, If, Case and While.
//
//===----------------------------------------------------------------------===//
#include "frost/Verify/GraphRunner.h"

#include "RunExecutor.h"

#include "frost/Eval/Eval.h"
#include "frost/IR/ConstValue.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"
#include "frost/Support/File.h"
#include "frost/Tensor/DataType.h"

#include "absl/strings/str_cat.h"

namespace frost::verify {

namespace runner {

namespace {

/// The most a run may hold at once: a graph that needs more is not run
/// (each kernel also refuses outputs over 2 GiB).
constexpr uint64_t MaxLiveBytes = uint64_t{4} << 30;

TensorData scalarInt32(int32_t V) {
  return TensorData::owned(tensorflow::DT_INT32, {}, std::string(reinterpret_cast<char *>(&V), 4));
}

} // namespace

std::shared_ptr<const NotComputed> Executor::blame(const Node &N, std::string Reason,
                                                   bool NoKernel, bool OverLimit) {
  std::string Name = Prefix + N.name().str();
  if (NoKernel)
    S.NoKernel[N.op().str()].insert(Name);
  return std::make_shared<NotComputed>(
      NotComputed{std::move(Name), N.op().str(), std::move(Reason), NoKernel, OverLimit});
}

absl::Status Executor::charge(const Node &N, const Iteration &It) {
  if (!It.Owner->Parent && Prefix.empty())
    return absl::OkStatus();
  if (S.Budget.WorkLeft >= NodeRunWork) {
    S.Budget.WorkLeft -= NodeRunWork;
    return absl::OkStatus();
  }
  S.Budget.Exceeded = eval::EvalBudget::Limit::Work;
  std::string Where = "the evaluation budget ran out";
  if (It.Owner->Parent)
    Where = absl::StrCat("while loop '", It.Owner->Name, "' was still running at iteration ",
                         It.Index, " when the evaluation budget ran out");
  else if (!S.Loops.empty())
    Where = absl::StrCat("while loop '", S.Loops.back().first,
                         "' was still running at iteration ", S.Loops.back().second,
                         " when the evaluation budget ran out");
  return absl::ResourceExhaustedError(absl::StrCat("node '", Prefix, N.name().str(), "' (",
                                                   N.op().str(), "): ", Where,
                                                   "; raise it with --eval-budget=N"));
}

absl::StatusOr<std::vector<std::optional<TensorData>>>
Executor::compute(const Node &N, std::vector<TensorData> Inputs) {
  using Outs = std::vector<std::optional<TensorData>>;
  auto wrap = [](std::vector<TensorData> Out) {
    return Outs(std::make_move_iterator(Out.begin()), std::make_move_iterator(Out.end()));
  };
  llvm::StringRef Op = N.op();
  eval::EvalBudget &Budget = S.Budget;
  if (fed(N) && !isPlaceholderOp(Op)) {
    // A signature's input TensorFlow Serving feeds in place of what
    // computes it (half_plus_two's x:0, which ParseExample gives).
    if (numOutputs(N).value_or(1) != 1)
      return absl::InvalidArgumentError("is fed, but has more than one output");
    return Outs{S.Request.Feeds.find(N.name())->second};
  }
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
    if (Args) {
      if (auto It = Args->find(&N); It != Args->end())
        return Outs{It->second};
    } else if (auto It = S.Request.Feeds.find(N.name()); It != S.Request.Feeds.end()) {
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
    if (!S.Request.VariableValue)
      return absl::InvalidArgumentError("a variable, and no checkpoint gives its value");
    FROST_ASSIGN_OR_RETURN(TensorData V, S.Request.VariableValue(N));
    return Outs{std::move(V)};
  }
  // A variable's handle or reference is carried as its value; the loop's
  // plumbing passes its input on (emit() moves it between frames).
  if (Op == "ReadVariableOp" || Op == "Identity" || Op == "RefIdentity" ||
      Op == "StopGradient" || Op == "Snapshot" || Op == "LoopCond" || isEnterOp(Op) ||
      isExitOp(Op) || isNextIterationOp(Op)) {
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
  if (Op == "ResourceGatherNd") {
    // The source's read of a variable by index tuples: GatherNd of its value
    // (what freezing writes, as TensorFlow's convert_variables_to_constants).
    if (Inputs.size() != 2)
      return absl::InvalidArgumentError(absl::StrCat("expected 2 inputs, got ", Inputs.size()));
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                           eval::evaluate("GatherNd", {Inputs[0], Inputs[1]}, eval::AttrMap(),
                                          eval::Exactness::WithinRounding, &Budget));
    return Outs{std::move(Out[0])};
  }
  if (Op == "NoOp")
    return Outs{};
  if (Op == "Assert") {
    // Runs for its control users: a false condition fails them, as the
    // kernel fails TensorFlow's run.
    if (Inputs.empty() || Inputs[0].dtype() != tensorflow::DT_BOOL ||
        Inputs[0].numElements() != 1)
      return absl::InvalidArgumentError("expected a scalar bool condition");
    if (Inputs[0].element<uint8_t>(0) == 0)
      return absl::InvalidArgumentError("assertion failed (its condition is false)");
    return Outs{};
  }
  if (isSwitchOp(Op)) {
    if (Inputs.size() != 2 || Inputs[1].dtype() != tensorflow::DT_BOOL ||
        !Inputs[1].shape().empty())
      return absl::InvalidArgumentError("expected data and a scalar bool predicate");
    bool Taken = Inputs[1].element<uint8_t>(0) != 0;
    Outs O(2);
    O[Taken ? 1 : 0] = std::move(Inputs[0]);
    return O;
  }
  if (Op == "_SwitchN") {
    // A lowered Case's switch: the data goes out on port output_index, the
    // last port for an index out of range (as Case runs its last branch).
    const tensorflow::AttrValue *NumOuts = N.findAttr("num_outs");
    if (Inputs.size() != 2 || Inputs[1].dtype() != tensorflow::DT_INT32 ||
        !Inputs[1].shape().empty() || !NumOuts || NumOuts->i() < 1)
      return absl::InvalidArgumentError("expected data, an int32 scalar index and num_outs");
    int64_t Index = Inputs[1].element<int32_t>(0);
    Outs O(static_cast<size_t>(NumOuts->i()));
    O[Index < 0 || Index >= NumOuts->i() ? NumOuts->i() - 1 : Index] = std::move(Inputs[0]);
    return O;
  }
  if (RunTables::runs(Op)) {
    absl::StatusOr<std::vector<TensorData>> Out =
        S.Tables.run(N, Prefix + N.name().str(), std::move(Inputs));
    // A table no initializer could fill: the initializer is to blame.
    if (absl::IsFailedPrecondition(Out.status()) && S.InitFailed &&
        Out.status().message() == "Table not initialized.") {
      if (S.InitFailed->NoKernel)
        S.NoKernel[S.InitFailed->Op].insert(S.InitFailed->Node);
      CalleeBlame = S.InitFailed;
    }
    FROST_RETURN_IF_ERROR(Out.status());
    return wrap(*std::move(Out));
  }
  if (RunContainers::runs(Op)) {
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                           S.Containers.run(N, std::move(Inputs), Budget));
    return wrap(std::move(Out));
  }
  if (callsFunction(Op)) {
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, computeCall(N, std::move(Inputs)));
    return wrap(std::move(Out));
  }
  FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                         eval::evaluate(Op, Inputs, N.attrs(), eval::Exactness::WithinRounding,
                                        &Budget));
  return wrap(std::move(Out));
}

bool Executor::fed(const Node &N) const {
  return !Args && S.Request.Feeds.find(N.name()) != S.Request.Feeds.end();
}

void Executor::execute(WorkItem W) {
  const Node &N = *W.N;
  Iteration::Pending &P = W.In;
  for (const Token &T : P.Data)
    if (T.K == Token::Live)
      S.LiveBytes -= std::min(S.LiveBytes, bytesOf(T.Value));

  auto finish = [&](Token::Kind K, std::shared_ptr<const NotComputed> Why,
                    std::vector<std::optional<TensorData>> Values) {
    if (!W.It->Owner->Parent && TargetIndex[N.id()] >= 0) {
      Outcome &O = Outcomes[TargetIndex[N.id()]];
      O = {true, K, Values, Why};
    }
    std::vector<Token> Outs;
    for (std::optional<TensorData> &V : Values)
      Outs.push_back(V ? Token{Token::Live, std::move(*V), nullptr} : Token{});
    Token Control{K, TensorData(), Why};
    if (K != Token::Live)
      Outs.assign(std::max<size_t>(Outs.size(), 1), Control);
    emit(W.It, N, std::move(Outs), Control);
  };

  if (isMergeOp(N.op())) {
    // The first live data input; one that failed spoils the result.
    if (P.ControlFailed)
      return finish(Token::Failed, P.ControlFailed, {});
    for (size_t I = 0; I < P.Data.size(); ++I)
      if (P.Arrived[I] && P.Data[I].K == Token::Failed)
        return finish(Token::Failed, P.Data[I].Why, {});
    for (size_t I = 0; I < P.Data.size(); ++I)
      if (P.Arrived[I] && P.Data[I].K == Token::Live)
        return finish(Token::Live, nullptr,
                      {std::move(P.Data[I].Value), scalarInt32(static_cast<int32_t>(I))});
    return finish(Token::Dead, nullptr, {});
  }
  std::shared_ptr<const NotComputed> Failed = P.ControlFailed;
  bool Dead = P.ControlDead;
  std::vector<TensorData> Inputs;
  for (Token &T : P.Data) {
    if (T.K == Token::Failed && !Failed)
      Failed = T.Why;
    Dead |= T.K == Token::Dead;
    Inputs.push_back(std::move(T.Value));
  }
  if (Failed)
    return finish(Token::Failed, Failed, {});
  if (Dead)
    return finish(Token::Dead, nullptr, {});

  if (absl::Status Charged = charge(N, *W.It); !Charged.ok()) {
    S.OverBudget = Charged;
    return finish(Token::Failed, blame(N, std::string(Charged.message()), false), {});
  }
  CalleeBlame = nullptr;
  absl::StatusOr<std::vector<std::optional<TensorData>>> Out = compute(N, std::move(Inputs));
  if (CalleeBlame && !Out.ok()) {
    // What the called function could not run is the call's reason.
    return finish(Token::Failed, CalleeBlame, {});
  }
  if (absl::IsResourceExhausted(Out.status())) {
    std::string Message = absl::StrCat("node '", Prefix, N.name().str(), "' (", N.op().str(),
                                       "): ", Out.status().message());
    // Memory that ran out is no flag's.
    if (S.Budget.Exceeded == eval::EvalBudget::Limit::Work)
      absl::StrAppend(&Message, "; raise it with --eval-budget=N");
    else if (S.Budget.Exceeded == eval::EvalBudget::Limit::TensorBytes)
      absl::StrAppend(&Message, "; raise it with --eval-max-bytes=N");
    if (S.OverBudget.ok())
      S.OverBudget = absl::ResourceExhaustedError(Message);
    return finish(Token::Failed, blame(N, Message, false), {});
  }
  if (!Out.ok()) {
    bool NoKernel = absl::IsUnimplemented(Out.status());
    return finish(Token::Failed, blame(N, std::string(Out.status().message()), NoKernel), {});
  }
  uint64_t Bytes = 0;
  for (const std::optional<TensorData> &V : *Out)
    if (V)
      Bytes += bytesOf(*V);
  if (S.LiveBytes + Bytes > MaxLiveBytes)
    return finish(Token::Failed,
                  blame(N,
                        absl::StrCat("the run would hold more than ", MaxLiveBytes >> 30,
                                     " GiB of tensors (verification's budget); feed smaller "
                                     "inputs with --input-shape"),
                        /*NoKernel=*/false, /*OverLimit=*/true),
                  {});
  ++S.NodesRun;
  finish(Token::Live, nullptr, *std::move(Out));
}

} // namespace runner

using runner::Executor, runner::Outcome, runner::RunState, runner::Token;

absl::StatusOr<RunResult> runGraph(const Graph &G, const RunRequest &Request) {
  std::vector<const Node *> Targets;
  for (const std::string &F : Request.Fetches) {
    const Node *N = G.findNode(F);
    if (!N)
      return absl::NotFoundError(absl::StrCat("no node '", F, "' to fetch"));
    Targets.push_back(N);
  }
  RunState S(G, Request);
  if (!Request.Initializers.empty()) {
    std::vector<const Node *> Inits;
    for (const std::string &I : Request.Initializers) {
      const Node *N = G.findNode(I);
      if (!N)
        return absl::NotFoundError(absl::StrCat("no initializer node '", I, "' to run"));
      Inits.push_back(N);
    }
    // What the initializers lack is the outputs' concern only when a
    // lookup finds its table empty (compute() then names it).
    std::map<std::string, std::set<std::string>> NoKernel = S.NoKernel;
    Executor Init(G, S, {}, nullptr);
    FROST_ASSIGN_OR_RETURN(std::vector<Outcome> Done, Init.run(Inits));
    for (const Outcome &O : Done)
      if (O.K == Token::Failed && !S.InitFailed)
        S.InitFailed = O.Why;
    S.NoKernel = std::move(NoKernel);
  }
  Executor Top(G, S, {}, nullptr);
  FROST_ASSIGN_OR_RETURN(std::vector<Outcome> Outcomes, Top.run(Targets));
  RunResult Result;
  for (size_t I = 0; I < Targets.size(); ++I) {
    Outcome &O = Outcomes[I];
    FetchedNode Out{Request.Fetches[I], {}, std::nullopt, O.K == Token::Dead};
    if (O.K == Token::Failed)
      Out.Missing = *O.Why;
    else if (O.K == Token::Live)
      Out.Outputs = std::move(O.Outputs);
    Result.Fetched.push_back(std::move(Out));
  }
  for (auto &[Op, Nodes] : S.NoKernel)
    Result.NoKernel[Op].assign(Nodes.begin(), Nodes.end());
  Result.NodesRun = S.NodesRun;
  return Result;
}

} // namespace frost::verify
