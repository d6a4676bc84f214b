//===- ElementwiseTest.cpp - Unary, binary and select kernels, hand-checked
//===//
//
// Expected values are worked out by hand (or are TensorFlow 2.21's, where
// noted). EvalOracle.CasesFromEnvironment runs cases that
// scripts/compare_elementwise_with_tf.py generates with TensorFlow.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <complex>
#include <cstdlib>
#include <limits>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;
using tensorflow::DT_BOOL;
using tensorflow::DT_DOUBLE;
using tensorflow::DT_FLOAT;
using tensorflow::DT_HALF;
using tensorflow::DT_INT16;
using tensorflow::DT_INT32;
using tensorflow::DT_INT64;
using tensorflow::DT_INT8;
using tensorflow::DT_STRING;
using tensorflow::DT_UINT16;
using tensorflow::DT_UINT32;
using tensorflow::DT_UINT64;
using tensorflow::DT_UINT8;

namespace {

constexpr float Inf = std::numeric_limits<float>::infinity();
constexpr float NaN = std::numeric_limits<float>::quiet_NaN();

TensorData floats(std::vector<int64_t> Shape, std::vector<float> V) {
  return tensor<float>(DT_FLOAT, std::move(Shape), std::move(V));
}
TensorData floats(std::vector<float> V) {
  int64_t N = static_cast<int64_t>(V.size());
  return floats({N}, std::move(V));
}
TensorData ints(std::vector<int32_t> V) {
  int64_t N = static_cast<int64_t>(V.size());
  return tensor<int32_t>(DT_INT32, {N}, std::move(V));
}
TensorData bools(std::vector<int64_t> Shape, std::vector<uint8_t> V) {
  return tensor<uint8_t>(DT_BOOL, std::move(Shape), std::move(V));
}
TensorData strings(std::vector<int64_t> Shape, std::vector<std::string> V) {
  return TensorData::strings(DT_STRING, std::move(Shape), std::move(V));
}
std::vector<int64_t> shapeOf(const TensorData &T) {
  return std::vector<int64_t>(T.shape().begin(), T.shape().end());
}
std::vector<bool> boolsOf(const TensorData &T) {
  std::vector<bool> Out;
  for (uint8_t B : T.values<uint8_t>())
    Out.push_back(B != 0);
  return Out;
}
/// Bit patterns, so that -0.0 and NaN compare exactly.
std::vector<uint32_t> bitsOf(const std::vector<float> &V) {
  std::vector<uint32_t> Out(V.size());
  std::memcpy(Out.data(), V.data(), V.size() * 4);
  return Out;
}
AttrMap attrs(std::initializer_list<std::pair<const char *, tensorflow::AttrValue>> List) {
  AttrMap A;
  for (const auto &[Name, Value] : List)
    A[Name] = Value;
  return A;
}

void expectInvalid(const absl::Status &S, llvm::StringRef Message) {
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_EQ(S.message(), Message.str());
}

// --- Arithmetic --------------------------------------------------------------

TEST(ElementwiseTest, AddBroadcastsAsBCast) {
  // [2,3] + [3]: each row plus the vector.
  TensorData Out = evalOne("AddV2", {floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({10, 20, 30})});
  EXPECT_EQ(Out.dtype(), DT_FLOAT);
  EXPECT_EQ(shapeOf(Out), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  // [2,1] - [1,3]: both sides repeat.
  Out = evalOne("Sub", {tensor<int32_t>(DT_INT32, {2, 1}, {10, 20}),
                        tensor<int32_t>(DT_INT32, {1, 3}, {1, 2, 3})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{9, 8, 7, 19, 18, 17}));
  // A scalar against an empty tensor gives an empty tensor.
  Out = evalOne("Mul", {floats({}, {2}), floats({0, 4}, {})});
  EXPECT_EQ(Out.numElements(), 0);
  EXPECT_EQ(shapeOf(Out), (std::vector<int64_t>{0, 4}));
}

TEST(ElementwiseTest, IncompatibleShapesAsTensorFlowSaysIt) {
  expectInvalid(evalStatus("Add", {floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({1, 2})}),
                "Add: Incompatible shapes: [2,3] vs. [2]");
  expectInvalid(evalStatus("Less", {floats({1, 2}), floats({1, 2, 3})}),
                "Less: Incompatible shapes: [2] vs. [3]");
}

TEST(ElementwiseTest, MixedDtypesAreRefused) {
  EXPECT_TRUE(absl::IsInvalidArgument(evalStatus("Mul", {floats({1}), ints({1})})));
}

TEST(ElementwiseTest, SignedIntegersWrap) {
  int32_t Max = std::numeric_limits<int32_t>::max(), Min = std::numeric_limits<int32_t>::min();
  TensorData Out = evalOne("Add", {ints({Max, Min}), ints({1, -1})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{Min, Max}));
  Out = evalOne("Neg", {tensor<int8_t>(DT_INT8, {2}, {-128, 5})});
  EXPECT_EQ(Out.values<int8_t>(), (std::vector<int8_t>{-128, -5}));
  // 65536 * 65536 = 2^32 wraps to 0; (-2^31)^2 wraps to 0.
  Out = evalOne("Mul", {ints({65536, 3}), ints({65536, -5})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{0, -15}));
  // 46341^2 = 2147488281 = 2^32 - 2147479015.
  Out = evalOne("Square", {ints({Min, 46341})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{0, -2147479015}));
  Out = evalOne("Abs", {tensor<int8_t>(DT_INT8, {2}, {-128, -3})});
  EXPECT_EQ(Out.values<int8_t>(), (std::vector<int8_t>{-128, 3}));
  // (1 - (-1))^2 in int64 and 2^32 squared wrapping to 0.
  Out = evalOne("SquaredDifference", {tensor<int64_t>(DT_INT64, {2}, {1, int64_t(1) << 32}),
                                      tensor<int64_t>(DT_INT64, {2}, {-1, 0})});
  EXPECT_EQ(Out.values<int64_t>(), (std::vector<int64_t>{4, 0}));
}

TEST(ElementwiseTest, UnsignedArithmeticIsModular) {
  TensorData Out = evalOne(
      "Sub", {tensor<uint8_t>(DT_UINT8, {2}, {1, 200}), tensor<uint8_t>(DT_UINT8, {2}, {2, 100})});
  EXPECT_EQ(Out.values<uint8_t>(), (std::vector<uint8_t>{255, 100}));
}

TEST(ElementwiseTest, AddDtypesAsTensorFlowRegisters) {
  // Add has no uint16/32/64 kernel (AddV2 has); AddV2 has no string one.
  TensorData U32 = tensor<uint32_t>(DT_UINT32, {1}, {7});
  absl::Status S = evalStatus("Add", {U32, U32});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "Add: no kernel for dtype uint32");
  EXPECT_EQ(evalOne("AddV2", {U32, U32}).values<uint32_t>(), (std::vector<uint32_t>{14}));
  TensorData Str = strings({1}, {"a"});
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("AddV2", {Str, Str})));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Sub", {Str, Str})));
}

