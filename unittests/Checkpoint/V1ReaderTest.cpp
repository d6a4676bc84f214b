//===- V1ReaderTest.cpp - V1 (SavedTensorSlices) checkpoints --------------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Support/Context.h"
#include "BundleTestWriter.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

#include <complex>
#include <filesystem>

using namespace frost;
using namespace frost::testwriter;

namespace {

tensorflow::TensorProto floats(std::initializer_list<float> V) {
  tensorflow::TensorProto P;
  for (float F : V)
    P.add_float_val(F);
  return P;
}

TensorData readOk(const CheckpointReader &R, const std::string &Name) {
  auto T = R.read(Name);
  EXPECT_TRUE(T.ok()) << T.status();
  return T.ok() ? *std::move(T) : TensorData();
}

TEST(V1ReaderTest, SingleFileTypedFields) {
  TempDir Dir;
  TestV1Writer W;
  W.addSlice("a", tensorflow::DT_FLOAT, {}, {}, floats({0.5f}));
  W.addSlice("m", tensorflow::DT_FLOAT, {2, 2}, {{0, -1}, {0, -1}}, floats({1, 2, 3, 4}));
  tensorflow::TensorProto I8;
  for (int V : {-1, 127, -128})
    I8.add_int_val(V);
  W.addSlice("i8", tensorflow::DT_INT8, {3}, {{0, -1}}, I8);
  tensorflow::TensorProto U16;
  U16.add_int_val(65535);
  W.addSlice("u16", tensorflow::DT_UINT16, {1}, {{0, -1}}, U16);
  tensorflow::TensorProto Half;
  Half.add_half_val(0x3c00);
  Half.add_half_val(0xc000);
  W.addSlice("h", tensorflow::DT_HALF, {2}, {{0, -1}}, Half);
  tensorflow::TensorProto BF;
  BF.add_half_val(0x3f80);
  W.addSlice("bf", tensorflow::DT_BFLOAT16, {1}, {{0, -1}}, BF);
  tensorflow::TensorProto B;
  B.add_bool_val(true);
  B.add_bool_val(false);
  W.addSlice("b", tensorflow::DT_BOOL, {2}, {{0, -1}}, B);
  tensorflow::TensorProto I64;
  I64.add_int64_val(-5000000000);
  W.addSlice("i64", tensorflow::DT_INT64, {1}, {{0, -1}}, I64);
  tensorflow::TensorProto C;
  C.add_scomplex_val(1);
  C.add_scomplex_val(-1);
  W.addSlice("c", tensorflow::DT_COMPLEX64, {1}, {{0, -1}}, C);
  tensorflow::TensorProto S;
  S.add_string_val("hello");
  S.add_string_val("");
  W.addSlice("s", tensorflow::DT_STRING, {2}, {{0, -1}}, S);
  W.finish(Dir / "model.ckpt");

  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "model.ckpt");
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ((*R)->format(), CheckpointFormat::V1);
  EXPECT_EQ((*R)->variables().size(), 10u);
  EXPECT_EQ(readOk(**R, "a").element<float>(0), 0.5f);
  EXPECT_TRUE(readOk(**R, "a").shape().empty());
  EXPECT_EQ(readOk(**R, "m").values<float>(), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ((*R)->find("m")->ByteSize, 16u);
  EXPECT_FALSE((*R)->find("m")->IsPartitioned);
  EXPECT_EQ(readOk(**R, "i8").values<int8_t>(), (std::vector<int8_t>{-1, 127, -128}));
  EXPECT_EQ(readOk(**R, "u16").element<uint16_t>(0), 65535);
  EXPECT_EQ(readOk(**R, "h").values<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0xc000}));
  EXPECT_EQ(readOk(**R, "bf").element<uint16_t>(0), 0x3f80);
  EXPECT_EQ(readOk(**R, "b").values<uint8_t>(), (std::vector<uint8_t>{1, 0}));
  EXPECT_EQ(readOk(**R, "i64").element<int64_t>(0), -5000000000);
  EXPECT_EQ(readOk(**R, "c").element<std::complex<float>>(0), std::complex<float>(1, -1));
  TensorData Str = readOk(**R, "s");
  ASSERT_EQ(Str.elements().size(), 2u);
  EXPECT_EQ(Str.elements()[0], "hello");
}

