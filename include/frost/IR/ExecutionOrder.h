//===- ExecutionOrder.h - An order in which the nodes can run ---*- C++ -*-===//
//
// Kahn's algorithm as graph_transforms' SortByExecutionOrder runs it: a node
// is ready once every input (one count per input entry, control inputs
// included) has run; a Merge once its control inputs and ONE data input have,
// so TF1 while loops (Merge <- NextIteration) order too (unless told
// MergeReadiness::AllInputs). Nodes that never get ready are on a cycle or
// behind one.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_EXECUTIONORDER_H
#define FROST_IR_EXECUTIONORDER_H

#include "frost/IR/Graph.h"

#include <vector>

namespace frost {

/// Which ready node runs next.
enum class ReadyPolicy {
  /// graph_transforms' stack: input-less nodes pushed in graph order, the last
  /// pushed runs first, consumers pushed as they get ready.
  Stack,
  /// The ready node earliest in the graph: a graph already in execution order
  /// keeps its order.
  GraphPosition,
};

/// When a Merge is ready.
enum class MergeReadiness {
  /// Once its control inputs and one data input have run (graph_transforms;
  /// TF1 while loops order).
  OneDataInput,
  /// Once every input has, as any node (running a graph whose Merges end
  /// conds: the live input is known only once both branches ran or died;
  /// while loops are left unordered).
  AllInputs,
};

struct ExecutionOrder {
  /// Every node that could be ordered, in order.
  std::vector<Node *> Sorted;
  /// The others (on or behind a cycle), in graph order.
  std::vector<Node *> Unordered;
};

ExecutionOrder executionOrder(Graph &G, ReadyPolicy Policy,
                              MergeReadiness Merges = MergeReadiness::OneDataInput);

} // namespace frost

#endif // FROST_IR_EXECUTIONORDER_H
