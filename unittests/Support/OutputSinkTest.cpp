//===- OutputSinkTest.cpp - Output files, kernel copies and hashing -------===//
#include "frost/Support/Context.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"
#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <random>

namespace frost {
namespace {

std::string readAll(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

std::string sha256Hex(llvm::StringRef Bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(Bytes)), /*LowerCase=*/true);
}

class OutputSinkTest : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = std::filesystem::temp_directory_path() /
          ("frost-sink-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(Dir);
    // A 3 MiB input file of varied bytes, mapped: big enough to keep its
    // descriptor and for runs to take the kernel or staged paths.
    std::mt19937 Rng(7);
    Input.resize(3 << 20);
    for (char &C : Input)
      C = static_cast<char>(Rng());
    std::ofstream(path("input.bin"), std::ios::binary) << Input;
    Mapped = *MappedFile::open(Ctx, path("input.bin"));
  }
  void TearDown() override { std::filesystem::remove_all(Dir); }
  std::string path(const char *Name) const { return (Dir / Name).string(); }
  const MappingRegistry &mappings() const { return Ctx.mappings(); }

  Context Ctx;
  std::filesystem::path Dir;
  std::string Input;
  std::unique_ptr<MappedFile> Mapped;
};

// Small writes, Next/BackUp, and large runs of the mapped file at every
// relative page alignment (kernel copy when alike, staged otherwise) and of
// ordinary memory: the file holds exactly the bytes in order, and the hash
// computed while writing is the file's.
TEST_F(OutputSinkTest, WritesAndHashesEveryPathInOrder) {
  llvm::StringRef Mapping = Mapped->bytes();
  ASSERT_TRUE(mappings().fileRegion(Mapping.substr(5, 100000)).has_value());
  std::string Owned(200000, 'x');
  for (bool Hash : {false, true}) {
    std::string Expected;
    absl::StatusOr<std::unique_ptr<OutputFile>> Prepared = OutputFile::prepare(Ctx, path("out.bin"));
    ASSERT_TRUE(Prepared.ok()) << Prepared.status();
    std::unique_ptr<OutputFile> Out = std::move(*Prepared);
    ASSERT_TRUE(Out->write(
                       [&](OutputSink &Sink) {
                         auto put = [&](llvm::StringRef S) {
                           EXPECT_TRUE(Sink.writeBytes(S));
                           Expected += S.str();
                         };
                         put("head");
                         void *Data;
                         int Size;
                         EXPECT_TRUE(Sink.Next(&Data, &Size));
                         std::memcpy(Data, "abc", 3);
                         Sink.BackUp(Size - 3);
                         Expected += "abc";
                         put(Mapping.substr(4096 - 7, 1 << 20)); // alike: 7 bytes in
                         put(Mapping.substr(100, 300000));       // misaligned
                         put(Mapping.substr(0, 70000));
                         put(Owned);
                         put(Mapping.substr(12345, 50)); // small, buffered
                         put(Mapping.substr(1 << 20, 2 << 20));
                         return absl::OkStatus();
                       },
                       Hash)
                    .ok());
    ASSERT_TRUE(Out->commit().ok());
    std::string Written = readAll(path("out.bin"));
    ASSERT_EQ(Written.size(), Expected.size());
    EXPECT_TRUE(Written == Expected) << "hash=" << Hash;
    EXPECT_EQ(Out->written().Bytes, Expected.size());
    EXPECT_EQ(Out->written().Sha256, Hash ? sha256Hex(Expected) : "");
  }
}

// Released pages read back the same: releasing is for the resident set only.
TEST_F(OutputSinkTest, ReleasedPagesReadBackTheSame) {
  llvm::StringRef Mapping = Mapped->bytes();
  mappings().releasePages(Mapping.substr(10, 1 << 20));
  EXPECT_TRUE(Mapping == llvm::StringRef(Input));
  std::string Anonymous(1 << 20, 'a');
  mappings().releasePages(Anonymous); // not a mapped file: left alone
  EXPECT_EQ(Anonymous, std::string(1 << 20, 'a'));
  EXPECT_FALSE(mappings().fileRegion(Anonymous).has_value());
}

// A mapped file's bytes are read with pread, piece by piece; other memory is
// handed over as it is.
TEST_F(OutputSinkTest, ReadMappedBytesSeesTheSameBytes) {
  llvm::StringRef Part = Mapped->bytes().substr(777, (2 << 20) + 5);
  std::string Seen;
  int Pieces = 0;
  ASSERT_TRUE(mappings().readBytes(Part, [&](llvm::StringRef P) {
                ++Pieces;
                Seen += P.str();
              }).ok());
  EXPECT_TRUE(Seen == Part);
  EXPECT_GT(Pieces, 1);
  std::string Anonymous = "not mapped";
  Seen.clear();
  ASSERT_TRUE(mappings().readBytes(Anonymous, [&](llvm::StringRef P) { Seen += P.str(); }).ok());
  EXPECT_EQ(Seen, Anonymous);
}

// A mapped file cut short on disk since it was mapped: pread finds its end,
// and the failure names the bytes (touching the mapping would be SIGBUS).
TEST_F(OutputSinkTest, ReadMappedBytesOfAFileCutShortFails) {
  std::filesystem::resize_file(path("input.bin"), 1 << 20);
  llvm::StringRef Tail = Mapped->bytes().substr(1 << 19, 1 << 20); // across the new end
  uint64_t Seen = 0;
  absl::Status S = mappings().readBytes(Tail, [&](llvm::StringRef P) { Seen += P.size(); });
  EXPECT_EQ(S.code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(S.message(),
            "cannot read bytes 1048576 to 1572864 of a mapped file: it ends early");
  EXPECT_EQ(Seen, 1u << 19);
}

TEST(BackgroundWorkTest, WaitReturnsTheFirstFailureAndKeepsIt) {
  BackgroundWork Work;
  EXPECT_TRUE(Work.wait().ok());
  int Ran = 0;
  Work.run([&] {
    ++Ran;
    return absl::OkStatus();
  });
  Work.run([&] {
    ++Ran;
    return absl::DataLossError("first");
  });
  Work.run([&] {
    ++Ran;
    return absl::DataLossError("second");
  });
  EXPECT_EQ(Work.wait().message(), "first");
  EXPECT_EQ(Ran, 3);
  EXPECT_EQ(Work.wait().message(), "first");
}

} // namespace
} // namespace frost
