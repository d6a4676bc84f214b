//===- ExecutionOrder.cpp - An order in which the nodes can run -----------===//
#include "frost/IR/ExecutionOrder.h"

#include "frost/IR/OpClasses.h"

#include <functional>
#include <queue>

namespace frost {

namespace {

/// Merge and its relatives forward whichever data input arrives first.
bool waitsForOneDataInput(const Node &N) {
  return isMergeOp(N.op()) || N.op() == "_XlaMerge";
}

} // namespace

ExecutionOrder executionOrder(Graph &G, ReadyPolicy Policy, MergeReadiness Merges) {
  std::vector<Node *> ByPosition;
  ByPosition.reserve(G.size());
  std::vector<unsigned> Position(G.idBound());
  // Consumers per producer, in graph order, once per input entry (as
  // graph_transforms builds them from NodeDef.input strings).
  std::vector<std::vector<std::pair<Node *, bool>>> Consumers(G.idBound());
  std::vector<unsigned> PendingControl(G.idBound()), PendingData(G.idBound());
  for (Node &N : G) {
    Position[N.id()] = ByPosition.size();
    ByPosition.push_back(&N);
    for (const Input &In : N.inputs())
      Consumers[In.Src->id()].push_back({&N, In.isControl()});
    unsigned Data = N.numDataInputs();
    PendingControl[N.id()] = N.numInputs() - Data;
    PendingData[N.id()] =
        Merges == MergeReadiness::OneDataInput && waitsForOneDataInput(N) && Data > 0 ? 1 : Data;
  }

  auto Later = [&](Node *A, Node *B) { return Position[A->id()] > Position[B->id()]; };
  std::vector<Node *> Stack;
  std::priority_queue<Node *, std::vector<Node *>, std::function<bool(Node *, Node *)>> Earliest(
      Later);
  auto push = [&](Node *N) {
    if (Policy == ReadyPolicy::Stack)
      Stack.push_back(N);
    else
      Earliest.push(N);
  };
  auto pop = [&]() {
    Node *N;
    if (Policy == ReadyPolicy::Stack) {
      N = Stack.back();
      Stack.pop_back();
    } else {
      N = Earliest.top();
      Earliest.pop();
    }
    return N;
  };
  auto ready = [&](const Node &N) {
    return PendingControl[N.id()] == 0 && PendingData[N.id()] == 0;
  };

  ExecutionOrder Result;
  std::vector<char> Done(G.idBound());
  for (Node *N : ByPosition)
    if (N->numInputs() == 0)
      push(N);
  while (!Stack.empty() || !Earliest.empty()) {
    Node *N = pop();
    Done[N->id()] = true;
    Result.Sorted.push_back(N);
    for (auto [User, Control] : Consumers[N->id()]) {
      unsigned &Pending = Control ? PendingControl[User->id()] : PendingData[User->id()];
      if (Done[User->id()] || Pending == 0)
        continue; // a Merge's later data inputs
      --Pending;
      if (ready(*User))
        push(User);
    }
  }
  for (Node *N : ByPosition)
    if (!Done[N->id()])
      Result.Unordered.push_back(N);
  return Result;
}

} // namespace frost
