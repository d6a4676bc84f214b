//===- GraphPicture.h - A graph drawn: Graphviz DOT or one HTML page -*- C++ -*-===//
//
// What `frost-inspect graph --dot/--html` print, and what a diff tool draws
// with: one or several panels, each a graph with per-node marks (added,
// removed, changed) and the inputs and outputs whose paths are highlighted.
//
//   GraphPanel P;
//   P.Title = "frozen.pb";
//   P.G = &M->graph();
//   std::string Dot = graphDot(P);                // for `dot -Tsvg`
//   std::string Page = graphHtml({P}, "frozen.pb"); // self-contained HTML
//
// Ops are coloured by kind (opKind). Only the main graph is drawn; a panel
// says how many library functions it leaves out. The output is
// deterministic: the same panels give the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_GRAPHPICTURE_H
#define FROST_INSPECT_GRAPHPICTURE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace frost {
class Graph;
} // namespace frost

namespace frost::inspect {

/// How a diff colours a node's outline.
enum class NodeMark { None, Added, Removed, Changed };

/// One graph drawn on the page.
struct GraphPanel {
  std::string Title;
  const Graph *G = nullptr;
  /// By node name; names not in G are ignored.
  std::map<std::string, NodeMark, std::less<>> Marks;
  /// Nodes ("name" or "name:k") whose data paths are highlighted; names not
  /// in G are ignored. Empty Inputs = the placeholders outside a saver scope;
  /// empty Outputs = the candidate outputs (nodes nothing reads, as
  /// frost-inspect graph lists them).
  std::vector<std::string> Inputs, Outputs;
};

/// The colour classes of ops, in legend order.
enum class OpKind { Input, Constant, Variable, Math, NeuralNet, ControlFlow, Array, Other };

OpKind opKind(llvm::StringRef Op);
llvm::StringRef opKindName(OpKind Kind);

/// The panel as a Graphviz digraph: a box per node (op, name, and for a Const
/// its dtype, shape and bytes) filled by kind, data edges solid (":k" for
/// output k > 0), control edges dashed, the input-to-output paths drawn bold
/// and marked nodes outlined.
std::string graphDot(const GraphPanel &P);

/// One self-contained HTML page (no network, inline SVG, CSS and script)
/// drawing the panels side by side, each with zoom (wheel) and pan (drag);
/// hovering or clicking a node shows its op, name, inputs, attributes and,
/// for a Const, dtype, shape and bytes.
std::string graphHtml(llvm::ArrayRef<GraphPanel> Panels, llvm::StringRef PageTitle);

} // namespace frost::inspect

#endif // FROST_INSPECT_GRAPHPICTURE_H
