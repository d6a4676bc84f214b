//===- GraphRunnerTest.cpp - Running graphs: dead branches, blame ---------===//
#include "frost/Verify/GraphRunner.h"

#include "frost/IO/GraphIO.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

using namespace frost;
using namespace frost::verify;

namespace {

std::unique_ptr<Model> parse(const std::string &Text) {
  absl::StatusOr<std::unique_ptr<Model>> M = parseModel(Text, "test.pbtxt");
  EXPECT_TRUE(M.ok()) << M.status();
  return M.ok() ? std::move(*M) : nullptr;
}

TensorData scalar(float V) {
  return TensorData::owned(tensorflow::DT_FLOAT, {}, std::string(reinterpret_cast<char *>(&V), 4));
}

TensorData boolean(bool V) {
  return TensorData::owned(tensorflow::DT_BOOL, {}, std::string(1, V ? 1 : 0));
}

const char *F = R"(attr { key: "T" value { type: DT_FLOAT } })";

/// y = p ? x * 2 : x + 10, lowered as TensorFlow lowers a cond: Switch on x,
/// each branch reading one output, Merge joining them; `done` is a NoOp
/// after both branches, which a Merge of control inputs joins.
std::string condGraph() {
  return absl::StrCat(
      R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
node { name: "two" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } } }
node { name: "ten" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 10 } } } }
node { name: "sw" op: "Switch" input: "x" input: "p" )", F, R"( }
node { name: "then" op: "Mul" input: "sw:1" input: "two" )", F, R"( }
node { name: "else" op: "AddV2" input: "sw" input: "ten" )", F, R"( }
node { name: "then_done" op: "NoOp" input: "^then" }
node { name: "else_done" op: "NoOp" input: "^else" }
node { name: "joined" op: "Merge" input: "then" input: "else" input: "^then_done" input: "^else_done" )",
      F, R"( attr { key: "N" value { i: 2 } } }
node { name: "y" op: "Identity" input: "joined" )", F, R"( }
node { name: "after_else" op: "Identity" input: "else" )", F, R"( }
)");
}

float valueOf(const FetchedNode &N, size_t Port = 0) {
  EXPECT_FALSE(N.Missing) << N.Node << ": " << (N.Missing ? N.Missing->Reason : "");
  EXPECT_LT(Port, N.Outputs.size()) << N.Node;
  if (N.Missing || Port >= N.Outputs.size() || !N.Outputs[Port])
    return -1;
  return N.Outputs[Port]->element<float>(0);
}

TEST(GraphRunnerTest, CondRunsTheTakenBranchOnly) {
  std::unique_ptr<Model> M = parse(condGraph());
  for (bool Taken : {true, false}) {
    RunRequest R;
    R.Feeds = {{"x", scalar(3)}, {"p", boolean(Taken)}};
    R.Fetches = {"y", "joined", "after_else"};
    absl::StatusOr<RunResult> Out = runGraph(M->graph(), R);
    ASSERT_TRUE(Out.ok()) << Out.status();
    // By hand: 3 * 2 = 6, 3 + 10 = 13; Merge's output 1 is the branch index.
    EXPECT_EQ(valueOf(Out->Fetched[0]), Taken ? 6.0f : 13.0f);
    ASSERT_EQ(Out->Fetched[1].Outputs.size(), 2u);
    EXPECT_EQ(Out->Fetched[1].Outputs[1]->element<int32_t>(0), Taken ? 0 : 1);
    // What reads the branch not taken is dead, not missing.
    EXPECT_EQ(Out->Fetched[2].Dead, Taken);
    EXPECT_FALSE(Out->Fetched[2].Missing);
  }
}

