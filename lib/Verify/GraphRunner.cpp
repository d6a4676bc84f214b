//===- GraphRunner.cpp - Running an inference graph on given inputs ------===//
//
// A dataflow executor after TensorFlow's: a node runs once all of its inputs
// arrived (a Merge once one live data input did, or all of them dead), in a
// frame and iteration. Enter moves a value into a child frame (a constant
// Enter into each of its iterations), NextIteration into the next iteration,
// Exit back to the parent; a dead NextIteration ends the loop, a dead Exit
// reaches the parent only once its frame is done (the loop's last live Exit
// wins). Function calls, If, Case and While run the called functions' bodies
// with another executor over the same run state (budget, containers,
// findings).
//
//===----------------------------------------------------------------------===//
#include "frost/Verify/GraphRunner.h"

#include "RunContainers.h"

#include "frost/Eval/Eval.h"
#include "frost/IR/ConstValue.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Support/File.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/Truth.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"

#include <deque>
#include <set>
#include <unordered_map>

namespace frost::verify {

namespace {

/// Calls nested deeper than this fail (a function that calls itself).
constexpr unsigned MaxCallDepth = 64;
/// Work units each node run inside a loop or a function costs besides its
/// kernel: a loop of cheap nodes that never ends runs out of budget in
/// about as long as the budget's kernels would take.
constexpr uint64_t NodeRunWork = 100'000;
/// The most a run may hold at once: a graph that needs more is not run
/// (each kernel also refuses outputs over 2 GiB).
constexpr uint64_t MaxLiveBytes = uint64_t{4} << 30;

TensorData scalarInt32(int32_t V) {
  return TensorData::owned(tensorflow::DT_INT32, {}, std::string(reinterpret_cast<char *>(&V), 4));
}

uint64_t bytesOf(const TensorData &V) {
  uint64_t Bytes = V.bytes().size();
  for (const std::string &E : V.elements())
    Bytes += E.size();
  return Bytes;
}

bool isEnterOp(llvm::StringRef Op) { return Op == "Enter" || Op == "RefEnter"; }
bool isExitOp(llvm::StringRef Op) { return Op == "Exit" || Op == "RefExit"; }

/// What travels on an edge: a value, a dead tensor (a branch not taken), or
/// the news that the producer (or one before it) could not run.
struct Token {
  enum Kind { Live, Dead, Failed } K = Dead;
  TensorData Value;
  std::shared_ptr<const NotComputed> Why;
};

/// The state of one run shared by the executors of its graph and of the
/// function bodies it calls.
struct RunState {
  RunState(const Graph &G, const RunRequest &Request)
      : Request(Request), Functions(G.library()), Budget(Request.Budget) {
    Ops.add(G.library());
    Ops.fallBackToStandardOps();
  }
  const RunRequest &Request;
  OpRegistry Ops;
  FunctionIndex Functions;
  std::map<std::string, std::unique_ptr<StandaloneBody>, std::less<>> Bodies;
  eval::EvalBudget Budget;
  /// Why the run stopped (a budget spent); OK while it goes on.
  absl::Status OverBudget;
  unsigned CallDepth = 0;
  /// The functional While loops running now, innermost last, with their
  /// iteration: what a budget that runs out inside their bodies names.
  std::vector<std::pair<std::string, int64_t>> Loops;
  std::map<std::string, std::set<std::string>> NoKernel;
  RunContainers Containers;
  uint64_t LiveBytes = 0;
  size_t NodesRun = 0;
};

struct Frame;

/// One iteration of a frame (the root frame has one).
struct Iteration {
  /// A node's inputs arrived so far.
  struct Pending {
    std::vector<Token> Data;
    std::vector<bool> Arrived;
    unsigned DataArrived = 0, DeadData = 0, ControlArrived = 0;
    bool ControlDead = false;
    std::shared_ptr<const NotComputed> ControlFailed;
    bool LiveOrFailedData = false;
    /// A Merge that ran ignores its later inputs.
    bool Fired = false;
  };
  Frame *Owner = nullptr;
  int64_t Index = 0;
  std::unordered_map<unsigned, Pending> Waiting;
  /// Waiting entries not run yet.
  size_t Unfinished = 0;
  /// Child frames entered from this iteration, by frame_name.
  std::map<std::string, std::unique_ptr<Frame>, std::less<>> Children;
};

struct Frame {
  std::string Name;
  Iteration *Parent = nullptr;
  std::vector<std::unique_ptr<Iteration>> Iterations;
  /// Values of constant Enters, given to every iteration.
  std::vector<std::pair<const Node *, Token>> Invariants;
  /// Exit nodes that gave the parent their value.
  std::set<unsigned> ExitsDone;
  /// Exit nodes that ran dead: their dead value leaves once the frame is done
  /// unless they ran live meanwhile.
  std::vector<const Node *> DeadExits;
  /// Why the loop stopped early: its LoopCond failed (no iteration can
  /// follow; its Exits fail).
  std::shared_ptr<const NotComputed> Poisoned;
};

struct WorkItem {
  Iteration *It;
  const Node *N;
  Iteration::Pending In;
};

/// What became of a node the caller asked for.
struct Outcome {
  bool Reached = false;
  Token::Kind K = Token::Dead;
  std::vector<std::optional<TensorData>> Outputs;
  std::shared_ptr<const NotComputed> Why;
};

class Executor {
public:
  /// `Args`: the values of a function body's argument placeholders.
  /// `Callers`: the call nodes this body runs under, outermost first.
  Executor(const Graph &G, RunState &S, std::vector<std::string> Callers,
           const llvm::DenseMap<const Node *, TensorData> *Args)
      : G(G), S(S), Callers(std::move(Callers)), Args(Args) {
    // A deep chain of calls is named by its ends.
    for (size_t I = 0; I < this->Callers.size(); ++I) {
      if (this->Callers.size() > 4 && I == 1)
        Prefix += ".../";
      if (this->Callers.size() <= 4 || I == 0 || I + 1 == this->Callers.size())
        Prefix += this->Callers[I] + "/";
    }
  }

