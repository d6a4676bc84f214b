//===- ReductionTest.cpp - Reductions and arg-reductions, hand-checked ----===//
//
// Expected values are hand-computed or were printed by TensorFlow 2.21
// (tf.raw_ops on the CPU); scripts/compare_reduction_with_tf.py compares
// many random cases.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

using Shape = std::vector<int64_t>;
constexpr float Inf = std::numeric_limits<float>::infinity();
constexpr float NaN = std::numeric_limits<float>::quiet_NaN();

Shape shapeOf(const TensorData &T) { return Shape(T.shape().begin(), T.shape().end()); }


AttrMap keepDims(bool Keep) {
  tensorflow::AttrValue V;
  V.set_b(Keep);
  return {{"keep_dims", V}};
}

TensorData axes(std::vector<int32_t> Axes) {
  int64_t N = static_cast<int64_t>(Axes.size());
  return tensor<int32_t>(tensorflow::DT_INT32, {N}, std::move(Axes));
}

/// Bools are stored as bytes.
TensorData bools(Shape S, std::vector<uint8_t> V) {
  return tensor<uint8_t>(tensorflow::DT_BOOL, std::move(S), std::move(V));
}
using Bytes = std::vector<uint8_t>;

TensorData floats(Shape S, std::vector<float> V) {
  return tensor<float>(tensorflow::DT_FLOAT, std::move(S), std::move(V));
}

const TensorData Matrix = floats({2, 3}, {1, 2, 3, 4, 5, 6});

TEST(ReductionTest, SumAlongAxesWithAndWithoutKeepDims) {
  TensorData Out = evalOne("Sum", {Matrix, axes({1})});
  EXPECT_EQ(shapeOf(Out), Shape{2});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{6, 15}));
  Out = evalOne("Sum", {Matrix, axes({1})}, keepDims(true));
  EXPECT_EQ(shapeOf(Out), (Shape{2, 1}));
  // A negative axis counts from the end; an int64 scalar axis works too.
  Out = evalOne("Sum", {Matrix, tensor<int64_t>(tensorflow::DT_INT64, {}, {-2})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 7, 9}));
  Out = evalOne("Sum", {Matrix, axes({0, 1})}, keepDims(true));
  EXPECT_EQ(shapeOf(Out), (Shape{1, 1}));
  EXPECT_EQ(Out.values<float>(), std::vector<float>{21});
  // TensorFlow reads any shape of indices as a list: [[1]] is axis 1.
  Out = evalOne("Sum", {Matrix, tensor<int32_t>(tensorflow::DT_INT32, {1, 1}, {1})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{6, 15}));
}

TEST(ReductionTest, NoAxesReturnsTheInput) {
  TensorData Out = evalOne("Sum", {Matrix, axes({})}, keepDims(true));
  EXPECT_EQ(shapeOf(Out), (Shape{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Out = evalOne("Max", {floats({}, {3}), axes({})});
  EXPECT_EQ(shapeOf(Out), Shape{});
  EXPECT_EQ(Out.values<float>(), std::vector<float>{3});
  // Reducing size-1 dimensions only reshapes.
  Out = evalOne("Prod", {floats({1, 2}, {2, 3}), axes({0})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 3}));
}

TEST(ReductionTest, BadAxesAsTensorFlowSaysIt) {
  absl::Status S = evalStatus("Sum", {Matrix, axes({2})});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "Sum: Invalid reduction dimension (2 for input with 2 dimension(s)");
  S = evalStatus("Mean", {Matrix, axes({-3})});
  EXPECT_EQ(S.message(), "Mean: Invalid reduction dimension (-3 for input with 2 dimension(s)");
  S = evalStatus("Max", {floats({}, {3}), axes({0})});
  EXPECT_EQ(S.message(), "Max: Invalid reduction dimension (0 for input with 0 dimension(s)");
  S = evalStatus("Sum", {Matrix, axes({1, -1})});
  EXPECT_EQ(S.message(), "Sum: Invalid reduction arguments: Axes contains duplicate dimension: 1");
  S = evalStatus("Sum", {Matrix, floats({1}, {1})});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "Sum: reduction indices must be int32 or int64, got float");
  EXPECT_TRUE(absl::IsInvalidArgument(evalStatus("Sum", {Matrix})));
}

