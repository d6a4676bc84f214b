//===- GraphLayout.h - Layered drawing of a directed graph ------*- C++ -*-===//
//
// A Sugiyama-style layout of boxes and edges, knowing nothing of TensorFlow:
// feedback edges set aside by a depth-first walk, longest-path layers from
// the sources (then sources pulled down next to their readers), dummy points
// for edges spanning several layers, barycenter ordering sweeps, and x
// positions that follow the neighbours as closely as the order allows
// (isotonic regression per layer). Every step is linear in nodes + edges +
// dummies, up to the per-layer sorts; dummies are capped at a budget
// proportional to the graph, the longest edges beyond it drawn direct.
//
//   std::vector<LayoutBox> Boxes = ...;   // sizes, in node order
//   std::vector<LayoutEdge> Edges = ...;  // From -> To, by box index
//   GraphLayout L = layoutGraph(Boxes, Edges);
//   // L.Centers[I], L.Routes[E]
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_GRAPHLAYOUT_H
#define FROST_INSPECT_GRAPHLAYOUT_H

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace frost::inspect {

struct LayoutBox {
  double Width = 0, Height = 0;
  /// A graph input: never pulled down toward its readers, so (without
  /// inputs of its own) it stays in the first layer.
  bool Top = false;
};

struct LayoutEdge {
  unsigned From = 0, To = 0;
  /// Secondary (a control edge): keeps its target below its source but takes
  /// no bends and does not pull the ordering; drawn Direct.
  bool Weak = false;
};

struct LayoutPoint {
  double X = 0, Y = 0;
};

/// How an edge is drawn.
enum class RouteKind {
  /// Straight segments through Points (source bottom, bends, target top).
  Polyline,
  /// Too long for bends, weak, or feedback (upwards): a curve from
  /// Points[0] to Points[1].
  Direct,
};

struct EdgeRoute {
  RouteKind Kind = RouteKind::Polyline;
  std::vector<LayoutPoint> Points;
};

struct GraphLayout {
  /// Box centers, by box index; the drawing spans [0, Width] x [0, Height].
  std::vector<LayoutPoint> Centers;
  std::vector<unsigned> Layers;
  /// By edge index; self-loops get a Direct route from the box to itself.
  std::vector<EdgeRoute> Routes;
  double Width = 0, Height = 0;
  unsigned NumLayers = 0;
  /// Bends placed, and edges drawn Direct for want of budget (not feedback).
  size_t NumDummies = 0, NumDirect = 0;
};

/// Lays out `Boxes` and `Edges` (indices into Boxes; duplicates and cycles
/// allowed). Deterministic: the same input gives the same positions.
GraphLayout layoutGraph(llvm::ArrayRef<LayoutBox> Boxes, llvm::ArrayRef<LayoutEdge> Edges);

} // namespace frost::inspect

#endif // FROST_INSPECT_GRAPHLAYOUT_H
