//===- TensorFlowMathTest.cpp - Packets and tails as TensorFlow computes -===//
//
// Where TensorFlow 2.21's x86 kernels give an element another value in an
// AVX packet than in the scalar tail, Frost must too: each expected value
// below is TensorFlow's, for the same input alone in a tensor (the tail)
// and repeated to fill packets. The whole range is checked against
// TensorFlow by scripts/compare_elementwise_with_tf.py (lit).
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <bit>
#include <cmath>
#include <cstring>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

/// Element 0 of `Op` on N copies of X (dtype T).
template <typename T> T firstOf(const char *Op, tensorflow::DataType DType, int64_t N, T X,
                                std::vector<TensorData> More = {}) {
  std::vector<TensorData> Inputs{tensor<T>(DType, {N}, std::vector<T>(N, X))};
  for (TensorData &M : More)
    Inputs.push_back(std::move(M));
  return evalOne(Op, Inputs).template values<T>()[0];
}

template <typename T> void expectBits(T Got, T Want, const char *What) {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  EXPECT_EQ(std::bit_cast<Bits>(Got), std::bit_cast<Bits>(Want))
      << What << ": got " << Got << ", want " << Want;
}

TEST(TensorFlowMathTest, PacketsAndTailDifferAsInTensorFlow) {
  const auto D = tensorflow::DT_DOUBLE;
  const auto F = tensorflow::DT_FLOAT;
  // Eigen's [19/18] rational tanh in packets of 4 doubles, glibc's alone.
  expectBits(firstOf("Tanh", D, 4, 3.0794078973649377), 0.9957794133217525, "tanh packet");
  expectBits(firstOf("Tanh", D, 1, 3.0794078973649377), 0.9957794133217523, "tanh tail");
  // Eigen's float logistic (exp(x/2)^2) in packets of 8, glibc's expf alone.
  expectBits(firstOf("Sigmoid", F, 8, 0.61302245f), 0.64862996f, "sigmoid packet");
  expectBits(firstOf("Sigmoid", F, 1, 0.61302245f), 0.6486299f, "sigmoid tail");
  expectBits(firstOf("Exp", D, 4, -11.663111921448177), 8.605475068079959e-06, "exp packet");
  expectBits(firstOf("Exp", D, 1, -11.663111921448177), 8.60547506807996e-06, "exp tail");
  // generic_pow's double-word log2 in packets, glibc's pow alone.
  auto Exponent = [](int64_t N) {
    return std::vector<TensorData>{
        tensor<double>(tensorflow::DT_DOUBLE, {N}, std::vector<double>(N, 0.37))};
  };
  expectBits(firstOf("Pow", D, 4, 37.99010478278556, Exponent(4)), 3.841298722423838,
             "pow packet");
  expectBits(firstOf("Pow", D, 1, 37.99010478278556, Exponent(1)), 3.8412987224238386,
             "pow tail");
}

TEST(TensorFlowMathTest, ZerosAndSubnormalsInRelu) {
  const auto F = tensorflow::DT_FLOAT;
  // vmaxps in packets: -0.0 and subnormals become +0.0; the tail keeps -0.0.
  expectBits(firstOf("Relu", F, 8, -0.0f), 0.0f, "relu packet -0");
  expectBits(firstOf("Relu", F, 1, -0.0f), -0.0f, "relu tail -0");
  expectBits(firstOf("Relu", F, 8, 1e-40f), 0.0f, "relu packet subnormal");
  expectBits(firstOf("Relu", F, 1, 1e-40f), 1e-40f, "relu lone subnormal");
  // Sign in packets: |x| where |x| > 0 fails (read as zero), so a negative
  // subnormal comes out positive.
  expectBits(firstOf("Sign", F, 8, -1e-40f), 1e-40f, "sign packet subnormal");
  expectBits(firstOf("Sign", F, 1, -1e-40f), 0.0f, "sign tail subnormal");
}

TEST(TensorFlowMathTest, EdgesOfTheApproximations) {
  const auto F = tensorflow::DT_FLOAT;
  const auto D = tensorflow::DT_DOUBLE;
  // Float erf: 0.99999964 at 3.6, exactly 1 at 3.9; double erf of inf is
  // NaN (its square overflows).
  expectBits(firstOf("Erf", F, 8, 3.6f), 0.99999964f, "erf near 1");
  expectBits(firstOf("Erf", F, 8, 3.9f), 1.0f, "erf saturates");
  EXPECT_TRUE(std::isnan(firstOf("Erf", D, 4, std::numeric_limits<double>::infinity())));
  // Float tanh is clamped where the approximation reaches 1.
  expectBits(firstOf("Tanh", F, 8, 9.0f), 1.0f, "tanh clamp");
  // TensorFlow flushes: exp of -100 is 0 in float, not a subnormal.
  expectBits(firstOf("Exp", F, 8, -100.0f), 0.0f, "exp flush");
  expectBits(firstOf("Exp", F, 1, -100.0f), 0.0f, "exp flush tail");
}

} // namespace
