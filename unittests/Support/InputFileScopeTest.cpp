//===- InputFileScopeTest.cpp - Inputs of one call, or of the process -----===//
#include "frost/Support/File.h"

#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

#include <string>
#include <thread>

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

bool isInput(const TempFile &F) { return !checkNotAnInput(F.Path).ok(); }

TEST(InputFileScopeTest, AnInputOutsideAnyScopeIsOneForTheProcess) {
  TempFile F;
  EXPECT_FALSE(isInput(F));
  noteInputFile(F.Path);
  EXPECT_EQ(checkNotAnInput(F.Path).message(),
            F.Path + ": is an input; write the output elsewhere");
  {
    InputFileScope Call;
    noteInputFile(F.Path);
  }
  EXPECT_TRUE(isInput(F)) << "a scope ending forgot an input of the process";
}

TEST(InputFileScopeTest, AnInputOfACallIsForgottenWhenItEnds) {
  TempFile F;
  {
    InputFileScope Call;
    noteInputFiles(F.Path);
    EXPECT_TRUE(isInput(F));
  }
  EXPECT_FALSE(isInput(F));
}

TEST(InputFileScopeTest, NestedScopesForgetWithTheOutermost) {
  TempFile F;
  {
    InputFileScope Outer;
    noteInputFile(F.Path);
    {
      InputFileScope Inner;
      noteInputFile(F.Path);
      noteInputFile(F.Path);
    }
    EXPECT_TRUE(isInput(F)) << "the inner call's end forgot the outer call's input";
  }
  EXPECT_FALSE(isInput(F));
}

TEST(InputFileScopeTest, ConcurrentCallsKeepEachOthersInputs) {
  TempFile F;
  InputFileScope Mine;
  noteInputFile(F.Path);
  std::thread Other([&] {
    InputFileScope Theirs;
    noteInputFile(F.Path);
  });
  Other.join();
  EXPECT_TRUE(isInput(F)) << "another thread's call forgot this call's input";
}

} // namespace
} // namespace frost