  /// Runs what `Targets` need; the outcome of each, in order. Errors only
  /// when the run's budget is spent.
  absl::StatusOr<std::vector<Outcome>> run(llvm::ArrayRef<const Node *> Targets);

private:
  void execute(WorkItem W);
  absl::StatusOr<std::vector<std::optional<TensorData>>> compute(const Node &N,
                                                                 std::vector<TensorData> Inputs);
  absl::StatusOr<std::vector<TensorData>> call(const Node &Caller, llvm::StringRef Function,
                                               std::vector<TensorData> Args);
  absl::Status charge(const Node &N, const Iteration &It);
  std::shared_ptr<const NotComputed> blame(const Node &N, std::string Reason, bool NoKernel,
                                           bool OverLimit = false);

  /// Hands N's outputs (one token per port; `Control` for its control edges)
  /// to its consumers, in the iteration they belong to.
  void emit(Iteration *It, const Node &N, std::vector<Token> Outs, Token Control);
  void deliver(Iteration *It, const Node &Src, const Token &Out, const Token &Control);
  void deliverTo(Iteration *It, const Node &User, unsigned InputIndex, const Token &T);
  Iteration *iteration(Frame *F, int64_t Index);
  bool done(const Frame &F) const;
  /// Sends the dead Exits of frames that are done: whether any was.
  bool resolveDeadExits();

