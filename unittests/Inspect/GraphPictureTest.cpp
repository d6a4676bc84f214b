//===- GraphPictureTest.cpp - Layered layout, DOT and HTML pictures -------===//
#include "frost/Inspect/GraphLayout.h"
#include "frost/Inspect/GraphPicture.h"

#include "../IR/ParseGraph.h"

#include "gtest/gtest.h"

#include <random>

using namespace frost;
using namespace frost::inspect;

namespace {

/// What every layout must satisfy: boxes inside the drawing and apart within
/// a layer, inputs in the first layer, edges going down a layer or more
/// unless drawn Direct, a bend per layer crossed, and the same result twice.
void checkLayout(llvm::ArrayRef<LayoutBox> Boxes, llvm::ArrayRef<LayoutEdge> Edges) {
  GraphLayout L = layoutGraph(Boxes, Edges);
  ASSERT_EQ(L.Centers.size(), Boxes.size());
  ASSERT_EQ(L.Routes.size(), Edges.size());
  std::vector<bool> HasInputs(Boxes.size(), false);
  for (const LayoutEdge &E : Edges)
    HasInputs[E.To] = true;
  std::vector<std::vector<unsigned>> ByLayer(L.NumLayers);
  for (unsigned V = 0; V < Boxes.size(); ++V) {
    ASSERT_LT(L.Layers[V], L.NumLayers);
    ByLayer[L.Layers[V]].push_back(V);
    EXPECT_GE(L.Centers[V].X - Boxes[V].Width / 2, -0.5);
    EXPECT_LE(L.Centers[V].X + Boxes[V].Width / 2, L.Width + 0.5);
    EXPECT_GE(L.Centers[V].Y - Boxes[V].Height / 2, -0.5);
    EXPECT_LE(L.Centers[V].Y + Boxes[V].Height / 2, L.Height + 0.5);
    if (Boxes[V].Top && !HasInputs[V]) {
      EXPECT_EQ(L.Layers[V], 0u);
    }
  }
  for (auto &Row : ByLayer) {
    llvm::sort(Row, [&](unsigned A, unsigned B) { return L.Centers[A].X < L.Centers[B].X; });
    for (size_t I = 1; I < Row.size(); ++I)
      EXPECT_LE(L.Centers[Row[I - 1]].X + Boxes[Row[I - 1]].Width / 2,
                L.Centers[Row[I]].X - Boxes[Row[I]].Width / 2 + 0.01);
  }
  for (size_t E = 0; E < Edges.size(); ++E) {
    const EdgeRoute &R = L.Routes[E];
    if (R.Kind == RouteKind::Direct) {
      EXPECT_EQ(R.Points.size(), 2u);
      continue;
    }
    unsigned From = L.Layers[Edges[E].From], To = L.Layers[Edges[E].To];
    ASSERT_GT(To, From);
    EXPECT_EQ(R.Points.size(), To - From + 1);
    for (size_t I = 1; I < R.Points.size(); ++I)
      EXPECT_GT(R.Points[I].Y, R.Points[I - 1].Y);
  }
  GraphLayout Again = layoutGraph(Boxes, Edges);
  for (unsigned V = 0; V < Boxes.size(); ++V)
    EXPECT_TRUE(Again.Centers[V].X == L.Centers[V].X && Again.Centers[V].Y == L.Centers[V].Y);
}

TEST(GraphLayoutTest, Empty) {
  GraphLayout L = layoutGraph({}, {});
  EXPECT_EQ(L.NumLayers, 0u);
  EXPECT_GT(L.Width, 0);
}

TEST(GraphLayoutTest, RandomGraphsWithCyclesAndLongEdges) {
  std::mt19937 Rng(7);
  for (int Round = 0; Round < 20; ++Round) {
    unsigned N = 1 + Rng() % 200;
    std::vector<LayoutBox> Boxes;
    for (unsigned V = 0; V < N; ++V)
      Boxes.push_back({20.0 + Rng() % 100, 20.0 + Rng() % 30, Rng() % 10 == 0});
    std::vector<LayoutEdge> Edges;
    for (unsigned E = 0, M = Rng() % (3 * N); E < M; ++E) {
      unsigned A = Rng() % N, B = Rng() % N;
      // Mostly forward (a DAG with long edges), some back edges and loops.
      if (Rng() % 8)
        Edges.push_back({std::min(A, B), std::max(A, B)});
      else
        Edges.push_back({A, B});
    }
    checkLayout(Boxes, Edges);
  }
}

TEST(GraphLayoutTest, LongChainHasNoBends) {
  const unsigned N = 10000;
  std::vector<LayoutBox> Boxes(N, {80, 36, false});
  Boxes[0].Top = true;
  std::vector<LayoutEdge> Edges;
  for (unsigned V = 1; V < N; ++V)
    Edges.push_back({V - 1, V});
  GraphLayout L = layoutGraph(Boxes, Edges);
  EXPECT_EQ(L.NumLayers, N);
  EXPECT_EQ(L.NumDummies, 0u);
  EXPECT_EQ(L.Centers[0].X, L.Centers[N - 1].X);
}

TEST(GraphLayoutTest, BendsStayWithinBudget) {
  // One input read by every node of a long chain (is_training in a model):
  // quadratic bends unless the longest edges are drawn direct.
  const unsigned N = 5000;
  std::vector<LayoutBox> Boxes(N + 1, {60, 30, false});
  Boxes[N].Top = true;
  std::vector<LayoutEdge> Edges;
  for (unsigned V = 0; V < N; ++V) {
    if (V)
      Edges.push_back({V - 1, V});
    Edges.push_back({N, V});
  }
  GraphLayout L = layoutGraph(Boxes, Edges);
  EXPECT_LE(L.NumDummies, 4 * (N + 1) + 1000);
  EXPECT_GT(L.NumDirect, 0u);
  checkLayout(Boxes, Edges);
}

TEST(GraphLayoutTest, ConstantsSitByTheirReaders) {
  // x -> a -> b -> c, and a weight read (through an Identity) by c.
  std::vector<LayoutBox> Boxes(6, {60, 30, false});
  Boxes[0].Top = true;
  std::vector<LayoutEdge> Edges = {{0, 1}, {1, 2}, {2, 3}, {4, 5}, {5, 3}};
  GraphLayout L = layoutGraph(Boxes, Edges);
  EXPECT_EQ(L.Layers[3], 3u);
  EXPECT_EQ(L.Layers[5], 2u);
  EXPECT_EQ(L.Layers[4], 1u);
  EXPECT_EQ(L.NumDummies, 0u);
}

const char *const Model = R"pb(
  node { name: "x" op: "Placeholder" }
  node { name: "w" op: "Const" }
  node { name: "mm" op: "MatMul" input: "x" input: "w" }
  node { name: "gone" op: "Relu" input: "mm" }
  node { name: "new" op: "Sigmoid" input: "mm" }
  node { name: "out" op: "Identity" input: "new" }
  library { function { signature { name: "f" } } function { signature { name: "g" } } }
)pb";

