//===- GraphDiffTest.cpp - Pairing and comparing the nodes of two graphs --===//
#include "frost/Inspect/GraphDiff.h"

#include "frost/IO/GraphIO.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

#include <cmath>

using namespace frost;
using namespace frost::inspect;

namespace {

std::unique_ptr<Model> parse(const std::string &Text) {
  absl::StatusOr<std::unique_ptr<Model>> M = parseModel(Text, "test.pbtxt");
  EXPECT_TRUE(M.ok()) << M.status();
  return M.ok() ? std::move(*M) : nullptr;
}

GraphDiff diff(const std::string &A, const std::string &B, const DiffOptions &O = {}) {
  std::unique_ptr<Model> MA = parse(A), MB = parse(B);
  absl::StatusOr<GraphDiff> D = diffModels(*MA, *MB, O);
  EXPECT_TRUE(D.ok()) << D.status();
  return std::move(*D);
}

std::string node(const std::string &Name, const std::string &Op,
                 std::vector<std::string> Inputs = {}, const std::string &Attrs = "") {
  std::string Out = absl::StrCat("node { name: \"", Name, "\" op: \"", Op, "\"");
  for (const std::string &In : Inputs)
    absl::StrAppend(&Out, " input: \"", In, "\"");
  return absl::StrCat(Out, " ", Attrs, " }\n");
}

const char *FloatT = R"(attr { key: "T" value { type: DT_FLOAT } })";

std::string floatConst(const std::string &Name, const std::string &Values) {
  return node(Name, "Const", {},
              absl::StrCat(R"(attr { key: "dtype" value { type: DT_FLOAT } } )",
                           R"(attr { key: "value" value { tensor { dtype: DT_FLOAT )",
                           R"(tensor_shape { dim { size: 1 } } )", Values, " } } }"));
}

TEST(GraphDiffTest, GrapplerNamesPairByStructure) {
  // Grappler's inlining renames a function's body Func/call/...; the two
  // constants are alike, so the longer common name suffix decides.
  std::string X = node("x", "Placeholder", {}, R"(attr { key: "dtype" value { type: DT_FLOAT } })");
  std::string A = X + floatConst("f/zero_a", "float_val: 0") + floatConst("f/zero_b", "float_val: 0") +
                  node("f/add", "AddV2", {"x", "f/zero_a"}, FloatT) +
                  node("f/mul", "Mul", {"f/add", "f/zero_b"}, FloatT) +
                  node("out", "Identity", {"f/mul"}, FloatT);
  std::string B = X + floatConst("Func/call/input/_0/zero_b", "float_val: 0") +
                  floatConst("Func/call/input/_0/zero_a", "float_val: 0") +
                  node("Func/call/add", "AddV2", {"x", "Func/call/input/_0/zero_a"}, FloatT) +
                  node("Func/call/mul", "Mul", {"Func/call/add", "Func/call/input/_0/zero_b"}, FloatT) +
                  node("out", "Identity", {"Func/call/mul"}, FloatT);
  GraphDiff D = diff(A, B);
  EXPECT_EQ(D.count(NodeStatus::Renamed), 4u);
  EXPECT_EQ(D.count(NodeStatus::Same), 2u);
  EXPECT_EQ(D.count(NodeStatus::Changed), 0u);
  ASSERT_NE(D.findA("f/zero_a"), nullptr);
  EXPECT_EQ(D.findA("f/zero_a")->NameB, "Func/call/input/_0/zero_a");
  EXPECT_EQ(D.findB("Func/call/mul")->NameA, "f/mul");
  EXPECT_EQ(D.findA("out")->Status, NodeStatus::Same);
  EXPECT_EQ(D.findA("nothing"), nullptr);
  EXPECT_FALSE(D.identical());
}

TEST(GraphDiffTest, EveryNodeListedOnce) {
  std::string A = node("a", "NoOp") + node("b", "NoOp", {"^a"}) + node("gone", "Abort");
  std::string B = node("a", "NoOp") + node("b", "NoOp") + node("new", "Abort",
                                                                 {}, R"(attr { key: "exit_without_error" value { b: true } })");
  GraphDiff D = diff(A, B);
  ASSERT_EQ(D.Nodes.size(), 4u);
  EXPECT_EQ(D.findA("gone")->Status, NodeStatus::Removed);
  EXPECT_EQ(D.findB("new")->Status, NodeStatus::Added);
  const NodeDiff *Bn = D.findB("b");
  ASSERT_EQ(Bn->Status, NodeStatus::Changed);
  ASSERT_EQ(Bn->Changes.size(), 1u);
  EXPECT_EQ(Bn->Changes[0].TheKind, NodeChange::ControlInputs);
  EXPECT_EQ(Bn->Changes[0].RemovedControls, std::vector<std::string>{"a"});
  EXPECT_EQ(D.findA("b"), Bn);
}

TEST(GraphDiffTest, ValuesOfEveryKind) {
  auto constOf = [](const std::string &DType, const std::string &Field, const std::string &Vals) {
    return node("c", "Const", {},
                absl::StrCat("attr { key: \"dtype\" value { type: ", DType, " } } ",
                             "attr { key: \"value\" value { tensor { dtype: ", DType,
                             " tensor_shape { dim { size: 2 } } ", Field, Vals, " } } }"));
  };
  auto valueChange = [](const GraphDiff &D) -> const ValueDiff * {
    const NodeDiff *N = D.findA("c");
    for (const NodeChange &C : N->Changes)
      if (C.TheKind == NodeChange::Value)
        return &C.Values;
    return nullptr;
  };
  // NaN equals NaN; a NaN against a number is a NaN difference.
  {
    GraphDiff D = diff(constOf("DT_FLOAT", "", "float_val: nan float_val: 1"),
                       constOf("DT_FLOAT", "", "float_val: nan float_val: 1"));
    EXPECT_TRUE(D.identical());
    D = diff(constOf("DT_FLOAT", "", "float_val: nan float_val: 1"),
             constOf("DT_FLOAT", "", "float_val: 2 float_val: 1"));
    const ValueDiff *V = valueChange(D);
    ASSERT_NE(V, nullptr);
    EXPECT_EQ(V->Differing, 1u);
    ASSERT_TRUE(V->MaxAbsDiff);
    EXPECT_TRUE(std::isnan(*V->MaxAbsDiff));
  }
  // int64 beyond double's 53 bits: one apart is one apart.
  {
    GraphDiff D = diff(constOf("DT_INT64", "", "int64_val: 9007199254740993 int64_val: 0"),
                       constOf("DT_INT64", "", "int64_val: 9007199254740992 int64_val: 0"));
    const ValueDiff *V = valueChange(D);
    ASSERT_NE(V, nullptr);
    EXPECT_EQ(V->Differing, 1u);
    EXPECT_EQ(V->MaxAbsDiff, 1.0);
  }
  // Strings: counted, no difference to measure.
  {
    GraphDiff D = diff(constOf("DT_STRING", "", "string_val: \"a\" string_val: \"b\""),
                       constOf("DT_STRING", "", "string_val: \"a\" string_val: \"c\""));
    const ValueDiff *V = valueChange(D);
    ASSERT_NE(V, nullptr);
    EXPECT_EQ(V->Differing, 1u);
    EXPECT_FALSE(V->MaxAbsDiff);
  }
  // half, within and beyond the tolerance (1 and 1.0009765625 as half).
  {
    std::string A = constOf("DT_HALF", "", "half_val: 15360 half_val: 0");
    std::string B = constOf("DT_HALF", "", "half_val: 15361 half_val: 0");
    GraphDiff D = diff(A, B);
    const ValueDiff *V = valueChange(D);
    ASSERT_NE(V, nullptr);
    EXPECT_EQ(V->MaxAbsDiff, 0.0009765625);
    DiffOptions O;
    O.Atol = 0.001;
    EXPECT_TRUE(diff(A, B, O).identical());
  }
}

TEST(GraphDiffTest, RenamedAndChangedPairByNeighbours) {
  // Inlined names, and the second layer's weight one ulp off: its value
  // pairs it with nothing, so the chain from it on pairs through the
  // neighbours, not as 4 removed and 4 added nodes.
  auto graph = [](const std::string &P, const std::string &W1) {
    return node(P + "x", "Placeholder", {}, R"(attr { key: "dtype" value { type: DT_FLOAT } })") +
           floatConst(P + "l0/w", "float_val: 2") + node(P + "l0/mul", "Mul", {P + "x", P + "l0/w"}, FloatT) +
           floatConst(P + "l1/w", W1) + node(P + "l1/mul", "Mul", {P + "l0/mul", P + "l1/w"}, FloatT) +
           node(P + "l1/relu", "Relu", {P + "l1/mul"}, FloatT);
  };
  GraphDiff D = diff(graph("", "float_val: 3"), graph("inlined/", "float_val: 3.0000002"));
  EXPECT_EQ(D.count(NodeStatus::Renamed), 6u);
  EXPECT_EQ(D.changedNodes(), 1u);
  const NodeDiff *W = D.findA("l1/w");
  ASSERT_EQ(W->NameB, "inlined/l1/w");
  ASSERT_EQ(W->Changes.size(), 1u);
  EXPECT_EQ(W->Changes[0].TheKind, NodeChange::Value);
  EXPECT_EQ(D.findA("l1/relu")->NameB, "inlined/l1/relu");
}

TEST(GraphDiffTest, LoopsEnd) {
  // A while loop's back edge: the renamed nodes of the cycle cannot pair
  // by structure (each waits for the other); they pair by neighbours, from
  // the Merge reading x.
  auto loop = [](const std::string &P) {
    return node("x", "Placeholder", {}, R"(attr { key: "dtype" value { type: DT_FLOAT } })") +
           node(P + "merge", "Merge", {"x", P + "next"},
                R"(attr { key: "T" value { type: DT_FLOAT } } attr { key: "N" value { i: 2 } })") +
           node(P + "next", "NextIteration", {P + "merge"}, FloatT);
  };
  GraphDiff D = diff(loop("a/"), loop("b/"));
  EXPECT_EQ(D.count(NodeStatus::Renamed), 2u);
  EXPECT_EQ(D.findA("a/next")->NameB, "b/next");
  EXPECT_EQ(D.changedNodes(), 0u);
  EXPECT_TRUE(diff(loop("a/"), loop("a/")).identical());
}

TEST(GraphDiffTest, TwentyThousandRenamedNodesPair) {
  // Blocks of x -> MatMul(w_i) -> BiasAdd(b_i) -> Relu, 4 nodes each, every
  // name prefixed in B as TensorFlow's inlining does.
  auto graph = [](const std::string &P) {
    std::string G = node(P + "x", "Placeholder", {}, R"(attr { key: "dtype" value { type: DT_FLOAT } })");
    std::string Prev = P + "x";
    for (int I = 0; I < 5000; ++I) {
      std::string S = absl::StrCat(P, "layer", I, "/");
      G += floatConst(S + "w", absl::StrCat("float_val: ", I)) +
           node(S + "mul", "Mul", {Prev, S + "w"}, FloatT) +
           floatConst(S + "b", absl::StrCat("float_val: ", I % 7)) +
           node(S + "add", "AddV2", {S + "mul", S + "b"}, FloatT);
      Prev = S + "add";
    }
    return G;
  };
  std::unique_ptr<Model> A = parse(graph("")), B = parse(graph("StatefulPartitionedCall/"));
  // Its speed is bench/diff_graph.py's to measure: a wall-time bound here
  // failed a sanitized run on a loaded machine.
  absl::StatusOr<GraphDiff> D = diffModels(*A, *B);
  ASSERT_TRUE(D.ok());
  EXPECT_EQ(D->count(NodeStatus::Renamed), 20001u);
  EXPECT_EQ(D->findA("layer4999/add")->NameB, "StatefulPartitionedCall/layer4999/add");
  EXPECT_EQ(D->findA("layer3/b")->NameB, "StatefulPartitionedCall/layer3/b");
}

} // namespace
