//===- ContextTest.cpp - What one job owns stays with that job ------------===//
#include "frost/Support/Context.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <unistd.h>

namespace frost {
namespace {

/// A new empty file, removed at the end of the test.
struct TempFile {
  std::string Path;
  TempFile() {
    llvm::SmallString<128> P;
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("frost-input", "pb", P));
    Path = P.str().str();
  }
  ~TempFile() { llvm::sys::fs::remove(Path); }
};

TEST(ContextTest, AnInputIsAnInputOfItsJobOnly) {
  TempFile F;
  Context First;
  EXPECT_TRUE(First.inputs().checkNotAnInput(F.Path).ok());
  First.inputs().note(F.Path);
  EXPECT_EQ(First.inputs().checkNotAnInput(F.Path).message(),
            F.Path + ": is an input; write the output elsewhere");
  Context Second;
  EXPECT_TRUE(Second.inputs().checkNotAnInput(F.Path).ok())
      << "another job's input reached this job";
}

TEST(ContextTest, AnInputIsRefusedThroughAHardLink) {
  TempFile F;
  std::string Link = F.Path + ".link";
  ASSERT_EQ(::link(F.Path.c_str(), Link.c_str()), 0);
  Context Ctx;
  Ctx.inputs().note(F.Path);
  EXPECT_EQ(Ctx.inputs().checkNotAnInput(Link).message(),
            Link + ": is the same file as the input " + F.Path + "; write the output elsewhere");
  ::unlink(Link.c_str());
}

TEST(ContextTest, OpeningAFileNotesItAsAnInput) {
  TempFile F;
  ASSERT_EQ(::truncate(F.Path.c_str(), 100), 0);
  Context Ctx;
  {
    absl::StatusOr<std::unique_ptr<MappedFile>> File = MappedFile::open(Ctx, F.Path);
    ASSERT_TRUE(File.ok()) << File.status();
  }
  EXPECT_FALSE(Ctx.inputs().checkNotAnInput(F.Path).ok());
  EXPECT_TRUE(Context().inputs().checkNotAnInput(F.Path).ok());
}

TEST(ContextTest, ABackgroundFailureStaysWithItsJob) {
  Context Failing;
  Failing.background().run([] { return absl::DataLossError("checksum mismatch"); });
  EXPECT_EQ(Failing.background().wait().message(), "checksum mismatch");
  // Still wrong for that job: what the check found has not changed.
  EXPECT_EQ(Failing.background().wait().message(), "checksum mismatch");
  Context Next;
  std::atomic<bool> Ran = false;
  Next.background().run([&] {
    Ran = true;
    return absl::OkStatus();
  });
  EXPECT_TRUE(Next.background().wait().ok()) << "the failure of an earlier job reached this one";
  EXPECT_TRUE(Ran);
}

TEST(ContextTest, JobsOnTwoThreadsKeepTheirOwnResults) {
  constexpr int Rounds = 50;
  std::atomic<int> Mixed = 0;
  auto job = [&](bool Fails) {
    for (int I = 0; I < Rounds; ++I) {
      Context Ctx;
      for (int J = 0; J < 3; ++J)
        Ctx.background().run([Fails, J] {
          return Fails && J == 1 ? absl::DataLossError("bad") : absl::OkStatus();
        });
      if (Ctx.background().wait().ok() == Fails)
        ++Mixed;
    }
  };
  std::thread A(job, true), B(job, false);
  A.join();
  B.join();
  EXPECT_EQ(Mixed, 0);
}

TEST(ContextTest, AnEndedJobDropsWhatItQueuedAndWaitsForWhatRuns) {
  std::atomic<bool> FirstStarted = false, FirstDone = false, SecondRan = false;
  {
    Context Ctx;
    Ctx.background().run([&] {
      FirstStarted = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      FirstDone = true;
      return absl::OkStatus();
    });
    Ctx.background().run([&] {
      SecondRan = true;
      return absl::OkStatus();
    });
    while (!FirstStarted)
      std::this_thread::yield();
  }
  EXPECT_TRUE(FirstDone) << "the job running was not waited for";
  EXPECT_FALSE(SecondRan) << "a job queued for a job that ended still ran";
}

} // namespace
} // namespace frost
