//===- ConstructionOrder.cpp - TensorFlow's GraphConstructor order --------===//
#include "frost/IR/ConstructionOrder.h"

#include "frost/IR/Graph.h"
#include "frost/IR/OpClasses.h"

#include <functional>
#include <queue>

namespace frost {

std::vector<unsigned> constructionOrder(std::vector<int> Pending,
                                        const std::vector<std::vector<unsigned>> &Readers) {
  std::priority_queue<unsigned, std::vector<unsigned>, std::greater<>> Ready;
  for (unsigned I = 0; I < Pending.size(); ++I)
    if (Pending[I] <= 0)
      Ready.push(I);
  std::vector<unsigned> Order;
  std::vector<bool> Placed(Pending.size());
  while (!Ready.empty()) {
    unsigned I = Ready.top();
    Ready.pop();
    Order.push_back(I);
    Placed[I] = true;
    for (unsigned R : Readers[I])
      if (--Pending[R] == 0)
        Ready.push(R);
  }
  for (unsigned I = 0; I < Pending.size(); ++I)
    if (!Placed[I])
      Order.push_back(I);
  return Order;
}

std::vector<Node *> graphConstructionOrder(const Graph &G) {
  std::vector<Node *> List;
  std::vector<unsigned> Position(G.idBound());
  for (Node &N : const_cast<Graph &>(G)) {
    Position[N.id()] = List.size();
    List.push_back(&N);
  }
  std::vector<int> Pending(List.size());
  std::vector<std::vector<unsigned>> Readers(List.size());
  for (unsigned I = 0; I < List.size(); ++I) {
    const Node &N = *List[I];
    // A loop's Merge waits for its entry and its control inputs only.
    bool LoopMerge = isMergeOp(N.op()) && llvm::any_of(N.dataInputs(), [](const Input &In) {
                       return isNextIterationOp(In.Src->op());
                     });
    Pending[I] = LoopMerge ? N.controlInputs().size() + 1 : N.numInputs();
    for (const Use &U : N.uses())
      if (!(isNextIterationOp(N.op()) && isMergeOp(U.User->op())))
        Readers[I].push_back(Position[U.User->id()]);
  }
  std::vector<Node *> Order;
  for (unsigned I : constructionOrder(std::move(Pending), Readers))
    Order.push_back(List[I]);
  return Order;
}

} // namespace frost
