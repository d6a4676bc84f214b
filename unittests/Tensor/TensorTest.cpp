//===- TensorTest.cpp - dtypes, shapes and TensorProto decoding -----------===//
#include "frost/Tensor/Tensor.h"
#include "../Checkpoint/BundleTestWriter.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/proto/tensor.pb.h"

#include "gtest/gtest.h"

using namespace frost;
using namespace frost::testwriter;

namespace {

TEST(TensorTest, DataTypeSizesAndNames) {
  EXPECT_EQ(dataTypeSize(tensorflow::DT_FLOAT), 4u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_BOOL), 1u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_HALF), 2u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_BFLOAT16), 2u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_COMPLEX64), 8u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_COMPLEX128), 16u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_QUINT16), 2u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_FLOAT_REF), 4u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_STRING), 0u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_VARIANT), 0u);
  EXPECT_EQ(dataTypeSize(tensorflow::DT_RESOURCE), 0u);
  EXPECT_EQ(dataTypeSize(static_cast<tensorflow::DataType>(77)), 0u);
  EXPECT_EQ(dataTypeName(tensorflow::DT_FLOAT), "float");
  EXPECT_EQ(dataTypeName(tensorflow::DT_BFLOAT16), "bfloat16");
  EXPECT_EQ(dataTypeName(tensorflow::DT_INT64_REF), "int64_ref");
  EXPECT_EQ(dataTypeName(static_cast<tensorflow::DataType>(77)), "dtype(77)");
  EXPECT_EQ(baseDataType(tensorflow::DT_FLOAT_REF), tensorflow::DT_FLOAT);
}

TEST(TensorTest, DataTypePythonNames) {
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_FLOAT), "float32");
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_DOUBLE), "float64");
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_HALF), "float16");
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_BFLOAT16), "bfloat16");
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_FLOAT_REF), "float32_ref");
  EXPECT_EQ(dataTypePythonName(tensorflow::DT_INVALID), "invalid");
  EXPECT_EQ(dataTypePythonName(static_cast<tensorflow::DataType>(100)), "dtype(100)");
  EXPECT_EQ(dataTypeName(tensorflow::DT_HALF), "half");
  EXPECT_EQ(dataTypeName(tensorflow::DT_DOUBLE_REF), "double_ref");
}

TEST(TensorTest, ElementCounts) {
  EXPECT_EQ(*numElements({}), 1);
  EXPECT_EQ(*numElements({2, 3, 4}), 24);
  EXPECT_EQ(*numElements({5, 0}), 0);
  EXPECT_FALSE(numElements({2, -1}).ok());
  EXPECT_FALSE(numElements({int64_t(1) << 62, 4}).ok());
  EXPECT_EQ(*numElements({int64_t(1) << 62, 1}), int64_t(1) << 62);
  EXPECT_EQ(formatShape({2, 3}), "[2,3]");
  EXPECT_EQ(formatShape({}), "[]");
}

tensorflow::TensorProto proto(tensorflow::DataType DType, std::vector<int64_t> Shape) {
  tensorflow::TensorProto P;
  P.set_dtype(DType);
  for (int64_t D : Shape)
    P.mutable_tensor_shape()->add_dim()->set_size(D);
  return P;
}

TEST(TensorTest, DecodeRepeatsLastValue) {
  auto P = proto(tensorflow::DT_FLOAT, {2, 2});
  P.add_float_val(1);
  P.add_float_val(7);
  auto T = decodeTensorProto(P, "c");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->values<float>(), (std::vector<float>{1, 7, 7, 7}));
  EXPECT_FALSE(decodeTensorProto(P, "c", /*Exact=*/true).ok());
}

TEST(TensorTest, DecodeNoValuesMeansZeros) {
  auto T = decodeTensorProto(proto(tensorflow::DT_INT32, {3}), "c");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->values<int32_t>(), (std::vector<int32_t>{0, 0, 0}));
  auto S = decodeTensorProto(proto(tensorflow::DT_STRING, {2}), "c");
  ASSERT_TRUE(S.ok());
  EXPECT_EQ(S->elements().size(), 2u);
}

TEST(TensorTest, DecodeTensorContentWins) {
  auto P = proto(tensorflow::DT_INT16, {2});
  P.set_tensor_content(rawBytes<int16_t>({-2, 300}));
  P.add_int_val(5); // ignored
  auto T = decodeTensorProto(P, "c");
  ASSERT_TRUE(T.ok()) << T.status();
  EXPECT_EQ(T->values<int16_t>(), (std::vector<int16_t>{-2, 300}));
  P.set_tensor_content(std::string(3, '\0'));
  auto Bad = decodeTensorProto(P, "node 'c'");
  EXPECT_EQ(Bad.status().message(),
            "node 'c': tensor_content has 3 bytes, expected 4 (2 elements of 2 bytes)");
}

