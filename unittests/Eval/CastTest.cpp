//===- CastTest.cpp - Cast between fixed-size dtypes, hand-checked --------===//
//
// Out-of-range float to integer results are TensorFlow 2.21's on x86-64
// (they differ between its vectorized body and scalar tail).
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;
using tensorflow::DT_BFLOAT16;
using tensorflow::DT_BOOL;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT16;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;
using tensorflow::DT_INT8;
using tensorflow::DT_STRING;
using tensorflow::DT_UINT32;
using tensorflow::DT_UINT64;
using tensorflow::DT_UINT8;

namespace {

constexpr float Inf = std::numeric_limits<float>::infinity();
constexpr float NaN = std::numeric_limits<float>::quiet_NaN();

AttrMap castTo(tensorflow::DataType To, bool Truncate = false) {
  AttrMap A{{"DstT", typeAttr(To)}};
  if (Truncate)
    A["Truncate"].set_b(true);
  return A;
}

TensorData floats(std::vector<float> V) {
  int64_t N = static_cast<int64_t>(V.size());
  return tensor<float>(DT_FLOAT, {N}, std::move(V));
}

template <typename T> std::vector<T> cast(const TensorData &X, tensorflow::DataType To) {
  TensorData Out = evalOne("Cast", {X}, castTo(To));
  EXPECT_EQ(Out.dtype(), To);
  return Out.values<T>();
}

TEST(CastTest, FloatToInt32And64GiveIntegerIndefinite) {
  int32_t Min32 = std::numeric_limits<int32_t>::min();
  int64_t Min64 = std::numeric_limits<int64_t>::min();
  TensorData X = floats({NaN, Inf, -Inf, 1e10f, -1.5f, 300.7f, -0.0f});
  EXPECT_EQ(cast<int32_t>(X, DT_INT32),
            (std::vector<int32_t>{Min32, Min32, Min32, Min32, -1, 300, 0}));
  EXPECT_EQ(cast<int64_t>(X, DT_INT64),
            (std::vector<int64_t>{Min64, Min64, Min64, 10000000000, -1, 300, 0}));
}

TEST(CastTest, FloatToUint64) {
  uint64_t Indefinite = uint64_t(1) << 63;
  TensorData X = floats({NaN, -1.0f, 0x1.8p63f, 0x1p64f, -Inf, 1e10f});
  EXPECT_EQ(cast<uint64_t>(X, DT_UINT64),
            (std::vector<uint64_t>{Indefinite, ~uint64_t(0), uint64_t(3) << 62, Indefinite,
                                   Indefinite, 10000000000}));
}

TEST(CastTest, FloatToNarrowIntegersWrapInTheScalarTail) {
  // Fewer elements than one vector step: all scalar, int32 then truncated.
  TensorData X = floats({NaN, 300.7f, -129.0f, 200.5f, 1e10f, -1.5f});
  EXPECT_EQ(cast<int8_t>(X, DT_INT8), (std::vector<int8_t>{0, 44, 127, -56, 0, -1}));
  EXPECT_EQ(cast<uint8_t>(X, DT_UINT8), (std::vector<uint8_t>{0, 44, 127, 200, 0, 255}));
  EXPECT_EQ(cast<uint32_t>(X, DT_UINT32),
            (std::vector<uint32_t>{0, 300, 4294967167u, 200, 1410065408u, 4294967295u}));
}

TEST(CastTest, FloatToNarrowIntegersSaturateInTheVectorizedBody) {
  // 33 floats to int8: 32 in one vector step (saturated), the last scalar.
  TensorData X = floats(std::vector<float>(33, 300.7f));
  std::vector<int8_t> Out = cast<int8_t>(X, DT_INT8);
  EXPECT_EQ(std::vector<int8_t>(Out.begin(), Out.end() - 1), std::vector<int8_t>(32, 127));
  EXPECT_EQ(Out.back(), 44);
  // NaN and 1e10 are INT_MIN as int32, so the lowest value; -1.5 is 0 as uint8.
  std::vector<float> V(32, -1.5f);
  V[0] = NaN;
  V[1] = 1e10f;
  std::vector<uint8_t> U = cast<uint8_t>(floats(V), DT_UINT8);
  EXPECT_EQ(U, std::vector<uint8_t>(32, 0));
  EXPECT_EQ(cast<int8_t>(floats(std::vector<float>(32, NaN)), DT_INT8),
            std::vector<int8_t>(32, -128));
  // uint32 steps by 8: 1e10 and NaN give 2^31, 4e9 converts.
  std::vector<float> W = {1e10f, NaN, 4e9f, -1.0f, 3e9f, -3e9f, 0x1p32f, 7.9f, 1e10f};
  EXPECT_EQ(cast<uint32_t>(floats(W), DT_UINT32),
            (std::vector<uint32_t>{2147483648u, 2147483648u, 4000000000u, 4294967295u, 3000000000u,
                                   2147483648u, 2147483648u, 7, 1410065408u}));
}

TEST(CastTest, HalfToInt16) {
  // 65504 (the largest half) is 65504 as int32: -32 truncated, 32767 saturated.
  TensorData One = tensor<Eigen::half>(DT_HALF, {1}, {Eigen::half(65504.0f)});
  EXPECT_EQ(cast<int16_t>(One, DT_INT16), (std::vector<int16_t>{-32}));
  TensorData Sixteen =
      tensor<Eigen::half>(DT_HALF, {16}, std::vector<Eigen::half>(16, Eigen::half(65504.0f)));
  EXPECT_EQ(cast<int16_t>(Sixteen, DT_INT16), std::vector<int16_t>(16, 32767));
}

TEST(CastTest, DoubleToUint8GoesThroughInt16) {
  // TensorFlow 2.21's vectorized body: 65504 is -32 as int16, so 0; 300 is 255.
  std::vector<double> V(16, 65504.0);
  V[1] = 300.0;
  std::vector<uint8_t> Want(16, 0);
  Want[1] = 255;
  EXPECT_EQ(cast<uint8_t>(tensor<double>(DT_DOUBLE, {16}, V), DT_UINT8), Want);
}

TEST(CastTest, IntegersConvertModulo2N) {
  TensorData X = tensor<int64_t>(DT_INT64, {3}, {300, -1, (int64_t(1) << 40) + 7});
  EXPECT_EQ(cast<int8_t>(X, DT_INT8), (std::vector<int8_t>{44, -1, 7}));
  EXPECT_EQ(cast<uint32_t>(X, DT_UINT32), (std::vector<uint32_t>{300, 4294967295u, 7}));
  EXPECT_EQ(cast<uint64_t>(X, DT_UINT64),
            (std::vector<uint64_t>{300, ~uint64_t(0), (uint64_t(1) << 40) + 7}));
}

TEST(CastTest, IntegersToFloatsRoundToNearestEven) {
  EXPECT_EQ(cast<float>(tensor<int32_t>(DT_INT32, {2}, {16777217, 16777219}), DT_FLOAT),
            (std::vector<float>{16777216.0f, 16777220.0f}));
  EXPECT_EQ(cast<float>(tensor<uint64_t>(DT_UINT64, {1}, {~uint64_t(0)}), DT_FLOAT),
            (std::vector<float>{0x1p64f}));
  std::vector<Eigen::half> H =
      cast<Eigen::half>(tensor<int32_t>(DT_INT32, {2}, {2049, 70000}), DT_HALF);
  EXPECT_EQ(static_cast<float>(H[0]), 2048.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(H[1])));
}