TEST(ElementwiseTest, AddNAddsInTensorFlowsGroups) {
  // 1 + 1e8 - 1e8 is 0 added left to right (1e8 + 1 rounds to 1e8) but 1
  // in TensorFlow's order: of 10 inputs, the first 2 into the output, then
  // the group of the other 8 (1e8 - 1e8 + 0 ...) added to it.
  std::vector<TensorData> Ten(10, floats({0}));
  Ten[0] = floats({1});
  Ten[2] = floats({1e8f});
  Ten[3] = floats({-1e8f});
  EXPECT_EQ(evalOne("AddN", Ten).values<float>(), (std::vector<float>{1}));
  // Of 9 inputs, all 9 left to right: (1 + 1e8) - 1e8 = 0.
  Ten.pop_back();
  Ten[1] = Ten[2];
  Ten[2] = floats({0});
  EXPECT_EQ(evalOne("AddN", Ten).values<float>(), (std::vector<float>{0}));
  // Of 3 inputs: left to right, as given.
  TensorData Out = evalOne("AddN", {floats({2}, {1e8f, 1e8f}), floats({2}, {1, -1e8f}),
                                    floats({2}, {-1e8f, 1})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{0, 1}));
  EXPECT_EQ(shapeOf(Out), (std::vector<int64_t>{2}));
}

TEST(ElementwiseTest, AddNDtypesAndErrors) {
  // One input passes through; integers wrap; complex parts add apart.
  EXPECT_EQ(evalOne("AddN", {ints({7})}).values<int32_t>(), (std::vector<int32_t>{7}));
  int32_t Max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(evalOne("AddN", {ints({Max}), ints({1}), ints({1})}).values<int32_t>(),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min() + 1}));
  TensorData C = tensor<float>(tensorflow::DT_COMPLEX64, {1}, {1, 2});
  TensorData Sum = evalOne("AddN", {C, C, C});
  EXPECT_EQ(Sum.dtype(), tensorflow::DT_COMPLEX64);
  EXPECT_EQ(shapeOf(Sum), (std::vector<int64_t>{1}));
  EXPECT_EQ(Sum.values<std::complex<float>>(), (std::vector<std::complex<float>>{{3, 6}}));
  EXPECT_EQ(evalOne("AddN", {floats({0, 3}, {}), floats({0, 3}, {})}).numElements(), 0);
  expectInvalid(evalStatus("AddN", {floats({1, 2}), floats({1, 2}), floats({1, 2}, {1, 2})}),
                "AddN: Inputs to operation AddN of type AddN must have the same size and "
                "shape.  Input 0: [2] != input 2: [1,2]");
  expectInvalid(evalStatus("AddN", {floats({1}), ints({1})}),
                "AddN: inputs of different dtypes: float and int32");
  expectInvalid(evalStatus("AddN", {}), "AddN: expected at least 1 input, got 0");
  absl::Status S = evalStatus("AddN", {bools({1}, {1}), bools({1}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("AddN", {strings({1}, {"a"})})));
}

TEST(ElementwiseTest, AddConcatenatesStrings) {
  TensorData Out = evalOne("Add", {strings({2}, {"a", "b"}), strings({}, {"c"})});
  EXPECT_EQ(Out.dtype(), DT_STRING);
  EXPECT_EQ(shapeOf(Out), (std::vector<int64_t>{2}));
  EXPECT_EQ(Out.elements().vec(), (std::vector<std::string>{"ac", "bc"}));
  expectInvalid(evalStatus("Add", {strings({2}, {"a", "b"}), strings({3}, {"c", "d", "e"})}),
                "Add: Incompatible shapes: [2] vs. [3]");
}

