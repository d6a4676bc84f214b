//===- GraphLayout.cpp - Layered drawing of a directed graph --------------===//
//
// The steps of layoutGraph, each over flat arrays indexed by box (then by
// dummy after the boxes): no hash maps, so the result depends on the input
// order only.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphLayout.h"

#include <algorithm>
#include <cstdint>

namespace frost::inspect {

namespace {

constexpr double LayerGap = 44;
constexpr double NodeGap = 20;
constexpr double DummyGap = 8;
constexpr double Margin = 20;

/// Lists of items by key, in one array (compressed sparse rows).
struct Adjacency {
  std::vector<unsigned> Start, Items;

  template <typename KeyFn, typename ItemFn>
  Adjacency(unsigned NumKeys, size_t NumItems, KeyFn Key, ItemFn Item) : Start(NumKeys + 1, 0) {
    for (size_t I = 0; I < NumItems; ++I)
      ++Start[Key(I) + 1];
    for (unsigned K = 0; K < NumKeys; ++K)
      Start[K + 1] += Start[K];
    Items.resize(NumItems);
    std::vector<unsigned> Next(Start.begin(), Start.end() - 1);
    for (size_t I = 0; I < NumItems; ++I)
      Items[Next[Key(I)]++] = Item(I);
  }
  llvm::ArrayRef<unsigned> operator[](unsigned Key) const {
    return llvm::ArrayRef(Items).slice(Start[Key], Start[Key + 1] - Start[Key]);
  }
};

/// Marks the edges a depth-first walk finds going back to a node on its
/// stack (self-loops included) and returns a topological order of the rest.
/// The walk starts from the sources, in box order, so only real cycles lose
/// an edge.
std::vector<unsigned> breakCycles(unsigned N, llvm::ArrayRef<LayoutEdge> Edges,
                                  const Adjacency &Out, const Adjacency &In,
                                  std::vector<bool> &Feedback) {
  enum : uint8_t { Unvisited, OnStack, Done };
  std::vector<uint8_t> State(N, Unvisited);
  std::vector<unsigned> PostOrder;
  PostOrder.reserve(N);
  std::vector<std::pair<unsigned, unsigned>> Stack; // node, next out-edge slot
  auto walkFrom = [&](unsigned Root) {
    State[Root] = OnStack;
    Stack.emplace_back(Root, Out.Start[Root]);
    while (!Stack.empty()) {
      auto [V, Slot] = Stack.back();
      if (Slot == Out.Start[V + 1]) {
        Stack.pop_back();
        State[V] = Done;
        PostOrder.push_back(V);
        continue;
      }
      Stack.back().second = Slot + 1;
      unsigned E = Out.Items[Slot];
      unsigned W = Edges[E].To;
      if (State[W] == OnStack) {
        Feedback[E] = true;
      } else if (State[W] == Unvisited) {
        State[W] = OnStack;
        Stack.emplace_back(W, Out.Start[W]);
      }
    }
  };
  for (unsigned V = 0; V < N; ++V)
    if (In[V].empty())
      walkFrom(V);
  for (unsigned V = 0; V < N; ++V)
    if (State[V] == Unvisited)
      walkFrom(V);
  std::reverse(PostOrder.begin(), PostOrder.end());
  return PostOrder;
}

/// Least-squares positions keeping an order: minimises sum W_i (X_i - D_i)^2
/// subject to X_{i+1} - X_i >= Sep_i, by pooling adjacent violators on
/// Y_i = X_i - Offset_i (which must only be non-decreasing).
void placeRow(llvm::ArrayRef<double> Desired, llvm::ArrayRef<double> Weight,
              llvm::ArrayRef<double> Offset, llvm::MutableArrayRef<double> X) {
  struct Block {
    double SumW, SumWT;
    size_t Count;
    double mean() const { return SumWT / SumW; }
  };
  std::vector<Block> Blocks;
  Blocks.reserve(Desired.size());
  for (size_t I = 0; I < Desired.size(); ++I) {
    Blocks.push_back({Weight[I], Weight[I] * (Desired[I] - Offset[I]), 1});
    while (Blocks.size() > 1 && Blocks[Blocks.size() - 2].mean() >= Blocks.back().mean()) {
      Block Last = Blocks.back();
      Blocks.pop_back();
      Blocks.back().SumW += Last.SumW;
      Blocks.back().SumWT += Last.SumWT;
      Blocks.back().Count += Last.Count;
    }
  }
  size_t I = 0;
  for (const Block &B : Blocks)
    for (size_t K = 0; K < B.Count; ++K, ++I)
      X[I] = B.mean() + Offset[I];
}

} // namespace

GraphLayout layoutGraph(llvm::ArrayRef<LayoutBox> Boxes, llvm::ArrayRef<LayoutEdge> Edges) {
  GraphLayout L;
  const unsigned N = Boxes.size();
  const size_t NumEdges = Edges.size();
  L.Routes.resize(NumEdges);
  L.Centers.resize(N);
  L.Layers.assign(N, 0);
  if (N == 0) {
    L.Width = L.Height = 2 * Margin;
    return L;
  }

  // 1. Feedback edges and a topological order of the rest.
  Adjacency Out(N, NumEdges, [&](size_t E) { return Edges[E].From; },
                [](size_t E) { return static_cast<unsigned>(E); });
  Adjacency In(N, NumEdges, [&](size_t E) { return Edges[E].To; },
               [](size_t E) { return static_cast<unsigned>(E); });
  std::vector<bool> Feedback(NumEdges, false);
  std::vector<unsigned> Topo = breakCycles(N, Edges, Out, In, Feedback);

  // 2. Longest-path layers from the sources. Then, from the sinks up, boxes
  // move down next to their nearest reader: every box no input reaches (a
  // weight, its read, the arithmetic on constants before a batch norm), and
  // boxes with no more inputs than readers.
  std::vector<unsigned> &Layer = L.Layers;
  std::vector<bool> FromTop(N, false);
  for (unsigned V : Topo) {
    FromTop[V] = Boxes[V].Top;
    for (unsigned E : In[V])
      if (!Feedback[E]) {
        Layer[V] = std::max(Layer[V], Layer[Edges[E].From] + 1);
        FromTop[V] = FromTop[V] || FromTop[Edges[E].From];
      }
  }
  for (unsigned V : llvm::reverse(Topo)) {
    if (Boxes[V].Top)
      continue;
    unsigned NumIn = 0, NumOut = 0, Nearest = UINT32_MAX;
    for (unsigned E : In[V])
      NumIn += !Feedback[E];
    for (unsigned E : Out[V])
      if (!Feedback[E]) {
        ++NumOut;
        Nearest = std::min(Nearest, Layer[Edges[E].To]);
      }
    if (NumOut && (!FromTop[V] || NumIn <= NumOut) && Nearest - 1 > Layer[V])
      Layer[V] = Nearest - 1;
  }
  unsigned NumLayers = *std::max_element(Layer.begin(), Layer.end()) + 1;
  L.NumLayers = NumLayers;

  // 3. Dummies for edges spanning layers, shortest spans first, within a
  // budget linear in the graph.
  const size_t Budget = 4 * static_cast<size_t>(N) + 1000;
  std::vector<size_t> SpanCount(NumLayers + 1, 0);
  for (size_t E = 0; E < NumEdges; ++E)
    if (!Feedback[E] && !Edges[E].Weak)
      ++SpanCount[Layer[Edges[E].To] - Layer[Edges[E].From]];
  unsigned MaxSpan = 1;
  for (size_t Used = 0, S = 2; S <= NumLayers; ++S) {
    Used += SpanCount[S] * (S - 1);
    if (Used > Budget)
      break;
    MaxSpan = S;
  }
  std::vector<unsigned> FirstDummy(NumEdges, 0);
  unsigned NumV = N;
  for (size_t E = 0; E < NumEdges; ++E) {
    if (Feedback[E] || Edges[E].Weak)
      continue;
    unsigned Span = Layer[Edges[E].To] - Layer[Edges[E].From];
    if (Span > MaxSpan) {
      ++L.NumDirect;
      continue;
    }
    FirstDummy[E] = NumV;
    NumV += Span - 1;
  }
  L.NumDummies = NumV - N;
  auto isChained = [&](size_t E) {
    return !Feedback[E] && !Edges[E].Weak &&
           Layer[Edges[E].To] - Layer[Edges[E].From] <= MaxSpan;
  };

  std::vector<unsigned> VLayer(Layer.begin(), Layer.end());
  VLayer.resize(NumV);
  std::vector<double> Width(NumV, 0), Weight(NumV, 1);
  for (unsigned V = 0; V < N; ++V) {
    Width[V] = Boxes[V].Width;
    // The spine from the inputs goes straight; what hangs off it bends.
    Weight[V] = FromTop[V] ? 4 : 1;
  }
  // Segments between consecutive layers: (upper, lower).
  std::vector<std::pair<unsigned, unsigned>> Segments;
  Segments.reserve(NumEdges + L.NumDummies);
  for (size_t E = 0; E < NumEdges; ++E) {
    if (!isChained(E))
      continue;
    unsigned Prev = Edges[E].From, Top = Layer[Prev];
    unsigned Span = Layer[Edges[E].To] - Top;
    for (unsigned K = 0; K + 1 < Span; ++K) {
      unsigned D = FirstDummy[E] + K;
      VLayer[D] = Top + 1 + K;
      Weight[D] = 2; // long edges straighten first
      Segments.emplace_back(Prev, D);
      Prev = D;
    }
    Segments.emplace_back(Prev, Edges[E].To);
  }
  Adjacency Above(NumV, Segments.size(), [&](size_t S) { return Segments[S].second; },
                  [&](size_t S) { return Segments[S].first; });
  Adjacency Below(NumV, Segments.size(), [&](size_t S) { return Segments[S].first; },
                  [&](size_t S) { return Segments[S].second; });

  // 4. Rows in topological order (an edge's dummies right after its source),
  // then barycenter sweeps down and up.
  std::vector<std::vector<unsigned>> Rows(NumLayers);
  for (unsigned V : Topo) {
    Rows[Layer[V]].push_back(V);
    for (unsigned E : Out[V])
      if (isChained(E))
        for (unsigned D = FirstDummy[E], K = 0; K + 2 <= Layer[Edges[E].To] - Layer[V]; ++K)
          Rows[Layer[V] + 1 + K].push_back(D + K);
  }
  std::vector<double> Pos(NumV, 0), Key(NumV, 0);
  for (const auto &Row : Rows)
    for (size_t I = 0; I < Row.size(); ++I)
      Pos[Row[I]] = static_cast<double>(I);
  auto sweep = [&](bool Down) {
    for (unsigned K = 1; K < NumLayers; ++K) {
      std::vector<unsigned> &Row = Rows[Down ? K : NumLayers - 1 - K];
      for (unsigned V : Row) {
        llvm::ArrayRef<unsigned> Near = Down ? Above[V] : Below[V];
        double Sum = 0;
        for (unsigned U : Near)
          Sum += Pos[U];
        Key[V] = Near.empty() ? Pos[V] : Sum / static_cast<double>(Near.size());
      }
      // Ties keep their order (by position, not std::stable_sort, which
      // clang flags in libstdc++ 12 for its deprecated temporary buffer).
      llvm::sort(Row, [&](unsigned A, unsigned B) {
        return Key[A] != Key[B] ? Key[A] < Key[B] : Pos[A] < Pos[B];
      });
      for (size_t I = 0; I < Row.size(); ++I)
        Pos[Row[I]] = static_cast<double>(I);
    }
  };
  for (int Round = 0; Round < 4; ++Round) {
    sweep(/*Down=*/true);
    sweep(/*Down=*/false);
  }

  // 5. x: rows packed, then each box pulled toward the mean of its
  // neighbours above, below, and (last) both.
  std::vector<double> X(NumV, 0);
  std::vector<std::vector<double>> Offsets(NumLayers);
  for (unsigned R = 0; R < NumLayers; ++R) {
    const auto &Row = Rows[R];
    std::vector<double> &Off = Offsets[R];
    Off.resize(Row.size());
    for (size_t I = 1; I < Row.size(); ++I) {
      bool BothDummies = Row[I - 1] >= N && Row[I] >= N;
      Off[I] = Off[I - 1] + (Width[Row[I - 1]] + Width[Row[I]]) / 2 +
               (BothDummies ? DummyGap : NodeGap);
    }
    double Center = Row.empty() ? 0 : Off.back() / 2;
    for (size_t I = 0; I < Row.size(); ++I)
      X[Row[I]] = Off[I] - Center;
  }
  std::vector<double> Desired, RowWeight, RowX;
  auto align = [&](unsigned R, bool UseAbove, bool UseBelow) {
    const auto &Row = Rows[R];
    Desired.assign(Row.size(), 0);
    RowWeight.assign(Row.size(), 0);
    RowX.assign(Row.size(), 0);
    for (size_t I = 0; I < Row.size(); ++I) {
      unsigned V = Row[I];
      double Sum = 0;
      size_t Count = 0;
      for (unsigned U : UseAbove ? Above[V] : llvm::ArrayRef<unsigned>())
        Sum += X[U], ++Count;
      for (unsigned U : UseBelow ? Below[V] : llvm::ArrayRef<unsigned>())
        Sum += X[U], ++Count;
      Desired[I] = Count ? Sum / static_cast<double>(Count) : X[V];
      // A box with no neighbours on that side is held weakly where it is.
      RowWeight[I] = Count ? Weight[V] : 0.01;
    }
    placeRow(Desired, RowWeight, Offsets[R], RowX);
    for (size_t I = 0; I < Row.size(); ++I)
      X[Row[I]] = RowX[I];
  };
  for (int Round = 0; Round < 2; ++Round) {
    for (unsigned R = 1; R < NumLayers; ++R)
      align(R, true, false);
    for (unsigned R = NumLayers - 1; R-- > 0;)
      align(R, false, true);
  }
  for (unsigned R = 0; R < NumLayers; ++R)
    align(R, true, true);

  // 6. y: each layer as tall as its tallest box.
  std::vector<double> RowY(NumLayers, 0);
  double Y = Margin;
  for (unsigned R = 0; R < NumLayers; ++R) {
    double Tallest = 0;
    for (unsigned V : Rows[R])
      if (V < N)
        Tallest = std::max(Tallest, Boxes[V].Height);
    RowY[R] = Y + Tallest / 2;
    Y += Tallest + LayerGap;
  }
  L.Height = Y - LayerGap + Margin;
  double MinX = 0, MaxX = 0;
  for (unsigned V = 0; V < NumV; ++V) {
    MinX = V ? std::min(MinX, X[V] - Width[V] / 2) : X[V] - Width[V] / 2;
    MaxX = V ? std::max(MaxX, X[V] + Width[V] / 2) : X[V] + Width[V] / 2;
  }
  for (double &XV : X)
    XV += Margin - MinX;
  L.Width = MaxX - MinX + 2 * Margin;
  for (unsigned V = 0; V < N; ++V)
    L.Centers[V] = {X[V], RowY[Layer[V]]};

  // 7. Routes: bottom of the source, the bends, top of the target.
  for (size_t E = 0; E < NumEdges; ++E) {
    const LayoutEdge &Edge = Edges[E];
    EdgeRoute &R = L.Routes[E];
    R.Points.push_back({X[Edge.From], L.Centers[Edge.From].Y + Boxes[Edge.From].Height / 2});
    if (!isChained(E)) {
      R.Kind = RouteKind::Direct;
    } else {
      unsigned Span = Layer[Edge.To] - Layer[Edge.From];
      for (unsigned K = 0; K + 1 < Span; ++K)
        R.Points.push_back({X[FirstDummy[E] + K], RowY[VLayer[FirstDummy[E] + K]]});
    }
    R.Points.push_back({X[Edge.To], L.Centers[Edge.To].Y - Boxes[Edge.To].Height / 2});
  }
  return L;
}

} // namespace frost::inspect
