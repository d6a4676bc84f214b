//===- BudgetTest.cpp - What evaluating may spend --------------------------===//
//
// Work estimates are hand-computed from the shapes: a product is charged
// its multiply-adds, a convolution its input times the filter's taps per
// channel, anything else the elements it reads; a kernel's outputs are
// charged after it runs.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include "absl/strings/match.h"

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

TensorData floats(std::vector<int64_t> Shape) {
  int64_t N = 1;
  for (int64_t D : Shape)
    N *= D;
  return tensor<float>(tensorflow::DT_FLOAT, std::move(Shape),
                       std::vector<float>(static_cast<size_t>(N), 1.0f));
}

TEST(BudgetTest, EstimatesFromShapes) {
  // [2,3] x [3,4]: 2 * 3 * 4 multiply-adds; transposed right side [4,3].
  EXPECT_EQ(estimateWork("MatMul", {floats({2, 3}), floats({3, 4})}, {}), 24u);
  EXPECT_EQ(estimateWork("MatMul", {floats({2, 3}), floats({4, 3})},
                         {{"transpose_b", boolAttr(true)}}),
            24u);
  // Batched: [5,2,3] x [5,3,4] is 5 products of 24.
  EXPECT_EQ(estimateWork("BatchMatMulV2", {floats({5, 2, 3}), floats({5, 3, 4})}, {}), 120u);
  // Conv2D [1,8,8,3] with a [3,3,3,16] filter, stride 2: 192 * 144 / 4.
  EXPECT_EQ(estimateWork("Conv2D", {floats({1, 8, 8, 3}), floats({3, 3, 3, 16})},
                         {{"strides", intListAttr({1, 2, 2, 1})}}),
            192u * 144 / 4);
  // Element-wise: the elements read.
  EXPECT_EQ(estimateWork("Add", {floats({10}), floats({10})}, {}), 20u);
}

TEST(BudgetTest, ChargesEachCallAndRefusesPastTheBudget) {
  EvalBudget Budget;
  Budget.WorkLeft = 24 + 8 + 16;
  std::vector<TensorData> In = {floats({2, 3}), floats({3, 4})};
  // 24 multiply-adds, then its 8 outputs.
  ASSERT_TRUE(evaluate("MatMul", In, {}, Exactness::Bitwise, &Budget).ok());
  EXPECT_EQ(Budget.WorkLeft, 16u);
  absl::StatusOr<std::vector<TensorData>> Out =
      evaluate("MatMul", In, {}, Exactness::Bitwise, &Budget);
  EXPECT_TRUE(absl::IsResourceExhausted(Out.status())) << Out.status();
  EXPECT_EQ(Out.status().message(), "MatMul needs about 24 units of work (elements and "
                                    "multiply-adds), more than the 16 left of the evaluation "
                                    "budget");
  EXPECT_EQ(Budget.WorkLeft, 16u);
}

TEST(BudgetTest, RefusesAnOutputOverTheTensorLimitBeforeMakingIt) {
  EvalBudget Budget;
  Budget.MaxTensorBytes = 1000;
  // Fill [1000] float: 4000 bytes.
  TensorData Dims = tensor<int32_t>(tensorflow::DT_INT32, {1}, {1000});
  TensorData Value = tensor<float>(tensorflow::DT_FLOAT, {}, {0.5f});
  absl::StatusOr<std::vector<TensorData>> Out =
      evaluate("Fill", {Dims, Value}, {}, Exactness::Bitwise, &Budget);
  EXPECT_TRUE(absl::IsResourceExhausted(Out.status())) << Out.status();
  EXPECT_EQ(Out.status().message(),
            "Fill: an output of shape [1000] would take 3.9 KiB, over the limit of 1000 bytes "
            "per tensor");
  // Without a budget, the same call runs.
  EXPECT_TRUE(evaluate("Fill", {Dims, Value}, {}).ok());
}

TEST(BudgetTest, ChargesARegularExpressionItsSteps) {
  // RE2 is linear in the text, times the pattern's compiled size: ten
  // 1000-character windows with a group step 80,000 instructions per byte
  // (41 s over 50,000 bytes, measured), far over the default budget; \s+ on
  // the same text is cheap.
  std::vector<TensorData> Text = {
      TensorData::strings(tensorflow::DT_STRING, {1}, {std::string(50000, 'a')})};
  std::string Windows;
  for (int I = 0; I < 10; ++I)
    Windows += ".{1000}";
  AttrMap Attrs = {{"pattern", stringAttr("(" + Windows + ")")},
                   {"rewrite", stringAttr("\\1x")},
                   {"replace_global", boolAttr(true)}};
  EvalBudget Budget;
  absl::StatusOr<std::vector<TensorData>> Out =
      evaluate("StaticRegexReplace", Text, Attrs, Exactness::Bitwise, &Budget);
  EXPECT_TRUE(absl::IsResourceExhausted(Out.status())) << Out.status();
  EXPECT_TRUE(absl::StartsWith(Out.status().message(), "StaticRegexReplace needs about "))
      << Out.status();
  EXPECT_EQ(Budget.Exceeded, EvalBudget::Limit::Work);
  Attrs["pattern"] = stringAttr("\\s+");
  EvalBudget Fresh;
  EXPECT_TRUE(evaluate("StaticRegexReplace", Text, Attrs, Exactness::Bitwise, &Fresh).ok());
}

} // namespace
