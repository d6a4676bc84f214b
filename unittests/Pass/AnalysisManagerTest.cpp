//===- AnalysisManagerTest.cpp - What the passes of one run share ---------===//
#include "frost/Pass/AnalysisManager.h"
#include "frost/Support/Context.h"
#include "../Checkpoint/BundleTestWriter.h"
#include "../IR/ParseGraph.h"

#include "gtest/gtest.h"

#include <filesystem>

using namespace frost;
using namespace frost::testwriter;

namespace {

std::string writeCheckpoint(const std::string &Name) {
  auto Dir = std::filesystem::path(::testing::TempDir()) / Name;
  std::filesystem::create_directories(Dir);
  std::string Prefix = (Dir / "model.ckpt-7").string();
  TestBundleWriter W(Prefix);
  W.add<float>("v", tensorflow::DT_FLOAT, {1}, {2.5f});
  W.finish();
  return Prefix;
}

TEST(AnalysisManagerTest, CheckpointOpenedOncePerPath) {
  std::string Prefix = writeCheckpoint("am-once");
  Context Ctx;
  AnalysisManager AM(Ctx);
  auto First = AM.checkpoint(Prefix);
  ASSERT_TRUE(First.ok()) << First.status();
  auto Second = AM.checkpoint(Prefix);
  ASSERT_TRUE(Second.ok());
  EXPECT_EQ(*First, *Second);
  EXPECT_EQ(AM.checkpointsOpened(), 1u);
  EXPECT_TRUE((*First)->contains("v"));
  // Graph changes do not close it.
  AM.invalidateGraphAnalyses();
  EXPECT_EQ(*AM.checkpoint(Prefix), *First);
  EXPECT_EQ(AM.checkpointsOpened(), 1u);
}

TEST(AnalysisManagerTest, DirectoryResolvedOnceWithNotes) {
  std::string Prefix = writeCheckpoint("am-dir");
  std::string Dir = std::filesystem::path(Prefix).parent_path().string();
  Context Ctx;
  AnalysisManager AM(Ctx);
  std::vector<std::string> Notes;
  auto R = AM.checkpoint(Dir, &Notes);
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ((*R)->prefix(), Prefix);
  EXPECT_FALSE(Notes.empty()) << "how a directory was resolved is told";
  Notes.clear();
  ASSERT_TRUE(AM.checkpoint(Dir, &Notes).ok());
  EXPECT_TRUE(Notes.empty()) << "told once";
}

TEST(AnalysisManagerTest, PreResolvedPathIsNotResolvedAgain) {
  std::string Prefix = writeCheckpoint("am-pre");
  Context Ctx;
  AnalysisManager AM(Ctx);
  ResolvedCheckpoint R;
  R.Prefix = Prefix;
  R.Notes = {"should not be repeated"};
  AM.addResolvedCheckpoint("my-name-for-it", R);
  std::vector<std::string> Notes;
  auto Reader = AM.checkpoint("my-name-for-it", &Notes);
  ASSERT_TRUE(Reader.ok()) << Reader.status();
  EXPECT_EQ((*Reader)->prefix(), Prefix);
  EXPECT_TRUE(Notes.empty());
}

TEST(AnalysisManagerTest, MissingCheckpointIsAnError) {
  Context Ctx;
  AnalysisManager AM(Ctx);
  auto R = AM.checkpoint(::testing::TempDir() + "/am-nowhere/model");
  EXPECT_FALSE(R.ok());
  EXPECT_EQ(AM.checkpointsOpened(), 0u);
}

TEST(AnalysisManagerTest, ReachabilityCachedUntilInvalidated) {
  std::unique_ptr<Graph> G = parseGraph(R"pb(
    node { name: "a" op: "Const" }
    node { name: "b" op: "Identity" input: "a" attr { key: "_class" value { list { s: "loc:@gone" } } } }
    node { name: "c" op: "Const" }
  )pb");
  ASSERT_TRUE(G);
  Context Ctx;
  AnalysisManager AM(Ctx);
  std::vector<std::string> Missing;
  auto Record = [&](const Node &N, llvm::StringRef Target) {
    Missing.push_back(N.name().str() + "->" + Target.str());
  };
  auto First = AM.nodesNeededBy(*G, {"b"}, Record);
  ASSERT_TRUE(First.ok()) << First.status();
  EXPECT_TRUE((**First)[G->findNode("a")->id()]);
  EXPECT_FALSE((**First)[G->findNode("c")->id()]);
  auto Second = AM.nodesNeededBy(*G, {"b"}, Record);
  ASSERT_TRUE(Second.ok());
  EXPECT_EQ(*First, *Second);
  EXPECT_EQ(AM.reachabilityWalks(), 1u);
  // Missing colocation targets are told to every caller, cached or not.
  EXPECT_EQ(Missing, (std::vector<std::string>{"b->gone", "b->gone"}));
  // Another output list is another walk; invalidation forgets both.
  ASSERT_TRUE(AM.nodesNeededBy(*G, {"c"}).ok());
  EXPECT_EQ(AM.reachabilityWalks(), 2u);
  AM.invalidateGraphAnalyses();
  ASSERT_TRUE(AM.nodesNeededBy(*G, {"b"}).ok());
  EXPECT_EQ(AM.reachabilityWalks(), 3u);
  EXPECT_FALSE(AM.nodesNeededBy(*G, {"nope"}).ok());
}

} // namespace