TEST(CastTest, DoubleToHalfAndBfloat16RoundThroughFloat) {
  // TensorFlow 2.21 rounds twice: 1 + 2^-11 + 2^-40 is 1 + 2^-11 as a float,
  // a tie that rounds to 1 as a half; likewise 1 + 2^-8 + 2^-30 as bfloat16.
  TensorData X = tensor<double>(DT_DOUBLE, {1}, {1 + 0x1p-11 + 0x1p-40});
  EXPECT_EQ(static_cast<float>(cast<Eigen::half>(X, DT_HALF)[0]), 1.0f);
  TensorData Y = tensor<double>(DT_DOUBLE, {1}, {1 + 0x1p-8 + 0x1p-30});
  EXPECT_EQ(static_cast<float>(cast<Eigen::bfloat16>(Y, DT_BFLOAT16)[0]), 1.0f);
}

TEST(CastTest, TruncateDropsMantissaBits) {
  // 1 + 2^-10 + 2^-11 is a tie between halves: to even (1 + 2^-9) by
  // default, down to 1 + 2^-10 with Truncate.
  TensorData X = floats({1 + 0x1p-10f + 0x1p-11f, NaN});
  std::vector<Eigen::half> Rounded = cast<Eigen::half>(X, DT_HALF);
  EXPECT_EQ(static_cast<float>(Rounded[0]), 1 + 0x1p-9f);
  std::vector<Eigen::half> Truncated =
      evalOne("Cast", {X}, castTo(DT_HALF, true)).values<Eigen::half>();
  EXPECT_EQ(static_cast<float>(Truncated[0]), 1 + 0x1p-10f);
  EXPECT_TRUE(std::isnan(static_cast<float>(Truncated[1])));
  // float to bfloat16: 1 + 2^-7 + 2^-8 + 2^-9 rounds up, truncates down.
  TensorData Y = floats({1 + 0x1p-7f + 0x1p-8f + 0x1p-9f});
  EXPECT_EQ(static_cast<float>(cast<Eigen::bfloat16>(Y, DT_BFLOAT16)[0]), 1 + 0x1p-6f);
  EXPECT_EQ(static_cast<float>(
                evalOne("Cast", {Y}, castTo(DT_BFLOAT16, true)).values<Eigen::bfloat16>()[0]),
            1 + 0x1p-7f);
  // double to float.
  TensorData Z = tensor<double>(DT_DOUBLE, {1}, {1 + 0x1p-23 + 0x1p-24 + 0x1p-30});
  EXPECT_EQ(cast<float>(Z, DT_FLOAT)[0], 1 + 0x1p-22f);
  EXPECT_EQ(evalOne("Cast", {Z}, castTo(DT_FLOAT, true)).values<float>()[0], 1 + 0x1p-23f);
}

