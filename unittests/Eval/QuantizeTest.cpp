//===- QuantizeTest.cpp - Quantized values, hand-checked ------------------===//
//
// Expected values were printed by TensorFlow 2.21 (tf.raw_ops.Dequantize on
// the CPU); they are float32 values written with enough digits to be exact.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include <cmath>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

using Shape = std::vector<int64_t>;

TensorData range(std::vector<float> V) {
  int64_t N = static_cast<int64_t>(V.size());
  return tensor<float>(tensorflow::DT_FLOAT, {N}, std::move(V));
}
TensorData scalar(float V) { return tensor<float>(tensorflow::DT_FLOAT, {}, {V}); }

/// Dequantize's attributes: mode, then optionally axis, narrow_range, dtype.
AttrMap attrs(const std::string &Mode, int64_t Axis = -1, bool NarrowRange = false,
              tensorflow::DataType DType = tensorflow::DT_FLOAT) {
  AttrMap A;
  A["mode"].set_s(Mode);
  A["axis"].set_i(Axis);
  A["narrow_range"].set_b(NarrowRange);
  A["dtype"] = typeAttr(DType);
  return A;
}

std::vector<float> dequantize(const TensorData &In, float Min, float Max, const std::string &Mode,
                              bool NarrowRange = false) {
  return evalOne("Dequantize", {In, scalar(Min), scalar(Max)}, attrs(Mode, -1, NarrowRange))
      .values<float>();
}

const TensorData QInt8 = tensor<int8_t>(tensorflow::DT_QINT8, {5}, {-128, -1, 0, 1, 127});

TEST(QuantizeTest, QInt8InEachMode) {
  EXPECT_EQ(dequantize(QInt8, -1, 2, "MIN_COMBINED"),
            (std::vector<float>{-1.0f, 0.4941176176071167f, 0.5058823823928833f,
                                0.5176471471786499f, 2.0f}));
  EXPECT_EQ(dequantize(QInt8, -1, 2, "MIN_FIRST"),
            (std::vector<float>{-1.0f, 0.4941176772117615f, 0.5058823823928833f,
                                0.5176470875740051f, 2.0f}));
  std::vector<float> Scaled{-2.0157480239868164f, -0.015748031437397003f, 0.0f,
                            0.015748031437397003f, 2.0f};
  EXPECT_EQ(dequantize(QInt8, -1, 2, "SCALED"), Scaled);
  // narrow_range changes only the scale's min side, which loses here.
  EXPECT_EQ(dequantize(QInt8, -1, 2, "SCALED", /*NarrowRange=*/true), Scaled);
  // Mode and dtype default to MIN_COMBINED and float.
  EXPECT_EQ(evalOne("Dequantize", {QInt8, scalar(-1), scalar(2)}).values<float>()[1],
            0.4941176176071167f);
}

TEST(QuantizeTest, UnsignedAndWiderTypes) {
  TensorData QUInt8 = tensor<uint8_t>(tensorflow::DT_QUINT8, {4}, {0, 1, 128, 255});
  EXPECT_EQ(dequantize(QUInt8, -1, 2, "MIN_COMBINED"),
            (std::vector<float>{-1.0f, -0.9882352948188782f, 0.5058823823928833f, 2.0f}));
  EXPECT_EQ(dequantize(QUInt8, -1, 2, "SCALED"),
            (std::vector<float>{0.0f, 0.007843137718737125f, 1.003921627998352f, 2.0f}));
  TensorData QInt16 = tensor<int16_t>(tensorflow::DT_QINT16, {6}, {-32768, -1, 0, 1, 32767, 12345});
  EXPECT_EQ(dequantize(QInt16, -3, 7, "MIN_FIRST"),
            (std::vector<float>{-3.0000762939453125f, 1.999847412109375f, 2.0f, 2.000152587890625f,
                                6.9999237060546875f, 3.883726119995117f}));
  EXPECT_EQ(dequantize(QInt16, -3, 7, "SCALED"),
            (std::vector<float>{-7.000213623046875f, -0.0002136295661330223f, 0.0f,
                                0.0002136295661330223f, 7.0f, 2.6372570991516113f}));
  TensorData QUInt16 = tensor<uint16_t>(tensorflow::DT_QUINT16, {5}, {0, 1, 32768, 65535, 12345});
  EXPECT_EQ(dequantize(QUInt16, -3, 7, "MIN_COMBINED"),
            (std::vector<float>{-3.0f, -2.999847412109375f, 2.0000762939453125f, 7.0f,
                                -1.1162737607955933f}));
  TensorData QInt32 = tensor<int32_t>(tensorflow::DT_QINT32, {6},
                                      {-2147483647 - 1, -1, 0, 1, 2147483647, 123456789});
  EXPECT_EQ(dequantize(QInt32, -3, 7, "MIN_COMBINED"),
            (std::vector<float>{-3.0f, 2.0f, 2.0f, 2.0f, 7.0f, 2.287445068359375f}));
  EXPECT_EQ(dequantize(QInt32, -3, 7, "MIN_FIRST"),
            (std::vector<float>{-3.0f, 2.0f, 2.0f, 2.0f, 7.0f, 2.287445306777954f}));
}