TEST(ElementwiseTest, HalfArithmeticRoundsOnce) {
  // 2049 is not a half: 2048 + 1 rounds to even (2048), 2048 + 3 to 2052.
  TensorData X = tensor<Eigen::half>(DT_HALF, {2}, {Eigen::half(2048), Eigen::half(2048)});
  TensorData Y = tensor<Eigen::half>(DT_HALF, {2}, {Eigen::half(1), Eigen::half(3)});
  std::vector<Eigen::half> Out = evalOne("AddV2", {X, Y}).values<Eigen::half>();
  EXPECT_EQ(static_cast<float>(Out[0]), 2048.0f);
  EXPECT_EQ(static_cast<float>(Out[1]), 2052.0f);
}

TEST(ElementwiseTest, NegOfZeroIsNegativeZero) {
  std::vector<float> V = evalOne("Neg", {floats({0.0f, -1.5f})}).values<float>();
  EXPECT_TRUE(std::signbit(V[0]));
  EXPECT_EQ(V[1], 1.5f);
}

TEST(ElementwiseTest, DenormalsAreFlushedAsTensorFlowDoes) {
  // 1e-39 is a float denormal: TensorFlow's CPU kernels read it as zero.
  TensorData Out = evalOne("Mul", {floats({1e-39f}), floats({1.0f})});
  EXPECT_EQ(Out.values<float>()[0], 0.0f);
}

// --- Division
// ------------------------------------------------------------------

TEST(ElementwiseTest, IntegerDivisionTruncatesAndFloors) {
  TensorData X = ints({7, -7, 7, -7, std::numeric_limits<int32_t>::min()});
  TensorData Y = ints({2, 2, -2, -2, -1});
  int32_t Min = std::numeric_limits<int32_t>::min();
  EXPECT_EQ(evalOne("Div", {X, Y}).values<int32_t>(), (std::vector<int32_t>{3, -3, -3, 3, Min}));
  EXPECT_EQ(evalOne("TruncateDiv", {X, Y}).values<int32_t>(),
            (std::vector<int32_t>{3, -3, -3, 3, Min}));
  EXPECT_EQ(evalOne("FloorDiv", {X, Y}).values<int32_t>(),
            (std::vector<int32_t>{3, -4, -4, 3, Min}));
  // The remainder takes the divisor's sign; INT_MIN mod -1 is 0.
  EXPECT_EQ(evalOne("FloorMod", {X, Y}).values<int32_t>(), (std::vector<int32_t>{1, 1, -1, -1, 0}));
  EXPECT_EQ(evalOne("TruncateMod", {X, Y}).values<int32_t>(),
            (std::vector<int32_t>{1, -1, 1, -1, 0}));
  // Unsigned: plain division.
  TensorData U = tensor<uint8_t>(DT_UINT8, {1}, {255}), V = tensor<uint8_t>(DT_UINT8, {1}, {7});
  EXPECT_EQ(evalOne("FloorDiv", {U, V}).values<uint8_t>(), (std::vector<uint8_t>{36}));
  EXPECT_EQ(evalOne("FloorMod", {U, V}).values<uint8_t>(), (std::vector<uint8_t>{3}));
}

TEST(ElementwiseTest, IntegerDivisionByZeroIsTensorFlowsError) {
  for (const char *Op : {"Div", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod"})
    expectInvalid(evalStatus(Op, {ints({1, 2}), ints({1, 0})}),
                  std::string(Op) + ": Integer division by zero");
  expectInvalid(
      evalStatus("Div", {tensor<uint8_t>(DT_UINT8, {1}, {1}), tensor<uint8_t>(DT_UINT8, {1}, {0})}),
      "Div: Integer division by zero");
}

TEST(ElementwiseTest, FloatDivisionFollowsIEEE) {
  std::vector<float> Out =
      evalOne("RealDiv", {floats({1, -1, 0, 1}), floats({0, 0, 0, Inf})}).values<float>();
  EXPECT_EQ(Out[0], Inf);
  EXPECT_EQ(Out[1], -Inf);
  EXPECT_TRUE(std::isnan(Out[2]));
  EXPECT_EQ(Out[3], 0.0f);
  // FloorDiv of floats is floor(x / y); TensorFlow 2.21: [inf, -inf, 0, nan].
  Out = evalOne("FloorDiv", {floats({5, -5, 1, 0}), floats({0, 0, Inf, 0})}).values<float>();
  EXPECT_EQ(Out[0], Inf);
  EXPECT_EQ(Out[1], -Inf);
  EXPECT_EQ(Out[2], 0.0f);
  EXPECT_TRUE(std::isnan(Out[3]));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("RealDiv", {ints({1}), ints({1})})));
}

TEST(ElementwiseTest, FloatFloorModTakesTheDivisorsSign) {
  // TensorFlow 2.21: [2, 1, -1, -2, 0, -0, 1, nan]; -6 mod 3 is -0.
  std::vector<float> Out = evalOne("FloorMod", {floats({5, -5, 5, -5, 0, -0.0f, 1, Inf}),
                                                floats({3, 3, -3, -3, 3, 3, Inf, 2})})
                               .values<float>();
  EXPECT_EQ(bitsOf(std::vector<float>(Out.begin(), Out.begin() + 7)),
            bitsOf({2, 1, -1, -2, 0, -0.0f, 1}));
  EXPECT_TRUE(std::isnan(Out[7]));
  Out = evalOne("FloorMod", {floats({-6, 6}), floats({3, -3})}).values<float>();
  EXPECT_EQ(bitsOf(Out), bitsOf({-0.0f, 0.0f}));
}

