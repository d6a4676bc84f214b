//===- TensorProtoCodecTest.cpp - make_tensor_proto, Grappler splats ------===//
#include "frost/Tensor/TensorProtoCodec.h"
#include "../Checkpoint/BundleTestWriter.h"
#include "frost/proto/tensor.pb.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace frost;
using namespace frost::testwriter;

namespace {

TEST(MakeTensorProtoTest, ManyNumbersGoToTensorContent) {
  TensorData T = TensorData::owned(tensorflow::DT_FLOAT, {2}, rawBytes<float>({1.5f, -2}));
  EXPECT_TRUE(makeTensorProtoUsesContent(T));
  tensorflow::TensorProto P;
  ASSERT_TRUE(makeTensorProto(T, P).ok());
  EXPECT_EQ(P.dtype(), tensorflow::DT_FLOAT);
  ASSERT_EQ(P.tensor_shape().dim_size(), 1);
  EXPECT_EQ(P.tensor_shape().dim(0).size(), 2);
  // 1.5f = 0x3fc00000, -2.0f = 0xc0000000, little-endian.
  EXPECT_EQ(P.tensor_content(), std::string("\x00\x00\xc0\x3f\x00\x00\x00\xc0", 8));
  EXPECT_EQ(P.float_val_size(), 0);
}

TEST(MakeTensorProtoTest, ScalarUsesTypedFieldAndKeepsTheShape) {
  TensorData T = TensorData::owned(tensorflow::DT_FLOAT, {}, rawBytes<float>({3}));
  EXPECT_FALSE(makeTensorProtoUsesContent(T));
  tensorflow::TensorProto P;
  ASSERT_TRUE(makeTensorProto(T, P).ok());
  EXPECT_TRUE(P.has_tensor_shape()); // make_tensor_proto writes `tensor_shape {}`
  EXPECT_EQ(P.tensor_shape().dim_size(), 0);
  EXPECT_TRUE(P.tensor_content().empty());
  ASSERT_EQ(P.float_val_size(), 1);
  EXPECT_EQ(P.float_val(0), 3.0f);
  // dtype 1, an empty tensor_shape (field 2), float_val (field 5, packed).
  EXPECT_EQ(P.SerializeAsString(), std::string("\x08\x01\x12\x00\x2a\x04\x00\x00\x40\x40", 10));
}

TEST(MakeTensorProtoTest, DtypesOutsideTensorContentTypes) {
  tensorflow::TensorProto P;
  // bool and uint16 are not in _TENSOR_CONTENT_TYPES.
  TensorData B = TensorData::owned(tensorflow::DT_BOOL, {2}, std::string("\x01\x00", 2));
  EXPECT_FALSE(makeTensorProtoUsesContent(B));
  ASSERT_TRUE(makeTensorProto(B, P).ok());
  ASSERT_EQ(P.bool_val_size(), 2);
  EXPECT_TRUE(P.bool_val(0));
  EXPECT_FALSE(P.bool_val(1));
  TensorData U = TensorData::owned(tensorflow::DT_UINT16, {2}, rawBytes<uint16_t>({65535, 1}));
  ASSERT_TRUE(makeTensorProto(U, P).ok());
  EXPECT_EQ(std::vector<int32_t>(P.int_val().begin(), P.int_val().end()),
            (std::vector<int32_t>{65535, 1}));
  EXPECT_EQ(P.bool_val_size(), 0); // cleared first
  TensorData C = TensorData::owned(tensorflow::DT_COMPLEX64, {1}, rawBytes<float>({1, -2}));
  ASSERT_TRUE(makeTensorProto(C, P).ok());
  EXPECT_EQ(std::vector<float>(P.scomplex_val().begin(), P.scomplex_val().end()),
            (std::vector<float>{1, -2}));
  TensorData S = TensorData::strings(tensorflow::DT_STRING, {2}, {"a", "bc"});
  ASSERT_TRUE(makeTensorProto(S, P).ok());
  ASSERT_EQ(P.string_val_size(), 2);
  EXPECT_EQ(P.string_val(1), "bc");
}

TEST(MakeTensorProtoTest, HalfKeepsBitPatterns) {
  // half 1.0 = 0x3c00 = 15360; bfloat16 -2.0 = 0xc000 = 49152.
  tensorflow::TensorProto P;
  ASSERT_TRUE(
      makeTensorProto(TensorData::owned(tensorflow::DT_HALF, {}, rawBytes<uint16_t>({0x3c00})), P)
          .ok());
  ASSERT_EQ(P.half_val_size(), 1);
  EXPECT_EQ(P.half_val(0), 15360);
  ASSERT_TRUE(makeTensorProto(
                  TensorData::owned(tensorflow::DT_BFLOAT16, {1}, rawBytes<uint16_t>({0xc000})), P)
                  .ok());
  ASSERT_EQ(P.half_val_size(), 1);
  EXPECT_EQ(P.half_val(0), 49152);
}

TEST(MakeTensorProtoTest, SubByteIntegersAreSignExtended) {
  tensorflow::TensorProto P;
  TensorData I4 = TensorData::owned(tensorflow::DT_INT4, {3}, std::string("\x0f\x07\x08", 3));
  ASSERT_TRUE(makeTensorProto(I4, P).ok());
  EXPECT_EQ(std::vector<int32_t>(P.int_val().begin(), P.int_val().end()),
            (std::vector<int32_t>{-1, 7, -8}));
  TensorData U2 = TensorData::owned(tensorflow::DT_UINT2, {2}, std::string("\xff\x01", 2));
  ASSERT_TRUE(makeTensorProto(U2, P).ok());
  EXPECT_EQ(std::vector<int32_t>(P.int_val().begin(), P.int_val().end()),
            (std::vector<int32_t>{3, 1}));
}

TEST(MakeTensorProtoTest, ResourceCannotBeStored) {
  tensorflow::TensorProto P;
  absl::Status S =
      makeTensorProto(TensorData::strings(tensorflow::DT_RESOURCE, {}, {std::string()}), P);
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "a resource value cannot be stored in a Const");
}

