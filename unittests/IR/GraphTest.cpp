//===- GraphTest.cpp - The graph IR's invariants --------------------------===//
#include "frost/IR/Graph.h"
#include "frost/IR/Verifier.h"
#include "ParseGraph.h"

#include "google/protobuf/text_format.h"
#include "gtest/gtest.h"

using namespace frost;

namespace {

std::unique_ptr<Graph> parse(const char *Text) { return parseGraph(Text); }

/// Every use recorded on a producer matches an input of its user, and back.
void expectUseListsConsistent(const Graph &G) {
  size_t Inputs = 0, Uses = 0;
  for (const Node &N : G) {
    Inputs += N.numInputs();
    Uses += N.uses().size();
    for (const Use &U : N.uses()) {
      ASSERT_LT(U.InputIndex, U.User->numInputs());
      EXPECT_EQ(U.User->input(U.InputIndex).Src, &N);
    }
    for (unsigned I = 0; I < N.numInputs(); ++I) {
      const Node *Src = N.input(I).Src;
      EXPECT_EQ(llvm::count_if(Src->uses(),
                               [&](const Use &U) { return U.User == &N && U.InputIndex == I; }),
                1);
    }
  }
  EXPECT_EQ(Inputs, Uses);
}

const char *Diamond = R"pb(
  node { name: "a" op: "Placeholder" }
  node { name: "b" op: "Identity" input: "a" }
  node { name: "c" op: "Identity" input: "a:0" }
  node { name: "d" op: "AddV2" input: "b" input: "c" input: "^a" device: "/cpu:0" }
  versions { producer: 27 }
)pb";

TEST(GraphTest, ResolvesInputsAndBuildsUseLists) {
  auto G = parse(Diamond);
  ASSERT_TRUE(G);
  EXPECT_EQ(G->size(), 4u);
  Node *A = G->findNode("a"), *D = G->findNode("d");
  ASSERT_TRUE(A && D);
  EXPECT_EQ(A->uses().size(), 3u);
  EXPECT_EQ(D->numDataInputs(), 2u);
  ASSERT_EQ(D->controlInputs().size(), 1u);
  EXPECT_EQ(D->controlInputs()[0].Src, A);
  EXPECT_EQ(D->device(), "/cpu:0");
  EXPECT_TRUE(G->findNode("c")->input(0).ExplicitPort);
  expectUseListsConsistent(*G);
}

TEST(GraphTest, InputsMayNameLaterNodes) {
  auto G = parse(R"pb(
    node { name: "use" op: "AddV2" input: "late:1" input: "early" input: "^late" }
    node { name: "early" op: "Const" }
    node { name: "late" op: "Unique" input: "early" }
  )pb");
  ASSERT_TRUE(G);
  Node *Use = G->findNode("use");
  EXPECT_EQ(Use->input(0).Src, G->findNode("late"));
  EXPECT_EQ(Use->input(0).Port, 1);
  EXPECT_EQ(Use->input(1).Src, G->findNode("early"));
  EXPECT_TRUE(Use->input(2).isControl());
  EXPECT_EQ(G->findNode("late")->uses().size(), 2u);
  expectUseListsConsistent(*G);
  tensorflow::GraphDef Out;
  G->toGraphDef(Out);
  EXPECT_EQ(Out.node(0).input(0), "late:1");
  EXPECT_EQ(Out.node(0).input(2), "^late");
}

TEST(GraphTest, RoundTripsTheGraphDefExactly) {
  tensorflow::GraphDef In;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(Diamond, &In));
  // Fields the IR has no member for must ride along.
  In.mutable_node(1)->mutable_experimental_debug_info()->add_original_node_names("orig");
  In.mutable_library()->add_function()->mutable_signature()->set_name("f");
  tensorflow::GraphDef Copy = In;
  auto G = Graph::fromGraphDef(std::move(Copy));
  ASSERT_TRUE(G.ok());
  tensorflow::GraphDef Out;
  (*G)->toGraphDef(Out);
  EXPECT_EQ(Out.SerializeAsString(), In.SerializeAsString());
}

TEST(GraphTest, ReportsImportProblemsOnOneLineWithTheirCount) {
  tensorflow::GraphDef Def;
  ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(R"pb(
    node { name: "a" op: "Const" }
    node { name: "a" op: "Const" }
    node { name: "b" op: "Identity" input: "missing" }
    node { name: "c" op: "Identity" input: "^a" input: "a" }
    node { name: "d" op: "Identity" input: "a:x" }
  )pb", &Def));
  auto G = Graph::fromGraphDef(std::move(Def));
  ASSERT_FALSE(G.ok());
  std::string Message(G.status().message());
  // One line: the count, the first three findings, each naming its node.
  EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  EXPECT_EQ(Message.rfind("4 errors: ", 0), 0u) << Message;
  EXPECT_NE(Message.find("node 'a': duplicate node name"), std::string::npos) << Message;
  EXPECT_NE(Message.find("and 1 more"), std::string::npos) << Message;
  int Named = 0;
  for (const char *Finding :
       {"node 'b': input 'missing' names no node",
        "node 'c': data input 'a' comes after a control input", "node 'd': malformed input 'a:x'"})
    Named += Message.find(Finding) != std::string::npos;
  EXPECT_EQ(Named, 2) << Message;
}