TEST(QuantizeTest, QInt32ScaledGoesThroughFloatAsTensorFlowDoes) {
  // With one range, TensorFlow's cast of qint32 to int passes through float,
  // and values that round to 2^31 come back as -2^31; per slice they do not.
  std::vector<int32_t> V{2147483520, 2147483583, 2147483584, 2147483647, 16777217, 1000000007};
  TensorData Whole = tensor<int32_t>(tensorflow::DT_QINT32, {6}, V);
  EXPECT_EQ(dequantize(Whole, -1, 2147483647.0f, "SCALED"),
            (std::vector<float>{2147483520.0f, 2147483520.0f, -2147483648.0f, -2147483648.0f,
                                16777216.0f, 1000000000.0f}));
  std::vector<int32_t> Twice = V;
  Twice.insert(Twice.end(), V.begin(), V.end());
  TensorData Slices = tensor<int32_t>(tensorflow::DT_QINT32, {2, 6}, Twice);
  std::vector<float> Out =
      evalOne("Dequantize", {Slices, range({-1, -1}), range({2147483647.0f, 2147483647.0f})},
              attrs("SCALED", 0))
          .values<float>();
  EXPECT_EQ(Out[2], 2147483648.0f);
  EXPECT_EQ(Out[9], 2147483648.0f);
}

TEST(QuantizeTest, ScaledZeroRangeKeepsTensorFlowsSignedZeros) {
  // The scale is max(0/-128, 0/127) = -0.0 (std::max keeps the first).
  std::vector<float> Out = dequantize(QInt8, 0, 0, "SCALED");
  EXPECT_FALSE(std::signbit(Out[0]));
  EXPECT_TRUE(std::signbit(Out[2]));
  EXPECT_TRUE(std::signbit(Out[3]));
  // MIN_FIRST with an empty range gives the range.
  EXPECT_EQ(dequantize(QInt8, 2, 2, "MIN_FIRST"), std::vector<float>(5, 2.0f));
}

TEST(QuantizeTest, PerSliceRanges) {
  TensorData M = tensor<uint8_t>(tensorflow::DT_QUINT8, {2, 3}, {0, 1, 2, 3, 4, 5});
  TensorData Out =
      evalOne("Dequantize", {M, range({0, 1, 2}), range({1, 2, 3})}, attrs("MIN_COMBINED", 1));
  EXPECT_EQ(Out.values<float>(),
            (std::vector<float>{0.0f, 1.003921627998352f, 2.007843255996704f, 0.011764707043766975f,
                                1.015686273574829f, 2.0196077823638916f}));
  Out = evalOne("Dequantize", {M, range({0, 1, 2}), range({1, 2, 3})}, attrs("SCALED", 1));
  EXPECT_EQ(Out.values<float>(),
            (std::vector<float>{0.0f, 0.007843137718737125f, 0.0235294122248888f,
                                0.011764707043766975f, 0.0313725508749485f, 0.05882352963089943f}));
  Out = evalOne("Dequantize", {M, range({0, 1}), range({1, 2})}, attrs("MIN_COMBINED", 0));
  EXPECT_EQ(Out.values<float>(),
            (std::vector<float>{0.0f, 0.003921568859368563f, 0.007843137718737125f,
                                1.0117647647857666f, 1.015686273574829f, 1.0196079015731812f}));
  // Any negative axis is one range; empty tensors stay empty.
  Out = evalOne("Dequantize", {M, range({0}), range({1})}, attrs("MIN_COMBINED", -5));
  EXPECT_EQ(Out.values<float>()[5], 0.019607843831181526f);
  TensorData Empty = tensor<uint8_t>(tensorflow::DT_QUINT8, {0, 3}, {});
  Out = evalOne("Dequantize", {Empty, range({}), range({})}, attrs("MIN_COMBINED", 0));
  EXPECT_EQ(Shape(Out.shape().begin(), Out.shape().end()), (Shape{0, 3}));
}

