//===- SharedDataTest.cpp - Checkpoints written by TensorFlow itself ------===//
//
// Reads the real artifacts under FROST_SHARED_DATA (see its README). They are
// not part of the repository; the tests skip when the folder is absent.
//
//===----------------------------------------------------------------------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "OpenedReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/proto/graph.pb.h"

#include <cmath>
#include <fstream>

#include "gtest/gtest.h"

#include <filesystem>

using namespace frost;

namespace {

std::string dataPath(const std::string &Rel) { return std::string(FROST_SHARED_DATA) + "/" + Rel; }

#define REQUIRE_SHARED_DATA()                                                                     \
  do {                                                                                            \
    if (!std::filesystem::is_directory(FROST_SHARED_DATA))                                        \
      GTEST_SKIP() << "skipped: shared data not present";                                         \
  } while (false)

OpenedReader openOk(const std::string &Prefix) {
  OpenedReader Opened;
  auto R = CheckpointReader::open(*Opened.Ctx, Prefix);
  EXPECT_TRUE(R.ok()) << R.status();
  if (R.ok())
    Opened.Reader = *std::move(R);
  return Opened;
}

float scalar(const CheckpointReader &R, const std::string &Name) {
  auto T = R.read(Name);
  EXPECT_TRUE(T.ok()) << T.status();
  if (!T.ok())
    return -1;
  EXPECT_EQ(T->dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(T->numElements(), 1);
  return T->element<float>(0);
}

TEST(SharedDataTest, HalfPlusTwoSnappyIndex) {
  REQUIRE_SHARED_DATA();
  std::string Prefix = dataPath("tf-serving/saved_model_half_plus_two_cpu/00000123/variables/"
                                "variables");
  auto R = openOk(Prefix);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->format(), CheckpointFormat::V2);
  EXPECT_TRUE(R->contains("a"));
  EXPECT_TRUE(R->contains("b"));
  EXPECT_EQ(scalar(*R, "a"), 0.5f);
  EXPECT_EQ(scalar(*R, "b"), 2.0f);
  EXPECT_TRUE(R->read("a")->isBorrowed());
}

TEST(SharedDataTest, HalfPlusThree) {
  REQUIRE_SHARED_DATA();
  auto R = openOk(dataPath("tf-serving/saved_model_half_plus_three/00000123/variables/variables"));
  ASSERT_TRUE(R);
  EXPECT_EQ(scalar(*R, "a"), 0.5f);
  EXPECT_EQ(scalar(*R, "c"), 3.0f);
}

TEST(SharedDataTest, SessionBundleV1) {
  REQUIRE_SHARED_DATA();
  std::string Dir = dataPath("tf-serving/session_bundle_half_plus_two/00000123");
  Context Ctx;
  auto Resolved = resolveCheckpoint(Ctx, Dir);
  ASSERT_TRUE(Resolved.ok()) << Resolved.status();
  EXPECT_EQ(Resolved->Prefix, Dir + "/export");
  EXPECT_EQ(Resolved->Format, CheckpointFormat::V1);
  EXPECT_EQ(Resolved->MetaPath, Dir + "/export.meta");
  auto R = openOk(Resolved->Prefix);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->format(), CheckpointFormat::V1);
  EXPECT_EQ(scalar(*R, "a"), 0.5f);
  EXPECT_EQ(scalar(*R, "b"), 2.0f);
}

TEST(SharedDataTest, RegressionCheckpointThroughStateFile) {
  REQUIRE_SHARED_DATA();
  std::string Dir = dataPath("tf2onnx-regression/checkpoint");
  Context Ctx;
  auto Resolved = resolveCheckpoint(Ctx, Dir);
  ASSERT_TRUE(Resolved.ok()) << Resolved.status();
  EXPECT_EQ(Resolved->Prefix, Dir + "/model");
  EXPECT_EQ(Resolved->MetaPath, Dir + "/model.meta");
  auto R = openOk(Resolved->Prefix);
  ASSERT_TRUE(R);
  // TensorFlow froze this checkpoint into graphdef/frozen.pb: its Consts W and
  // b hold the values the checkpoint must yield.
  tensorflow::GraphDef Frozen;
  std::ifstream In(dataPath("tf2onnx-regression/graphdef/frozen.pb"), std::ios::binary);
  ASSERT_TRUE(Frozen.ParseFromIstream(&In));
  int Compared = 0;
  for (const tensorflow::NodeDef &N : Frozen.node()) {
    if (N.op() != "Const" || (N.name() != "W" && N.name() != "b"))
      continue;
    auto Expected = decodeTensorProto(N.attr().at("value").tensor(), N.name());
    ASSERT_TRUE(Expected.ok()) << Expected.status();
    auto Got = R->read(N.name());
    ASSERT_TRUE(Got.ok()) << Got.status();
    EXPECT_EQ(Got->shape(), Expected->shape());
    EXPECT_EQ(Got->bytes(), Expected->bytes()) << N.name();
    ++Compared;
  }
  EXPECT_EQ(Compared, 2);
  for (const char *Name : {"W", "b"}) {
    const VariableInfo *V = R->find(Name);
    ASSERT_TRUE(V) << Name;
    EXPECT_EQ(V->DType, tensorflow::DT_FLOAT);
    // The data file has 8 bytes: one float each.
    EXPECT_EQ(V->ByteSize, 4u);
    auto T = R->read(Name);
    ASSERT_TRUE(T.ok()) << T.status();
    EXPECT_EQ(T->numElements(), 1);
    EXPECT_TRUE(std::isfinite(T->element<float>(0)));
  }
}

// Every checkpoint in the folder opens and every variable reads.
TEST(SharedDataTest, EveryCheckpointReads) {
  REQUIRE_SHARED_DATA();
  int Opened = 0;
  for (const auto &E : std::filesystem::recursive_directory_iterator(FROST_SHARED_DATA)) {
    std::string Path = E.path().string();
    std::string Prefix;
    if (E.path().extension() == ".index")
      Prefix = Path.substr(0, Path.size() - 6);
    else if (E.path().filename() == "export-00000-of-00001")
      Prefix = E.path().parent_path().string() + "/export";
    else
      continue;
    auto R = openOk(Prefix);
    ASSERT_TRUE(R) << Prefix;
    ++Opened;
    EXPECT_FALSE(R->variables().empty()) << Prefix;
    for (const VariableInfo &V : R->variables()) {
      auto T = R->read(V.Name);
      ASSERT_TRUE(T.ok()) << T.status();
      EXPECT_EQ(T->shape(), llvm::ArrayRef<int64_t>(V.Shape)) << V.Name;
      EXPECT_EQ(T->dtype(), V.DType);
    }
  }
  EXPECT_GE(Opened, 6);
}

} // namespace