TEST(ElementwiseTest, PowOfIntegersRefusesNegativeExponents) {
  // 3^40 and (-3)^41 wrap modulo 2^32 (TensorFlow 2.21's values); 2^31 is
  // INT_MIN.
  EXPECT_EQ(
      evalOne("Pow", {ints({3, -3, 2, 5, 0}), ints({40, 41, 31, 0, 0})}).values<int32_t>(),
      (std::vector<int32_t>{689956897, -2069870691, std::numeric_limits<int32_t>::min(), 1, 1}));
  expectInvalid(evalStatus("Pow", {ints({2, 2}), ints({1, -1})}),
                "Pow: Integers to negative integer powers are not allowed");
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus(
      "Pow", {tensor<uint8_t>(DT_UINT8, {1}, {2}), tensor<uint8_t>(DT_UINT8, {1}, {2})})));
  std::vector<float> F =
      evalOne("Pow", {floats({2, 4, -8, 0}), floats({10, 0.5f, 2, -1})}).values<float>();
  EXPECT_EQ(F, (std::vector<float>{1024, 2, 64, Inf}));
}

// --- Maximum, minimum and activations
// ------------------------------------------

TEST(ElementwiseTest, MaximumAndMinimumPropagateNaN) {
  // TensorFlow 2.21: max/min(nan, 1) = max/min(1, nan) = nan; equal zeros
  // keep the first operand.
  TensorData X = floats({NaN, 1, -0.0f, 0.0f}), Y = floats({1, NaN, 0.0f, -0.0f});
  for (const char *Op : {"Maximum", "Minimum"}) {
    std::vector<float> Out = evalOne(Op, {X, Y}).values<float>();
    EXPECT_TRUE(std::isnan(Out[0]) && std::isnan(Out[1])) << Op;
    EXPECT_TRUE(std::signbit(Out[2])) << Op;
    EXPECT_FALSE(std::signbit(Out[3])) << Op;
  }
  EXPECT_EQ(evalOne("Maximum", {ints({1, -5}), ints({-1, 3})}).values<int32_t>(),
            (std::vector<int32_t>{1, 3}));
  EXPECT_EQ(evalOne("Minimum", {ints({1, -5}), ints({-1, 3})}).values<int32_t>(),
            (std::vector<int32_t>{-1, -5}));
}

TEST(ElementwiseTest, ReluKeepsNaNAndNegativeZero) {
  // TensorFlow 2.21: relu([nan, -0, -1, 2]) = [nan, -0, 0, 2].
  std::vector<float> Out = evalOne("Relu", {floats({NaN, -0.0f, -1, 2})}).values<float>();
  EXPECT_TRUE(std::isnan(Out[0]));
  EXPECT_EQ(bitsOf({Out[1], Out[2], Out[3]}), bitsOf({-0.0f, 0.0f, 2}));
  Out = evalOne("Relu6", {floats({NaN, -0.0f, 7, 2})}).values<float>();
  EXPECT_TRUE(std::isnan(Out[0]));
  EXPECT_EQ(bitsOf({Out[1], Out[2], Out[3]}), bitsOf({-0.0f, 6, 2}));
  EXPECT_EQ(evalOne("Relu6", {tensor<uint8_t>(DT_UINT8, {2}, {3, 200})}).values<uint8_t>(),
            (std::vector<uint8_t>{3, 6}));
}

TEST(ElementwiseTest, LeakyReluUsesAlphaInTheInputsType) {
  AttrMap Alpha = attrs({{"alpha", floatAttr(0.5f)}});
  EXPECT_EQ(evalOne("LeakyRelu", {floats({-4, 3})}, Alpha).values<float>(),
            (std::vector<float>{-2, 3}));
  // The default alpha is 0.2; for integers alpha 2.7 truncates to 2.
  EXPECT_EQ(evalOne("LeakyRelu", {floats({-10})}).values<float>(), (std::vector<float>{-2}));
  EXPECT_EQ(
      evalOne("LeakyRelu", {ints({-5, 5})}, attrs({{"alpha", floatAttr(2.7f)}})).values<int32_t>(),
      (std::vector<int32_t>{-10, 5}));
}

TEST(ElementwiseTest, EluSeluSoftplus) {
  std::vector<float> Out = evalOne("Elu", {floats({0, 2, -Inf})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0, 2, -1}));
  Out = evalOne("Selu", {floats({1, -Inf})}).values<float>();
  EXPECT_FLOAT_EQ(Out[0], 1.0507009873554805f);
  EXPECT_FLOAT_EQ(Out[1], -1.7580993408473769f);
  // Softplus: x itself above ~13.9, exp(x) below ~-13.9, log1p(exp(x)) between.
  Out = evalOne("Softplus", {floats({20, -20, 0})}).values<float>();
  EXPECT_EQ(Out[0], 20.0f);
  EXPECT_FLOAT_EQ(Out[1], std::exp(-20.0f));
  EXPECT_FLOAT_EQ(Out[2], std::log(2.0f));
}

// --- Unary math
// --------------------------------------------------------------------