TEST(ReductionTest, UnregisteredDtypesAreUnimplemented) {
  TensorData Bools = bools({1}, {1});
  absl::Status S = evalStatus("Sum", {Bools, axes({0})});
  EXPECT_TRUE(absl::IsUnimplemented(S));
  EXPECT_EQ(S.message(), "Sum: no kernel for dtype bool");
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("Max", {Bools, axes({0})})));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("All", {Matrix, axes({0})})));
}

TEST(ReductionTest, EmptyReductionsGiveTheIdentity) {
  // TensorFlow: reducing [0,3] along axis 0 fills [3] with the identity.
  TensorData Empty = floats({0, 3}, {});
  auto Reduce = [&](llvm::StringRef Op, const TensorData &In) {
    return evalOne(Op, {In, axes({0})});
  };
  EXPECT_EQ(Reduce("Max", Empty).values<float>(), (std::vector<float>(3, -Inf)));
  EXPECT_EQ(Reduce("Min", Empty).values<float>(), (std::vector<float>(3, Inf)));
  EXPECT_EQ(Reduce("Sum", Empty).values<float>(), (std::vector<float>(3, 0)));
  EXPECT_EQ(Reduce("Prod", Empty).values<float>(), (std::vector<float>(3, 1)));
  for (float V : Reduce("Mean", Empty).values<float>())
    EXPECT_TRUE(std::isnan(V));
  TensorData EmptyInts = tensor<int32_t>(tensorflow::DT_INT32, {0, 3}, {});
  EXPECT_EQ(Reduce("Max", EmptyInts).values<int32_t>(),
            (std::vector<int32_t>(3, std::numeric_limits<int32_t>::min())));
  EXPECT_EQ(Reduce("Mean", EmptyInts).values<int32_t>(), (std::vector<int32_t>(3, 0)));
  EXPECT_EQ(Reduce("Min", tensor<uint8_t>(tensorflow::DT_UINT8, {0, 3}, {})).values<uint8_t>(),
            (std::vector<uint8_t>(3, 255)));
  TensorData Halves = Reduce("Max", tensor<Eigen::half>(tensorflow::DT_HALF, {0, 3}, {}));
  EXPECT_TRUE(Eigen::numext::isinf(Halves.values<Eigen::half>()[0]));
  TensorData EmptyBools = bools({0, 2}, {});
  EXPECT_EQ(Reduce("All", EmptyBools).values<uint8_t>(), (Bytes{1, 1}));
  EXPECT_EQ(Reduce("Any", EmptyBools).values<uint8_t>(), (Bytes{0, 0}));
  // An empty output stays empty.
  EXPECT_EQ(shapeOf(evalOne("Mean", {EmptyInts, axes({1})})), Shape{0});
}

TEST(ReductionTest, MeanOfIntegersDividesAsTensorFlow) {
  auto Mean = [](tensorflow::DataType DT, auto Values) {
    using T = typename decltype(Values)::value_type;
    int64_t N = static_cast<int64_t>(Values.size());
    return evalOne("Mean", {tensor<T>(DT, {N}, Values), axes({0})}).template values<T>()[0];
  };
  // Truncating division of the sum.
  EXPECT_EQ(Mean(tensorflow::DT_INT32, std::vector<int32_t>{1, 2, 2}), 1);
  EXPECT_EQ(Mean(tensorflow::DT_INT32, std::vector<int32_t>{-1, -2, -2}), -1);
  // 8- to 32-bit integers are summed in 64 bits: no overflow.
  EXPECT_EQ(Mean(tensorflow::DT_INT8, std::vector<int8_t>{100, 100, 100}), 100);
  EXPECT_EQ(Mean(tensorflow::DT_UINT8, std::vector<uint8_t>{255, 255, 254}), 254);
  // int64 sums wrap before the division (TensorFlow: -1537228672809129301).
  int64_t P62 = int64_t(1) << 62;
  EXPECT_EQ(Mean(tensorflow::DT_INT64, std::vector<int64_t>{P62, P62, P62}), -1537228672809129301);
}

