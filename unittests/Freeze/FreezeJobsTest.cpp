//===- FreezeJobsTest.cpp - Freezes in one process keep apart -------------===//
//
// A long-lived process (a training script, a CI service) runs many freezes:
// each in its own Context, so one job's failure (a checksum its background
// check found) never becomes the next job's, and two jobs at once on two
// threads each get their own result.
//
//===----------------------------------------------------------------------===//
#include "frost/Freeze/Freeze.h"

#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <thread>

namespace frost {
namespace {

namespace fs = std::filesystem;

/// Copies of the bundled example: good/ as it is, corrupt/ with every byte
/// of its weights flipped (their stored checksums no longer match).
class FreezeJobsTest : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = fs::temp_directory_path() /
          ("frost-jobs-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::path Example = fs::path(FROST_SOURCE_DIR) / "examples" / "linear-regression";
    for (const char *Name : {"good", "corrupt"}) {
      fs::create_directories(Dir / Name);
      for (const char *File : {"checkpoint", "model.index", "model.meta",
                               "model.data-00000-of-00001"})
        fs::copy_file(Example / File, Dir / Name / File);
    }
    fs::path Data = Dir / "corrupt" / "model.data-00000-of-00001";
    std::string Bytes;
    {
      std::ifstream In(Data, std::ios::binary);
      Bytes.assign(std::istreambuf_iterator<char>(In), {});
    }
    ASSERT_FALSE(Bytes.empty());
    for (char &C : Bytes)
      C = static_cast<char>(~C);
    std::ofstream(Data, std::ios::binary | std::ios::trunc) << Bytes;
  }
  void TearDown() override { fs::remove_all(Dir); }

  /// One whole job: freeze and serialize, in a Context of its own.
  absl::StatusOr<std::string> freezeJob(const char *Which) {
    Context Ctx;
    FreezeOptions O;
    O.Positional = {(Dir / Which).string()};
    O.Outputs = {"pred"};
    FROST_ASSIGN_OR_RETURN(FreezeResult R, freeze(Ctx, O));
    return serializeModel(Ctx, *R.M);
  }

  fs::path Dir;
};

TEST_F(FreezeJobsTest, AJobAfterAFailedOneGetsItsOwnResult) {
  absl::StatusOr<std::string> Expected = freezeJob("good");
  ASSERT_TRUE(Expected.ok()) << Expected.status();
  absl::StatusOr<std::string> Failed = freezeJob("corrupt");
  ASSERT_FALSE(Failed.ok());
  EXPECT_EQ(Failed.status().code(), absl::StatusCode::kDataLoss) << Failed.status();
  EXPECT_NE(Failed.status().message().find("checksum"), std::string::npos) << Failed.status();
  absl::StatusOr<std::string> Next = freezeJob("good");
  ASSERT_TRUE(Next.ok()) << "the failure of the job before reached this one: " << Next.status();
  EXPECT_EQ(*Next, *Expected);
}

TEST_F(FreezeJobsTest, JobsOnTwoThreadsGetTheirOwnResults) {
  absl::StatusOr<std::string> Expected = freezeJob("good");
  ASSERT_TRUE(Expected.ok()) << Expected.status();
  constexpr int Rounds = 20;
  int GoodFailed = 0, CorruptPassed = 0, GoodDiffered = 0;
  std::thread Corrupt([&] {
    for (int I = 0; I < Rounds; ++I)
      CorruptPassed += freezeJob("corrupt").ok();
  });
  std::thread Good([&] {
    for (int I = 0; I < Rounds; ++I) {
      absl::StatusOr<std::string> R = freezeJob("good");
      GoodFailed += !R.ok();
      GoodDiffered += R.ok() && *R != *Expected;
    }
  });
  Corrupt.join();
  Good.join();
  EXPECT_EQ(GoodFailed, 0) << "the other thread's failures reached good jobs";
  EXPECT_EQ(GoodDiffered, 0);
  EXPECT_EQ(CorruptPassed, 0);
}

TEST_F(FreezeJobsTest, AnOutputIsRefusedOnlyWhereItIsTheJobsInput) {
  // The first job reads good/model.meta; a later job may write over it (a
  // script that re-exports), but no job writes over its own input.
  {
    Context Ctx;
    FreezeOptions O;
    O.Positional = {(Dir / "good").string()};
    O.Outputs = {"pred"};
    absl::StatusOr<FreezeResult> R = freeze(Ctx, O);
    ASSERT_TRUE(R.ok()) << R.status();
    absl::StatusOr<FrozenFile> Over =
        writeFrozenGraph(Ctx, *R, (Dir / "good" / "model.meta").string(), FrozenFormat::Binary);
    ASSERT_FALSE(Over.ok());
    EXPECT_NE(Over.status().message().find("is an input"), std::string::npos) << Over.status();
  }
  Context Later;
  EXPECT_TRUE(Later.inputs().checkNotAnInput((Dir / "good" / "model.meta").string()).ok());
}

} // namespace
} // namespace frost