TEST(ElementwiseTest, TranscendentalFunctionsAtSpecialValues) {
  TensorData X = floats({0, 1, -Inf, Inf});
  std::vector<float> Out = evalOne("Exp", {X}).values<float>();
  EXPECT_EQ(Out[0], 1.0f);
  EXPECT_FLOAT_EQ(Out[1], 2.7182817f);
  EXPECT_EQ(Out[2], 0.0f);
  EXPECT_EQ(Out[3], Inf);
  Out = evalOne("Tanh", {X}).values<float>();
  EXPECT_EQ(Out[0], 0.0f);
  EXPECT_FLOAT_EQ(Out[1], 0.7615942f);
  EXPECT_EQ(Out[2], -1.0f);
  EXPECT_EQ(Out[3], 1.0f);
  Out = evalOne("Sigmoid", {X}).values<float>();
  EXPECT_EQ(Out[0], 0.5f);
  EXPECT_FLOAT_EQ(Out[1], 0.7310586f);
  EXPECT_EQ(Out[2], 0.0f);
  EXPECT_EQ(Out[3], 1.0f);
  Out = evalOne("Log", {floats({1, 0, -1, Inf})}).values<float>();
  EXPECT_EQ(Out[0], 0.0f);
  EXPECT_EQ(Out[1], -Inf);
  EXPECT_TRUE(std::isnan(Out[2]));
  EXPECT_EQ(Out[3], Inf);
  Out = evalOne("Sqrt", {floats({4, -0.0f, -1})}).values<float>();
  EXPECT_EQ(bitsOf({Out[0], Out[1]}), bitsOf({2, -0.0f}));
  EXPECT_TRUE(std::isnan(Out[2]));
  Out = evalOne("Rsqrt", {floats({4, 0})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0.5f, Inf}));
  Out = evalOne("Reciprocal", {floats({4, -0.0f})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0.25f, -Inf}));
  Out = evalOne("Erf", {floats({0, Inf, -Inf})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0, 1, -1}));
  Out = evalOne("Log1p", {floats({0, -1})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0, -Inf}));
  Out = evalOne("Expm1", {floats({0, -Inf})}).values<float>();
  EXPECT_EQ(Out, (std::vector<float>{0, -1}));
}

TEST(ElementwiseTest, RoundingFunctions) {
  // floor(-0.0) and ceil(-0.5) are -0.0 (TensorFlow 2.21).
  EXPECT_TRUE(std::signbit(evalOne("Floor", {floats({-0.0f})}).values<float>()[0]));
  EXPECT_TRUE(std::signbit(evalOne("Ceil", {floats({-0.5f})}).values<float>()[0]));
  // Round and Rint round half to even (TensorFlow 2.21: [0, 2, 2, -0, -2]).
  TensorData X = floats({0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 8388609.0f});
  for (const char *Op : {"Round", "Rint"})
    EXPECT_EQ(bitsOf(evalOne(Op, {X}).values<float>()), bitsOf({0, 2, 2, -0.0f, -2, 8388609.0f}))
        << Op;
  EXPECT_EQ(evalOne("Floor", {floats({-0.5f, 1.5f})}).values<float>(), (std::vector<float>{-1, 1}));
  EXPECT_EQ(evalOne("Ceil", {floats({-0.5f, 1.5f})}).values<float>(),
            (std::vector<float>{-0.0f, 2}));
  // TensorFlow 2.21's Round of integers gives 0: not folded.
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Round", {ints({7})})));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Rint", {ints({7})})));
}

TEST(ElementwiseTest, SignOfNaNIsNaN) {
  // TensorFlow 2.21: sign([nan, -0, 0, -2, inf]) = [nan, 0, 0, -1, 1].
  std::vector<float> Out = evalOne("Sign", {floats({NaN, -0.0f, 0, -2, Inf})}).values<float>();
  EXPECT_TRUE(std::isnan(Out[0]));
  EXPECT_EQ(std::vector<float>(Out.begin() + 1, Out.end()), (std::vector<float>{0, 0, -1, 1}));
  EXPECT_EQ(evalOne("Sign", {ints({-5, 0, 7})}).values<int32_t>(),
            (std::vector<int32_t>{-1, 0, 1}));
}

