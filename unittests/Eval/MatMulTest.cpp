//===- MatMulTest.cpp - Matrix products, hand-checked ---------------------===//
//
// Expected values are hand-computed or were printed by TensorFlow 2.21.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

using Shape = std::vector<int64_t>;

Shape shapeOf(const TensorData &T) { return Shape(T.shape().begin(), T.shape().end()); }


TensorData floats(Shape S, std::vector<float> V) {
  return tensor<float>(tensorflow::DT_FLOAT, std::move(S), std::move(V));
}

// A = [[0,1,2],[3,4,5]].
const TensorData A = floats({2, 3}, {0, 1, 2, 3, 4, 5});
const TensorData ATransposed = floats({3, 2}, {0, 3, 1, 4, 2, 5});

TEST(MatMulTest, TransposesAsAttributesSay) {
  TensorData Out = evalOne("MatMul", {A, ATransposed});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 14, 14, 50}));
  Out = evalOne("MatMul", {A, A}, {{"transpose_b", boolAttr(true)}});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 14, 14, 50}));
  Out = evalOne("MatMul", {A, A}, {{"transpose_a", boolAttr(true)}});
  EXPECT_EQ(shapeOf(Out), (Shape{3, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{9, 12, 15, 12, 17, 22, 15, 22, 29}));
  Out = evalOne("MatMul", {ATransposed, A},
                {{"transpose_a", boolAttr(true)}, {"transpose_b", boolAttr(true)}});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 14, 14, 50}));
}

TEST(MatMulTest, EveryRegisteredDtype) {
  auto Check = [](auto Tag, tensorflow::DataType DT) {
    using T = decltype(Tag);
    std::vector<T> X{T(0), T(1), T(2), T(3), T(4), T(5)};
    std::vector<T> Y{T(0), T(3), T(1), T(4), T(2), T(5)};
    TensorData Out = evalOne("MatMul", {tensor<T>(DT, {2, 3}, X), tensor<T>(DT, {3, 2}, Y)});
    EXPECT_EQ(Out.dtype(), DT);
    EXPECT_EQ(Out.values<T>(), (std::vector<T>{T(5), T(14), T(14), T(50)}));
  };
  Check(double(), tensorflow::DT_DOUBLE);
  Check(Eigen::half(), tensorflow::DT_HALF);
  Check(Eigen::bfloat16(), tensorflow::DT_BFLOAT16);
  Check(int32_t(), tensorflow::DT_INT32);
  Check(int64_t(), tensorflow::DT_INT64);
  absl::Status S = evalStatus("MatMul", {tensor<int16_t>(tensorflow::DT_INT16, {1, 1}, {1}),
                                         tensor<int16_t>(tensorflow::DT_INT16, {1, 1}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S));
  EXPECT_EQ(S.message(), "MatMul: no kernel for dtype int16");
}

TEST(MatMulTest, ErrorsAsTensorFlowSaysThem) {
  absl::Status S = evalStatus("MatMul", {A, A});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "MatMul: Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]");
  S = evalStatus("MatMul", {floats({2}, {1, 2}), A});
  EXPECT_EQ(S.message(), "MatMul: In[0] and In[1] has different ndims: [2] vs. [2,3]");
  S = evalStatus("MatMul", {floats({1, 2, 3}, {0, 1, 2, 3, 4, 5}), floats({1, 3, 1}, {1, 1, 1})});
  EXPECT_EQ(S.message(), "MatMul: In[0] and In[1] ndims must be == 2: 3");
  S = evalStatus("MatMul", {A, tensor<double>(tensorflow::DT_DOUBLE, {3, 1}, {1, 1, 1})});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "MatMul: inputs of different dtypes: float and double");
}

TEST(MatMulTest, EmptyProducts) {
  // An empty inner dimension gives zeros, an empty outer one nothing.
  TensorData Out = evalOne("MatMul", {floats({2, 0}, {}), floats({0, 3}, {})});
  EXPECT_EQ(Out.values<float>(), std::vector<float>(6, 0));
  Out = evalOne("MatMul", {floats({0, 2}, {}), floats({2, 3}, {1, 1, 1, 1, 1, 1})});
  EXPECT_EQ(shapeOf(Out), (Shape{0, 3}));
  Out = evalOne("BatchMatMulV2", {floats({0, 2, 3}, {}), ATransposed});
  EXPECT_EQ(shapeOf(Out), (Shape{0, 2, 2}));
}