TEST(GraphPictureTest, MarksColourOutlinesAndJoinTheLegend) {
  std::unique_ptr<Graph> G = parseGraph(Model);
  ASSERT_TRUE(G);
  GraphPanel Before{"before", G.get(), {{"gone", NodeMark::Removed}, {"nowhere", NodeMark::Added}},
                    {}, {"out"}};
  GraphPanel After{"after", G.get(), {{"new", NodeMark::Added}, {"mm", NodeMark::Changed}},
                   {"x"}, {}};
  std::string Page = graphHtml({Before, After}, "a <diff>");
  EXPECT_NE(Page.find("<title>a &lt;diff&gt;</title>"), std::string::npos);
  EXPECT_NE(Page.find("<section class=\"panel\" id=\"p1\">"), std::string::npos);
  EXPECT_NE(Page.find("<g class=\"n k4 mr\" data-i=\"3\">"), std::string::npos) << Page;
  EXPECT_NE(Page.find("<g class=\"n k3 p ma\" data-i=\"4\">"), std::string::npos);
  EXPECT_NE(Page.find("<g class=\"n k4 p mc\" data-i=\"2\">"), std::string::npos);
  for (const char *Mark : {"added", "removed", "changed"})
    EXPECT_NE(Page.find(std::string("\"></i>") + Mark + "</span>"), std::string::npos) << Mark;
  EXPECT_NE(Page.find("only the main graph is drawn, not the library's 2 functions"),
            std::string::npos);
  // The same panels, the same bytes.
  EXPECT_EQ(Page, graphHtml({Before, After}, "a <diff>"));

  std::string Dot = graphDot(After);
  EXPECT_NE(Dot.find("n4 [label=\"Sigmoid\\nnew\", fillcolor=\"#a8dadc\", color=\"#16a34a\", "
                     "penwidth=3];"),
            std::string::npos)
      << Dot;

  // Without marks, no mark in the legend.
  GraphPanel Plain{"plain", G.get(), {}, {}, {}};
  EXPECT_EQ(graphHtml({Plain}, "plain").find("sw mark"), std::string::npos);
}

TEST(GraphPictureTest, OpKinds) {
  EXPECT_EQ(opKind("PlaceholderWithDefault"), OpKind::Input);
  EXPECT_EQ(opKind("Const"), OpKind::Constant);
  EXPECT_EQ(opKind("VarHandleOp"), OpKind::Variable);
  EXPECT_EQ(opKind("AddV2"), OpKind::Math);
  EXPECT_EQ(opKind("DepthwiseConv2dNative"), OpKind::NeuralNet);
  EXPECT_EQ(opKind("FusedBatchNormV3"), OpKind::NeuralNet);
  EXPECT_EQ(opKind("Merge"), OpKind::ControlFlow);
  EXPECT_EQ(opKind("ConcatV2"), OpKind::Array);
  EXPECT_EQ(opKind("MyCustomOp"), OpKind::Other);
  EXPECT_EQ(opKindName(OpKind::NeuralNet), "neural net");
}

} // namespace
