//===- ExecutionOrder.h - An order in which the nodes can run ---*- C++ -*-===//
//
// Kahn's algorithm as graph_transforms' SortByExecutionOrder runs it: a node
// is ready once every input (one count per input entry, control inputs
// included) has run; a Merge once its control inputs and ONE data input have,
// so TF1 while loops (Merge <- NextIteration) order too. Nodes that never get
// ready are on a cycle or behind one.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_EXECUTIONORDER_H
#define FROST_TRANSFORMS_UTILS_EXECUTIONORDER_H

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

struct ExecutionOrder {
  /// Every node that could be ordered, in order.
  std::vector<Node *> Sorted;
  /// The others (on or behind a cycle), in graph order.
  std::vector<Node *> Unordered;
};

ExecutionOrder executionOrder(Graph &G, ReadyPolicy Policy);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_EXECUTIONORDER_H
