//===- ResolveTest.cpp - Finding checkpoints from user input --------------===//
#include "frost/Checkpoint/Resolve.h"
#include "frost/Support/Context.h"
#include "BundleTestWriter.h"
#include "frost/proto/checkpoint.pb.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

#include <filesystem>

using namespace frost;
using namespace frost::testwriter;

namespace {

void writeBundle(const std::string &Prefix) {
  TestBundleWriter W(Prefix);
  W.add<float>("v", tensorflow::DT_FLOAT, {1}, {1});
  W.finish();
}

void setMTime(const std::string &Path, int SecondsAgo) {
  std::filesystem::last_write_time(
      Path, std::filesystem::file_time_type::clock::now() - std::chrono::seconds(SecondsAgo));
}

bool mentions(const ResolvedCheckpoint &R, const std::string &Text) {
  for (const std::string &N : R.Notes)
    if (absl::StrContains(N, Text))
      return true;
  return false;
}

TEST(ResolveTest, PlainPrefixWithMeta) {
  TempDir Dir;
  writeBundle(Dir / "model.ckpt-1234");
  writeFile(Dir / "model.ckpt-1234.meta", "meta");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir / "model.ckpt-1234");
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model.ckpt-1234");
  EXPECT_EQ(R->Format, CheckpointFormat::V2);
  EXPECT_EQ(R->MetaPath, Dir / "model.ckpt-1234.meta");
  EXPECT_EQ(R->GlobalStep, 1234);
  EXPECT_TRUE(R->Notes.empty());
}

TEST(ResolveTest, FileOfCheckpointInsteadOfPrefix) {
  TempDir Dir;
  writeBundle(Dir / "model");
  for (const char *File : {"model.index", "model.data-00000-of-00001"}) {
    Context Ctx;
    auto R = resolveCheckpoint(Ctx, Dir / File);
    ASSERT_TRUE(R.ok()) << R.status();
    EXPECT_EQ(R->Prefix, Dir / "model");
    EXPECT_FALSE(R->MetaPath);
    EXPECT_FALSE(R->GlobalStep);
    EXPECT_TRUE(mentions(*R, "is a file of checkpoint")) << File;
  }
}

TEST(ResolveTest, DirectoryWithRelativeStateFile) {
  TempDir Dir;
  writeBundle(Dir / "model.ckpt-10");
  writeBundle(Dir / "model.ckpt-20");
  writeFile(Dir / "checkpoint", "model_checkpoint_path: \"model.ckpt-10\"\n"
                                "all_model_checkpoint_paths: \"model.ckpt-10\"\n"
                                "all_model_checkpoint_paths: \"model.ckpt-20\"\n");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path() + "/");
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model.ckpt-10"); // the state file decides, not the step
  EXPECT_EQ(R->GlobalStep, 10);
  EXPECT_TRUE(mentions(*R, "checkpoint state file names"));
}

TEST(ResolveTest, DirectoryWithAbsoluteStateFile) {
  TempDir Dir;
  writeBundle(Dir / "m-5");
  writeFile(Dir / "checkpoint", absl::StrCat("model_checkpoint_path: \"", Dir / "m-5", "\"\n"));
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "m-5");
  EXPECT_FALSE(mentions(*R, "does not exist here"));
}

TEST(ResolveTest, StateFileFromAnotherMachine) {
  TempDir Dir;
  writeBundle(Dir / "model.ckpt-7");
  writeFile(Dir / "checkpoint",
            "model_checkpoint_path: \"/home/someone/train/model.ckpt-7\"\n");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model.ckpt-7");
  EXPECT_TRUE(mentions(*R, "'/home/someone/train/model.ckpt-7', which does not exist here"));
}

TEST(ResolveTest, WindowsStylePath) {
  TempDir Dir;
  writeBundle(Dir / "model.ckpt-10");
  writeFile(Dir / "checkpoint", "model_checkpoint_path: \"C:\\\\foo\\\\model.ckpt-10\"\n");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model.ckpt-10");
  EXPECT_TRUE(mentions(*R, "C:\\foo\\model.ckpt-10"));
}

TEST(ResolveTest, StateFileNamesMissingCheckpoint) {
  TempDir Dir;
  writeFile(Dir / "checkpoint", "model_checkpoint_path: \"gone-3\"\n");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  EXPECT_TRUE(absl::IsNotFound(R.status())) << R.status();
  EXPECT_EQ(R.status().message(),
            absl::StrCat(Dir / "checkpoint", ": records checkpoint 'gone-3', but neither it nor ",
                         Dir / "gone-3", " exists"));
}

TEST(ResolveTest, MalformedStateFile) {
  TempDir Dir;
  writeFile(Dir / "checkpoint", "model_checkpoint_path: \"a\"\nbogus_field: 1\n");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  EXPECT_TRUE(absl::IsInvalidArgument(R.status())) << R.status();
  EXPECT_TRUE(absl::StrContains(R.status().message(), absl::StrCat(Dir / "checkpoint", ":2:")))
      << R.status();
}

TEST(ResolveTest, NoStateFileOnlyCheckpoint) {
  TempDir Dir;
  writeBundle(Dir / "only");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "only");
  EXPECT_TRUE(mentions(*R, "has no checkpoint state file; using its only checkpoint"));
}

TEST(ResolveTest, NoStateFileNewestByModificationTime) {
  TempDir Dir;
  writeBundle(Dir / "model-300");
  writeBundle(Dir / "model-100");
  writeBundle(Dir / "model-200");
  setMTime(Dir / "model-300.index", 300);
  setMTime(Dir / "model-100.index", 100);
  setMTime(Dir / "model-200.index", 200);
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model-100");
  EXPECT_EQ(R->GlobalStep, 100);
  EXPECT_TRUE(mentions(*R, "using the newest of its 3 checkpoints"));
}

TEST(ResolveTest, NoStateFileSameTimeHighestStep) {
  TempDir Dir;
  writeBundle(Dir / "model-9");
  writeBundle(Dir / "model-10");
  setMTime(Dir / "model-9.index", 50);
  setMTime(Dir / "model-10.index", 50);
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "model-10");
}

TEST(ResolveTest, ShardedV1CheckpointInDirectory) {
  TempDir Dir;
  TestV1Writer W;
  tensorflow::TensorProto P;
  P.add_float_val(1);
  W.addSlice("a", tensorflow::DT_FLOAT, {}, {}, P);
  W.finish(Dir / "export-00000-of-00001");
  writeFile(Dir / "export.meta", "meta");
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ(R->Prefix, Dir / "export");
  EXPECT_EQ(R->Format, CheckpointFormat::V1);
  EXPECT_EQ(R->MetaPath, Dir / "export.meta");
}

TEST(ResolveTest, EmptyDirectory) {
  TempDir Dir;
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir.path());
  EXPECT_TRUE(absl::IsNotFound(R.status())) << R.status();
  EXPECT_EQ(R.status().message(),
            absl::StrCat(Dir.path(), ": no checkpoint state file and no checkpoint in the "
                                     "directory"));
}

TEST(ResolveTest, NothingAtPath) {
  TempDir Dir;
  Context Ctx;
  auto R = resolveCheckpoint(Ctx, Dir / "missing");
  EXPECT_TRUE(absl::IsNotFound(R.status())) << R.status();
  EXPECT_TRUE(absl::StrContains(R.status().message(), Dir / "missing.index")) << R.status();
}

} // namespace
