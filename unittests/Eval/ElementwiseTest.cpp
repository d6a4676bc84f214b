//===- ElementwiseTest.cpp - Unary and binary kernels, hand-checked -------===//
#include "EvalTestSupport.h"

#include <cmath>
#include <limits>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

TEST(ElementwiseTest, AddBroadcastsAsBCast) {
  // [2,3] + [3]: each row plus the vector.
  TensorData Out = evalOne("AddV2", {tensor<float>(tensorflow::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6}),
                                     tensor<float>(tensorflow::DT_FLOAT, {3}, {10, 20, 30})});
  EXPECT_EQ(Out.dtype(), tensorflow::DT_FLOAT);
  EXPECT_EQ(std::vector<int64_t>(Out.shape().begin(), Out.shape().end()),
            (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  // [2,1] - [1,3]: both sides repeat.
  Out = evalOne("Sub", {tensor<int32_t>(tensorflow::DT_INT32, {2, 1}, {10, 20}),
                        tensor<int32_t>(tensorflow::DT_INT32, {1, 3}, {1, 2, 3})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{9, 8, 7, 19, 18, 17}));
  // A scalar against an empty tensor gives an empty tensor.
  Out = evalOne("Mul", {tensor<float>(tensorflow::DT_FLOAT, {}, {2}),
                        tensor<float>(tensorflow::DT_FLOAT, {0, 4}, {})});
  EXPECT_EQ(Out.numElements(), 0);
  EXPECT_EQ(std::vector<int64_t>(Out.shape().begin(), Out.shape().end()),
            (std::vector<int64_t>{0, 4}));
}

TEST(ElementwiseTest, IncompatibleShapesAsTensorFlowSaysIt) {
  absl::Status S = evalStatus("Add", {tensor<float>(tensorflow::DT_FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6}),
                                      tensor<float>(tensorflow::DT_FLOAT, {2}, {1, 2})});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "Add: Incompatible shapes: [2,3] vs. [2]");
}

TEST(ElementwiseTest, SignedIntegersWrap) {
  int32_t Max = std::numeric_limits<int32_t>::max(), Min = std::numeric_limits<int32_t>::min();
  TensorData Out = evalOne("Add", {tensor<int32_t>(tensorflow::DT_INT32, {2}, {Max, Min}),
                                   tensor<int32_t>(tensorflow::DT_INT32, {2}, {1, -1})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{Min, Max}));
  Out = evalOne("Neg", {tensor<int8_t>(tensorflow::DT_INT8, {2}, {-128, 5})});
  EXPECT_EQ(Out.values<int8_t>(), (std::vector<int8_t>{-128, -5}));
}

TEST(ElementwiseTest, NegOfZeroIsNegativeZero) {
  TensorData Out = evalOne("Neg", {tensor<float>(tensorflow::DT_FLOAT, {2}, {0.0f, -1.5f})});
  std::vector<float> V = Out.values<float>();
  EXPECT_TRUE(std::signbit(V[0]));
  EXPECT_EQ(V[1], 1.5f);
}

TEST(ElementwiseTest, DenormalsAreFlushedAsTensorFlowDoes) {
  // 1e-39 is a float denormal: TensorFlow's CPU kernels read it as zero.
  TensorData Out = evalOne("Mul", {tensor<float>(tensorflow::DT_FLOAT, {1}, {1e-39f}),
                                   tensor<float>(tensorflow::DT_FLOAT, {1}, {1.0f})});
  EXPECT_EQ(Out.values<float>()[0], 0.0f);
}

TEST(ElementwiseTest, WhatFrostCannotComputeIsUnimplemented) {
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("NoSuchOp", {})));
  absl::Status S = evalStatus("Neg", {tensor<uint8_t>(tensorflow::DT_UINT8, {1}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "Neg: no kernel for dtype uint8");
}

TEST(ElementwiseTest, IdentityPassesStringsThrough) {
  TensorData S = TensorData::strings(tensorflow::DT_STRING, {2}, {"a", "bc"});
  TensorData Out = evalOne("Identity", {S});
  ASSERT_EQ(Out.elements().size(), 2u);
  EXPECT_EQ(Out.elements()[1], "bc");
}

} // namespace