TEST(GraphRunnerTest, BlamesTheNodeWithoutAKernel) {
  std::unique_ptr<Model> M = parse(absl::StrCat(
      R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "odd" op: "MyCustomOp" input: "x" )", F, R"( }
node { name: "y" op: "Neg" input: "odd" )", F, R"( }
node { name: "z" op: "Neg" input: "x" )", F, R"( }
)"));
  RunRequest R;
  R.Feeds = {{"x", scalar(1.5f)}};
  R.Fetches = {"y", "z"};
  absl::StatusOr<RunResult> Out = runGraph(M->graph(), R);
  ASSERT_TRUE(Out.ok()) << Out.status();
  ASSERT_TRUE(Out->Fetched[0].Missing);
  EXPECT_EQ(Out->Fetched[0].Missing->Node, "odd");
  EXPECT_TRUE(Out->Fetched[0].Missing->NoKernel);
  EXPECT_EQ(valueOf(Out->Fetched[1]), -1.5f);
  ASSERT_EQ(Out->NoKernel.count("MyCustomOp"), 1u);
  EXPECT_EQ(Out->NoKernel.at("MyCustomOp"), std::vector<std::string>{"odd"});
}

TEST(GraphRunnerTest, VariablesAndMissingFeeds) {
  std::unique_ptr<Model> M = parse(absl::StrCat(
      R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "v" op: "VarHandleOp" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "read" op: "ReadVariableOp" input: "v" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "y" op: "Mul" input: "x" input: "read" )", F, R"( }
)"));
  RunRequest R;
  R.Fetches = {"y"};
  R.VariableValue = [](const Node &N) -> absl::StatusOr<TensorData> {
    EXPECT_EQ(N.name(), "v");
    return scalar(4);
  };
  absl::StatusOr<RunResult> Out = runGraph(M->graph(), R);
  ASSERT_TRUE(Out.ok()) << Out.status();
  ASSERT_TRUE(Out->Fetched[0].Missing);
  EXPECT_EQ(Out->Fetched[0].Missing->Node, "x");
  EXPECT_EQ(Out->Fetched[0].Missing->Reason, "no value fed");
  R.Feeds = {{"x", scalar(0.5f)}};
  Out = runGraph(M->graph(), R);
  ASSERT_TRUE(Out.ok()) << Out.status();
  EXPECT_EQ(valueOf(Out->Fetched[0]), 2.0f);
  EXPECT_FALSE(runGraph(M->graph(), RunRequest{{}, nullptr, {"nowhere"}, {}, {}}).ok());
}

TEST(GraphRunnerTest, LoopsThatDoNotEndRunOutOfBudgetNamingTheLoop) {
  // Merge <-> NextIteration without a LoopCond: TensorFlow would spin for
  // ever; the run stops when the budget does (each node run in a loop costs
  // 1e5 units), naming the loop.
  std::unique_ptr<Model> M = parse(absl::StrCat(
      R"(node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "enter" op: "Enter" input: "x" )", F, R"( attr { key: "frame_name" value { s: "loop" } } }
node { name: "merge" op: "Merge" input: "enter" input: "next" )", F, R"( attr { key: "N" value { i: 2 } } }
node { name: "next" op: "NextIteration" input: "merge" )", F, R"( }
node { name: "out" op: "Neg" input: "merge" )", F, R"( }
)"));
  RunRequest R;
  R.Feeds = {{"x", scalar(1)}};
  R.Fetches = {"out"};
  R.Budget.WorkLeft = 10'000'000;
  absl::StatusOr<RunResult> Out = runGraph(M->graph(), R);
  ASSERT_FALSE(Out.ok());
  EXPECT_TRUE(absl::IsResourceExhausted(Out.status())) << Out.status();
  EXPECT_NE(Out.status().message().find("while loop 'loop' was still running at iteration"),
            std::string_view::npos)
      << Out.status();
}

TEST(GraphRunnerTest, AFetchNoFrameSendsIsNotComputedWithAReason) {
  // A Merge whose only other input is its own output never runs: no value,
  // and a reason.
  std::unique_ptr<Model> M = parse(absl::StrCat(
      R"(node { name: "merge" op: "Merge" input: "neg" input: "neg:0" )", F,
      R"( attr { key: "N" value { i: 2 } } }
node { name: "neg" op: "Neg" input: "merge" )", F, R"( }
)"));
  RunRequest R;
  R.Fetches = {"neg"};
  absl::StatusOr<RunResult> Out = runGraph(M->graph(), R);
  ASSERT_TRUE(Out.ok()) << Out.status();
  ASSERT_TRUE(Out->Fetched[0].Missing);
  EXPECT_NE(Out->Fetched[0].Missing->Reason.find("never ran"), std::string::npos);
}

} // namespace