  const Graph &G;
  RunState &S;
  std::vector<std::string> Callers;
  /// Put before the names of this body's nodes: `call/`, `outer/.../inner/`.
  std::string Prefix;
  const llvm::DenseMap<const Node *, TensorData> *Args;
  std::vector<bool> Needed;
  std::vector<int> TargetIndex;
  std::vector<Outcome> Outcomes;
  Frame Root;
  std::deque<WorkItem> Ready;
  std::vector<Frame *> WithDeadExits;
  /// Set by call(): the body's node to blame for a call that failed.
  std::shared_ptr<const NotComputed> CalleeBlame;
};

std::shared_ptr<const NotComputed> Executor::blame(const Node &N, std::string Reason,
                                                   bool NoKernel, bool OverLimit) {
  std::string Name = Prefix + N.name().str();
  if (NoKernel)
    S.NoKernel[N.op().str()].insert(Name);
  return std::make_shared<NotComputed>(
      NotComputed{std::move(Name), N.op().str(), std::move(Reason), NoKernel, OverLimit});
}

Iteration *Executor::iteration(Frame *F, int64_t Index) {
  while (static_cast<int64_t>(F->Iterations.size()) <= Index) {
    auto It = std::make_unique<Iteration>();
    It->Owner = F;
    It->Index = static_cast<int64_t>(F->Iterations.size());
    Iteration *Raw = It.get();
    F->Iterations.push_back(std::move(It));
    for (const auto &[Enter, Value] : F->Invariants)
      deliver(Raw, *Enter, Value, Value);
  }
  return F->Iterations[Index].get();
}

void Executor::deliverTo(Iteration *It, const Node &User, unsigned InputIndex, const Token &T) {
  auto [Entry, Inserted] = It->Waiting.try_emplace(User.id());
  Iteration::Pending &P = Entry->second;
  if (Inserted) {
    P.Data.resize(User.numDataInputs());
    P.Arrived.resize(User.numDataInputs());
    ++It->Unfinished;
  }
  if (P.Fired)
    return;
  const Input &In = User.input(InputIndex);
  if (In.isControl()) {
    ++P.ControlArrived;
    P.ControlDead |= T.K == Token::Dead;
    if (T.K == Token::Failed && !P.ControlFailed)
      P.ControlFailed = T.Why;
  } else {
    if (P.Arrived[InputIndex])
      return; // TensorFlow refuses a graph that sends twice; keep the first.
    P.Arrived[InputIndex] = true;
    ++P.DataArrived;
    P.Data[InputIndex] = T;
    if (T.K == Token::Live)
      S.LiveBytes += bytesOf(T.Value);
    P.DeadData += T.K == Token::Dead;
    P.LiveOrFailedData |= T.K != Token::Dead;
  }
  unsigned NumData = User.numDataInputs();
  unsigned NumControl = User.numInputs() - NumData;
  bool IsReady;
  if (isMergeOp(User.op())) {
    // A loop's Merge hears from its Enter in iteration 0 and from its
    // NextIteration after.
    unsigned Expected = 0;
    bool Loop = llvm::any_of(User.dataInputs(),
                             [](const Input &I) { return isNextIterationOp(I.Src->op()); });
    for (const Input &I : User.dataInputs())
      Expected += !Loop || (isNextIterationOp(I.Src->op()) == (It->Index > 0));
    IsReady = P.ControlArrived == NumControl && (P.LiveOrFailedData || P.DeadData == Expected);
  } else {
    IsReady = P.DataArrived == NumData && P.ControlArrived == NumControl;
  }
  if (!IsReady)
    return;
  --It->Unfinished;
  if (isMergeOp(User.op())) {
    Ready.push_back({It, &User, P});
    P.Fired = true;
    P.Data.clear();
  } else {
    Ready.push_back({It, &User, std::move(P)});
    It->Waiting.erase(Entry);
  }
}

void Executor::deliver(Iteration *It, const Node &Src, const Token &Out, const Token &Control) {
  for (const Use &U : Src.uses()) {
    if (!Needed[U.User->id()])
      continue;
    const Input &In = U.User->input(U.InputIndex);
    deliverTo(It, *U.User, U.InputIndex, In.isControl() ? Control : Out);
  }
}

void Executor::emit(Iteration *It, const Node &N, std::vector<Token> Outs, Token Control) {
  Frame *F = It->Owner;
  llvm::StringRef Op = N.op();
  auto port = [&](const Use &U) -> const Token & {
    const Input &In = U.User->input(U.InputIndex);
    if (In.isControl() || static_cast<size_t>(In.Port) >= Outs.size())
      return Control;
    return Outs[In.Port];
  };
  auto sendAll = [&](Iteration *To) {
    for (const Use &U : N.uses())
      if (Needed[U.User->id()])
        deliverTo(To, *U.User, U.InputIndex, port(U));
  };
  if (Outs.empty())
    Outs.push_back(Control);
  if (isEnterOp(Op)) {
    const tensorflow::AttrValue *Name = N.findAttr("frame_name");
    std::string FrameName = Name ? Name->s() : "";
    auto &Child = It->Children[FrameName];
    if (!Child) {
      Child = std::make_unique<Frame>();
      Child->Name = FrameName;
      Child->Parent = It;
      iteration(Child.get(), 0); // iteration 0 is there from the start
    }
    const tensorflow::AttrValue *Constant = N.findAttr("is_constant");
    if (Constant && Constant->b()) {
      Child->Invariants.push_back({&N, Outs[0]});
      for (size_t I = 0; I < Child->Iterations.size(); ++I)
        sendAll(Child->Iterations[I].get());
      return;
    }
    return sendAll(iteration(Child.get(), 0));
  }
  if (isExitOp(Op)) {
    if (!F->Parent)
      return sendAll(It); // TensorFlow refuses an Exit outside a loop; the value stays.
    if (F->ExitsDone.count(N.id()))
      return;
    if (Outs[0].K == Token::Dead) {
      if (F->DeadExits.empty())
        WithDeadExits.push_back(F);
      F->DeadExits.push_back(&N);
      return;
    }
    F->ExitsDone.insert(N.id());
    return sendAll(F->Parent);
  }
  if (isNextIterationOp(Op)) {
    // A dead value ends the loop; a failed one goes on (the loop may end
    // without it) unless the loop's condition failed.
    if (Outs[0].K == Token::Dead || !F->Parent || F->Poisoned)
      return;
    return sendAll(iteration(F, It->Index + 1));
  }
  if (Op == "LoopCond" && Outs[0].K == Token::Failed && !F->Poisoned)
    F->Poisoned = Outs[0].Why;
  sendAll(It);
}

bool Executor::done(const Frame &F) const {
  for (const std::unique_ptr<Iteration> &It : F.Iterations) {
    if (It->Unfinished)
      return false;
    for (const auto &[Name, Child] : It->Children)
      if (!done(*Child))
        return false;
  }
  return true;
}

bool Executor::resolveDeadExits() {
  bool Any = false;
  std::vector<Frame *> Pending;
  for (Frame *F : WithDeadExits) {
    if (!done(*F)) {
      Pending.push_back(F);
      continue;
    }
    Any = true;
    for (const Node *Exit : F->DeadExits) {
      if (!F->ExitsDone.insert(Exit->id()).second)
        continue;
      Token T;
      if (F->Poisoned) {
        T.K = Token::Failed;
        T.Why = F->Poisoned;
      }
      for (const Use &U : Exit->uses())
        if (Needed[U.User->id()])
          deliverTo(F->Parent, *U.User, U.InputIndex, T);
    }
    F->DeadExits.clear();
  }
  WithDeadExits = std::move(Pending);
  return Any;
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

absl::StatusOr<std::vector<TensorData>> Executor::call(const Node &Caller,
                                                       llvm::StringRef Function,
                                                       std::vector<TensorData> ArgValues) {
  const tensorflow::FunctionDef *F = S.Functions.find(Function);
  if (!F)
    return absl::InvalidArgumentError(
        absl::StrCat("calls function '", Function.str(), "', which the library does not define"));
  if (S.CallDepth >= MaxCallDepth)
    return absl::InvalidArgumentError(
        absl::StrCat("calls nested deeper than ", MaxCallDepth, " at function '", Function.str(),
                     "' (a function that calls itself?)"));
  auto &Body = S.Bodies[Function.str()];
  if (!Body) {
    absl::StatusOr<std::unique_ptr<StandaloneBody>> Made = instantiateStandalone(*F, S.Ops);
    if (!Made.ok())
      return absl::InvalidArgumentError(absl::StrCat("function '", Function.str(),
                                                     "' does not instantiate: ",
                                                     Made.status().message()));
    Body = *std::move(Made);
  }
  const tensorflow::OpDef &Sig = F->signature();
  if (static_cast<size_t>(Sig.input_arg_size()) != ArgValues.size())
    return absl::InvalidArgumentError(absl::StrCat("passes ", ArgValues.size(),
                                                   " arguments to function '", Function.str(),
                                                   "', which takes ", Sig.input_arg_size()));
  llvm::DenseMap<const Node *, TensorData> Bound;
  for (int I = 0; I < Sig.input_arg_size(); ++I)
    if (const Node *P = Body->Body.findNode(absl::StrCat("^", Sig.input_arg(I).name())))
      Bound[P] = std::move(ArgValues[I]);
  std::vector<const Node *> Targets;
  for (const TensorOf &R : Body->Copy.Returns)
    Targets.push_back(R.Src);
  std::vector<std::string> Path = Callers;
  Path.push_back(Caller.name().str());
  Executor Callee(Body->Body, S, std::move(Path), &Bound);
  ++S.CallDepth;
  absl::StatusOr<std::vector<Outcome>> Outcomes = Callee.run(Targets);
  --S.CallDepth;
  FROST_RETURN_IF_ERROR(Outcomes.status());
  std::vector<TensorData> Results;
  for (size_t I = 0; I < Targets.size(); ++I) {
    const Outcome &O = (*Outcomes)[I];
    int Port = Body->Copy.Returns[I].Port;
    if (O.K == Token::Failed) {
      CalleeBlame = O.Why;
      return absl::InternalError("callee failed");
    }
    if (O.K == Token::Dead || static_cast<size_t>(Port) >= O.Outputs.size() || !O.Outputs[Port])
      return absl::InvalidArgumentError(absl::StrCat("function '", Function.str(),
                                                     "' returns a dead tensor as output ", I));
    Results.push_back(*O.Outputs[Port]);
  }
  return Results;
}

absl::StatusOr<std::vector<std::optional<TensorData>>>
Executor::compute(const Node &N, std::vector<TensorData> Inputs) {
  using Outs = std::vector<std::optional<TensorData>>;
  auto wrap = [](std::vector<TensorData> Out) {
    return Outs(std::make_move_iterator(Out.begin()), std::make_move_iterator(Out.end()));
  };
  llvm::StringRef Op = N.op();
  eval::EvalBudget &Budget = S.Budget;
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
  if (RunContainers::runs(Op)) {
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                           S.Containers.run(N, std::move(Inputs), Budget));
    return wrap(std::move(Out));
  }
  auto functionAttr = [&](llvm::StringRef Name) -> absl::StatusOr<std::string> {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || !A->has_func())
      return absl::InvalidArgumentError(absl::StrCat("has no function attribute '", Name.str(), "'"));
    return A->func().name();
  };
  if (isPartitionedCallOp(Op)) {
    FROST_ASSIGN_OR_RETURN(std::string F, functionAttr("f"));
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, F, std::move(Inputs)));
    return wrap(std::move(Out));
  }
  if (S.Functions.find(Op)) {
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, Op, std::move(Inputs)));
    return wrap(std::move(Out));
  }
  if (isIfOp(Op) || isCaseOp(Op)) {
    if (Inputs.empty())
      return absl::InvalidArgumentError("expected a predicate input");
    TensorData Selector = std::move(Inputs.front());
    Inputs.erase(Inputs.begin());
    std::string Branch;
    if (isIfOp(Op)) {
      std::optional<bool> Truth = truthOf(Selector);
      if (!Truth)
        return absl::InvalidArgumentError(absl::StrCat(
            "its cond is ", dataTypeName(Selector.dtype()), ", which TensorFlow cannot take as true or false"));
      FROST_ASSIGN_OR_RETURN(Branch, functionAttr(*Truth ? "then_branch" : "else_branch"));
    } else {
      const tensorflow::AttrValue *Branches = N.findAttr("branches");
      if (!Branches || Branches->list().func_size() == 0)
        return absl::InvalidArgumentError("has no branches");
      if (Selector.dtype() != tensorflow::DT_INT32 || !Selector.shape().empty())
        return absl::InvalidArgumentError("its branch_index must be an int32 scalar");
      int32_t Index = Selector.element<int32_t>(0);
      int Count = Branches->list().func_size();
      // Case runs its last branch for an index out of range.
      Branch = Branches->list().func(Index < 0 || Index >= Count ? Count - 1 : Index).name();
    }
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, Branch, std::move(Inputs)));
    return wrap(std::move(Out));
  }
  if (isWhileOp(Op)) {
    FROST_ASSIGN_OR_RETURN(std::string Cond, functionAttr("cond"));
    FROST_ASSIGN_OR_RETURN(std::string Body, functionAttr("body"));
    S.Loops.push_back({Prefix + N.name().str(), 0});
    auto Popped = llvm::make_scope_exit([&] { S.Loops.pop_back(); });
    for (int64_t Iteration = 0;; ++Iteration) {
      S.Loops.back().second = Iteration;
      FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Predicate, call(N, Cond, Inputs));
      if (Predicate.empty())
        return absl::InvalidArgumentError(absl::StrCat("its cond '", Cond, "' returns nothing"));
      std::optional<bool> Truth = truthOf(Predicate[0]);
      if (!Truth)
        return absl::InvalidArgumentError(absl::StrCat(
            "its cond '", Cond, "' returns ", dataTypeName(Predicate[0].dtype()),
            ", which TensorFlow cannot take as true or false"));
      if (!*Truth)
        break;
      if (Budget.WorkLeft < NodeRunWork) {
        Budget.Exceeded = eval::EvalBudget::Limit::Work;
        return absl::ResourceExhaustedError(absl::StrCat(
            "the loop was still running at iteration ", Iteration,
            " when the evaluation budget ran out"));
      }
      Budget.WorkLeft -= NodeRunWork;
      FROST_ASSIGN_OR_RETURN(Inputs, call(N, Body, std::move(Inputs)));
    }
    return wrap(std::move(Inputs));
  }
  FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out,
                         eval::evaluate(Op, Inputs, N.attrs(), eval::Exactness::WithinRounding,
                                        &Budget));
  return wrap(std::move(Out));
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

