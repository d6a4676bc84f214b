//===- Matchers.h - Matching nodes by op and relation -----------*- C++ -*-===//
//
// Small helpers for rewrite passes, in the spirit of Binaryen's src/ir/match.h:
// a pattern is tested on a Node and walks its inputs and use lists in place,
// so nothing is copied and a failed match costs a few comparisons. Every
// helper takes null and answers "no match", so they chain. Mul(x, Const)
// whose result only an AddV2 reads:
//
//   Node *C = matchInput(N, 1, "Const");
//   if (matchOp(N, "Mul") && C && matchOp(singleConsumer(*N), "AddV2")) ...
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_MATCHERS_H
#define FROST_IR_MATCHERS_H

#include "frost/IR/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <initializer_list>

namespace frost {

/// N is a node whose op is `Op`.
inline bool matchOp(const Node *N, llvm::StringRef Op) { return N && N->op() == Op; }
/// N is a node whose op is one of `Ops`.
inline bool matchOp(const Node *N, std::initializer_list<llvm::StringRef> Ops) {
  return N && llvm::is_contained(Ops, N->op());
}

/// The producer behind data input `I` of N, or null when N has no such data
/// input.
inline Node *dataInputNode(const Node *N, unsigned I) {
  return N && I < N->numDataInputs() ? N->input(I).Src : nullptr;
}

/// The producer behind data input `I` of N when that input reads output
/// `Port` of an `Op` node; null otherwise.
inline Node *matchInput(const Node *N, unsigned I, llvm::StringRef Op, int Port = 0) {
  Node *Src = dataInputNode(N, I);
  return matchOp(Src, Op) && N->input(I).Port == Port ? Src : nullptr;
}

/// How many data inputs read output `Port` of N.
inline unsigned numDataUses(const Node &N, int Port = 0) {
  return static_cast<unsigned>(llvm::count_if(N.uses(), [&](const Use &U) {
    const Input &In = U.User->input(U.InputIndex);
    return !In.isControl() && In.Port == Port;
  }));
}

/// The only node that depends on N, when N has exactly one use and it is a
/// data input: a rewrite may then fold N into it. Null otherwise. The graph
/// does not know which nodes are fetched: the caller checks N is no output.
inline Node *singleConsumer(const Node &N) {
  if (N.uses().size() != 1)
    return nullptr;
  const Use &U = N.uses().front();
  return U.User->input(U.InputIndex).isControl() ? nullptr : U.User;
}

} // namespace frost

#endif // FROST_IR_MATCHERS_H
