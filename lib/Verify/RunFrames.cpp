//===- RunFrames.cpp - The graph runner's frames and iterations ----------===//
//
// A dataflow executor after TensorFlow's: a node runs once all of its inputs
// arrived (a Merge once one live data input did, or all of them dead), in a
// frame and iteration. Enter moves a value into a child frame (a constant
// Enter into each of its iterations), NextIteration into the next iteration,
// Exit back to the parent; a dead NextIteration ends the loop, a dead Exit
// reaches the parent only once its frame is done (the loop's last live Exit
// wins). RunCalls.cpp runs function calls, If, Case and While: the called functions' bodies
// with another executor over the same run state (budget, containers,
//
//===----------------------------------------------------------------------===//
#include "RunExecutor.h"

#include "frost/IR/OpClasses.h"

#include "llvm/ADT/STLExtras.h"

namespace frost::verify::runner {

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
  if (fed(User))
    return; // it ran as a source
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
    if (fed(*N))
      continue;
    for (const Input &In : N->inputs())
      Stack.push_back(In.Src);
  }
  Outcomes.assign(Targets.size(), Outcome());
  Iteration *Top = iteration(&Root, 0);
  for (const Node &N : G)
    if (Needed[N.id()] && (N.numInputs() == 0 || fed(N))) {
      ++Top->Unfinished;
      Ready.push_back({Top, &N, {}});
    }
  while (true) {
    while (!Ready.empty()) {
      WorkItem W = std::move(Ready.front());
      Ready.pop_front();
      // Sources are counted when queued (they have no Waiting entry).
      if (W.N->numInputs() == 0 || fed(*W.N))
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

} // namespace frost::verify::runner