TEST(MatMulTest, IntegersWrap) {
  // TensorFlow: 2^30 * 2 + 2^30 * 2 = 2^32 wraps to 0; int16 300*300*3 to 7856.
  int32_t P30 = 1 << 30;
  TensorData Out = evalOne("MatMul", {tensor<int32_t>(tensorflow::DT_INT32, {1, 2}, {P30, P30}),
                                      tensor<int32_t>(tensorflow::DT_INT32, {2, 1}, {2, 2})});
  EXPECT_EQ(Out.values<int32_t>(), std::vector<int32_t>{0});
  Out = evalOne("BatchMatMulV2", {tensor<int16_t>(tensorflow::DT_INT16, {1, 3}, {300, 300, 300}),
                                  tensor<int16_t>(tensorflow::DT_INT16, {3, 1}, {300, 300, 300})});
  EXPECT_EQ(Out.values<int16_t>(), std::vector<int16_t>{7856});
}

TEST(MatMulTest, HalfAndBFloat16AreMultipliedInFloat) {
  // TensorFlow: 5000 half products of 1 sum to 5000 (in half it would stop
  // at 2048), 1000 bfloat16 ones to 1000.
  std::vector<Eigen::half> Halves(5000, Eigen::half(1));
  TensorData Out = evalOne("MatMul", {tensor<Eigen::half>(tensorflow::DT_HALF, {1, 5000}, Halves),
                                      tensor<Eigen::half>(tensorflow::DT_HALF, {5000, 1}, Halves)});
  EXPECT_EQ(static_cast<float>(Out.values<Eigen::half>()[0]), 5000.0f);
  using BF16 = Eigen::bfloat16;
  std::vector<BF16> Ones(1000, BF16(1));
  Out = evalOne("MatMul", {tensor<BF16>(tensorflow::DT_BFLOAT16, {1, 1000}, Ones),
                           tensor<BF16>(tensorflow::DT_BFLOAT16, {1000, 1}, Ones)});
  EXPECT_EQ(static_cast<float>(Out.values<BF16>()[0]), 1000.0f);
  // The float result is truncated to bfloat16: 1 + 0.01171875 gives
  // 1.0078125 (rounding would give 1.015625).
  Out = evalOne("MatMul",
                {tensor<BF16>(tensorflow::DT_BFLOAT16, {1, 2}, {BF16(1), BF16(1)}),
                 tensor<BF16>(tensorflow::DT_BFLOAT16, {2, 1}, {BF16(1), BF16(0.01171875f)})});
  EXPECT_EQ(static_cast<float>(Out.values<BF16>()[0]), 1.0078125f);
}

TEST(MatMulTest, NaNAndInfinity) {
  TensorData Out = evalOne("MatMul", {floats({1, 2}, {std::numeric_limits<float>::infinity(), 1}),
                                      floats({2, 1}, {0, 1})});
  EXPECT_TRUE(std::isnan(Out.values<float>()[0]));
}

TEST(MatMulTest, BatchMatMulV2BroadcastsBatchDimensions) {
  // X: [2,1,1,2] batches x0 = [[1,2]], x1 = [[3,4]]; Y: [3,2,1] batches
  // y_j = [[j],[1]]. Out[i][j] = x_i . y_j.
  TensorData X = floats({2, 1, 1, 2}, {1, 2, 3, 4});
  TensorData Y = floats({3, 2, 1}, {0, 1, 1, 1, 2, 1});
  TensorData Out = evalOne("BatchMatMulV2", {X, Y});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 3, 1, 1}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 3, 4, 4, 7, 10}));
  // adj_x and adj_y transpose the matrices.
  Out = evalOne("BatchMatMulV2", {floats({1, 2, 1}, {1, 2}), floats({1, 2}, {3, 4})},
                {{"adj_x", boolAttr(true)}, {"adj_y", boolAttr(true)}});
  EXPECT_EQ(Out.values<float>(), std::vector<float>{11});
}

