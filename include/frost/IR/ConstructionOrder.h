//===- ConstructionOrder.h - TensorFlow's GraphConstructor order -*- C++ -*-===//
//
// TensorFlow builds a Graph from a GraphDef (and a function body from its
// FunctionDef) in Kahn's topological order, the earliest node first among
// those ready; node ids, and so Grappler's walks and names, follow that
// order. A loop's back edge (NextIteration into Merge) does not count.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_CONSTRUCTIONORDER_H
#define FROST_IR_CONSTRUCTIONORDER_H

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace frost {

class Graph;
class Node;

/// Kahn's order over items 0..N-1, the lowest index first among the ready
/// ones: item I waits for Pending[I] edges, and each edge out of I counts
/// down one item of Readers[I]. Items never ready (on a cycle) come last,
/// in index order.
std::vector<unsigned> constructionOrder(std::vector<int> Pending,
                                        const std::vector<std::vector<unsigned>> &Readers);

/// The order GraphConstructor gives the nodes of G (their Grappler ids),
/// from their positions in G's node list.
std::vector<Node *> graphConstructionOrder(const Graph &G);

} // namespace frost

#endif // FROST_IR_CONSTRUCTIONORDER_H