TEST(ElementwiseTest, Classification) {
  TensorData X = floats({NaN, Inf, -Inf, 1});
  EXPECT_EQ(boolsOf(evalOne("IsNan", {X})), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(boolsOf(evalOne("IsInf", {X})), (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(boolsOf(evalOne("IsFinite", {X})), (std::vector<bool>{false, false, false, true}));
}

TEST(ElementwiseTest, WhatFrostCannotComputeIsUnimplemented) {
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("NoSuchOp", {})));
  absl::Status S = evalStatus("Neg", {tensor<uint8_t>(DT_UINT8, {1}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "Neg: no kernel for dtype uint8");
  for (const char *Op : {"Tanh", "Sqrt", "Exp", "Floor", "IsNan"})
    EXPECT_TRUE(absl::IsUnimplemented(evalStatus(Op, {ints({1})}))) << Op;
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Abs", {tensor<uint32_t>(DT_UINT32, {1}, {1})})));
  EXPECT_TRUE(
      absl::IsUnimplemented(evalStatus("SquaredDifference", {tensor<int8_t>(DT_INT8, {1}, {1}),
                                                             tensor<int8_t>(DT_INT8, {1}, {1})})));
  TensorData Complex = TensorData::owned(tensorflow::DT_COMPLEX64, {1}, std::string(8, '\0'));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Exp", {Complex})));
  EXPECT_TRUE(absl::IsInvalidArgument(evalStatus("Exp", {floats({1}), floats({1})})));
}

TEST(ElementwiseTest, IdentityPassesStringsThrough) {
  TensorData Out = evalOne("Identity", {strings({2}, {"a", "bc"})});
  ASSERT_EQ(Out.elements().size(), 2u);
  EXPECT_EQ(Out.elements()[1], "bc");
}

// --- Comparisons and logic
// -----------------------------------------------------------

TEST(ElementwiseTest, ComparisonsGiveBools) {
  TensorData X = floats({1, 2, NaN}), Y = floats({}, {2});
  TensorData Out = evalOne("Less", {X, Y});
  EXPECT_EQ(Out.dtype(), DT_BOOL);
  EXPECT_EQ(boolsOf(Out), (std::vector<bool>{true, false, false}));
  EXPECT_EQ(boolsOf(evalOne("LessEqual", {X, Y})), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(boolsOf(evalOne("Greater", {X, Y})), (std::vector<bool>{false, false, false}));
  EXPECT_EQ(boolsOf(evalOne("GreaterEqual", {X, Y})), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(boolsOf(evalOne("Equal", {X, Y})), (std::vector<bool>{false, true, false}));
  EXPECT_EQ(boolsOf(evalOne("NotEqual", {X, Y})), (std::vector<bool>{true, false, true}));
  // -0.0 == 0.0.
  EXPECT_EQ(boolsOf(evalOne("Equal", {floats({-0.0f}), floats({0.0f})})),
            (std::vector<bool>{true}));
}

TEST(ElementwiseTest, EqualityOfStringsAndBools) {
  EXPECT_EQ(boolsOf(evalOne("Equal", {strings({2}, {"a", "b"}), strings({1}, {"a"})})),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(boolsOf(evalOne("NotEqual", {strings({2}, {"a", "b"}), strings({1}, {"a"})})),
            (std::vector<bool>{false, true}));
  // A stored 2 is true.
  EXPECT_EQ(boolsOf(evalOne("Equal", {bools({2}, {2, 0}), bools({2}, {1, 1})})),
            (std::vector<bool>{true, false}));
  EXPECT_TRUE(
      absl::IsUnimplemented(evalStatus("Less", {strings({1}, {"a"}), strings({1}, {"b"})})));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Less", {bools({1}, {0}), bools({1}, {1})})));
}

TEST(ElementwiseTest, EqualWithoutIncompatibleShapeError) {
  // TensorFlow 2.21: shapes that do not broadcast give a scalar false (true
  // for NotEqual) when incompatible_shape_error is false.
  AttrMap NoError = attrs({{"incompatible_shape_error", boolAttr(false)}});
  TensorData Out = evalOne("Equal", {floats({1, 2}), floats({1, 2, 3})}, NoError);
  EXPECT_TRUE(Out.shape().empty());
  EXPECT_EQ(boolsOf(Out), (std::vector<bool>{false}));
  EXPECT_EQ(boolsOf(evalOne("NotEqual", {floats({1, 2}), floats({1, 2, 3})}, NoError)),
            (std::vector<bool>{true}));
  // Shapes that broadcast compare as usual.
  EXPECT_EQ(boolsOf(evalOne("Equal", {floats({1, 2}), floats({1})}, NoError)),
            (std::vector<bool>{true, false}));
  expectInvalid(evalStatus("Equal", {floats({1, 2}), floats({1, 2, 3})}),
                "Equal: Incompatible shapes: [2] vs. [3]");
}

TEST(ElementwiseTest, LogicalOps) {
  TensorData X = bools({2, 2}, {0, 0, 1, 1}), Y = bools({2}, {0, 1});
  EXPECT_EQ(boolsOf(evalOne("LogicalAnd", {X, Y})), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(boolsOf(evalOne("LogicalOr", {X, Y})), (std::vector<bool>{false, true, true, true}));
  EXPECT_EQ(boolsOf(evalOne("LogicalNot", {Y})), (std::vector<bool>{true, false}));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("LogicalNot", {floats({1})})));
}

// --- BiasAdd, Select, ClipByValue
// ----------------------------------------------------

TEST(ElementwiseTest, BiasAddAlongTheChannelDimension) {
  TensorData Value = floats({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), Bias = floats({10, 20});
  EXPECT_EQ(evalOne("BiasAdd", {Value, Bias}).values<float>(),
            (std::vector<float>{10, 21, 12, 23, 14, 25, 16, 27}));
  AttrMap NCHW = attrs({{"data_format", stringAttr("NCHW")}});
  EXPECT_EQ(evalOne("BiasAdd", {Value, Bias}, NCHW).values<float>(),
            (std::vector<float>{10, 11, 22, 23, 14, 15, 26, 27}));
  // A 2-D NCHW input adds along its last dimension (TensorFlow 2.21).
  EXPECT_EQ(evalOne("BiasAdd", {floats({2, 2}, {0, 1, 2, 3}), Bias}, NCHW).values<float>(),
            (std::vector<float>{10, 21, 12, 23}));
  EXPECT_EQ(evalOne("BiasAddV1", {floats({1, 2}, {1, 1}), Bias}).values<float>(),
            (std::vector<float>{11, 21}));
  int32_t Max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(
      evalOne("BiasAdd", {tensor<int32_t>(DT_INT32, {1, 1}, {Max}), ints({1})}).values<int32_t>(),
      (std::vector<int32_t>{std::numeric_limits<int32_t>::min()}));
}

TEST(ElementwiseTest, BiasAddErrorsAsTensorFlowSaysThem) {
  expectInvalid(evalStatus("BiasAdd", {floats({1, 2}), floats({1, 2})}),
                "BiasAdd: Input tensor must be at least 2D: [2]");
  expectInvalid(
      evalStatus("BiasAdd", {floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({1, 3}, {1, 2, 3})}),
      "BiasAdd: Biases must be 1D: [1,3]");
  expectInvalid(evalStatus("BiasAdd", {floats({2, 3}, {1, 2, 3, 4, 5, 6}), floats({1, 2})}),
                "BiasAdd: Must provide as many biases as the last dimension of "
                "the input tensor: [2] vs. "
                "[2,3]");
  expectInvalid(evalStatus("BiasAdd", {floats({2, 3, 1}, {1, 2, 3, 4, 5, 6}), floats({1, 2})},
                           attrs({{"data_format", stringAttr("NCHW")}})),
                "BiasAdd: Must provide as many biases as the last dimension of the input "
                "tensor: [2] vs. [2,3,1]");
  expectInvalid(evalStatus("BiasAdd", {floats({1, 2}, {1, 2}), floats({1, 2})},
                           attrs({{"data_format", stringAttr("NHCW")}})),
                "BiasAdd: Value for attr 'data_format' of \"NHCW\" is not in "
                "the list of allowed "
                "values: \"NHWC\", \"NCHW\"");
}

TEST(ElementwiseTest, SelectAsTensorFlowOne) {
  TensorData Then = floats({2, 2}, {1, 2, 3, 4}), Else = floats({2, 2}, {5, 6, 7, 8});
  // A vector condition picks rows.
  EXPECT_EQ(evalOne("Select", {bools({2}, {1, 0}), Then, Else}).values<float>(),
            (std::vector<float>{1, 2, 7, 8}));
  EXPECT_EQ(evalOne("Select", {bools({2, 2}, {1, 0, 0, 1}), Then, Else}).values<float>(),
            (std::vector<float>{1, 6, 7, 4}));
  EXPECT_EQ(evalOne("Select", {bools({}, {0}), Then, Else}).values<float>(),
            (std::vector<float>{5, 6, 7, 8}));
  TensorData Out = evalOne("Select", {bools({1}, {1}), strings({1}, {"t"}), strings({1}, {"e"})});
  EXPECT_EQ(Out.elements().vec(), (std::vector<std::string>{"t"}));
}

// Messages and their order as TensorFlow 2.21 gives them.
TEST(ElementwiseTest, SelectErrorsAsTensorFlowSaysThem) {
  TensorData Then = floats({2, 2}, {1, 2, 3, 4}), Else = floats({2, 2}, {5, 6, 7, 8});
  expectInvalid(evalStatus("Select", {bools({1}, {1}), floats({1, 2}), floats({1, 2, 3})}),
                "Select: Inputs to operation Select of type Select must have the same size and "
                "shape.  Input 0: [1] != input 1: [2]");
  expectInvalid(evalStatus("Select", {bools({}, {1}), floats({1, 2}), floats({1, 2, 3})}),
                "Select: 'then' and 'else' must have the same size.  but "
                "received: [2] vs. [3]");
  expectInvalid(evalStatus("Select", {bools({3}, {1, 0, 1}), Then, Else}),
                "Select: Number of batches of 'then' must match size of "
                "'cond', but saw: 2 vs. 3");
  expectInvalid(evalStatus("Select", {bools({1}, {1}), floats({}, {1}), floats({}, {2})}),
                "Select: 'then' must be at least a vector, but saw shape: []");
  expectInvalid(evalStatus("Select", {bools({2, 1}, {1, 0}), Then, Else}),
                "Select: Inputs to operation Select of type Select must have the same size and "
                "shape.  Input 0: [2,1] != input 1: [2,2]");
  EXPECT_TRUE(
      absl::IsInvalidArgument(evalStatus("Select", {floats({1}), floats({1}), floats({1})})));
}

TEST(ElementwiseTest, SelectV2Broadcasts) {
  TensorData Out =
      evalOne("SelectV2", {bools({2}, {1, 0}), floats({2, 2}, {1, 2, 3, 4}), floats({}, {9})});
  EXPECT_EQ(shapeOf(Out), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 9, 3, 9}));
  expectInvalid(evalStatus("SelectV2",
                           {bools({3}, {1, 0, 1}), floats({2, 2}, {1, 2, 3, 4}), floats({}, {9})}),
                "SelectV2: condition [3], then [2,2], and else [] must be broadcastable");
}

TEST(ElementwiseTest, ClipByValue) {
  // max(min(x, hi), lo): with lo > hi everything is lo (TensorFlow 2.21).
  std::vector<float> Out =
      evalOne("ClipByValue", {floats({0, 2, 5, NaN}), floats({}, {3}), floats({}, {1})})
          .values<float>();
  EXPECT_EQ(std::vector<float>(Out.begin(), Out.begin() + 3), (std::vector<float>{3, 3, 3}));
  EXPECT_TRUE(std::isnan(Out[3]));
  EXPECT_EQ(evalOne("ClipByValue", {floats({0, 2, 5}), floats({1, 1, 1}), floats({3, 1, 4})})
                .values<float>(),
            (std::vector<float>{1, 1, 4}));
  expectInvalid(evalStatus("ClipByValue", {floats({0, 2, 5}), floats({3, 1}), floats({}, {1})}),
                "ClipByValue: clip_value_min and clip_value_max must be either "
                "of the same shape "
                "as input, or a scalar. input shape: [3]clip_value_min shape: "
                "[2]clip_value_max "
                "shape: []");
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus(
      "ClipByValue", {tensor<uint32_t>(DT_UINT32, {1}, {1}), tensor<uint32_t>(DT_UINT32, {}, {0}),
                      tensor<uint32_t>(DT_UINT32, {}, {2})})));
}

TEST(ElementwiseTest, HugeBroadcastsAreRefusedBeforeAllocating) {
  // [65536,1] + [1,65536] would be 2^32 elements from two 64 KiB inputs.
  TensorData X = TensorData::owned(DT_INT8, {65536, 1}, std::string(65536, '\0'));
  TensorData Y = TensorData::owned(DT_INT8, {1, 65536}, std::string(65536, '\0'));
  absl::Status S = evalStatus("AddV2", {X, Y});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "AddV2: an output of shape [65536,65536] is too large to evaluate");
  TensorData C = TensorData::owned(DT_BOOL, {65536, 1}, std::string(65536, '\0'));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("SelectV2", {C, Y, Y})));
}