TEST(ReductionTest, IntegerSumsAndProductsWrap) {
  int32_t Max = std::numeric_limits<int32_t>::max();
  TensorData Out =
      evalOne("Sum", {tensor<int32_t>(tensorflow::DT_INT32, {2}, {Max, 1}), axes({0})});
  EXPECT_EQ(Out.values<int32_t>()[0], std::numeric_limits<int32_t>::min());
  Out = evalOne("Prod", {tensor<int8_t>(tensorflow::DT_INT8, {2}, {16, 16}), axes({0})});
  EXPECT_EQ(Out.values<int8_t>()[0], 0);
  Out = evalOne("Prod", {tensor<int8_t>(tensorflow::DT_INT8, {2}, {-128, -1}), axes({0})});
  EXPECT_EQ(Out.values<int8_t>()[0], -128);
}

TEST(ReductionTest, MaxAndMinPropagateNaN) {
  for (const char *Op : {"Max", "Min"}) {
    TensorData Out = evalOne(Op, {floats({3}, {1, NaN, 3}), axes({0})});
    EXPECT_TRUE(std::isnan(Out.values<float>()[0])) << Op;
    Out = evalOne(Op, {floats({2, 2}, {1, NaN, NaN, 2}), axes({1})});
    EXPECT_TRUE(std::isnan(Out.values<float>()[0]) && std::isnan(Out.values<float>()[1])) << Op;
  }
  // Of equal values the later one wins: TensorFlow gives 0.0, then -0.0.
  EXPECT_FALSE(
      std::signbit(evalOne("Max", {floats({2}, {-0.0f, 0.0f}), axes({0})}).values<float>()[0]));
  EXPECT_TRUE(
      std::signbit(evalOne("Max", {floats({2}, {0.0f, -0.0f}), axes({0})}).values<float>()[0]));
}

TEST(ReductionTest, AllAndAny) {
  // A stored 2 is true.
  TensorData B = bools({2, 2}, {2, 0, 1, 1});
  EXPECT_EQ(evalOne("All", {B, axes({1})}).values<uint8_t>(), (Bytes{0, 1}));
  EXPECT_EQ(evalOne("Any", {B, axes({0})}).values<uint8_t>(), (Bytes{1, 1}));
  EXPECT_EQ(evalOne("All", {B, axes({0, 1})}).values<uint8_t>(), Bytes{0});
}

TEST(ReductionTest, HigherRanksMatchALoop) {
  // [2,3,4,5] over axes {0,2}: a rank-4 simplification, so TensorFlow's
  // transposing path; and {1,3}, {0,1,3}. Integers, so exact.
  Shape S{2, 3, 4, 5};
  std::vector<int64_t> Values(120);
  std::iota(Values.begin(), Values.end(), -37);
  for (int64_t &V : Values)
    V = V * V % 101;
  TensorData In = tensor<int64_t>(tensorflow::DT_INT64, S, Values);
  for (std::vector<int32_t> Axes :
       {std::vector<int32_t>{0, 2}, std::vector<int32_t>{1, 3}, std::vector<int32_t>{0, 1, 3}}) {
    std::vector<bool> Reduced(4, false);
    for (int32_t A : Axes)
      Reduced[A] = true;
    // Output elements in row-major order are the map's in key order.
    const int64_t Strides[4] = {60, 20, 5, 1};
    std::map<std::vector<int64_t>, int64_t> Expected;
    for (int64_t I = 0; I < 120; ++I) {
      std::vector<int64_t> Key;
      for (int D = 0; D < 4; ++D)
        if (!Reduced[D])
          Key.push_back(I / Strides[D] % S[D]);
      Expected[Key] += Values[I];
    }
    std::vector<int64_t> Want;
    for (const auto &Entry : Expected)
      Want.push_back(Entry.second);
    EXPECT_EQ(evalOne("Sum", {In, axes(Axes)}).values<int64_t>(), Want);
  }
}