TEST(TensorTest, DecodeNarrowsAndPairs) {
  auto H = proto(tensorflow::DT_BFLOAT16, {2});
  H.add_half_val(0x3f80);
  H.add_half_val(0xc000);
  EXPECT_EQ(decodeTensorProto(H, "h")->values<uint16_t>(), (std::vector<uint16_t>{0x3f80, 0xc000}));
  auto U8 = proto(tensorflow::DT_UINT8, {2});
  U8.add_int_val(255);
  U8.add_int_val(1);
  EXPECT_EQ(decodeTensorProto(U8, "u")->values<uint8_t>(), (std::vector<uint8_t>{255, 1}));
  auto C = proto(tensorflow::DT_COMPLEX128, {2});
  C.add_dcomplex_val(1);
  C.add_dcomplex_val(2);
  EXPECT_EQ(decodeTensorProto(C, "c")->bytes(), rawBytes<double>({1, 2, 1, 2}));
  C.add_dcomplex_val(3);
  EXPECT_FALSE(decodeTensorProto(C, "c").ok());
  auto B = proto(tensorflow::DT_BOOL, {3});
  B.add_bool_val(true);
  EXPECT_EQ(decodeTensorProto(B, "b")->values<uint8_t>(), (std::vector<uint8_t>{1, 1, 1}));
}

TEST(TensorTest, DecodeRejectsBadShapesAndTooManyValues) {
  auto P = proto(tensorflow::DT_FLOAT, {-1});
  EXPECT_FALSE(decodeTensorProto(P, "c").ok());
  auto Q = proto(tensorflow::DT_FLOAT, {1});
  Q.add_float_val(1);
  Q.add_float_val(2);
  EXPECT_EQ(decodeTensorProto(Q, "c").status().message(),
            "c: float_val has 2 values for 1 elements");
  EXPECT_TRUE(absl::IsUnimplemented(decodeTensorProto(proto(tensorflow::DT_RESOURCE, {}), "r")
                                        .status()));
}

TEST(TensorTest, RoundTripThroughTensorProto) {
  TensorData T = TensorData::owned(tensorflow::DT_INT64, {2}, rawBytes<int64_t>({-1, 1}));
  tensorflow::TensorProto P;
  ASSERT_TRUE(T.toTensorProto(P).ok());
  EXPECT_EQ(P.dtype(), tensorflow::DT_INT64);
  EXPECT_EQ(P.tensor_content(), rawBytes<int64_t>({-1, 1}));
  auto Back = decodeTensorProto(P, "p");
  ASSERT_TRUE(Back.ok());
  EXPECT_EQ(Back->values<int64_t>(), (std::vector<int64_t>{-1, 1}));
  EXPECT_FALSE(T.isBorrowed());
}

TEST(TensorTest, ShapeSpellings) {
  EXPECT_EQ(formatShape({-2, 2}), "[-2,2]");
  tensorflow::TensorShapeProto P;
  EXPECT_EQ(formatPartialShape(P), "[]");
  P.add_dim()->set_size(-1);
  P.add_dim()->set_size(3);
  EXPECT_EQ(formatPartialShape(P), "[?,3]");
  P.set_unknown_rank(true);
  EXPECT_EQ(formatPartialShape(P), "<unknown>");
}

TEST(TensorTest, ByteSwapSwapsEachElementOrPart) {
  std::string I = rawBytes<uint32_t>({0x01020304});
  byteSwapElements(tensorflow::DT_INT32, I.data(), I.size());
  EXPECT_EQ(I, rawBytes<uint32_t>({0x04030201}));
  std::string C = rawBytes<uint32_t>({0x01020304, 0x05060708});
  byteSwapElements(tensorflow::DT_COMPLEX64, C.data(), C.size());
  EXPECT_EQ(C, rawBytes<uint32_t>({0x04030201, 0x08070605}));
}

/// A [4,3] int32 tensor holding 0..11.
TensorData count4x3() {
  std::vector<int32_t> All(12);
  for (int I = 0; I < 12; ++I)
    All[I] = I;
  return TensorData::owned(tensorflow::DT_INT32, {4, 3}, rawBytes(All));
}

TEST(TensorTest, SliceRowsIsAView) {
  TensorData Full = count4x3();
  auto Rows = sliceTensor(Full, {1, 0}, {2, 3});
  ASSERT_TRUE(Rows.ok()) << Rows.status();
  EXPECT_TRUE(Rows->isBorrowed());
  EXPECT_EQ(Rows->keeper(), Full.keeper());
  EXPECT_EQ(Rows->shape(), llvm::ArrayRef<int64_t>({2, 3}));
  EXPECT_EQ(Rows->values<int32_t>(), (std::vector<int32_t>{3, 4, 5, 6, 7, 8}));
  auto Whole = sliceTensor(Full, {0, 0}, {4, 3});
  ASSERT_TRUE(Whole.ok());
  EXPECT_EQ(Whole->bytes().data(), Full.bytes().data());
}

TEST(TensorTest, SliceColumnsIsACopy) {
  TensorData Full = count4x3();
  auto Column = sliceTensor(Full, {1, 1}, {3, 2});
  ASSERT_TRUE(Column.ok()) << Column.status();
  EXPECT_FALSE(Column->isBorrowed());
  EXPECT_EQ(Column->values<int32_t>(), (std::vector<int32_t>{4, 5, 7, 8, 10, 11}));
  TensorData Names = TensorData::strings(tensorflow::DT_STRING, {3}, {"a", "b", "c"});
  auto Tail = sliceTensor(Names, {1}, {2});
  ASSERT_TRUE(Tail.ok());
  EXPECT_EQ(Tail->elements(), llvm::ArrayRef<std::string>({"b", "c"}));
}

} // namespace
