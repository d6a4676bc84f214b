//===- BundleCorruptionTest.cpp - Damaged V2 checkpoints ------------------===//
//
// Each test damages one aspect of a valid bundle made by the test writer and
// checks the reader's error: a non-OK status naming the file and an offset or
// key, never a crash.
//
//===----------------------------------------------------------------------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Support/Context.h"
#include "BundleTestWriter.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

#include <filesystem>

using namespace frost;
using namespace frost::testwriter;

namespace {

/// A valid bundle with a float matrix, a string vector and a scalar.
struct Fixture {
  TempDir Dir;
  std::string Prefix = Dir / "model";
  TestBundleWriter W{Prefix};
  Fixture(BundleOptions Options = {}) : W(Prefix, Options) {
    W.add<float>("dense/kernel", tensorflow::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
    W.addStrings("vocab", {2}, {"x", "yz"});
    W.add<int64_t>("step", tensorflow::DT_INT64, {}, {9});
  }
  std::string index() const { return W.indexPath(); }
  std::string shard() const { return W.shardPath(0); }
};

/// Opens the bundle and reads every variable; the first error.
absl::Status openAndReadAll(const std::string &Prefix) {
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Prefix);
  if (!R.ok())
    return R.status();
  for (const VariableInfo &V : (*R)->variables())
    if (auto T = (*R)->read(V.Name); !T.ok())
      return T.status();
  return absl::OkStatus();
}

#define EXPECT_MESSAGE_HAS(Status, Text)                                                          \
  EXPECT_TRUE(absl::StrContains((Status).message(), (Text))) << (Status) << "\n  lacks: " << (Text)

TEST(BundleCorruptionTest, TruncatedIndex) {
  Fixture F;
  std::string Index = F.W.finish();
  for (size_t Keep : {size_t(0), size_t(20), Index.size() / 2, Index.size() - 1}) {
    writeFile(F.index(), Index.substr(0, Keep));
    absl::Status S = openAndReadAll(F.Prefix);
    ASSERT_FALSE(S.ok()) << "kept " << Keep;
    EXPECT_MESSAGE_HAS(S, F.index() + ":");
    EXPECT_TRUE(absl::StrContains(S.message(), "offset") ||
                absl::StrContains(S.message(), "bytes, shorter than"))
        << S;
  }
}

TEST(BundleCorruptionTest, BadMagic) {
  Fixture F;
  std::string Index = F.W.finish();
  Index[Index.size() - 8] = 'X';
  writeFile(F.index(), Index);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(), ": not a checkpoint table: bad magic number"));
  EXPECT_MESSAGE_HAS(S, absl::StrCat("at offset ", Index.size() - 8));
}

TEST(BundleCorruptionTest, FooterHandlesPastEndOfFile) {
  Fixture F;
  std::string Index = F.W.finish();
  std::string Footer;
  putVarint(Footer, 0);
  putVarint(Footer, 0);
  putVarint(Footer, 1u << 20);
  putVarint(Footer, 64);
  Footer.resize(40, '\0');
  Index.replace(Index.size() - 48, 40, Footer);
  writeFile(F.index(), Index);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(), ": block at offset 1048576: block of 64 bytes "
                                                "plus trailer runs past the footer"));
}

TEST(BundleCorruptionTest, IndexBlockChecksumMismatch) {
  Fixture F;
  std::string Index = F.W.finish();
  WrittenBlock B = F.W.indexWriter().dataBlocks()[0];
  Index[B.Offset + B.Size / 2] ^= 0x01;
  writeFile(F.index(), Index);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(), ": block at offset ", B.Offset,
                                     ": checksum mismatch (stored 0x"));
}

TEST(BundleCorruptionTest, UnknownCompressionByte) {
  Fixture F;
  std::string Index = F.W.finish();
  WrittenBlock B = F.W.indexWriter().dataBlocks()[0];
  resealBlock(Index, B, 2);
  writeFile(F.index(), Index);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": block at offset ", B.Offset,
                                      ": unknown compression type 2"));
}

