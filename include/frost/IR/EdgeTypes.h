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

/// The dtype output `Port` of `N` carries (with `_REF` for references), from
/// the model's OpDefs, or for Const, Placeholder and Identity from their
/// attributes; DT_INVALID when unknown.
tensorflow::DataType outputDType(const Node &N, int Port, const OpRegistry &Ops);
/// The dtype data input `Index` of `N` takes by its OpDef; DT_INVALID when
/// there is none.
tensorflow::DataType expectedInputDType(const Node &N, unsigned Index, const OpRegistry &Ops);

/// An ill-typed data edge inside a library function the graph calls.
struct IllTypedFunctionEdge {
  std::string Function;
  /// The body node (its node_def name) and its data input.
  std::string Node;
  unsigned Input = 0;
  /// Whether the body reads the node's results or returns them.
  bool ResultUsed = false;
  /// Whether the input is one of the function's arguments.
  bool FromArgument = false;
  /// describeIllTypedEdge's text, an argument named as one.
  std::string Description;
};

/// Every ill-typed data edge in the bodies of the library functions G's
/// nodes call or name (If/Case branches, While bodies, PartitionedCall
/// targets), directly or through other functions: a write to a frozen
/// variable whose handle argument became a value. Functions in order of
/// first reference; a body that cannot be copied is left to the verifier.
std::vector<IllTypedFunctionEdge> findIllTypedFunctionEdges(const Graph &G,
                                                            const OpRegistry &Ops);

/// Whether an input taking `Expected` may be fed `Given`: the same dtype, or
/// a reference read as the value of its type. DT_INVALID (unknown) fits.
bool dtypeFits(tensorflow::DataType Expected, tensorflow::DataType Given);

/// A data input fed a dtype its OpDef does not take.
struct MistypedEdge {
  const Node *User;
  unsigned Input;
  tensorflow::DataType Expected, Given;
};

/// Every data edge of `G` whose two ends' dtypes are known and differ (a
/// reference feeding a value of its type fits); `Checked` counts the edges
/// whose two ends were known.
std::vector<MistypedEdge> findMistypedEdges(const Graph &G, const OpRegistry &Ops,
                                            size_t *Checked = nullptr);

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