TEST(ReductionTest, HalfSumsAsEigenDoes) {
  // TensorFlow: a sum of 10000 halves of 1 along the innermost dimension is
  // 10000 (Eigen sums 1024-element leaves), along an outer one it stops at
  // 2048 (sequential half additions).
  std::vector<Eigen::half> Ones(10000, Eigen::half(1));
  TensorData Out =
      evalOne("Sum", {tensor<Eigen::half>(tensorflow::DT_HALF, {10000}, Ones), axes({0})});
  EXPECT_EQ(static_cast<float>(Out.values<Eigen::half>()[0]), 10000.0f);
  Out = evalOne("Sum", {tensor<Eigen::half>(tensorflow::DT_HALF, {5000, 2}, Ones), axes({0})});
  EXPECT_EQ(static_cast<float>(Out.values<Eigen::half>()[1]), 2048.0f);
}

TEST(ReductionTest, FloatSumsRoundInTensorFlowsOrder) {
  // Bits of TensorFlow 2.21's results, which sequential sums miss.
  auto Plain = [](int64_t I) { return static_cast<float>(((I * 7919) % 1000) / 7.0 - 60); };
  auto Scaled = [&](int64_t I) { return Plain(I) * static_cast<float>(1 + (I % 5) * 37.25); };
  std::vector<float> Row(35);
  for (int64_t I = 0; I < 35; ++I)
    Row[I] = Scaled(I);
  auto Bits = [](float F) {
    uint32_t B;
    std::memcpy(&B, &F, 4);
    return B;
  };
  EXPECT_EQ(Bits(evalOne("Sum", {floats({35}, Row), axes({0})}).values<float>()[0]), 1189726354u);
  // Along a kept innermost dimension of one packet: four accumulators.
  std::vector<float> M(160);
  for (int64_t I = 0; I < 160; ++I)
    M[I] = Plain(I % 100);
  std::vector<uint32_t> Got;
  for (float F : evalOne("Sum", {floats({20, 8}, M), axes({0})}).values<float>())
    Got.push_back(Bits(F));
  EXPECT_EQ(Got, (std::vector<uint32_t>{1104000734, 1130290030, 1133154889, 1134933724, 3252982342,
                                        1126732361, 1136057198, 1133154889}));
  // bfloat16 is summed in float (accumulating in bfloat16 gives 776).
  std::vector<Eigen::bfloat16> B(64);
  for (int64_t I = 0; I < 64; ++I)
    B[I] = Eigen::bfloat16(Scaled(I));
  TensorData Mean =
      evalOne("Mean", {tensor<Eigen::bfloat16>(tensorflow::DT_BFLOAT16, {64}, B), axes({0})});
  EXPECT_EQ(static_cast<float>(Mean.values<Eigen::bfloat16>()[0]), 788.0f);
}

// --- ArgMax, ArgMin ----------------------------------------------------------

TensorData dim(int32_t D) { return tensor<int32_t>(tensorflow::DT_INT32, {}, {D}); }

AttrMap outputType(tensorflow::DataType T) { return {{"output_type", typeAttr(T)}}; }