TEST(BundleCorruptionTest, CorruptSnappyStream) {
  BundleOptions Options;
  Options.Table.Snappy = true;
  Fixture F(Options);
  std::string Index = F.W.finish();
  WrittenBlock B = F.W.indexWriter().dataBlocks()[0];
  ASSERT_EQ(Index[B.Offset + B.Size], 1);
  // After the length header, start with a copy of 1 byte at distance 1,
  // which is invalid before any output exists.
  uint64_t At = B.Offset;
  while (Index[At] & 0x80)
    ++At;
  Index.replace(At + 1, 3, std::string("\x02\x01\x00", 3));
  resealBlock(Index, B, 1);
  writeFile(F.index(), Index);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(), ": block at offset ", B.Offset,
                                     ": corrupt Snappy block"));
}

TEST(BundleCorruptionTest, EntryPastEndOfShard) {
  Fixture F;
  F.W.entry("dense/kernel").set_offset(1000);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'dense/kernel' at offset 1000: 16 bytes "
                                                "run past the end of the file"));
}

TEST(BundleCorruptionTest, EntryOffsetPlusSizeOverflows) {
  Fixture F;
  F.W.entry("dense/kernel").set_offset(INT64_MAX - 4);
  F.W.entry("dense/kernel").set_size(INT64_MAX);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'dense/kernel' at offset ",
                                     INT64_MAX - 4));
}

TEST(BundleCorruptionTest, NegativeOffset) {
  Fixture F;
  F.W.entry("step").set_offset(-8);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(), ": entry 'step': negative offset -8"));
}

TEST(BundleCorruptionTest, SizeDisagreesWithShape) {
  Fixture F;
  F.W.entry("dense/kernel").set_size(12);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'dense/kernel' at offset 0: stored "
                                                "size 12 bytes, expected 4 elements of 4 bytes"));
}

TEST(BundleCorruptionTest, MissingShardFile) {
  BundleOptions Options;
  Options.NumShards = 2;
  Fixture F(Options);
  F.W.add<float>("in_shard_1", tensorflow::DT_FLOAT, {1}, {1}, 1);
  F.W.finish();
  std::filesystem::remove(F.W.shardPath(1));
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, F.Prefix);
  ASSERT_TRUE(R.ok()) << R.status(); // shards are opened lazily
  EXPECT_TRUE((*R)->read("dense/kernel").ok());
  absl::Status S = (*R)->read("in_shard_1").status();
  EXPECT_TRUE(absl::IsNotFound(S)) << S;
  EXPECT_MESSAGE_HAS(S, F.W.shardPath(1) + ": cannot open");
}

TEST(BundleCorruptionTest, ShardIdOutOfRange) {
  Fixture F;
  F.W.entry("step").set_shard_id(5);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'step': shard_id 5 out of range (the "
                                                 "bundle has 1 shards)"));
}

TEST(BundleCorruptionTest, DataChecksumMismatch) {
  Fixture F;
  F.W.finish();
  std::string Shard = readFile(F.shard());
  Shard[5] ^= 0x40; // inside dense/kernel's 16 bytes at offset 0
  writeFile(F.shard(), Shard);
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, F.Prefix);
  ASSERT_TRUE(R.ok());
  absl::Status S = (*R)->read("dense/kernel").status();
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_EQ(S.message(),
            absl::StrFormat("%s: tensor 'dense/kernel' at offset 0: checksum mismatch (stored "
                            "0x%08x, computed 0x%08x)",
                            F.shard(), refMask(refCrc32c(rawBytes<float>({1, 2, 3, 4}))),
                            refMask(refCrc32c(Shard.substr(0, 16)))));
  EXPECT_TRUE((*R)->read("step").ok()); // other tensors are unaffected
}

TEST(BundleCorruptionTest, StringDataChecksumMismatch) {
  Fixture F;
  F.W.finish();
  std::string Shard = readFile(F.shard());
  const auto &E = F.W.entry("vocab");
  Shard[E.offset() + E.size() - 1] ^= 0x01; // last string byte
  writeFile(F.shard(), Shard);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'vocab' at offset ", E.offset(),
                                     ": checksum mismatch"));
}

TEST(BundleCorruptionTest, StringLengthChecksumMismatch) {
  Fixture F;
  F.W.finish();
  std::string Shard = readFile(F.shard());
  const auto &E = F.W.entry("vocab");
  Shard[E.offset()] = 2; // first length 1 -> 2
  writeFile(F.shard(), Shard);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'vocab' at offset ", E.offset(),
                                     ": string length checksum mismatch"));
}