absl::StatusOr<std::vector<Outcome>> Executor::run(llvm::ArrayRef<const Node *> Targets) {
  // What the targets need: everything upstream of them, loops included.
  Needed.assign(G.idBound(), false);
  TargetIndex.assign(G.idBound(), -1);
  std::vector<const Node *> Stack;
  for (size_t I = 0; I < Targets.size(); ++I) {
    if (TargetIndex[Targets[I]->id()] < 0)
      TargetIndex[Targets[I]->id()] = static_cast<int>(I);
    Stack.push_back(Targets[I]);
  }
  while (!Stack.empty()) {
    const Node *N = Stack.back();
    Stack.pop_back();
    if (Needed[N->id()])
      continue;
    Needed[N->id()] = true;
    for (const Input &In : N->inputs())
      Stack.push_back(In.Src);
  }
  Outcomes.assign(Targets.size(), Outcome());
  Iteration *Top = iteration(&Root, 0);
  for (const Node &N : G)
    if (Needed[N.id()] && N.numInputs() == 0) {
      ++Top->Unfinished;
      Ready.push_back({Top, &N, {}});
    }
  while (true) {
    while (!Ready.empty()) {
      WorkItem W = std::move(Ready.front());
      Ready.pop_front();
      // Sources are counted when queued (they have no Waiting entry).
      if (W.N->numInputs() == 0)
        --W.It->Unfinished;
      execute(std::move(W));
      if (!S.OverBudget.ok())
        return S.OverBudget;
    }
    if (!resolveDeadExits())
      break;
  }
  // Several targets may be one node: each gets its outcome.
  for (size_t I = 0; I < Targets.size(); ++I)
    Outcomes[I] = Outcomes[TargetIndex[Targets[I]->id()]];
  for (size_t I = 0; I < Targets.size(); ++I)
    if (!Outcomes[I].Reached)
      Outcomes[I] = {true, Token::Failed, {},
                     blame(*Targets[I],
                           "never ran: it waits on a cycle that is no well-formed while loop "
                           "(or on a value no frame sends)",
                           false)};
  return Outcomes;
}

} // namespace

absl::StatusOr<RunResult> runGraph(const Graph &G, const RunRequest &Request) {
  std::vector<const Node *> Targets;
  for (const std::string &F : Request.Fetches) {
    const Node *N = G.findNode(F);
    if (!N)
      return absl::NotFoundError(absl::StrCat("no node '", F, "' to fetch"));
    Targets.push_back(N);
  }
  RunState S(G, Request);
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
