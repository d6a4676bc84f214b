//===- SmallFloatTest.cpp - half, bfloat16 and float8 bit patterns --------===//
#include "frost/Tensor/SmallFloat.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace frost;

namespace {

TEST(SmallFloatTest, Half) {
  EXPECT_EQ(halfToDouble(0x3c00), 1.0);
  EXPECT_EQ(halfToDouble(0xc000), -2.0);
  EXPECT_EQ(halfToDouble(0x3555), 1365.0 / 4096); // exponent 13, mantissa 0x155
  EXPECT_EQ(halfToDouble(0x7bff), 65504.0);       // largest finite
  EXPECT_EQ(halfToDouble(0x0001), std::ldexp(1.0, -24)); // smallest subnormal
  EXPECT_EQ(halfToDouble(0x7c00), INFINITY);
  EXPECT_EQ(halfToDouble(0xfc00), -INFINITY);
  EXPECT_TRUE(std::isnan(halfToDouble(0x7e00)));
  EXPECT_EQ(halfToDouble(0x8000), 0.0);
  EXPECT_TRUE(std::signbit(halfToDouble(0x8000)));
}

TEST(SmallFloatTest, BFloat16) {
  EXPECT_EQ(bfloat16ToDouble(0x3f80), 1.0);
  EXPECT_EQ(bfloat16ToDouble(0xc000), -2.0);
  EXPECT_EQ(bfloat16ToDouble(0x4049), 3.140625); // float32 0x40490000
  EXPECT_EQ(bfloat16ToDouble(0x0001), std::ldexp(1.0, -133));
  EXPECT_EQ(bfloat16ToDouble(0x7f80), INFINITY);
  EXPECT_EQ(bfloat16ToDouble(0xff80), -INFINITY);
  EXPECT_TRUE(std::isnan(bfloat16ToDouble(0x7fc0)));
}

TEST(SmallFloatTest, Float8AndFloat4) {
  using tensorflow::DataType;
  auto V = [](DataType T, uint8_t Bits) { return *minifloatToDouble(T, Bits); };
  // E4M3FN (bias 7): no infinity, only S.1111.111 is NaN.
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3FN, 0x38), 1.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3FN, 0xb8), -1.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3FN, 0x7e), 448.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3FN, 0x01), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(V(tensorflow::DT_FLOAT8_E4M3FN, 0x7f)));
  // E5M2 (bias 15): IEEE-like.
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E5M2, 0x3c), 1.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E5M2, 0x7b), 57344.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E5M2, 0x7c), INFINITY);
  // FNUZ: the negative-zero pattern is NaN.
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3FNUZ, 0x40), 1.0);
  EXPECT_TRUE(std::isnan(V(tensorflow::DT_FLOAT8_E4M3FNUZ, 0x80)));
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E4M3B11FNUZ, 0x58), 1.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT8_E5M2FNUZ, 0x40), 1.0);
  // E2M1 (bias 1), in the low 4 bits.
  EXPECT_EQ(V(tensorflow::DT_FLOAT4_E2M1FN, 0x2), 1.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT4_E2M1FN, 0x1), 0.5);
  EXPECT_EQ(V(tensorflow::DT_FLOAT4_E2M1FN, 0x7), 6.0);
  EXPECT_EQ(V(tensorflow::DT_FLOAT4_E2M1FN, 0xf), -6.0);
  EXPECT_FALSE(minifloatToDouble(tensorflow::DT_FLOAT, 0).has_value());
}

TEST(SmallFloatTest, LargestFiniteMagnitudes) {
  EXPECT_EQ(minifloatFormat(tensorflow::DT_FLOAT8_E4M3FN)->maxFiniteMagnitude(), 0x7eu);
  EXPECT_EQ(minifloatFormat(tensorflow::DT_FLOAT8_E5M2)->maxFiniteMagnitude(), 0x7bu);
  EXPECT_EQ(minifloatFormat(tensorflow::DT_FLOAT8_E4M3FNUZ)->maxFiniteMagnitude(), 0x7fu);
  EXPECT_EQ(minifloatFormat(tensorflow::DT_FLOAT4_E2M1FN)->maxFiniteMagnitude(), 0x7u);
}

} // namespace