// Lengths with a valid length checksum that claim more bytes than the entry.
TEST(BundleCorruptionTest, StringLengthsOverflowEntry) {
  Fixture F;
  std::string Data;
  putVarint(Data, 1000);
  putVarint(Data, 3);
  std::string LengthCrcInput = littleEndian32(1000) + littleEndian32(3);
  std::string Check = littleEndian32(refMask(refCrc32c(LengthCrcInput)));
  Data += Check + "abcdef";
  F.W.append("bad_strings", tensorflow::DT_STRING, {2}, Data,
             refCrc32c(LengthCrcInput + Check + "abcdef"), 0);
  F.W.finish();
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, F.Prefix);
  ASSERT_TRUE(R.ok());
  absl::Status S = (*R)->read("bad_strings").status();
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'bad_strings' at offset ",
                                     F.W.entry("bad_strings").offset(),
                                     ": string 0 of 1000 bytes overflows the entry "
                                     "(6 bytes left)"));
}

TEST(BundleCorruptionTest, StringEntryHasTrailingBytes) {
  Fixture F;
  std::string Lengths = littleEndian32(2);
  std::string Check = littleEndian32(refMask(refCrc32c(Lengths)));
  std::string Data = std::string("\x02", 1) + Check + "ab" + "junk";
  F.W.append("padded", tensorflow::DT_STRING, {1}, Data, refCrc32c(Lengths + Check + "abjunk"), 0);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'padded' at offset ",
                                     F.W.entry("padded").offset(),
                                     ": 4 unused bytes after the strings"));
}

TEST(BundleCorruptionTest, StringLengthVarintRunsOff) {
  Fixture F;
  F.W.append("bad_strings", tensorflow::DT_STRING, {1}, std::string("\xff\xff\xff", 3), 0, 0);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'bad_strings' at offset "));
  EXPECT_MESSAGE_HAS(S, "string length 0 at offset 0 of the entry is truncated or malformed");
}

TEST(BundleCorruptionTest, TooManyStringsForEntry) {
  Fixture F;
  F.W.append("many", tensorflow::DT_STRING, {1000000000}, "abcd", 0, 0);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, ": tensor 'many' at offset ");
  EXPECT_MESSAGE_HAS(S, "1000000000 strings cannot fit in 4 bytes");
}

TEST(BundleCorruptionTest, VariantChecksumMismatch) {
  Fixture F;
  tensorflow::VariantTensorDataProto V;
  V.set_type_name("T");
  F.W.addVariants("var", {1}, {V.SerializeAsString()});
  F.W.finish();
  std::string Shard = readFile(F.shard());
  const auto &E = F.W.entry("var");
  Shard[E.offset() + 2] ^= 0x10; // inside the serialized proto
  writeFile(F.shard(), Shard);
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'var' at offset ", E.offset(),
                                     ": variant element 0 checksum mismatch"));
}

TEST(BundleCorruptionTest, NegativeDimension) {
  Fixture F;
  F.W.entry("dense/kernel").mutable_shape()->mutable_dim(0)->set_size(-2);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'dense/kernel': shape [-2,2] has "
                                                 "negative dimension 0"));
}

TEST(BundleCorruptionTest, UnknownRankShape) {
  Fixture F;
  F.W.entry("step").mutable_shape()->set_unknown_rank(true);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'step': shape has unknown rank"));
}

TEST(BundleCorruptionTest, ElementCountOverflowsInt64) {
  Fixture F;
  auto *Shape = F.W.entry("dense/kernel").mutable_shape();
  Shape->mutable_dim(0)->set_size(int64_t(1) << 32);
  Shape->mutable_dim(1)->set_size(int64_t(1) << 32);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'dense/kernel': shape "
                                                 "[4294967296,4294967296] has more than 2^63 "
                                                 "elements"));
}

TEST(BundleCorruptionTest, HugeButRepresentableShape) {
  Fixture F;
  auto *Shape = F.W.entry("dense/kernel").mutable_shape();
  Shape->mutable_dim(0)->set_size(int64_t(1) << 31);
  Shape->mutable_dim(1)->set_size(int64_t(1) << 31);
  F.W.finish();
  // 2^62 floats: the product fits int64 but not the byte count check.
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.shard(), ": tensor 'dense/kernel' at offset 0: stored "
                                                "size 16 bytes, expected 4611686018427387904 "
                                                "elements of 4 bytes"));
}