TEST(SplatTest, GrapplerSpelling) {
  EXPECT_TRUE(hasSplatForm(tensorflow::DT_FLOAT));
  EXPECT_TRUE(hasSplatForm(tensorflow::DT_COMPLEX128));
  EXPECT_TRUE(hasSplatForm(tensorflow::DT_BFLOAT16));
  EXPECT_FALSE(hasSplatForm(tensorflow::DT_STRING));
  EXPECT_FALSE(hasSplatForm(tensorflow::DT_INT4));
  EXPECT_FALSE(hasSplatForm(tensorflow::DT_FLOAT8_E5M2));

  tensorflow::TensorProto P;
  appendSplatValue(tensorflow::DT_FLOAT, rawBytes<float>({3}), P);
  ASSERT_EQ(P.float_val_size(), 1);
  EXPECT_EQ(P.float_val(0), 3.0f);
  // All-zero bits are no value at all; -0.0 (0x80000000) is not zero bits.
  tensorflow::TensorProto Z;
  appendSplatValue(tensorflow::DT_FLOAT, rawBytes<float>({0}), Z);
  EXPECT_EQ(Z.float_val_size(), 0);
  appendSplatValue(tensorflow::DT_FLOAT, std::string("\x00\x00\x00\x80", 4), Z);
  ASSERT_EQ(Z.float_val_size(), 1);
  EXPECT_TRUE(std::signbit(Z.float_val(0)));
  tensorflow::TensorProto C;
  appendSplatValue(tensorflow::DT_COMPLEX128, rawBytes<double>({1, 0}), C);
  EXPECT_EQ(std::vector<double>(C.dcomplex_val().begin(), C.dcomplex_val().end()),
            (std::vector<double>{1, 0}));
  tensorflow::TensorProto Q;
  appendSplatValue(tensorflow::DT_QUINT16, rawBytes<uint16_t>({40000}), Q);
  ASSERT_EQ(Q.int_val_size(), 1);
  EXPECT_EQ(Q.int_val(0), 40000);
}

} // namespace
