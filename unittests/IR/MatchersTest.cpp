//===- MatchersTest.cpp - Op classes and node matchers --------------------===//
#include "frost/IR/Matchers.h"
#include "frost/IR/OpClasses.h"
#include "ParseGraph.h"

#include "gtest/gtest.h"

using namespace frost;

namespace {

// x * c, read by `add` only; `u` has two outputs, `s` reads port 1.
const char *Pattern = R"pb(
  node { name: "x" op: "Placeholder" }
  node { name: "c" op: "Const" }
  node { name: "mul" op: "Mul" input: "x" input: "c" }
  node { name: "add" op: "AddV2" input: "mul" input: "x" }
  node { name: "u" op: "Unique" input: "x" }
  node { name: "s" op: "Identity" input: "u:1" input: "^mul" }
  node { name: "t" op: "Identity" input: "add" }
  node { name: "w" op: "NoOp" input: "^t" }
)pb";

TEST(MatchersTest, MatchOp) {
  auto G = parseGraph(Pattern);
  ASSERT_TRUE(G);
  EXPECT_TRUE(matchOp(G->findNode("mul"), "Mul"));
  EXPECT_FALSE(matchOp(G->findNode("mul"), "AddV2"));
  EXPECT_FALSE(matchOp(nullptr, "Mul"));
  EXPECT_TRUE(matchOp(G->findNode("add"), {"Add", "AddV2"}));
  EXPECT_FALSE(matchOp(G->findNode("add"), {"Add", "Sub"}));
}

TEST(MatchersTest, InputsCheckOpAndPort) {
  auto G = parseGraph(Pattern);
  ASSERT_TRUE(G);
  Node *Mul = G->findNode("mul"), *S = G->findNode("s");
  EXPECT_EQ(dataInputNode(Mul, 1), G->findNode("c"));
  EXPECT_EQ(dataInputNode(Mul, 2), nullptr);
  EXPECT_EQ(dataInputNode(S, 1), nullptr) << "a control input is no data input";
  EXPECT_EQ(matchInput(Mul, 1, "Const"), G->findNode("c"));
  EXPECT_EQ(matchInput(Mul, 0, "Const"), nullptr);
  EXPECT_EQ(matchInput(S, 0, "Unique"), nullptr) << "reads port 1, not 0";
  EXPECT_EQ(matchInput(S, 0, "Unique", 1), G->findNode("u"));
  EXPECT_EQ(matchInput(nullptr, 0, "Const"), nullptr);
}

TEST(MatchersTest, Consumers) {
  auto G = parseGraph(Pattern);
  ASSERT_TRUE(G);
  // mul: one data use (add) and one control use (s).
  EXPECT_EQ(numDataUses(*G->findNode("mul")), 1u);
  EXPECT_EQ(singleConsumer(*G->findNode("mul")), nullptr);
  EXPECT_EQ(numDataUses(*G->findNode("x")), 3u);
  EXPECT_EQ(singleConsumer(*G->findNode("x")), nullptr);
  EXPECT_EQ(numDataUses(*G->findNode("u"), 0), 0u);
  EXPECT_EQ(numDataUses(*G->findNode("u"), 1), 1u);
  EXPECT_EQ(singleConsumer(*G->findNode("add")), G->findNode("t"));
  EXPECT_EQ(singleConsumer(*G->findNode("t")), nullptr) << "only a control use";
  EXPECT_EQ(singleConsumer(*G->findNode("w")), nullptr);
}

TEST(OpClassesTest, VariableSetsDifferOnPurpose) {
  for (const char *Op : {"VariableV2", "Variable", "VarHandleOp"}) {
    EXPECT_TRUE(isVariableOp(Op)) << Op;
    EXPECT_TRUE(isAnyVariableOp(Op)) << Op;
    EXPECT_TRUE(isStateOp(Op)) << Op;
  }
  EXPECT_FALSE(isVariableOp("TemporaryVariable"));
  EXPECT_TRUE(isAnyVariableOp("TemporaryVariable"));
  EXPECT_TRUE(isRefVariableOp("TemporaryVariable"));
  EXPECT_FALSE(isRefVariableOp("VarHandleOp"));
  EXPECT_TRUE(isStateOp("MutableHashTableV2"));
  EXPECT_FALSE(isVariableOp("ReadVariableOp"));
  EXPECT_TRUE(isAssignOp("AssignSubVariableOp"));
  EXPECT_FALSE(isAssignOp("AssignVariableXlaConcatND"));
  EXPECT_TRUE(isTableInitializerOp("InitializeTableFromTextFileV2"));
  EXPECT_FALSE(isTableInitializerOp("HashTableV2"));
  EXPECT_TRUE(isSaveRestoreOp("MergeV2Checkpoints"));
  EXPECT_TRUE(isMergeOp("RefMerge"));
  EXPECT_FALSE(isMergeOp("MergeV2Checkpoints"));
  EXPECT_TRUE(isWhileOp("StatelessWhile"));
  EXPECT_FALSE(isWhileOp("_While"));
}

} // namespace