TEST(MatMulTest, BatchErrorsAsTensorFlowSaysThem) {
  absl::Status S = evalStatus("BatchMatMulV2", {floats({3}, {1, 1, 1}), ATransposed});
  EXPECT_EQ(S.message(), "BatchMatMulV2: In[0] ndims must be >= 2: 1");
  S = evalStatus("BatchMatMulV2", {A, floats({3}, {1, 1, 1})});
  EXPECT_EQ(S.message(), "BatchMatMulV2: In[1] ndims must be >= 2: 1");
  S = evalStatus("BatchMatMulV2", {floats({2, 2, 3}, std::vector<float>(12, 1)),
                                   floats({3, 3, 2}, std::vector<float>(18, 1))});
  EXPECT_EQ(S.message(), "BatchMatMulV2: In[0] and In[1] must have compatible batch dimensions: "
                         "[2,2,3] vs. [3,3,2]");
  S = evalStatus("BatchMatMulV2", {floats({2, 2, 3}, std::vector<float>(12, 1)),
                                   floats({2, 2, 3}, std::vector<float>(12, 1))});
  EXPECT_EQ(S.message(), "BatchMatMulV2: Matrix size-incompatible: In[0]: "
                         "[2,2,3], In[1]: [2,2,3]");
  // BatchMatMul does not broadcast.
  S = evalStatus("BatchMatMul", {floats({2, 2, 3}, std::vector<float>(12, 1)),
                                 floats({1, 3, 2}, std::vector<float>(6, 1))});
  EXPECT_EQ(S.message(), "BatchMatMul: In[0].dim(0) and In[1].dim(0) must be the same: "
                         "[2,2,3] vs [1,3,2]");
  S = evalStatus("BatchMatMul", {floats({3}, {1, 1, 1}), floats({3}, {1, 1, 1})});
  EXPECT_EQ(S.message(), "BatchMatMul: In[0] and In[1] ndims must be >= 2: 1");
  S = evalStatus("BatchMatMul", {floats({2, 2, 3}, std::vector<float>(12, 1)), ATransposed});
  EXPECT_EQ(S.message(), "BatchMatMul: In[0] and In[1] has different ndims: [2,2,3] vs. [3,2]");
}

TEST(MatMulTest, HugeProductsAreNotEvaluated) {
  // [2^16,1] x [1,2^16]: 2^32 output elements.
  TensorData Column = floats({1 << 16, 1}, std::vector<float>(1 << 16, 1));
  absl::Status S = evalStatus("MatMul", {Column, Column}, {{"transpose_b", boolAttr(true)}});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
}

TEST(MatMulTest, BatchMatMulV3MixesTypes) {
  auto V3 = [](tensorflow::DataType Ta, tensorflow::DataType Tb, tensorflow::DataType Tout) {
    return AttrMap{{"Ta", typeAttr(Ta)}, {"Tb", typeAttr(Tb)}, {"Tout", typeAttr(Tout)}};
  };
  // int8 x uint8 into int32: -128 * 255 * 2 = -65280.
  TensorData Out = evalOne("BatchMatMulV3",
                           {tensor<int8_t>(tensorflow::DT_INT8, {1, 2}, {-128, -128}),
                            tensor<uint8_t>(tensorflow::DT_UINT8, {2, 1}, {255, 255})},
                           V3(tensorflow::DT_INT8, tensorflow::DT_UINT8, tensorflow::DT_INT32));
  EXPECT_EQ(Out.dtype(), tensorflow::DT_INT32);
  EXPECT_EQ(Out.values<int32_t>(), std::vector<int32_t>{-65280});
  Out = evalOne("BatchMatMulV3", {A, ATransposed},
                V3(tensorflow::DT_FLOAT, tensorflow::DT_FLOAT, tensorflow::DT_FLOAT));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 14, 14, 50}));
  // TensorFlow adds bfloat16 x int8 products in bfloat16: 1000 ones sum to
  // 256.
  using BF16 = Eigen::bfloat16;
  Out = evalOne("BatchMatMulV3",
                {tensor<BF16>(tensorflow::DT_BFLOAT16, {1, 1000}, std::vector<BF16>(1000, BF16(1))),
                 tensor<int8_t>(tensorflow::DT_INT8, {1000, 1}, std::vector<int8_t>(1000, 1))},
                V3(tensorflow::DT_BFLOAT16, tensorflow::DT_INT8, tensorflow::DT_BFLOAT16));
  EXPECT_EQ(static_cast<float>(Out.values<BF16>()[0]), 256.0f);
  absl::Status S = evalStatus("BatchMatMulV3", {A, ATransposed},
                              V3(tensorflow::DT_FLOAT, tensorflow::DT_FLOAT, tensorflow::DT_HALF));
  EXPECT_TRUE(absl::IsUnimplemented(S));
  EXPECT_EQ(S.message(), "BatchMatMulV3: no kernel for Ta=float, Tb=float, Tout=half");
  S = evalStatus("BatchMatMulV3", {A, ATransposed},
                 V3(tensorflow::DT_DOUBLE, tensorflow::DT_FLOAT, tensorflow::DT_FLOAT));
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "BatchMatMulV3: inputs of dtypes float and float do not match "
                         "Ta=double and Tb=float");
}

} // namespace