// --- The TensorFlow comparison's entry point
// -----------------------------------------

/// Runs the cases of the JSON file named by FROST_EVAL_CASES and writes each
/// result to FROST_EVAL_RESULTS (see scripts/compare_elementwise_with_tf.py).
TEST(EvalOracle, CasesFromEnvironment) {
  const char *CasesPath = std::getenv("FROST_EVAL_CASES");
  const char *ResultsPath = std::getenv("FROST_EVAL_RESULTS");
  if (!CasesPath || !ResultsPath)
    GTEST_SKIP() << "set FROST_EVAL_CASES and FROST_EVAL_RESULTS to run";
  auto Buffer = llvm::MemoryBuffer::getFile(CasesPath);
  ASSERT_TRUE(bool(Buffer)) << CasesPath;
  llvm::Expected<llvm::json::Value> Parsed = llvm::json::parse((*Buffer)->getBuffer());
  ASSERT_TRUE(bool(Parsed)) << llvm::toString(Parsed.takeError());
  const llvm::json::Array *Cases = Parsed->getAsObject()->getArray("cases");
  ASSERT_TRUE(Cases);

  auto ReadTensor = [](const llvm::json::Object &J) {
    auto DType = static_cast<tensorflow::DataType>(*J.getInteger("dtype"));
    std::vector<int64_t> Shape;
    for (const llvm::json::Value &D : *J.getArray("shape"))
      Shape.push_back(*D.getAsInteger());
    if (DType == DT_STRING) {
      std::vector<std::string> Elements;
      for (const llvm::json::Value &S : *J.getArray("strings"))
        Elements.push_back(llvm::fromHex(*S.getAsString()));
      return TensorData::strings(DType, std::move(Shape), std::move(Elements));
    }
    return TensorData::owned(DType, std::move(Shape), llvm::fromHex(*J.getString("hex")));
  };
  auto WriteTensor = [](const TensorData &T) {
    llvm::json::Object J{{"dtype", static_cast<int64_t>(T.dtype())},
                         {"shape", llvm::json::Array(T.shape())}};
    if (T.dtype() == DT_STRING) {
      llvm::json::Array Strings;
      for (const std::string &S : T.elements())
        Strings.push_back(llvm::toHex(S, /*LowerCase=*/true));
      J["strings"] = std::move(Strings);
    } else {
      J["hex"] = llvm::toHex(T.bytes(), /*LowerCase=*/true);
    }
    return J;
  };

  llvm::json::Array Results;
  for (const llvm::json::Value &V : *Cases) {
    const llvm::json::Object &Case = *V.getAsObject();
    std::vector<TensorData> Inputs;
    for (const llvm::json::Value &I : *Case.getArray("inputs"))
      Inputs.push_back(ReadTensor(*I.getAsObject()));
    AttrMap Attrs;
    if (const llvm::json::Object *A = Case.getObject("attrs"))
      for (const auto &[Name, Value] : *A) {
        tensorflow::AttrValue Attr;
        const llvm::json::Object &Typed = *Value.getAsObject();
        if (auto T = Typed.getInteger("type"))
          Attr.set_type(static_cast<tensorflow::DataType>(*T));
        else if (auto B = Typed.getBoolean("b"))
          Attr.set_b(*B);
        else if (auto F = Typed.getNumber("f"))
          Attr.set_f(static_cast<float>(*F));
        else if (auto I = Typed.getInteger("i"))
          Attr.set_i(*I);
        else if (auto S = Typed.getString("s"))
          Attr.set_s(S->str());
        Attrs[Name.str()] = Attr;
      }
    // Run kernels (Kernels.def) are asked for by the cases of ops that have one.
    const Exactness Needed = Case.getBoolean("within_rounding").value_or(false)
                                 ? Exactness::WithinRounding
                                 : Exactness::Bitwise;
    absl::StatusOr<std::vector<TensorData>> Out =
        evaluate(*Case.getString("op"), Inputs, Attrs, Needed);
    llvm::json::Object Result;
    if (Out.ok()) {
      llvm::json::Array Outputs;
      for (const TensorData &T : *Out)
        Outputs.push_back(WriteTensor(T));
      Result["outputs"] = std::move(Outputs);
    } else {
      Result["code"] = absl::StatusCodeToString(Out.status().code());
      Result["message"] = std::string(Out.status().message());
    }
    Results.push_back(std::move(Result));
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(ResultsPath, EC);
  ASSERT_FALSE(EC) << EC.message();
  OS << llvm::json::Value(llvm::json::Object{{"results", std::move(Results)}});
}

} // namespace
