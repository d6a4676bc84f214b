//===- Verifier.h - Structural checks of a graph ----------------*- C++ -*-===//
#ifndef FROST_IR_VERIFIER_H
#define FROST_IR_VERIFIER_H

#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
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

class OpRegistry;

/// What the OpDefs `Ops` (a model's, see modelOpRegistry) say TensorFlow's
/// importer would refuse: an attribute an op requires (one without a
/// default) missing, a data edge whose two ends' dtypes are known and differ.
/// Ops without an OpDef in `Ops` are not checked. One finding per problem.
struct OpDefViolation {
  std::string Message; ///< Names the node.
  std::string Kind;    ///< The same problem without node names (which passes may change).
};
std::vector<OpDefViolation> findOpDefViolations(const Graph &G, const OpRegistry &Ops);

/// The kinds of OpDefViolation in the bodies of the functions G reaches:
/// a pass that inlines them brings them into the graph.
std::vector<std::string> functionOpDefViolationKinds(const Graph &G, const OpRegistry &Ops);

/// The nodes of `Nodes` that no topological order reaches because a cycle
/// (not broken by a NextIteration back edge) runs through or before them;
/// edges from nodes outside `Nodes` are ignored. Empty when acyclic.
std::vector<const Node *> nodesBehindCycles(llvm::ArrayRef<const Node *> Nodes);

} // namespace frost

#endif // FROST_IR_VERIFIER_H
