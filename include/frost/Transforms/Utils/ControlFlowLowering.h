//===- ControlFlowLowering.h - Functional control flow to Switch/Merge -*- C++ -*-===//
//
// What TensorFlow's LowerFunctionalOpsPass does to an If, Case or While marked
// `_lower_using_switch_merge`, as Grappler's function optimizer calls it while
// inlining: the node becomes Switch/Merge (and Enter/Exit/NextIteration)
// dataflow around one call node per branch (or cond and body), each call
// named `<node>/then/_N` ... and marked `_lower_as_multi_device_function`.
// Names end in `/_N` from a NameCounter, which inline-functions shares with
// its own names, so the two interleave as in Grappler. Shared by
// lower-control-flow and inline-functions{lower-control-flow=true}.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_CONTROLFLOWLOWERING_H
#define FROST_TRANSFORMS_UTILS_CONTROLFLOWLOWERING_H

#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Graph.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace frost {

/// Graph::NewName: `Prefix/_N` with one counter for a whole run.
class NameCounter {
public:
  std::string newName(const Graph &G, llvm::StringRef Prefix);

private:
  unsigned Next = 0;
};

/// An If, StatelessIf, Case, StatelessCase, While or StatelessWhile with
/// `_lower_using_switch_merge = true`.
bool shouldLowerControlFlow(const Node &N);

/// Grappler's AddStrictInputSemantics: a node that takes a resource and has
/// no control input, or reads a constant Enter, first waits (control edges)
/// for the producers of its data inputs, in `Rank` order; Placeholders are
/// skipped, and so are the nodes that stand for a signature's captured
/// Placeholders: VarHandleOps and the nodes in `Captured` (Model::capturedInputs).
void addStrictInputSemantics(Node &N, bool TakesResource,
                             llvm::function_ref<unsigned(const Node &)> Rank,
                             const llvm::StringSet<> &Captured);

/// Whether N has an input of type DT_RESOURCE, by the attributes that list
/// its input types (If/Case: Tin, While: T).
bool controlFlowTakesResource(const Node &N);

/// Replaces N (shouldLowerControlFlow) by its Switch/Merge form, appending the
/// new nodes to G. Errors name the node (a malformed attribute, an output the
/// node does not have).
absl::Status lowerControlFlowNode(Graph &G, Node &N, NameCounter &Names);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_CONTROLFLOWLOWERING_H