TEST(ReductionTest, ArgMaxPicksTheFirstAndSkipsNaN) {
  TensorData Out =
      evalOne("ArgMax", {tensor<int32_t>(tensorflow::DT_INT32, {4}, {1, 3, 3, 1}), dim(0)});
  EXPECT_EQ(Out.dtype(), tensorflow::DT_INT64);
  EXPECT_EQ(Out.values<int64_t>(), std::vector<int64_t>{1});
  Out = evalOne("ArgMin", {tensor<int32_t>(tensorflow::DT_INT32, {4}, {1, 3, 3, 1}), dim(0)});
  EXPECT_EQ(Out.values<int64_t>(), std::vector<int64_t>{0});
  // TensorFlow's results with NaN: never chosen after a number.
  TensorData X = floats({2, 3}, {1, NaN, 3, 4, 5, NaN});
  EXPECT_EQ(evalOne("ArgMax", {X, dim(1)}).values<int64_t>(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(evalOne("ArgMin", {X, dim(-1)}).values<int64_t>(), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(evalOne("ArgMax", {X, dim(0)}).values<int64_t>(), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(evalOne("ArgMax", {floats({3}, {NaN, 1, 5}), dim(0)}).values<int64_t>(),
            std::vector<int64_t>{2});
  // Eigen starts from the lowest float, so -inf then -FLT_MAX gives 0.
  EXPECT_EQ(evalOne("ArgMax", {floats({2}, {-Inf, std::numeric_limits<float>::lowest()}), dim(0)})
                .values<int64_t>(),
            std::vector<int64_t>{0});
  EXPECT_EQ(
      evalOne("ArgMax", {bools({3}, {0, 1, 1}), tensor<int64_t>(tensorflow::DT_INT64, {}, {0})})
          .values<int64_t>(),
      std::vector<int64_t>{1});
}

TEST(ReductionTest, ArgMaxOutputTypes) {
  TensorData X = floats({2, 3}, {1, 2, 3, 6, 5, 4});
  TensorData Out = evalOne("ArgMax", {X, dim(1)}, outputType(tensorflow::DT_INT32));
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{2, 0}));
  Out = evalOne("ArgMax", {X, dim(1)}, outputType(tensorflow::DT_UINT16));
  EXPECT_EQ(Out.values<uint16_t>(), (std::vector<uint16_t>{2, 0}));
  Out = evalOne("ArgMax", {X, dim(1)}, outputType(tensorflow::DT_INT16));
  EXPECT_EQ(Out.values<int16_t>(), (std::vector<int16_t>{2, 0}));
  // ArgMin has no int16 output.
  absl::Status S = evalStatus("ArgMin", {X, dim(1)}, outputType(tensorflow::DT_INT16));
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
}

TEST(ReductionTest, ArgMaxErrorsAsTensorFlowSaysThem) {
  TensorData X = floats({2, 3}, {1, 2, 3, 4, 5, 6});
  absl::Status S = evalStatus("ArgMax", {X, axes({1})});
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_EQ(S.message(), "ArgMax: dim must be a scalar, but received tensor of shape: [1]");
  S = evalStatus("ArgMax", {X, dim(2)});
  EXPECT_EQ(S.message(), "ArgMax: Expected dimension in the range [-2, 2), but got 2");
  S = evalStatus("ArgMin", {X, dim(-3)});
  EXPECT_EQ(S.message(), "ArgMin: Expected dimension in the range [-2, 2), but got -3");
  S = evalStatus("ArgMax", {floats({}, {1}), dim(0)});
  EXPECT_EQ(S.message(), "ArgMax: Expected dimension in the range [0, 0), but got 0");
  S = evalStatus("ArgMax", {floats({2, 0}, {}), dim(1)});
  EXPECT_EQ(S.message(), "ArgMax: Reduction axis 1 is empty in shape [2,0]");
  S = evalStatus("ArgMax", {floats(Shape(8, 1), {0}), dim(1)});
  EXPECT_EQ(S.message(), "ArgMax: Argmax and Argmin only support up to 7 input dimensions, but "
                         "got 8. Inputs shape: [1,1,1,1,1,1,1,1]");
  // An empty output is returned before the rank is checked.
  TensorData Out = evalOne("ArgMax", {floats({0, 3}, {}), dim(1)});
  EXPECT_EQ(shapeOf(Out), Shape{0});
}

// --- Random cases checked against TensorFlow -------------------------------

/// A tensor of a case line: dtype, rank, dims, element bytes in hex.
TensorData parseTensor(std::istringstream &Line) {
  int DType = 0;
  size_t Rank = 0;
  Line >> DType >> Rank;
  Shape S(Rank);
  for (int64_t &D : S)
    Line >> D;
  std::string Hex, Bytes;
  Line >> Hex;
  for (size_t I = 0; Hex != "-" && I + 1 < Hex.size(); I += 2)
    Bytes.push_back(static_cast<char>(std::stoi(Hex.substr(I, 2), nullptr, 16)));
  return TensorData::owned(static_cast<tensorflow::DataType>(DType), std::move(S),
                           std::move(Bytes));
}

/// Element I of a float tensor as a double, and its distance in ulps from
/// the same element of another tensor of the dtype.
template <typename T> double elementAsDouble(const TensorData &X, int64_t I) {
  return static_cast<double>(X.element<T>(I));
}
template <typename Bits> int64_t ulpDistance(const TensorData &A, const TensorData &B, int64_t I) {
  auto Ordered = [](const TensorData &X, int64_t I) {
    Bits B = X.element<Bits>(I);
    constexpr Bits Sign = Bits(1) << (sizeof(Bits) * 8 - 1);
    return (B & Sign) ? -static_cast<int64_t>(B & ~Sign) : static_cast<int64_t>(B);
  };
  return std::llabs(Ordered(A, I) - Ordered(B, I));
}

struct Agreement {
  int Cases = 0, Exact = 0;
  int64_t MaxUlps = 0;
  double MaxRelative = 0;
};

/// Compares Frost's output with TensorFlow's; an empty string when they
/// agree (within `Tolerance` relative to the largest expected magnitude
/// for floats), else what differs.
std::string compareWithTensorFlow(const TensorData &Got, const TensorData &Want, Agreement &Stats) {
  if (Got.dtype() != Want.dtype() || shapeOf(Got) != shapeOf(Want))
    return "dtype or shape differs: " + describe(Got) + " vs " + describe(Want);
  if (Got.bytes() == Want.bytes()) {
    ++Stats.Exact;
    return "";
  }
  double (*AsDouble)(const TensorData &, int64_t) = nullptr;
  int64_t (*Ulps)(const TensorData &, const TensorData &, int64_t) = nullptr;
  double Tolerance = 0;
  switch (Want.dtype()) {
  case tensorflow::DT_FLOAT:
    AsDouble = elementAsDouble<float>, Ulps = ulpDistance<uint32_t>, Tolerance = 1e-4;
    break;
  case tensorflow::DT_DOUBLE:
    AsDouble = elementAsDouble<double>, Ulps = ulpDistance<uint64_t>, Tolerance = 1e-12;
    break;
  case tensorflow::DT_HALF:
    AsDouble = elementAsDouble<Eigen::half>, Ulps = ulpDistance<uint16_t>, Tolerance = 1e-2;
    break;
  case tensorflow::DT_BFLOAT16:
    AsDouble = elementAsDouble<Eigen::bfloat16>, Ulps = ulpDistance<uint16_t>, Tolerance = 5e-2;
    break;
  default:
    return "integer or bool elements differ";
  }
  double Largest = 0;
  for (int64_t I = 0; I < Want.numElements(); ++I)
    if (std::isfinite(AsDouble(Want, I)))
      Largest = std::max(Largest, std::fabs(AsDouble(Want, I)));
  for (int64_t I = 0; I < Want.numElements(); ++I) {
    double G = AsDouble(Got, I), W = AsDouble(Want, I);
    if (std::isnan(G) && std::isnan(W))
      continue;
    if (std::isnan(G) || std::isnan(W) || std::isinf(G) || std::isinf(W)) {
      if (G != W)
        return "element " + std::to_string(I) + ": " + std::to_string(G) + " vs " +
               std::to_string(W);
      continue;
    }
    double Relative = Largest > 0 ? std::fabs(G - W) / Largest : 0;
    Stats.MaxUlps = std::max(Stats.MaxUlps, Ulps(Got, Want, I));
    Stats.MaxRelative = std::max(Stats.MaxRelative, Relative);
    if (Relative > Tolerance)
      return "element " + std::to_string(I) + ": " + std::to_string(G) + " vs " + std::to_string(W);
  }
  return "";
}

/// scripts/compare_reduction_with_tf.py writes the cases and runs this test
/// with $FROST_EVAL_TF_CASES naming the file.
TEST(ReductionTest, TensorFlowCases) {
  const char *Path = std::getenv("FROST_EVAL_TF_CASES");
  if (!Path)
    GTEST_SKIP() << "set by scripts/compare_reduction_with_tf.py";
  std::ifstream File(Path);
  ASSERT_TRUE(File) << "cannot read " << Path;
  std::map<std::string, Agreement> Table;
  std::string Text, Id, Op, Error;
  AttrMap Attrs;
  std::vector<TensorData> Inputs;
  std::optional<TensorData> Expected;
  int Cases = 0;
  while (std::getline(File, Text)) {
    std::istringstream Line(Text);
    std::string Kind;
    Line >> Kind;
    if (Kind == "case") {
      Line >> Id >> Op;
      Attrs.clear(), Inputs.clear(), Expected.reset(), Error.clear();
    } else if (Kind == "attr") {
      std::string Name, Type, Value;
      Line >> Name >> Type >> Value;
      tensorflow::AttrValue &A = Attrs[Name];
      if (Type == "b")
        A.set_b(Value == "1");
      else if (Type == "i")
        A.set_i(std::stoll(Value));
      else if (Type == "s")
        A.set_s(Value);
      else
        A.set_type(static_cast<tensorflow::DataType>(std::stoi(Value)));
    } else if (Kind == "input") {
      Inputs.push_back(parseTensor(Line));
    } else if (Kind == "expect") {
      Expected = parseTensor(Line);
    } else if (Kind == "error") {
      Line >> Error;
    } else if (Kind == "end") {
      ++Cases;
      absl::StatusOr<std::vector<TensorData>> Got = evaluate(Op, Inputs, Attrs);
      std::string Where = "case " + Id + " " + Op + " " + dataTypeName(Inputs[0].dtype());
      if (!Expected) {
        bool SameCode = Error == "InvalidArgumentError" ? absl::IsInvalidArgument(Got.status())
                        : Error == "UnimplementedError" || Error == "NotFoundError"
                            ? absl::IsUnimplemented(Got.status())
                            : false;
        EXPECT_TRUE(SameCode) << Where << ": TensorFlow raised " << Error << ", Frost gave "
                              << Got.status();
        continue;
      }
      ASSERT_TRUE(Got.ok()) << Where << ": " << Got.status();
      Agreement &Stats = Table[Op + " " + dataTypeName(Expected->dtype())];
      ++Stats.Cases;
      std::string Difference = compareWithTensorFlow((*Got)[0], *Expected, Stats);
      EXPECT_EQ(Difference, "") << Where;
    }
  }
  std::printf("%d cases; per op and output dtype: cases, bit-identical, max "
              "ulps, max error "
              "relative to the largest |result|\n",
              Cases);
  for (const auto &[Key, Stats] : Table)
    std::printf("  %-26s %5d %5d %8lld %10.3g\n", Key.c_str(), Stats.Cases, Stats.Exact,
                static_cast<long long>(Stats.MaxUlps), Stats.MaxRelative);
}

} // namespace
