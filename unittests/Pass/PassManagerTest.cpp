//===- PassManagerTest.cpp - One pass manager runs model after model -----===//
//
// frost-opt parses its pipeline once and runs that pass manager on every
// model (each --split-input-file chunk): each model must come out as a pass
// manager of its own would leave it, with its own statistics.
//
//===----------------------------------------------------------------------===//
#include "frost/IO/GraphIO.h"
#include "frost/Jobs/Jobs.h"
#include "frost/Pass/PassManager.h"
#include "frost/Transforms/Passes.h"

#include "gtest/gtest.h"

#include "AllPasses.h"

#include <fstream>
#include <sstream>

using namespace frost;

namespace {

const PassRegistry &registry() { return allPassesRegistry(); }

/// What a run leaves: the model's text and every pass's statistics.
struct Outcome {
  std::string Text;
  std::vector<std::pair<std::string, uint64_t>> Statistics;
  bool operator==(const Outcome &) const = default;
};

Outcome runOn(PassManager &PM, const std::string &Model) {
  Context Ctx;
  absl::StatusOr<std::unique_ptr<frost::Model>> M = runPipeline(Ctx, Model, "model", PM, {});
  EXPECT_TRUE(M.ok()) << M.status();
  Outcome O;
  if (M.ok())
    O.Text = printModelText(**M);
  for (const std::unique_ptr<Pass> &P : PM.passes())
    for (const Statistic *S : P->statistics())
      O.Statistics.emplace_back((P->name() + "." + S->name()).str(), S->value());
  return O;
}

Outcome runFresh(const std::string &Pipeline, const std::string &Model) {
  PassManager PM;
  absl::Status S = parsePassPipeline(Pipeline, registry(), PM);
  EXPECT_TRUE(S.ok()) << S;
  return runOn(PM, Model);
}

/// Runs `Models` in turn through one pass manager parsed from `Pipeline`,
/// each checked against a pass manager of its own.
void expectSameAsFresh(const std::string &Pipeline, const std::vector<std::string> &Models) {
  PassManager Shared;
  absl::Status S = parsePassPipeline(Pipeline, registry(), Shared);
  ASSERT_TRUE(S.ok()) << S;
  for (size_t I = 0; I < Models.size(); ++I) {
    Outcome Fresh = runFresh(Pipeline, Models[I]);
    EXPECT_FALSE(Fresh.Text.empty());
    EXPECT_EQ(runOn(Shared, Models[I]), Fresh) << Pipeline << ", model " << I;
  }
}

const char *Folding = R"pb(
node { name: "a" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 2 } } } }
node { name: "b" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 3 } } } }
node { name: "sum" op: "AddV2" input: "a" input: "b" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "out" op: "Identity" input: "sum" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "unused" op: "Neg" input: "a" attr { key: "T" value { type: DT_FLOAT } } }
)pb";

const char *Fed = R"pb(
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } }
node { name: "c" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
       attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape {} float_val: 4 } } } }
node { name: "root" op: "Sqrt" input: "c" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "m" op: "Mul" input: "x" input: "root" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "out" op: "Identity" input: "m" attr { key: "T" value { type: DT_FLOAT } } }
node { name: "dead" op: "Neg" input: "x" attr { key: "T" value { type: DT_FLOAT } } }
)pb";

std::string readSourceFile(const std::string &Path) {
  std::ifstream In(std::string(FROST_SOURCE_DIR) + "/" + Path);
  std::stringstream Text;
  Text << In.rdbuf();
  return Text.str();
}

TEST(PassManagerTest, OnePassManagerLeavesEachModelAsAFreshOneWould) {
  expectSameAsFresh("prune{outputs=out},fold-constants{outputs=out}", {Folding, Fed, Folding});
}

TEST(PassManagerTest, InlinedNamesCountFromZeroInEachModel) {
  // inline-functions numbers its nodes `_N` across a run: each model's
  // count starts at 0 (it once went on from the previous model's).
  std::string Calls = readSourceFile("test/Transforms/inline-functions.pbtxt");
  ASSERT_FALSE(Calls.empty());
  expectSameAsFresh("inline-functions", {Calls, Calls});
  expectSameAsFresh("inline-functions{lower-control-flow=true},prune{outputs=y}",
                    {Calls, Calls});
}

TEST(PassManagerTest, RewindRunsEveryPassAgainWithStatisticsAtZero) {
  PassManager PM;
  ASSERT_TRUE(parsePassPipeline("prune{outputs=out}", registry(), PM).ok());
  Outcome First = runOn(PM, Folding);
  EXPECT_EQ(First.Statistics, (std::vector<std::pair<std::string, uint64_t>>{
                                  {"prune.nodes-removed", 1}, {"prune.functions-dropped", 0}}));
  // A run without rewind runs only passes added since: none here.
  Context Ctx;
  absl::StatusOr<std::unique_ptr<Model>> M = parseModel(Fed, "fed", {});
  ASSERT_TRUE(M.ok());
  PassContext PassCtx(Ctx);
  ASSERT_TRUE(PM.run(**M, PassCtx).ok());
  EXPECT_EQ(PM.passes()[0]->statistics()[0]->value(), 1u);
  PM.rewind();
  EXPECT_EQ(PM.passes()[0]->statistics()[0]->value(), 0u);
  ASSERT_TRUE(PM.run(**M, PassCtx).ok());
  EXPECT_EQ(PM.passes()[0]->statistics()[0]->value(), 1u); // `dead`
}

} // namespace