TEST(CastTest, ToAndFromBool) {
  std::vector<uint8_t> B =
      evalOne("Cast", {floats({NaN, 0.0f, -0.0f, 0.5f})}, castTo(DT_BOOL)).values<uint8_t>();
  EXPECT_EQ(B, (std::vector<uint8_t>{1, 0, 0, 1}));
  TensorData Bools = tensor<uint8_t>(DT_BOOL, {3}, {0, 1, 2});
  EXPECT_EQ(cast<float>(Bools, DT_FLOAT), (std::vector<float>{0, 1, 1}));
  EXPECT_EQ(cast<int64_t>(Bools, DT_INT64), (std::vector<int64_t>{0, 1, 1}));
}

TEST(CastTest, SameDtypeIsIdentity) {
  TensorData S = TensorData::strings(DT_STRING, {1}, {"a"});
  TensorData Out = evalOne("Cast", {S}, castTo(DT_STRING));
  EXPECT_EQ(Out.elements().vec(), (std::vector<std::string>{"a"}));
  EXPECT_EQ(cast<float>(floats({NaN}), DT_FLOAT).size(), 1u);
}

TEST(CastTest, Errors) {
  absl::Status S =
      evalStatus("Cast", {TensorData::strings(DT_STRING, {1}, {"1"})}, castTo(DT_INT32));
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "Cast: Cast string to int32 is not supported");
  S = evalStatus("Cast", {floats({1})});
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_EQ(S.message(), "Cast: missing attribute 'DstT'");
  AttrMap WrongSrc = castTo(DT_INT32);
  WrongSrc["SrcT"] = typeAttr(DT_DOUBLE);
  S = evalStatus("Cast", {floats({1})}, WrongSrc);
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_EQ(S.message(), "Cast: SrcT is double but the input is float");
  TensorData Complex = TensorData::owned(tensorflow::DT_COMPLEX64, {1}, std::string(8, '\0'));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Cast", {Complex}, castTo(DT_FLOAT))));
}

} // namespace
