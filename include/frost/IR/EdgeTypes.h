//===- EdgeTypes.h - Resource, reference or value, edge by edge -*- C++ -*-===//
//
// TensorFlow refuses to import a graph in which an input that takes a
// resource handle or a variable reference is fed a plain value ("Input 0 of
// node X was passed float from v:0 incompatible with expected resource"), as
// freezing leaves the ops that write a variable. What an edge carries comes
// from the model's OpDefs where it has them, else from what Frost knows of
// the common variable ops; anything else is unknown and never reported.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_EDGETYPES_H
#define FROST_IR_EDGETYPES_H

#include "frost/IR/Graph.h"
#include "frost/IR/OpRegistry.h"

#include <string>
#include <vector>

namespace frost {

enum class EdgeKind { Unknown, Value, Resource, Ref };

/// What output `Port` of `N` carries.
EdgeKind outputKind(const Node &N, int Port, const OpRegistry &Ops);
/// What data input `Index` of `N` must be fed.
EdgeKind expectedInputKind(const Node &N, unsigned Index, const OpRegistry &Ops);

/// A data input whose producer cannot feed it.
struct IllTypedEdge {
  const Node *User;
  unsigned Input;
  EdgeKind Expected;
  EdgeKind Given;
};

/// Every ill-typed data edge of `G`, in graph order.
std::vector<IllTypedEdge> findIllTypedEdges(const Graph &G, const OpRegistry &Ops);

/// The Const whose value input `In` reads, through Identity nodes (a frozen
/// variable reaches an inlined call's body so), or null.
const Node *constantSource(const Input &In);

/// "input 0 of node 'a' (AssignVariableOp) takes a resource but 'v' (Const)
/// gives a value".
std::string describeIllTypedEdge(const IllTypedEdge &E);

/// The first of `Edges` described, with "(and N more)" for the rest.
std::string describeIllTypedEdges(const std::vector<IllTypedEdge> &Edges);

} // namespace frost

#endif // FROST_IR_EDGETYPES_H
