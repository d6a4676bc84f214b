//===- BundleReaderTest.cpp - V2 checkpoints written by the test writer ---===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "OpenedReader.h"
#include "BundleTestWriter.h"
#include "frost/proto/tensor.pb.h"

#include "gtest/gtest.h"

#include <complex>
#include <thread>

using namespace frost;
using namespace frost::testwriter;
using tensorflow::DataType;

namespace {

OpenedReader openOk(const std::string &Prefix, CheckpointOptions Options = {}) {
  OpenedReader Opened;
  auto R = CheckpointReader::open(*Opened.Ctx, Prefix, Options);
  EXPECT_TRUE(R.ok()) << R.status();
  if (R.ok())
    Opened.Reader = *std::move(R);
  return Opened;
}

TensorData readOk(const CheckpointReader &R, const std::string &Name) {
  auto T = R.read(Name);
  EXPECT_TRUE(T.ok()) << T.status();
  return T.ok() ? *std::move(T) : TensorData();
}

TEST(BundleReaderTest, ReadsFloatsWithoutCopying) {
  TempDir Dir;
  TestBundleWriter W(Dir / "model");
  W.add<float>("dense/kernel", tensorflow::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
  W.add<float>("dense/bias", tensorflow::DT_FLOAT, {3}, {0.5f, -1.5f, 2.25f});
  W.finish();
  auto R = openOk(Dir / "model");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->format(), CheckpointFormat::V2);
  ASSERT_EQ(R->variables().size(), 2u);
  EXPECT_EQ(R->variables()[0].Name, "dense/bias");
  EXPECT_EQ(R->variables()[1].Name, "dense/kernel");
  EXPECT_EQ(R->variables()[1].Shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(R->variables()[1].ByteSize, 24u);
  EXPECT_EQ(R->variables()[1].DType, tensorflow::DT_FLOAT);
  EXPECT_FALSE(R->variables()[1].IsPartitioned);
  EXPECT_TRUE(R->contains("dense/bias"));
  EXPECT_FALSE(R->contains("dense"));

  TensorData K = readOk(*R, "dense/kernel");
  EXPECT_EQ(K.values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(K.isBorrowed());
  TensorData B = readOk(*R, "dense/bias");
  EXPECT_EQ(B.element<float>(2), 2.25f);
  // Both tensors view one mapping of the shard, where the writer put the bias
  // right after the kernel's 24 bytes.
  EXPECT_EQ(B.bytes().data(), K.bytes().data() + 24);
  EXPECT_EQ(B.keeper(), K.keeper());
  // The view stays valid after the reader is gone.
  R.Reader.reset();
  EXPECT_EQ(K.element<float>(5), 6.0f);
}

TEST(BundleReaderTest, EveryFixedSizeDType) {
  TempDir Dir;
  TestBundleWriter W(Dir / "all");
  W.add<double>("double", tensorflow::DT_DOUBLE, {2}, {1.5, -2.5});
  W.add<int32_t>("int32", tensorflow::DT_INT32, {2}, {-7, 1 << 30});
  W.add<uint8_t>("uint8", tensorflow::DT_UINT8, {3}, {0, 128, 255});
  W.add<int16_t>("int16", tensorflow::DT_INT16, {2}, {-300, 300});
  W.add<int8_t>("int8", tensorflow::DT_INT8, {2}, {-128, 127});
  W.add<float>("complex64", tensorflow::DT_COMPLEX64, {2}, {1, 2, 3, 4});
  W.add<int64_t>("int64", tensorflow::DT_INT64, {1}, {INT64_MIN});
  W.add<uint8_t>("bool", tensorflow::DT_BOOL, {3}, {1, 0, 1});
  W.add<int8_t>("qint8", tensorflow::DT_QINT8, {1}, {-3});
  W.add<uint8_t>("quint8", tensorflow::DT_QUINT8, {1}, {200});
  W.add<int32_t>("qint32", tensorflow::DT_QINT32, {1}, {-100000});
  W.add<uint16_t>("bfloat16", tensorflow::DT_BFLOAT16, {2}, {0x3f80, 0xc000}); // 1.0, -2.0
  W.add<int16_t>("qint16", tensorflow::DT_QINT16, {1}, {-2});
  W.add<uint16_t>("quint16", tensorflow::DT_QUINT16, {1}, {65000});
  W.add<uint16_t>("uint16", tensorflow::DT_UINT16, {1}, {65535});
  W.add<double>("complex128", tensorflow::DT_COMPLEX128, {1}, {0.25, -0.75});
  W.add<uint16_t>("half", tensorflow::DT_HALF, {2}, {0x3c00, 0x3800}); // 1.0, 0.5
  W.add<uint32_t>("uint32", tensorflow::DT_UINT32, {1}, {4000000000u});
  W.add<uint64_t>("uint64", tensorflow::DT_UINT64, {1}, {UINT64_MAX});
  W.add<uint8_t>("float8", tensorflow::DT_FLOAT8_E5M2, {2}, {0x3c, 0x40});
  W.add<int8_t>("int4", tensorflow::DT_INT4, {2}, {-8, 7});
  W.finish();
  auto R = openOk(Dir / "all");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->variables().size(), 21u);
  EXPECT_EQ(readOk(*R, "double").values<double>(), (std::vector<double>{1.5, -2.5}));
  EXPECT_EQ(readOk(*R, "int32").values<int32_t>(), (std::vector<int32_t>{-7, 1 << 30}));
  EXPECT_EQ(readOk(*R, "uint8").values<uint8_t>(), (std::vector<uint8_t>{0, 128, 255}));
  EXPECT_EQ(readOk(*R, "int16").values<int16_t>(), (std::vector<int16_t>{-300, 300}));
  EXPECT_EQ(readOk(*R, "int8").values<int8_t>(), (std::vector<int8_t>{-128, 127}));
  auto C = readOk(*R, "complex64");
  EXPECT_EQ(C.numElements(), 2);
  EXPECT_EQ(C.element<std::complex<float>>(1), std::complex<float>(3, 4));
  EXPECT_EQ(readOk(*R, "int64").element<int64_t>(0), INT64_MIN);
  EXPECT_EQ(readOk(*R, "bool").values<uint8_t>(), (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(readOk(*R, "qint8").element<int8_t>(0), -3);
  EXPECT_EQ(readOk(*R, "quint8").element<uint8_t>(0), 200);
  EXPECT_EQ(readOk(*R, "qint32").element<int32_t>(0), -100000);
  EXPECT_EQ(readOk(*R, "bfloat16").values<uint16_t>(), (std::vector<uint16_t>{0x3f80, 0xc000}));
  EXPECT_EQ(readOk(*R, "qint16").element<int16_t>(0), -2);
  EXPECT_EQ(readOk(*R, "quint16").element<uint16_t>(0), 65000);
  EXPECT_EQ(readOk(*R, "uint16").element<uint16_t>(0), 65535);
  EXPECT_EQ(readOk(*R, "complex128").element<std::complex<double>>(0),
            std::complex<double>(0.25, -0.75));
  EXPECT_EQ(readOk(*R, "half").values<uint16_t>(), (std::vector<uint16_t>{0x3c00, 0x3800}));
  EXPECT_EQ(readOk(*R, "uint32").element<uint32_t>(0), 4000000000u);
  EXPECT_EQ(readOk(*R, "uint64").element<uint64_t>(0), UINT64_MAX);
  EXPECT_EQ(readOk(*R, "float8").values<uint8_t>(), (std::vector<uint8_t>{0x3c, 0x40}));
  EXPECT_EQ(readOk(*R, "int4").values<int8_t>(), (std::vector<int8_t>{-8, 7}));
}

TEST(BundleReaderTest, ScalarsAndEmptyTensors) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  W.add<int64_t>("global_step", tensorflow::DT_INT64, {}, {12345});
  W.add<float>("empty", tensorflow::DT_FLOAT, {0, 4}, {});
  W.addStrings("no_strings", {0}, {});
  W.finish();
  auto R = openOk(Dir / "m");
  ASSERT_TRUE(R);
  TensorData Step = readOk(*R, "global_step");
  EXPECT_TRUE(Step.shape().empty());
  EXPECT_EQ(Step.element<int64_t>(0), 12345);
  TensorData Empty = readOk(*R, "empty");
  EXPECT_EQ(Empty.numElements(), 0);
  EXPECT_EQ(Empty.bytes().size(), 0u);
  EXPECT_EQ(readOk(*R, "no_strings").elements().size(), 0u);
}

TEST(BundleReaderTest, StringTensors) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  std::string Long(300, 'x'); // a two-byte varint length
  std::vector<std::string> Values = {"", "hello", std::string("a\0b", 3), Long};
  W.addStrings("vocab", {2, 2}, Values);
  W.add<float>("after", tensorflow::DT_FLOAT, {1}, {7});
  W.finish();
  auto R = openOk(Dir / "m");
  ASSERT_TRUE(R);
  TensorData T = readOk(*R, "vocab");
  EXPECT_EQ(T.dtype(), tensorflow::DT_STRING);
  EXPECT_EQ(T.shape(), llvm::ArrayRef<int64_t>({2, 2}));
  EXPECT_EQ(std::vector<std::string>(T.elements().begin(), T.elements().end()), Values);
  EXPECT_TRUE(T.bytes().empty());
  tensorflow::TensorProto P;
  ASSERT_TRUE(R->readTensorProto("vocab", P).ok());
  EXPECT_EQ(P.dtype(), tensorflow::DT_STRING);
  ASSERT_EQ(P.string_val_size(), 4);
  EXPECT_EQ(P.string_val(3), Long);
  EXPECT_EQ(readOk(*R, "after").element<float>(0), 7.0f);
}

TEST(BundleReaderTest, VariantTensors) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  tensorflow::VariantTensorDataProto V1, V2;
  V1.set_type_name("tensorflow::Foo");
  V1.set_metadata("meta");
  V2.set_type_name("tensorflow::Bar");
  W.addVariants("v", {2}, {V1.SerializeAsString(), V2.SerializeAsString()});
  W.finish();
  auto R = openOk(Dir / "m");
  ASSERT_TRUE(R);
  TensorData T = readOk(*R, "v");
  ASSERT_EQ(T.elements().size(), 2u);
  EXPECT_EQ(T.elements()[0], V1.SerializeAsString());
  tensorflow::TensorProto P;
  ASSERT_TRUE(T.toTensorProto(P).ok());
  ASSERT_EQ(P.variant_val_size(), 2);
  EXPECT_EQ(P.variant_val(0).type_name(), "tensorflow::Foo");
  EXPECT_EQ(P.variant_val(0).metadata(), "meta");
  EXPECT_EQ(P.variant_val(1).type_name(), "tensorflow::Bar");
}

TEST(BundleReaderTest, BigEndianProducer) {
  TempDir Dir;
  BundleOptions Options;
  Options.BigEndian = true;
  TestBundleWriter W(Dir / "be", Options);
  W.add<float>("f", tensorflow::DT_FLOAT, {2}, {1.0f, -3.5f});
  W.add<int64_t>("i", tensorflow::DT_INT64, {1}, {0x0102030405060708});
  W.add<float>("c", tensorflow::DT_COMPLEX64, {1}, {1.0f, 2.0f});
  W.add<uint16_t>("h", tensorflow::DT_HALF, {1}, {0x3c00});
  W.add<uint8_t>("b", tensorflow::DT_UINT8, {2}, {1, 2});
  W.addStrings("s", {2}, {"big", "endian"});
  W.finish();
  // The data file really is big-endian: 1.0f = 3f 80 00 00.
  std::string Shard = readFile(W.shardPath(0));
  EXPECT_EQ(Shard.substr(0, 4), std::string("\x3f\x80\x00\x00", 4));
  auto R = openOk(Dir / "be");
  ASSERT_TRUE(R);
  EXPECT_TRUE(R->header().BigEndian);
  TensorData F = readOk(*R, "f");
  EXPECT_FALSE(F.isBorrowed());
  EXPECT_EQ(F.values<float>(), (std::vector<float>{1.0f, -3.5f}));
  EXPECT_EQ(readOk(*R, "i").element<int64_t>(0), 0x0102030405060708);
  EXPECT_EQ(readOk(*R, "c").element<std::complex<float>>(0), std::complex<float>(1, 2));
  EXPECT_EQ(readOk(*R, "h").element<uint16_t>(0), 0x3c00);
  EXPECT_TRUE(readOk(*R, "b").isBorrowed()); // bytes need no swap
  TensorData S = readOk(*R, "s");
  ASSERT_EQ(S.elements().size(), 2u);
  EXPECT_EQ(S.elements()[1], "endian");
}

TEST(BundleReaderTest, MultipleShardsAndAlignment) {
  TempDir Dir;
  BundleOptions Options;
  Options.NumShards = 3;
  Options.Alignment = 8;
  TestBundleWriter W(Dir / "sharded", Options);
  W.add<float>("a", tensorflow::DT_FLOAT, {1}, {1}, 0);
  W.add<float>("b", tensorflow::DT_FLOAT, {3}, {2, 3, 4}, 2);
  W.add<float>("c", tensorflow::DT_FLOAT, {1}, {5}, 2);
  W.add<float>("d", tensorflow::DT_FLOAT, {1}, {6}, 1);
  W.finish();
  auto R = openOk(Dir / "sharded");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->header().NumShards, 3);
  EXPECT_EQ(R->find("b")->ShardId, 2);
  EXPECT_EQ(readOk(*R, "b").values<float>(), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(readOk(*R, "c").element<float>(0), 5.0f);
  EXPECT_EQ(readOk(*R, "d").element<float>(0), 6.0f);
  EXPECT_EQ(readOk(*R, "a").element<float>(0), 1.0f);
}

TEST(BundleReaderTest, SnappyIndexWithManyEntries) {
  TempDir Dir;
  BundleOptions Options;
  Options.Table.Snappy = true;
  Options.Table.BlockSize = 200;
  TestBundleWriter W(Dir / "big", Options);
  for (int I = 0; I < 500; ++I)
    W.add<int32_t>("var_" + std::to_string(I), tensorflow::DT_INT32, {2}, {I, -I});
  W.finish();
  auto R = openOk(Dir / "big");
  ASSERT_TRUE(R);
  EXPECT_EQ(R->variables().size(), 500u);
  for (int I : {0, 17, 250, 499})
    EXPECT_EQ(readOk(*R, "var_" + std::to_string(I)).values<int32_t>(),
              (std::vector<int32_t>{I, -I}));
}

// A [5, 2] variable split into rows [0,2) and [2,5), in two shards, next to an
// ordinary variable whose name sorts after the slice keys.
TEST(BundleReaderTest, PartitionedVariable) {
  TempDir Dir;
  BundleOptions Options;
  Options.NumShards = 2;
  TestBundleWriter W(Dir / "part", Options);
  W.addSlice("emb", tensorflow::DT_FLOAT, {5, 2}, {{2, 3}, {0, -1}},
             rawBytes<float>({4, 5, 6, 7, 8, 9}), 1);
  W.addSlice("emb", tensorflow::DT_FLOAT, {5, 2}, {{0, 2}, {0, -1}}, rawBytes<float>({0, 1, 2, 3}),
             0);
  W.add<float>("other", tensorflow::DT_FLOAT, {1}, {42});
  W.finish();
  auto R = openOk(Dir / "part");
  ASSERT_TRUE(R);
  ASSERT_EQ(R->variables().size(), 2u); // slice keys hidden
  const VariableInfo *Info = R->find("emb");
  ASSERT_TRUE(Info);
  EXPECT_TRUE(Info->IsPartitioned);
  EXPECT_EQ(Info->NumSlices, 2u);
  EXPECT_EQ(Info->ShardId, -1);
  EXPECT_EQ(Info->ByteSize, 40u);
  EXPECT_EQ(Info->Shape, (std::vector<int64_t>{5, 2}));
  TensorData T = readOk(*R, "emb");
  EXPECT_FALSE(T.isBorrowed());
  EXPECT_EQ(T.values<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(readOk(*R, "other").element<float>(0), 42.0f);
  // Slice keys are not variables.
  EXPECT_TRUE(absl::IsNotFound(R->read(refSliceKey("emb", {{0, 2}, {0, -1}})).status()));
}

TEST(BundleReaderTest, PartitionedAlongInnerDimension) {
  TempDir Dir;
  TestBundleWriter W(Dir / "part");
  // [2, 3] split into columns [0,1) and [1,3).
  W.addSlice("w", tensorflow::DT_INT32, {2, 3}, {{0, -1}, {0, 1}}, rawBytes<int32_t>({10, 40}));
  W.addSlice("w", tensorflow::DT_INT32, {2, 3}, {{0, -1}, {1, 2}},
             rawBytes<int32_t>({20, 30, 50, 60}));
  W.finish();
  auto R = openOk(Dir / "part");
  ASSERT_TRUE(R);
  EXPECT_EQ(readOk(*R, "w").values<int32_t>(), (std::vector<int32_t>{10, 20, 30, 40, 50, 60}));
  EXPECT_EQ(R->find("w")->ShardId, 0);
}

TEST(BundleReaderTest, PartitionedStrings) {
  TempDir Dir;
  // Build by hand: slices of a string tensor [3] -> rows [0,1) and [1,3).
  TestBundleWriter W2(Dir / "strs");
  W2.addStrings(refSliceKey("vocab", {{0, 1}}), {1}, {"zero"});
  W2.addStrings(refSliceKey("vocab", {{1, 2}}), {2}, {"one", "two"});
  // The full entry lists both slices.
  tensorflow::BundleEntryProto FullEntry;
  FullEntry.set_dtype(tensorflow::DT_STRING);
  FullEntry.mutable_shape()->add_dim()->set_size(3);
  auto *S0 = FullEntry.add_slices()->add_extent();
  S0->set_start(0);
  S0->set_length(1);
  auto *S1 = FullEntry.add_slices()->add_extent();
  S1->set_start(1);
  S1->set_length(2);
  W2.setRawValue("vocab", FullEntry.SerializeAsString());
  W2.finish();
  auto R = openOk(Dir / "strs");
  ASSERT_TRUE(R);
  ASSERT_EQ(R->variables().size(), 1u);
  TensorData T = readOk(*R, "vocab");
  EXPECT_EQ(std::vector<std::string>(T.elements().begin(), T.elements().end()),
            (std::vector<std::string>{"zero", "one", "two"}));
}

TEST(BundleReaderTest, TensorProtoForFreezing) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  W.add<float>("w", tensorflow::DT_FLOAT, {2}, {1.5f, 2.5f});
  W.finish();
  auto R = openOk(Dir / "m");
  ASSERT_TRUE(R);
  tensorflow::TensorProto P;
  ASSERT_TRUE(R->readTensorProto("w", P).ok());
  EXPECT_EQ(P.dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(P.tensor_shape().dim_size(), 1);
  EXPECT_EQ(P.tensor_shape().dim(0).size(), 2);
  EXPECT_EQ(P.tensor_content(), rawBytes<float>({1.5f, 2.5f}));
  EXPECT_TRUE(absl::IsNotFound(R->readTensorProto("nope", P)));
}

TEST(BundleReaderTest, ChecksumsCanBeSkipped) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  W.add<float>("w", tensorflow::DT_FLOAT, {1}, {1.0f});
  W.entry("w").set_crc32c(12345);
  W.finish();
  CheckpointOptions NoVerify;
  NoVerify.VerifyChecksums = false;
  auto R = openOk(Dir / "m", NoVerify);
  ASSERT_TRUE(R);
  EXPECT_EQ(readOk(*R, "w").element<float>(0), 1.0f);
  auto Checked = openOk(Dir / "m");
  ASSERT_TRUE(Checked);
  EXPECT_TRUE(absl::IsDataLoss(Checked->read("w").status()));
}

TEST(BundleReaderTest, ConcurrentReadsShareOneMapping) {
  TempDir Dir;
  BundleOptions Options;
  Options.NumShards = 2;
  TestBundleWriter W(Dir / "m", Options);
  for (int I = 0; I < 64; ++I)
    W.add<int32_t>("v" + std::to_string(I), tensorflow::DT_INT32, {1}, {I}, I % 2);
  W.finish();
  auto R = openOk(Dir / "m");
  ASSERT_TRUE(R);
  std::vector<std::thread> Threads;
  std::atomic<int> Bad{0};
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 64; ++I) {
        auto V = R->read("v" + std::to_string(I));
        if (!V.ok() || V->element<int32_t>(0) != I)
          ++Bad;
      }
    });
  for (auto &T : Threads)
    T.join();
  EXPECT_EQ(Bad, 0);
  EXPECT_EQ(readOk(*R, "v0").keeper(), readOk(*R, "v2").keeper());
}

TEST(BundleReaderTest, IndexFileNameAsPrefix) {
  TempDir Dir;
  TestBundleWriter W(Dir / "m");
  W.add<float>("w", tensorflow::DT_FLOAT, {1}, {1.0f});
  W.finish();
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "m.index");
  ASSERT_TRUE(R.ok()) << R.status();
  EXPECT_EQ((*R)->prefix(), Dir / "m");
}

TEST(BundleReaderTest, MissingCheckpointIsNotFound) {
  TempDir Dir;
  Context Ctx;
  auto R = CheckpointReader::open(Ctx, Dir / "nothing");
  EXPECT_TRUE(absl::IsNotFound(R.status())) << R.status();
  EXPECT_NE(R.status().message().find(Dir / "nothing.index"), std::string::npos);
}

} // namespace