TEST(GraphTest, MutatorsKeepUseListsInStep) {
  auto G = parse(Diamond);
  Node *A = G->findNode("a"), *B = G->findNode("b"), *C = G->findNode("c"),
       *D = G->findNode("d");
  D->addDataInput(A, 0); // lands before the control input
  EXPECT_EQ(D->numDataInputs(), 3u);
  EXPECT_TRUE(D->input(3).isControl());
  expectUseListsConsistent(*G);
  D->removeInput(0);
  expectUseListsConsistent(*G);
  C->replaceAllUsesWith(B);
  EXPECT_FALSE(C->hasUses());
  expectUseListsConsistent(*G);
  G->eraseNode(C);
  EXPECT_EQ(G->findNode("c"), nullptr);
  expectUseListsConsistent(*G);
  D->addControlInput(A); // already there: no duplicate
  EXPECT_EQ(D->controlInputs().size(), 1u);
  A->replaceUsesOfOutput(ControlPort, B, ControlPort);
  EXPECT_EQ(D->controlInputs()[0].Src, B);
  expectUseListsConsistent(*G);
}

TEST(GraphTest, BulkEraseDropsEdgesIntoErasedNodes) {
  auto G = parse(Diamond);
  G->eraseNodesIf([](const Node &N) { return N.name() == "b" || N.name() == "d"; });
  EXPECT_EQ(G->size(), 2u);
  expectUseListsConsistent(*G);
  EXPECT_EQ(G->findNode("a")->uses().size(), 1u);
}

TEST(GraphTest, BulkInputRemovalRebuildsUseLists) {
  auto G = parse(Diamond);
  unsigned Asked = 0;
  // Every edge out of `a` but d's data input from b.
  G->removeInputsIf([&](const Node &N, const Input &In) {
    ++Asked;
    return In.Src->name() == "a" && N.name() != "b";
  });
  EXPECT_EQ(Asked, 5u); // once per input
  expectUseListsConsistent(*G);
  Node *A = G->findNode("a"), *C = G->findNode("c"), *D = G->findNode("d");
  EXPECT_EQ(C->numInputs(), 0u);
  ASSERT_EQ(D->numInputs(), 2u);
  EXPECT_EQ(D->input(0).Src->name(), "b");
  EXPECT_EQ(D->input(1).Src, C);
  ASSERT_EQ(A->uses().size(), 1u);
  EXPECT_EQ(A->uses()[0].User->name(), "b");
}

TEST(GraphTest, RenameAndUniqueNames) {
  auto G = parse(Diamond);
  EXPECT_EQ(G->uniqueName("a"), "a_1");
  EXPECT_EQ(G->uniqueName("z"), "z");
  G->renameNode(G->findNode("a"), "x");
  EXPECT_EQ(G->findNode("a"), nullptr);
  tensorflow::GraphDef Out;
  G->toGraphDef(Out);
  EXPECT_EQ(Out.node(1).input(0), "x");
  EXPECT_EQ(Out.node(3).input(2), "^x");
}

TEST(GraphTest, InputNameParsing) {
  llvm::StringRef Name;
  int Port;
  bool Explicit;
  EXPECT_TRUE(parseInputName("a/b:12", Name, Port, Explicit));
  EXPECT_EQ(Name, "a/b");
  EXPECT_EQ(Port, 12);
  EXPECT_TRUE(Explicit);
  EXPECT_TRUE(parseInputName("^c", Name, Port, Explicit));
  EXPECT_EQ(Port, ControlPort);
  for (const char *Bad : {"", "^", ":1", "a:", "a:-1", "a:1x", "^a:1", "a:99999999999"})
    EXPECT_FALSE(parseInputName(Bad, Name, Port, Explicit)) << Bad;
}

TEST(VerifierTest, FindsCyclesButAllowsWhileLoopBackEdges) {
  auto Loop = parse(R"pb(
    node { name: "enter" op: "Enter" input: "x" }
    node { name: "x" op: "Placeholder" }
    node { name: "merge" op: "Merge" input: "enter" input: "next" }
    node { name: "body" op: "Identity" input: "merge" }
    node { name: "next" op: "NextIteration" input: "body" }
  )pb");
  EXPECT_TRUE(verifyGraph(*Loop).ok()) << verifyGraph(*Loop);
  auto Cycle = parse(R"pb(
    node { name: "p" op: "Identity" input: "q" }
    node { name: "q" op: "Identity" input: "p" }
  )pb");
  absl::Status S = verifyGraph(*Cycle);
  EXPECT_FALSE(S.ok());
  EXPECT_NE(S.message().find("cycle"), std::string::npos);
  EXPECT_NE(S.message().find("'p'"), std::string::npos);
}

TEST(VerifierTest, ChecksOutputPortsOfKnownOps) {
  auto G = parse(R"pb(
    node { name: "s" op: "Switch" input: "x" input: "p" }
    node { name: "x" op: "Placeholder" }
    node { name: "p" op: "Placeholder" }
    node { name: "ok" op: "Identity" input: "s:1" }
    node { name: "bad" op: "Identity" input: "s:2" }
    node { name: "custom" op: "MyCustomOp" }
    node { name: "fine" op: "Identity" input: "custom:7" }
    node { name: "noop" op: "NoOp" }
    node { name: "fromnoop" op: "Identity" input: "noop" }
  )pb");
  absl::Status S = verifyGraph(*G);
  ASSERT_FALSE(S.ok());
  std::string M(S.message());
  EXPECT_NE(M.find("node 'bad' (Identity): input 0 reads output 2 of node 's' (Switch), "
                   "which has 2 outputs"),
            std::string::npos)
      << M;
  EXPECT_NE(M.find("node 'fromnoop'"), std::string::npos) << M;
  EXPECT_EQ(M.find("'fine'"), std::string::npos) << M;
  EXPECT_EQ(M.find("'ok'"), std::string::npos) << M;
}

} // namespace