TEST(V1ReaderTest, ShardedAndPartitionedAcrossFiles) {
  TempDir Dir;
  TestV1Writer W0, W1;
  W0.addSlice("w", tensorflow::DT_FLOAT, {3, 2}, {{0, 1}, {0, -1}}, floats({1, 2}));
  W1.addSlice("w", tensorflow::DT_FLOAT, {3, 2}, {{1, 2}, {0, -1}}, floats({3, 4, 5, 6}));
  W1.addSlice("bias", tensorflow::DT_FLOAT, {1}, {{0, -1}}, floats({9}));
  W0.finish(Dir / "model-00000-of-00002");
  W1.finish(Dir / "model-00001-of-00002");
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "model");
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ((*R)->header().NumShards, 2);
  const VariableInfo *W = (*R)->find("w");
  ASSERT_TRUE(W);
  EXPECT_TRUE(W->IsPartitioned);
  EXPECT_EQ(W->ShardId, -1);
  EXPECT_EQ(readOk(**R, "w").values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ((*R)->find("bias")->ShardId, 1);
  // The glob pattern TF writes into state files names the same checkpoint.
  auto ByPattern = CheckpointReader::open(Ctx, Dir / "model-\?\?\?\?\?-of-00002");
  ASSERT_TRUE(ByPattern.ok()) << ByPattern.status();
  EXPECT_EQ(readOk(**ByPattern, "bias").element<float>(0), 9.0f);
}

TEST(V1ReaderTest, MissingShardIsNotFound) {
  TempDir Dir;
  TestV1Writer W0;
  W0.addSlice("a", tensorflow::DT_FLOAT, {}, {}, floats({1}));
  W0.finish(Dir / "model-00000-of-00003");
  W0.finish(Dir / "model-00002-of-00003");
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "model");
  EXPECT_TRUE(absl::IsNotFound(R.status())) << R.status();
  EXPECT_TRUE(absl::StrContains(R.status().message(), Dir / "model-00001-of-00003")) << R.status();
}

TEST(V1ReaderTest, ValueCountMustMatch) {
  TempDir Dir;
  TestV1Writer W;
  W.addSlice("m", tensorflow::DT_FLOAT, {2, 2}, {{0, -1}, {0, -1}}, floats({1, 2, 3}));
  W.finish(Dir / "ckpt");
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "ckpt");
  ASSERT_TRUE(R.ok()) << R.status();
  absl::Status S = (*R)->read("m").status();
  EXPECT_FALSE(S.ok());
  EXPECT_TRUE(absl::StrContains(S.message(), absl::StrCat(Dir / "ckpt", ": tensor 'm' slice key")))
      << S;
  EXPECT_TRUE(absl::StrContains(S.message(), "float_val has 3 values for 4 elements")) << S;
}

TEST(V1ReaderTest, SliceRecordMissing) {
  TempDir Dir;
  TestV1Writer W;
  W.addSlice("m", tensorflow::DT_FLOAT, {1}, {{0, -1}}, floats({1}));
  // Metadata for a tensor whose data was never written.
  auto *T = W.meta().add_tensor();
  T->set_name("ghost");
  T->set_type(tensorflow::DT_FLOAT);
  T->add_slice();
  W.finish(Dir / "ckpt");
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "ckpt");
  ASSERT_TRUE(R.ok()) << R.status();
  absl::Status S = (*R)->read("ghost").status();
  EXPECT_TRUE(absl::IsDataLoss(S)) << S;
  EXPECT_EQ(S.message(), absl::StrCat(Dir / "ckpt",
                                      ": tensor 'ghost' slice key '\\x00ghost\\x00\\x01\\x00': "
                                      "missing"));
}

TEST(V1ReaderTest, NotAV1Table) {
  TempDir Dir;
  TestTableWriter T;
  T.add("x", "y");
  writeFile(Dir / "ckpt", T.finish());
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "ckpt");
  EXPECT_TRUE(absl::IsDataLoss(R.status())) << R.status();
  EXPECT_EQ(R.status().message(),
            absl::StrCat(Dir / "ckpt", ": not a V1 checkpoint: no metadata under the empty key"));
}

TEST(V1ReaderTest, NewerFormatRejected) {
  TempDir Dir;
  TestV1Writer W;
  W.addSlice("a", tensorflow::DT_FLOAT, {}, {}, floats({1}));
  W.meta().mutable_versions()->set_min_consumer(5);
  W.finish(Dir / "ckpt");
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "ckpt");
  EXPECT_TRUE(absl::IsInvalidArgument(R.status())) << R.status();
  EXPECT_TRUE(absl::StrContains(R.status().message(), "needs a reader of version 5")) << R.status();
}

} // namespace