TEST(BundleCorruptionTest, HeaderMinConsumerTooNew) {
  BundleOptions Options;
  Options.MinConsumer = 2;
  Fixture F(Options);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": header entry: the checkpoint needs a reader "
                                                 "of version 2 or newer; this reader implements "
                                                 "version 1"));
}

TEST(BundleCorruptionTest, HeaderBadConsumer) {
  BundleOptions Options;
  Options.BadConsumers = {1};
  Fixture F(Options);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(),
            absl::StrCat(F.index(), ": header entry: the checkpoint disallows reader version 1"));
}

TEST(BundleCorruptionTest, HeaderNotAProto) {
  Fixture F;
  F.W.finish();
  // Rewrite the index with a garbage header value.
  TestTableWriter T;
  T.add("", "\xff\xff\xff");
  T.add("step", F.W.entry("step").SerializeAsString());
  writeFile(F.index(), T.finish());
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": header entry: not a BundleHeaderProto"));
}

TEST(BundleCorruptionTest, MissingHeaderEntry) {
  Fixture F;
  F.W.finish();
  TestTableWriter T;
  T.add("step", F.W.entry("step").SerializeAsString());
  writeFile(F.index(), T.finish());
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": the first key is 'step', not the empty "
                                                 "header key"));
}

TEST(BundleCorruptionTest, EntryNotAProto) {
  Fixture F;
  F.W.setRawValue("junk", "\x0a\xff");
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'junk': not a BundleEntryProto"));
}

TEST(BundleCorruptionTest, KeysOutOfOrder) {
  Fixture F;
  F.W.finish();
  TestTableWriter T;
  tensorflow::BundleHeaderProto H;
  H.set_num_shards(1);
  T.add("", H.SerializeAsString());
  T.add("z", F.W.entry("step").SerializeAsString());
  T.add("a", F.W.entry("step").SerializeAsString());
  writeFile(F.index(), T.finish());
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": key 'a' is out of order (after 'z')"));
}

TEST(BundleCorruptionTest, PartitionedSliceMissing) {
  Fixture F;
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{0, 2}}, rawBytes<float>({1, 2}));
  // Declare a second slice without storing it.
  auto *E = F.W.entry("p").add_slices()->add_extent();
  E->set_start(2);
  E->set_length(2);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(),
                                     ": partitioned tensor 'p': no entry for its slice under key "
                                     "'\\x00p\\x00\\x01\\x01\\x01\\x82\\x82'"));
}

TEST(BundleCorruptionTest, PartitionedSlicesOverlap) {
  Fixture F;
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{0, 3}}, rawBytes<float>({1, 2, 3}));
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{2, 2}}, rawBytes<float>({3, 4}));
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": partitioned tensor 'p': slices overlap"));
}

TEST(BundleCorruptionTest, PartitionedSlicesLeaveGap) {
  Fixture F;
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{0, 1}}, rawBytes<float>({1}));
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{2, 2}}, rawBytes<float>({3, 4}));
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(),
            absl::StrCat(F.index(), ": partitioned tensor 'p': slices cover 3 of 4 elements"));
}

TEST(BundleCorruptionTest, PartitionedSliceOutsideTensor) {
  Fixture F;
  F.W.addSlice("p", tensorflow::DT_FLOAT, {4}, {{3, 2}}, rawBytes<float>({1, 2}));
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_EQ(S.message(), absl::StrCat(F.index(), ": entry 'p': bad slice: dimension 0: extent "
                                                 "[3, +2) outside [0, 4)"));
}

TEST(BundleCorruptionTest, PartitionedSliceWrongDType) {
  Fixture F;
  F.W.addSlice("p", tensorflow::DT_FLOAT, {2}, {{0, 2}}, rawBytes<float>({1, 2}));
  F.W.entry(refSliceKey("p", {{0, 2}})).set_dtype(tensorflow::DT_INT32);
  F.W.finish();
  absl::Status S = openAndReadAll(F.Prefix);
  EXPECT_MESSAGE_HAS(S, absl::StrCat(F.index(),
                                     ": slice entry '\\x00p\\x00\\x01\\x01\\x01\\x80\\x82' "
                                     "is int32[2], expected float[2]"));
}

} // namespace
