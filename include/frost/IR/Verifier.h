//===- Verifier.h - Structural checks of a graph ----------------*- C++ -*-===//
#ifndef FROST_IR_VERIFIER_H
#define FROST_IR_VERIFIER_H

#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace frost {

class Graph;
class Node;

/// Checks what a valid TensorFlow graph needs beyond what Graph maintains by
/// construction (unique names, resolved inputs): data inputs before control
/// inputs, output ports within the producer's known outputs, no data edge from
/// an op without outputs, and no cycle except through NextIteration back
/// edges of TF1 while loops. Every finding names its node; all are reported.
absl::Status verifyGraph(const Graph &G);

/// The nodes of `Nodes` that no topological order reaches because a cycle
/// (not broken by a NextIteration back edge) runs through or before them;
/// edges from nodes outside `Nodes` are ignored. Empty when acyclic.
std::vector<const Node *> nodesBehindCycles(llvm::ArrayRef<const Node *> Nodes);

} // namespace frost

#endif // FROST_IR_VERIFIER_H