TEST(QuantizeTest, BFloat16OutputIsRoundedFromFloat) {
  TensorData Out = evalOne("Dequantize", {QInt8, scalar(-1), scalar(2)},
                           attrs("MIN_COMBINED", -1, false, tensorflow::DT_BFLOAT16));
  EXPECT_EQ(Out.dtype(), tensorflow::DT_BFLOAT16);
  std::vector<float> Floats;
  for (Eigen::bfloat16 V : Out.values<Eigen::bfloat16>())
    Floats.push_back(static_cast<float>(V));
  EXPECT_EQ(Floats, (std::vector<float>{-1.0f, 0.494140625f, 0.5078125f, 0.51953125f, 2.0f}));
}

TEST(QuantizeTest, ErrorsAsTensorFlowSaysThem) {
  auto Status = [](std::vector<TensorData> In, const AttrMap &A) {
    return evalStatus("Dequantize", std::move(In), A);
  };
  absl::Status S = Status({QInt8, scalar(0), scalar(1)}, attrs("FOO"));
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "Dequantize: Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or "
                         "'SCALED', is 'FOO'");
  S = Status({QInt8, scalar(0), scalar(1)}, attrs("SCALED", -1, false, tensorflow::DT_BFLOAT16));
  EXPECT_EQ(S.message(), "Dequantize: When output type is bfloat16, Mode string must be "
                         "'MIN_COMBINED', is 'SCALED'");
  S = Status({QInt8, scalar(0), scalar(1)}, attrs("SCALED", -1, false, tensorflow::DT_HALF));
  EXPECT_EQ(S.message(), "Dequantize: Output type must be bfloat16 or float, is 'half'");
  TensorData M = tensor<uint8_t>(tensorflow::DT_QUINT8, {2, 3}, {0, 1, 2, 3, 4, 5});
  S = Status({M, range({0, 1, 2}), range({1, 2, 3})}, attrs("MIN_COMBINED", 2));
  EXPECT_EQ(S.message(), "Dequantize: Axis must be less than input dimension(2), got 2");
  S = Status({M, range({0, 1}), range({1, 2, 3})}, attrs("MIN_COMBINED", 1));
  EXPECT_EQ(S.message(), "Dequantize: input_min_tensor must have as many elements as input on "
                         "the dequantization axis (1), got 2, expected 3");
  S = Status({M, range({0, 1, 2}), range({1, 2})}, attrs("MIN_COMBINED", 1));
  EXPECT_EQ(S.message(), "Dequantize: input_max_tensor must have as many elements as input on "
                         "the dequantization axis (1), got 2, expected 3");
  S = Status({M, range({}), range({1})}, attrs("MIN_COMBINED"));
  EXPECT_EQ(S.message(), "Dequantize: input_min_tensor must have as many elements as input on "
                         "the dequantization axis (-1), got 0, expected 1");
  S = Status({M, range({0, 1, 2}), range({1, 2, 3})}, attrs("MIN_FIRST", 1));
  EXPECT_TRUE(absl::IsUnimplemented(S));
  EXPECT_EQ(S.message(), "Dequantize: MIN_FIRST mode is not implemented for "
                         "Dequantize with axis != -1.");
  S = Status({M, tensor<double>(tensorflow::DT_DOUBLE, {}, {0}), scalar(1)}, attrs("SCALED"));
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "Dequantize: input 1 (the range's min) must be float, got double");
  S = Status({tensor<uint8_t>(tensorflow::DT_UINT8, {1}, {0}), scalar(0), scalar(1)},
             attrs("SCALED"));
  EXPECT_TRUE(absl::IsUnimplemented(S));
  EXPECT_EQ(S.message(), "Dequantize: no kernel for dtype uint8");
  EXPECT_TRUE(absl::IsInvalidArgument(evalStatus("Dequantize", {QInt8})));
}

} // namespace
