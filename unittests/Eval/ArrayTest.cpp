//===- ArrayTest.cpp - Shape and array ops, hand-checked ------------------===//
//
// Expected values are worked out by hand or were printed by TensorFlow 2.21
// (tf.raw_ops in a graph fed by placeholders, so messages are the kernels').
// scripts/compare_array_with_tf.py checks many random cases the same way.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <cmath>
#include <limits>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

using Shape = std::vector<int64_t>;

TensorData i32(Shape S, std::vector<int32_t> V) {
  return tensor<int32_t>(tensorflow::DT_INT32, std::move(S), std::move(V));
}
TensorData i64(Shape S, std::vector<int64_t> V) {
  return tensor<int64_t>(tensorflow::DT_INT64, std::move(S), std::move(V));
}
TensorData f32(Shape S, std::vector<float> V) {
  return tensor<float>(tensorflow::DT_FLOAT, std::move(S), std::move(V));
}
TensorData strs(Shape S, std::vector<std::string> V) {
  return TensorData::strings(tensorflow::DT_STRING, std::move(S), std::move(V));
}
/// 0, 1, 2... as floats, of shape S.
TensorData iota(Shape S) {
  int64_t N = 1;
  for (int64_t D : S)
    N *= D;
  std::vector<float> V(N);
  for (int64_t I = 0; I < N; ++I)
    V[I] = static_cast<float>(I);
  return f32(std::move(S), std::move(V));
}

Shape shapeOf(const TensorData &T) { return Shape(T.shape().begin(), T.shape().end()); }
std::vector<std::string> stringsOf(const TensorData &T) {
  return std::vector<std::string>(T.elements().begin(), T.elements().end());
}


/// The message of an InvalidArgument error (fails the test on another code).
std::string invalid(llvm::StringRef Op, std::vector<TensorData> Inputs, const AttrMap &Attrs = {}) {
  absl::Status S = evalStatus(Op, std::move(Inputs), Attrs);
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  return std::string(S.message());
}

std::vector<TensorData> evalAll(llvm::StringRef Op, std::vector<TensorData> Inputs,
                                const AttrMap &Attrs = {}) {
  absl::StatusOr<std::vector<TensorData>> Out = evaluate(Op, Inputs, Attrs);
  EXPECT_TRUE(Out.ok()) << Out.status();
  return Out.ok() ? *Out : std::vector<TensorData>();
}

// --- Shapes ------------------------------------------------------------------

TEST(ArrayTest, ShapeSizeRank) {
  TensorData X = iota({2, 3});
  TensorData S = evalOne("Shape", {X});
  EXPECT_EQ(S.dtype(), tensorflow::DT_INT32);
  EXPECT_EQ(S.values<int32_t>(), (std::vector<int32_t>{2, 3}));
  S = evalOne("Shape", {X}, {{"out_type", typeAttr(tensorflow::DT_INT64)}});
  EXPECT_EQ(S.values<int64_t>(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(shapeOf(evalOne("Shape", {f32({}, {1})})), Shape{0});
  EXPECT_EQ(evalOne("Size", {X}).values<int32_t>(), (std::vector<int32_t>{6}));
  EXPECT_EQ(shapeOf(evalOne("Size", {X})), Shape{});
  EXPECT_EQ(evalOne("Rank", {strs({1, 1, 2}, {"a", "b"})}).values<int32_t>(),
            (std::vector<int32_t>{3}));
  std::vector<TensorData> N = evalAll("ShapeN", {X, f32({}, {1})});
  ASSERT_EQ(N.size(), 2u);
  EXPECT_EQ(N[0].values<int32_t>(), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(N[1].numElements(), 0);
}

TEST(ArrayTest, ShapeOverflowingInt32IsTensorFlowsError) {
  // No elements, so it costs nothing; its first dim is 2**31.
  TensorData Big = f32({int64_t(1) << 31, 0}, {});
  EXPECT_EQ(invalid("Shape", {Big}), "Shape: Shape output type is 32-bit  but dim 0 is 2147483648");
  EXPECT_EQ(invalid("ShapeN", {iota({1}), Big}),
            "ShapeN: ShapeN output type is 32-bit but shape 1 dim 0 is 2147483648");
  EXPECT_EQ(
      evalOne("Shape", {Big}, {{"out_type", typeAttr(tensorflow::DT_INT64)}}).values<int64_t>(),
      (std::vector<int64_t>{int64_t(1) << 31, 0}));
}

// --- Reshaping ---------------------------------------------------------------

TEST(ArrayTest, ReshapeInfersOneDim) {
  TensorData Out = evalOne("Reshape", {iota({2, 3}), i32({2}, {3, -1})});
  EXPECT_EQ(shapeOf(Out), (Shape{3, 2}));
  EXPECT_EQ(Out.values<float>(), iota({6}).values<float>());
  // Zeros do not count when inferring: [0,3] as [0,-1] is [0,3] (TF-checked).
  EXPECT_EQ(shapeOf(evalOne("Reshape", {iota({0, 3}), i64({2}, {0, -1})})), (Shape{0, 3}));
  EXPECT_EQ(shapeOf(evalOne("Reshape", {iota({0, 3}), i32({2}, {-1, 0})})), (Shape{3, 0}));
  EXPECT_EQ(shapeOf(evalOne("Reshape", {iota({1}), i32({0}, {})})), Shape{});
  // After a zero dim nothing overflows: an empty [0,2**40,2**40] is fine.
  int64_t Big = int64_t(1) << 40;
  EXPECT_EQ(shapeOf(evalOne("Reshape", {iota({0}), i64({3}, {0, Big, Big})})),
            (Shape{0, Big, Big}));
  TensorData S = evalOne("Reshape", {strs({2}, {"a", "b"}), i32({2}, {1, 2})});
  EXPECT_EQ(stringsOf(S), (std::vector<std::string>{"a", "b"}));
}

TEST(ArrayTest, ReshapeErrors) {
  TensorData X = iota({6});
  EXPECT_EQ(invalid("Reshape", {X, i32({1}, {4})}),
            "Reshape: Input to reshape is a tensor with 6 values, but the "
            "requested shape has 4");
  EXPECT_EQ(invalid("Reshape", {X, i32({2}, {-1, -1})}),
            "Reshape: Only one input size may be -1, not both 0 and 1");
  EXPECT_EQ(invalid("Reshape", {X, i32({2}, {4, -1})}),
            "Reshape: Input to reshape is a tensor with 6 values, but the "
            "requested shape "
            "requires a multiple of 4");
  EXPECT_EQ(invalid("Reshape", {X, i32({2}, {-2, -3})}),
            "Reshape: Size 0 must be non-negative, not -2");
  EXPECT_EQ(invalid("Reshape", {X, i32({1, 1}, {6})}),
            "Reshape: sizes input must be 1-D, not [1,1]");
  EXPECT_EQ(invalid("Reshape", {X, i64({2}, {int64_t(1) << 40, int64_t(1) << 40})}),
            "Reshape: Shape [1099511627776, 1099511627776] has too many elements");
}

TEST(ArrayTest, ExpandDimsAndSqueeze) {
  EXPECT_EQ(shapeOf(evalOne("ExpandDims", {iota({2}), i32({}, {-1})})), (Shape{2, 1}));
  EXPECT_EQ(shapeOf(evalOne("ExpandDims", {iota({2}), i64({1}, {0})})), (Shape{1, 2}));
  EXPECT_EQ(invalid("ExpandDims", {iota({2}), i32({}, {3})}),
            "ExpandDims: Tried to expand dim index 3 for tensor with 1 dimensions.");
  EXPECT_EQ(invalid("ExpandDims", {iota({2}), i32({2}, {0, 1})}),
            "ExpandDims: 'dim' must be a tensor with a single value");

  TensorData X = iota({1, 2, 1});
  EXPECT_EQ(shapeOf(evalOne("Squeeze", {X})), (Shape{2}));
  EXPECT_EQ(shapeOf(evalOne("Squeeze", {X}, {{"squeeze_dims", intListAttr({-1})}})), (Shape{1, 2}));
  EXPECT_EQ(invalid("Squeeze", {X}, {{"squeeze_dims", intListAttr({1})}}),
            "Squeeze: Can not squeeze dim[1], expected a dimension of 1, got 2");
  EXPECT_EQ(invalid("Squeeze", {X}, {{"squeeze_dims", intListAttr({-4})}}),
            "Squeeze: Tried to squeeze dim index -4 for tensor with 3 dimensions.");
}

TEST(ArrayTest, Transpose) {
  TensorData Out = evalOne("Transpose", {iota({2, 3}), i32({2}, {1, 0})});
  EXPECT_EQ(shapeOf(Out), (Shape{3, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  // A negative entry counts from the end; [2,3,2] by (2,0,1).
  Out = evalOne("Transpose", {iota({2, 3, 2}), i64({3}, {-1, 0, 1})});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11}));
  TensorData S = evalOne("Transpose", {strs({1, 2}, {"a", "b"}), i32({2}, {1, 0})});
  EXPECT_EQ(stringsOf(S), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(invalid("Transpose", {iota({1, 2}), i32({2}, {0, 0})}),
            "Transpose: 1 is missing from {0,0}.");
  EXPECT_EQ(invalid("Transpose", {iota({1, 2}), i32({2}, {0, -3})}),
            "Transpose: -1 is out of range [0 .. 2)");
  EXPECT_EQ(invalid("Transpose", {iota({1, 2}), i32({1}, {0})}),
            "Transpose: transpose expects a vector of size 2. But input(1) is "
            "a vector of size 1");
  EXPECT_EQ(invalid("Transpose", {iota({1, 2}), i32({1, 2}, {0, 1})}),
            "Transpose: perm must be rank 1, got shape [1,2]");
}

// --- Concatenating and splitting ---------------------------------------------

TEST(ArrayTest, ConcatAlongAnyAxis) {
  TensorData Out = evalOne(
      "ConcatV2", {f32({2, 1}, {1, 2}), f32({2, 2}, {3, 4, 5, 6}), f32({2, 0}, {}), i32({}, {-1})});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 3, 4, 2, 5, 6}));
  Out = evalOne("Concat", {i32({}, {0}), strs({1}, {"a"}), strs({2}, {"b", "c"})});
  EXPECT_EQ(stringsOf(Out), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ArrayTest, ConcatErrors) {
  EXPECT_EQ(invalid("ConcatV2", {f32({}, {1}), f32({}, {2}), i32({}, {0})}),
            "ConcatV2: ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  EXPECT_EQ(invalid("ConcatV2", {iota({1}), iota({2}), i32({}, {1})}),
            "ConcatV2: ConcatOp : Expected concatenating dimensions in the "
            "range [-1, 1), but "
            "got 1");
  EXPECT_EQ(invalid("ConcatV2", {iota({1}), iota({1, 1}), i32({}, {0})}),
            "ConcatV2: ConcatOp : Ranks of all input tensors should match: "
            "shape[0] = [1] vs. "
            "shape[1] = [1,1]");
  EXPECT_EQ(invalid("ConcatV2", {iota({1, 2}), iota({1, 3}), i32({}, {0})}),
            "ConcatV2: ConcatOp : Dimension 1 in both shapes must be equal: "
            "shape[0] = [1,2] vs. "
            "shape[1] = [1,3]");
  EXPECT_EQ(invalid("ConcatV2", {iota({1}), iota({1}), i32({2}, {0, 1})}),
            "ConcatV2: axis tensor should be a scalar integer, but got shape [2]");
}

TEST(ArrayTest, PackAndUnpack) {
  TensorData Out = evalOne("Pack", {f32({2}, {1, 2}), f32({2}, {3, 4})}, {{"axis", intAttr(1)}});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 3, 2, 4}));
  EXPECT_EQ(shapeOf(evalOne("Pack", {f32({}, {1}), f32({}, {2})})), (Shape{2}));
  EXPECT_EQ(invalid("Pack", {iota({1}), iota({2})}),
            "Pack: Shapes of all inputs must match: values[0].shape = [1] != "
            "values[1].shape = [2]");
  EXPECT_EQ(invalid("Pack", {iota({1}), iota({1})}, {{"axis", intAttr(-3)}}),
            "Pack: axis = -3 not in [-2, 2)");

  std::vector<TensorData> Rows =
      evalAll("Unpack", {iota({2, 3})}, {{"num", intAttr(3)}, {"axis", intAttr(-1)}});
  ASSERT_EQ(Rows.size(), 3u);
  EXPECT_EQ(shapeOf(Rows[1]), (Shape{2}));
  EXPECT_EQ(Rows[1].values<float>(), (std::vector<float>{1, 4}));
  EXPECT_EQ(invalid("Unpack", {iota({2})}, {{"num", intAttr(3)}}),
            "Unpack: Input shape axis 0 must equal 3, got shape [2]");
  EXPECT_EQ(invalid("Unpack", {f32({}, {1})}, {{"num", intAttr(1)}}),
            "Unpack: axis = 0 not in [0, 0)");
}

TEST(ArrayTest, SplitAndSplitV) {
  std::vector<TensorData> Parts =
      evalAll("Split", {i32({}, {1}), iota({2, 4})}, {{"num_split", intAttr(2)}});
  ASSERT_EQ(Parts.size(), 2u);
  EXPECT_EQ(Parts[1].values<float>(), (std::vector<float>{2, 3, 6, 7}));
  Parts = evalAll("SplitV", {iota({5}), i64({3}, {1, -1, 2}), i32({}, {0})},
                  {{"num_split", intAttr(3)}});
  ASSERT_EQ(Parts.size(), 3u);
  EXPECT_EQ(Parts[1].values<float>(), (std::vector<float>{1, 2}));
  EXPECT_EQ(Parts[2].values<float>(), (std::vector<float>{3, 4}));

  EXPECT_EQ(invalid("Split", {i32({}, {0}), iota({3})}, {{"num_split", intAttr(2)}}),
            "Split: Number of ways to split should evenly divide the split "
            "dimension, but got "
            "split_dim 0 (size = 3) and num_split 2");
  EXPECT_EQ(invalid("Split", {i32({}, {-2}), iota({3})}, {{"num_split", intAttr(1)}}),
            "Split: -input rank(-1) <= split_dim < input rank (1), but got -2");
  EXPECT_EQ(
      invalid("SplitV", {iota({3}), i32({2}, {-1, -1}), i32({}, {0})}, {{"num_split", intAttr(2)}}),
      "SplitV: There can only be one -1 in the input.");
  EXPECT_EQ(
      invalid("SplitV", {iota({3}), i32({2}, {1, 1}), i32({}, {0})}, {{"num_split", intAttr(2)}}),
      "SplitV: Determined shape must either match input shape along "
      "split_dim exactly if "
      "fully specified, or be less than the size of the input along "
      "split_dim if not fully "
      "specified.  Got: 2");
  EXPECT_EQ(
      invalid("SplitV", {iota({3}), i32({2}, {-2, 5}), i32({}, {0})}, {{"num_split", intAttr(2)}}),
      "SplitV: Split size at index 0 must be >= 0. Got: -2");
}

// --- Creating
// ------------------------------------------------------------------

TEST(ArrayTest, FillZerosOnes) {
  TensorData Out = evalOne("Fill", {i64({2}, {2, 2}), i32({}, {7})});
  EXPECT_EQ(Out.values<int32_t>(), (std::vector<int32_t>{7, 7, 7, 7}));
  EXPECT_EQ(stringsOf(evalOne("Fill", {i32({1}, {2}), strs({}, {"x"})})),
            (std::vector<std::string>{"x", "x"}));
  EXPECT_EQ(stringsOf(evalOne("ZerosLike", {strs({2}, {"a", "b"})})),
            (std::vector<std::string>{"", ""}));
  EXPECT_EQ(evalOne("ZerosLike", {iota({2})}).values<float>(), (std::vector<float>{0, 0}));
  TensorData H = evalOne("OnesLike", {tensor<uint16_t>(tensorflow::DT_HALF, {1}, {0})});
  EXPECT_EQ(H.values<uint16_t>(), (std::vector<uint16_t>{0x3C00}));
  TensorData B = evalOne("OnesLike", {tensor<uint16_t>(tensorflow::DT_BFLOAT16, {1}, {0})});
  EXPECT_EQ(B.values<uint16_t>(), (std::vector<uint16_t>{0x3F80}));
  TensorData C = evalOne("OnesLike", {tensor<float>(tensorflow::DT_COMPLEX64, {1}, {5, 5})});
  float One[2] = {1, 0};
  EXPECT_EQ(C.bytes(), llvm::StringRef(reinterpret_cast<const char *>(One), sizeof(One)));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("OnesLike", {strs({1}, {"a"})})));

  EXPECT_EQ(invalid("Fill", {i32({1}, {-1}), i32({}, {1})}), "Fill: Dimension -1 must be >= 0");
  EXPECT_EQ(invalid("Fill", {i32({1, 1}, {2}), i32({}, {1})}),
            "Fill: dims must represent a vector, got shape [1,1]");
  EXPECT_EQ(invalid("Fill", {i32({1}, {2}), i32({2}, {1, 2})}),
            "Fill: value must represent a scalar, got shape [2]");
}

TEST(ArrayTest, HugeOutputsAreErrorsNotAllocations) {
  int64_t Big = int64_t(1) << 40;
  EXPECT_EQ(invalid("Fill", {i64({2}, {Big, Big}), i32({}, {1})}),
            "Fill: Shape [1099511627776,1099511627776] would have more than "
            "2**63 - 1 elements");
  // Fits in int64, not in a constant.
  absl::Status S = evalStatus("Fill", {i64({2}, {1 << 20, 1 << 20}), i32({}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  S = evalStatus("Tile", {iota({2}), i64({1}, {int64_t(1) << 40})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(invalid("Tile", {iota({2}), i64({1}, {int64_t(1) << 62})}),
            "Tile: Expected a non-negative size, got -9223372036854775808");
  S = evalStatus("Range", {i64({}, {0}), i64({}, {int64_t(1) << 40}), i64({}, {1})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  // A string tiled past the bound stops early.
  S = evalStatus("Tile", {strs({1}, {std::string(1 << 20, 'x')}), i32({1}, {4096})});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
}

TEST(ArrayTest, SubstrBroadcastIsBoundedBeforeAllocating) {
  // [65536,1] strings against [1,65536] positions: 2^32 output strings.
  TensorData In = strs({65536, 1}, std::vector<std::string>(65536, "ab"));
  TensorData Pos = i32({1, 65536}, std::vector<int32_t>(65536, 0));
  absl::Status S = evalStatus("Substr", {In, Pos, Pos});
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  EXPECT_EQ(S.message(), "Substr: an output of shape [65536,65536] is too large to evaluate");
}

TEST(ArrayTest, SubstrInUtf8CharactersAsTensorFlowCutsThem) {
  // TF-checked: "h\u00e9llo", "\u65e5\u672c\u8a9e" and bytes that are not UTF-8
  // (0xff starts a character of its own).
  TensorData In = strs({3}, {"h\xc3\xa9llo", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "a\xff" "b"});
  AttrMap Utf8 = {{"unit", stringAttr("UTF8_CHAR")}};
  EXPECT_EQ(stringsOf(evalOne("Substr", {In, i32({}, {1}), i32({}, {2})}, Utf8)),
            (std::vector<std::string>{"\xc3\xa9l", "\xe6\x9c\xac\xe8\xaa\x9e", "\xff" "b"}));
  EXPECT_EQ(stringsOf(evalOne("Substr", {In, i64({}, {-2}), i64({}, {5})}, Utf8)),
            (std::vector<std::string>{"lo", "\xe6\x9c\xac\xe8\xaa\x9e", "\xff" "b"}));
  // A negative length from a non-negative position is empty (in bytes it
  // reaches the end); from a negative one it is an error.
  EXPECT_EQ(stringsOf(evalOne("Substr", {In, i32({}, {1}), i32({}, {-1})}, Utf8)),
            (std::vector<std::string>{"", "", ""}));
  EXPECT_EQ(invalid("Substr", {In, i32({}, {-1}), i32({}, {-1})}, Utf8),
            "Substr: pos -1 out of range for string at index 0");
  // -pos - len is exact, not wrapped at the dtype's width (TF-checked).
  int32_t Min = std::numeric_limits<int32_t>::min(), Max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(invalid("Substr", {strs({}, {"abc"}), i32({}, {-1}), i32({}, {Min})}, Utf8),
            "Substr: pos -1 out of range for string at index 0");
  EXPECT_EQ(stringsOf(evalOne("Substr", {strs({}, {"abc"}), i32({}, {-1}), i32({}, {Max})}, Utf8)),
            (std::vector<std::string>{"c"}));
  EXPECT_EQ(invalid("Substr", {In, i32({3}, {0, 3, 4}), i32({3}, {9, 1, 1})}, Utf8),
            "Substr: pos 4 out of range for string at index 2");
  // Of a 2-D broadcast output, the message names the row: (0, 1) is "index 0".
  EXPECT_EQ(invalid("Substr", {strs({2}, {"abc", "d"}), i32({1, 2}, {0, 2}), i32({1, 2}, {1, 1})},
                    Utf8),
            "Substr: pos 2 out of range for string at index 0");
  EXPECT_EQ(evalOne("StringLength", {In}, Utf8).values<int32_t>(), (std::vector<int32_t>{5, 3, 3}));
}

TEST(ArrayTest, RegularExpressionsAreRe2s) {
  // TF-checked: what a text-preprocessing model does.
  TensorData Text = strs({}, {"Hello,  World!\tOK"});
  auto Replace = [](std::string Pattern, std::string Rewrite, bool Global = true) {
    return AttrMap{{"pattern", stringAttr(Pattern)},
                   {"rewrite", stringAttr(Rewrite)},
                   {"replace_global", boolAttr(Global)}};
  };
  EXPECT_EQ(stringsOf(evalOne("StaticRegexReplace", {Text}, Replace("[^a-z0-9 ]+", ""))),
            (std::vector<std::string>{"ello  orld"}));
  EXPECT_EQ(stringsOf(evalOne("StaticRegexReplace", {Text}, Replace("\\s+", " "))),
            (std::vector<std::string>{"Hello, World! OK"}));
  EXPECT_EQ(stringsOf(evalOne("RegexReplace", {strs({1}, {"2026-11-28"}),
                                               strs({}, {"(\\d+)-(\\d+)-(\\d+)"}),
                                               strs({}, {"\\3/\\2/\\1"})})),
            (std::vector<std::string>{"28/11/2026"}));
  EXPECT_EQ(stringsOf(evalOne("StaticRegexReplace", {strs({}, {"aaa"})}, Replace("a", "b", false))),
            (std::vector<std::string>{"baa"}));
  TensorData Match = evalOne("StaticRegexFullMatch", {strs({3}, {"abc123", "abc", "123"})},
                             {{"pattern", stringAttr("[a-z]+\\d*")}});
  EXPECT_EQ(Match.values<uint8_t>(), (std::vector<uint8_t>{1, 1, 0}));
  EXPECT_EQ(invalid("RegexFullMatch", {strs({1}, {"a"}), strs({1}, {"a"})}),
            "RegexFullMatch: Pattern must be scalar, but received [1]");
}

TEST(ArrayTest, HostileRegularExpressionsAreOneLineErrorsOrLinear) {
  // RE2 refuses nested repetition past 1000 (TF-checked message), in one line.
  EXPECT_EQ(invalid("StaticRegexFullMatch", {strs({1}, {"a"})},
                    {{"pattern", stringAttr("a{1000}{1000}")}}),
            "StaticRegexFullMatch: Invalid pattern: a{1000}{1000}, error: bad repetition "
            "operator: {1000}{1000}");
  // What backtracks exponentially elsewhere is linear in RE2: 2^100000 paths.
  TensorData Long = strs({1}, {std::string(100000, 'a')});
  TensorData Match = evalOne("RegexFullMatch", {Long, strs({}, {"(a*)*b"})});
  EXPECT_EQ(Match.values<uint8_t>(), (std::vector<uint8_t>{0}));
  // A replacement's output is bounded before it is made: an empty pattern
  // matches at each of the 100001 places, each writing 100 bytes.
  EvalBudget Budget;
  Budget.MaxTensorBytes = 1 << 20;
  absl::StatusOr<std::vector<TensorData>> Out =
      evaluate("RegexReplace", {Long, strs({}, {""}), strs({}, {std::string(100, 'x')})},
               {{"replace_global", boolAttr(true)}}, Exactness::Bitwise, &Budget);
  EXPECT_TRUE(absl::IsResourceExhausted(Out.status())) << Out.status();
}

TEST(ArrayTest, RangeAsTensorFlowComputesIt) {
  EXPECT_EQ(evalOne("Range", {i32({}, {1}), i32({}, {10}), i32({}, {4})}).values<int32_t>(),
            (std::vector<int32_t>{1, 5, 9}));
  EXPECT_EQ(evalOne("Range", {i32({}, {5}), i32({}, {0}), i32({}, {-2})}).values<int32_t>(),
            (std::vector<int32_t>{5, 3, 1}));
  // The size is exact where limit - start overflows int32 (TF-checked).
  int32_t Min = std::numeric_limits<int32_t>::min(), Max = std::numeric_limits<int32_t>::max();
  EXPECT_EQ(
      evalOne("Range", {i32({}, {Min}), i32({}, {Max}), i32({}, {1 << 30})}).values<int32_t>(),
      (std::vector<int32_t>{Min, -(1 << 30), 0, 1 << 30}));
  // Floats: start + i * delta, not a running sum.
  TensorData F = evalOne("Range", {f32({}, {0}), f32({}, {1}), f32({}, {0.1f})});
  ASSERT_EQ(F.numElements(), 10);
  EXPECT_EQ(F.values<float>()[7], 0.0f + 7.0f * 0.1f);
  // Half: computed in half, i rounded to half too (TF-checked: 0.3 steps).
  auto Half = [](uint16_t Bits) { return tensor<uint16_t>(tensorflow::DT_HALF, {}, {Bits}); };
  TensorData H = evalOne("Range", {Half(0x0000), Half(0x4200), Half(0x34CD)}); // 0, 3, 0.3
  ASSERT_EQ(H.numElements(), 10);
  EXPECT_EQ(H.values<uint16_t>()[3], 0x3B34); // 0.900390625
  // A one-element vector is taken as a scalar.
  EXPECT_EQ(evalOne("Range", {i32({1}, {0}), i32({}, {2}), i32({}, {1})}).numElements(), 2);
}

TEST(ArrayTest, RangeErrors) {
  EXPECT_EQ(invalid("Range", {i32({}, {0}), i32({}, {5}), i32({}, {0})}),
            "Range: Requires delta != 0: 0");
  EXPECT_EQ(invalid("Range", {f32({}, {0.1f}), f32({}, {0}), f32({}, {1})}),
            "Range: Requires start <= limit when delta > 0: 0.1/0");
  EXPECT_EQ(invalid("Range", {i32({}, {0}), i32({}, {5}), i32({}, {-1})}),
            "Range: Requires start >= limit when delta < 0: 0/5");
  EXPECT_EQ(invalid("Range", {f32({}, {0}), f32({}, {1e30f}), f32({}, {1e-30f})}),
            "Range: Requires ((limit - start) / delta) <= 9223372036854775807");
  EXPECT_EQ(invalid("Range", {i32({2}, {0, 1}), i32({}, {5}), i32({}, {1})}),
            "Range: start must be a scalar, not shape [2]");
}

// --- Slicing
// ---------------------------------------------------------------------

/// StridedSlice of X with begin/end/strides and masks {begin, end, ellipsis,
/// new_axis, shrink}.
absl::StatusOr<std::vector<TensorData>> stridedSlice(const TensorData &X, std::vector<int32_t> B,
                                                     std::vector<int32_t> E, std::vector<int32_t> S,
                                                     std::array<int64_t, 5> Masks = {}) {
  AttrMap Attrs;
  const char *Names[] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                         "shrink_axis_mask"};
  for (int I = 0; I < 5; ++I)
    Attrs[Names[I]] = intAttr(Masks[I]);
  int64_t NB = B.size(), NE = E.size(), NS = S.size();
  return evaluate("StridedSlice",
                  {X, i32({NB}, std::move(B)), i32({NE}, std::move(E)), i32({NS}, std::move(S))},
                  Attrs);
}

TensorData sliced(const TensorData &X, std::vector<int32_t> B, std::vector<int32_t> E,
                  std::vector<int32_t> S, std::array<int64_t, 5> Masks = {}) {
  auto Out = stridedSlice(X, std::move(B), std::move(E), std::move(S), Masks);
  EXPECT_TRUE(Out.ok()) << Out.status();
  return Out.ok() ? (*Out)[0] : TensorData();
}

TEST(ArrayTest, StridedSliceRangesAndClamping) {
  TensorData X = iota({3, 4});
  TensorData Out = sliced(X, {1, 1}, {3, 100}, {1, 2}); // end clamps to 4
  EXPECT_EQ(shapeOf(Out), (Shape{2, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 7, 9, 11}));
  // x[::-1, -1]: negative stride, negative index with shrink.
  Out = sliced(X, {0, -1}, {0, 0}, {-1, 1}, {1, 1, 0, 0, 2});
  EXPECT_EQ(shapeOf(Out), (Shape{3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{11, 7, 3}));
  // x[-100:2:-1] is empty; x[5:-100:-2] clamps both ends.
  EXPECT_EQ(sliced(iota({6}), {-100}, {2}, {-1}).numElements(), 0);
  EXPECT_EQ(sliced(iota({6}), {5}, {-100}, {-2}).values<float>(), (std::vector<float>{5, 3, 1}));
}

TEST(ArrayTest, StridedSliceMasks) {
  TensorData X = iota({2, 3, 4});
  // x[..., 1]: ellipsis then a shrunk index.
  TensorData Out = sliced(X, {0, 1}, {0, 2}, {1, 1}, {0, 0, 1, 0, 2});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 5, 9, 13, 17, 21}));
  // x[:, tf.newaxis, 2:]: begin/end masks and a new axis.
  Out = sliced(X, {0, 0, 2}, {0, 0, 0}, {1, 1, 1}, {1, 1 | 4, 0, 2, 0});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 1, 1, 4}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST(ArrayTest, StridedSliceShrinkAndNewAxisOnScalarsAndStrings) {
  // x[1] of a vector is a scalar; x[tf.newaxis] of a scalar is [1].
  TensorData Out = sliced(strs({3}, {"a", "b", "c"}), {1}, {2}, {1}, {0, 0, 0, 0, 1});
  EXPECT_EQ(shapeOf(Out), Shape{});
  EXPECT_EQ(stringsOf(Out), (std::vector<std::string>{"b"}));
  Out = sliced(f32({}, {7}), {0}, {0}, {1}, {0, 0, 0, 1, 0});
  EXPECT_EQ(shapeOf(Out), (Shape{1}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{7}));
  // Shrink ignores the begin mask and reads begin itself (TF-checked).
  EXPECT_EQ(sliced(iota({5}), {3}, {4}, {1}, {1, 0, 0, 0, 1}).values<float>(),
            (std::vector<float>{3}));
}

TEST(ArrayTest, StridedSliceErrors) {
  TensorData X = iota({3});
  auto Message = [](absl::StatusOr<std::vector<TensorData>> R) {
    EXPECT_TRUE(absl::IsInvalidArgument(R.status())) << R.status();
    return std::string(R.status().message());
  };
  EXPECT_EQ(Message(stridedSlice(X, {0}, {1}, {0})), "StridedSlice: strides[0] must be non-zero");
  EXPECT_EQ(Message(stridedSlice(X, {0, 1}, {1}, {1})),
            "StridedSlice: Expected begin, end, and strides to be 1D equal "
            "size tensors, but got "
            "shapes [2], [1], and [1] instead.");
  EXPECT_EQ(Message(stridedSlice(X, {0, 1}, {1, 1}, {1, 1}, {0, 0, 3, 0, 0})),
            "StridedSlice: Multiple ellipses in slice spec not allowed");
  EXPECT_EQ(Message(stridedSlice(X, {3}, {4}, {1}, {0, 0, 0, 0, 1})),
            "StridedSlice: slice index 3 of dimension 0 out of bounds.");
  EXPECT_EQ(Message(stridedSlice(X, {1}, {4}, {-1}, {0, 0, 0, 0, 1})),
            "StridedSlice: only stride 1 allowed on non-range indexing.");
  EXPECT_EQ(Message(stridedSlice(X, {0, 0}, {1, 1}, {1, 1})),
            "StridedSlice: Index out of range using input dim 1; input has "
            "only 1 dims");
}

TEST(ArrayTest, Slice) {
  TensorData Out = evalOne("Slice", {iota({3, 4}), i32({2}, {1, 2}), i64({2}, {-1, 1})});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 1}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{6, 10}));
  EXPECT_EQ(stringsOf(evalOne("Slice", {strs({3}, {"a", "b", "c"}), i32({1}, {1}), i32({1}, {2})})),
            (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(invalid("Slice", {iota({3}), i32({2}, {0, 0}), i32({1}, {1})}),
            "Slice: Expected begin and size arguments to be 1-D tensors of "
            "size 1, but got "
            "shapes [2] and [1] instead.");
  EXPECT_EQ(invalid("Slice", {iota({3}), i32({1}, {-1}), i32({1}, {1})}),
            "Slice: Expected begin[0] in [0, 3], but got -1");
  EXPECT_EQ(invalid("Slice", {iota({3}), i32({1}, {2}), i32({1}, {2})}),
            "Slice: Expected size[0] in [0, 1], but got 2");
  EXPECT_EQ(invalid("Slice", {iota({0, 2}), i32({2}, {1, 0}), i32({2}, {0, 1})}),
            "Slice: Expected begin[0] == 0 (got 1) and size[0] == 0 (got 0) when "
            "input.dim_size(0) == 0");
}

// --- Gathering
// -------------------------------------------------------------------

TEST(ArrayTest, GatherV2AxesAndBatchDims) {
  TensorData P = iota({2, 3});
  TensorData Out = evalOne("GatherV2", {P, i32({2}, {2, 0}), i32({}, {-1})});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 0, 5, 3}));
  Out = evalOne("GatherV2", {P, i64({1, 2}, {1, 1}), i64({}, {0})});
  EXPECT_EQ(shapeOf(Out), (Shape{1, 2, 3}));
  // batch_dims 1: row b takes its own indices.
  Out = evalOne("GatherV2", {P, i32({2, 1}, {2, 0}), i32({}, {1})}, {{"batch_dims", intAttr(1)}});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 1}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 3}));
  Out = evalOne("Gather",
                {strs({3}, {"a", "b", "c"}), tensor<int16_t>(tensorflow::DT_INT16, {2}, {2, 2})});
  EXPECT_EQ(stringsOf(Out), (std::vector<std::string>{"c", "c"}));
}

TEST(ArrayTest, GatherErrors) {
  EXPECT_EQ(invalid("GatherV2", {iota({3}), i32({2}, {0, 3}), i32({}, {0})}),
            "GatherV2: indices[1] = 3 is not in [0, 3)");
  EXPECT_EQ(invalid("GatherV2", {iota({1, 3}), i32({1, 2}, {0, -1}), i32({}, {1})}),
            "GatherV2: indices[0,1] = -1 is not in [0, 3)");
  EXPECT_EQ(invalid("Gather", {iota({3}), i32({}, {5})}), "Gather: indices = 5 is not in [0, 3)");
  EXPECT_EQ(invalid("GatherV2", {iota({3}), i32({1}, {0}), i32({}, {-2})}),
            "GatherV2: Shape must be at least rank 2 but is rank 1");
  EXPECT_EQ(invalid("GatherV2", {f32({}, {1}), i32({1}, {0}), i32({}, {0})}),
            "GatherV2: params must be at least 1 dimensional");
  EXPECT_EQ(invalid("GatherV2", {iota({1, 3}), i32({1}, {0}), i32({}, {1})},
                    {{"batch_dims", intAttr(2)}}),
            "GatherV2: Expected batch_dims in the range [-1, 1], but got 2");
  EXPECT_EQ(invalid("GatherV2", {iota({1, 3}), i32({2, 1}, {0, 1}), i32({}, {1})},
                    {{"batch_dims", intAttr(1)}}),
            "GatherV2: params.shape[0]: 1 should be equal to indices.shape[0]: 2");
  // Nothing to copy, nothing checked (TF-checked).
  EXPECT_EQ(evalOne("GatherV2", {iota({0, 3}), i32({1}, {5}), i32({}, {1})}).numElements(), 0);
}

// --- Repeating, padding, reversing
// -------------------------------------------------

TEST(ArrayTest, TileAndBroadcast) {
  TensorData Out = evalOne("Tile", {f32({2, 1}, {1, 2}), i32({2}, {2, 3})});
  EXPECT_EQ(shapeOf(Out), (Shape{4, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(invalid("Tile", {iota({2}), i32({2}, {1, 2})}),
            "Tile: Expected multiples argument to be a vector of length 1 but "
            "got length 2");
  EXPECT_EQ(invalid("Tile", {iota({2}), i32({1}, {-1})}),
            "Tile: Expected multiples[0] >= 0, but got -1");
  EXPECT_TRUE(absl::IsUnimplemented(
      evalStatus("Tile", {tensor<uint16_t>(tensorflow::DT_UINT16, {1}, {1}), i32({1}, {2})})));

  Out = evalOne("BroadcastTo", {f32({3}, {1, 2, 3}), i64({2}, {2, 3})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 2, 3, 1, 2, 3}));
  Out = evalOne("BroadcastTo", {strs({2, 1}, {"a", "b"}), i32({2}, {2, 2})});
  EXPECT_EQ(stringsOf(Out), (std::vector<std::string>{"a", "a", "b", "b"}));
  EXPECT_EQ(invalid("BroadcastTo", {iota({2}), i32({1}, {3})}),
            "BroadcastTo: Incompatible shapes: [2] vs. [3]");
  EXPECT_EQ(invalid("BroadcastTo", {iota({3}), i32({1}, {1})}),
            "BroadcastTo: Unable to broadcast tensor of shape [3] to tensor of "
            "shape [1]");
  EXPECT_EQ(invalid("BroadcastTo", {iota({1, 2}), i32({1}, {2})}),
            "BroadcastTo: Rank of input (2) must be no greater than rank of "
            "output shape (1).");

  TensorData Args = evalOne("BroadcastArgs", {i32({2}, {2, 1}), i32({1}, {3})});
  EXPECT_EQ(Args.values<int32_t>(), (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(invalid("BroadcastArgs", {i32({2}, {2, 3}), i32({1}, {4})}),
            "BroadcastArgs: Incompatible shapes: [2,3] vs. [4]");
  EXPECT_EQ(invalid("BroadcastArgs", {i32({1, 2}, {2, 3}), i32({1}, {4})}),
            "BroadcastArgs: In[0] must be a vector.[1,2]");
}

TEST(ArrayTest, PadAndMirrorPad) {
  TensorData Out = evalOne("Pad", {f32({1, 2}, {1, 2}), i32({2, 2}, {1, 0, 0, 1})});
  EXPECT_EQ(shapeOf(Out), (Shape{2, 3}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{0, 0, 0, 1, 2, 0}));
  Out = evalOne("PadV2", {strs({1}, {"a"}), i64({1, 2}, {1, 1}), strs({}, {"-"})});
  EXPECT_EQ(stringsOf(Out), (std::vector<std::string>{"-", "a", "-"}));
  EXPECT_EQ(invalid("Pad", {iota({2}), i32({1, 2}, {-1, 1})}),
            "Pad: Paddings must be non-negative: -1 1");
  EXPECT_EQ(invalid("Pad", {iota({2}), i32({2, 2}, {1, 1, 1, 1})}),
            "Pad: The first dimension of paddings must be the rank of "
            "inputs[2,2] [2]");
  EXPECT_EQ(invalid("PadV2", {iota({2}), i32({1, 2}, {1, 1}), iota({1})}),
            "PadV2: constant_values must be a scalar. Found: [1]");

  AttrMap Reflect{{"mode", stringAttr("REFLECT")}}, Symmetric{{"mode", stringAttr("SYMMETRIC")}};
  EXPECT_EQ(
      evalOne("MirrorPad", {f32({3}, {1, 2, 3}), i32({1, 2}, {2, 2})}, Reflect).values<float>(),
      (std::vector<float>{3, 2, 1, 2, 3, 2, 1}));
  EXPECT_EQ(
      evalOne("MirrorPad", {f32({2}, {1, 2}), i32({1, 2}, {2, 2})}, Symmetric).values<float>(),
      (std::vector<float>{2, 1, 1, 2, 2, 1}));
  EXPECT_EQ(invalid("MirrorPad", {iota({2}), i32({1, 2}, {2, 0})}, Reflect),
            "MirrorPad: paddings must be less than the dimension size: 2, 0 "
            "not less than 2");
  EXPECT_EQ(invalid("MirrorPad", {iota({2}), i32({1, 2}, {3, 0})}, Symmetric),
            "MirrorPad: paddings must be no greater than the dimension size: "
            "3, 0 greater than 2");
  EXPECT_EQ(invalid("MirrorPad", {iota({2}), i32({2, 2}, {1, 0, 0, 0})}, Symmetric),
            "MirrorPad: The first dimension of paddings must be the rank of "
            "inputs[2,2], [2]");
}

TEST(ArrayTest, ReverseV2) {
  TensorData Out = evalOne("ReverseV2", {iota({2, 3}), i32({1}, {-1})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 1, 0, 5, 4, 3}));
  Out = evalOne("ReverseV2", {iota({2, 3}), i64({2}, {0, 1})});
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(evalOne("ReverseV2", {f32({}, {1}), i32({1}, {0})}).values<float>(),
            (std::vector<float>{1}));
  EXPECT_EQ(shapeOf(evalOne("ReverseV2", {iota({0, 2}), i32({1}, {-5})})), (Shape{0, 2}));
  EXPECT_EQ(invalid("ReverseV2", {iota({2}), i32({1, 1}, {0})}),
            "ReverseV2: 'dims' must be 1-dimension, not 2");
  EXPECT_EQ(invalid("ReverseV2", {iota({2}), i32({2}, {0, -1})}),
            "ReverseV2: axis 0 specified more than once.");
  EXPECT_EQ(invalid("ReverseV2", {iota({2}), i32({1}, {1})}),
            "ReverseV2: 'axis'[0] = 1 is out of valid range [0, 0");
}

TEST(ArrayTest, DTypesOutsideTheRegistrationsAreUnimplemented) {
  // ReverseV2 has no float8 kernel; ZerosLike of a variant is no byte pattern.
  TensorData F8 = TensorData::owned(tensorflow::DT_FLOAT8_E5M2, {1}, std::string(1, '\0'));
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("ReverseV2", {F8, i32({1}, {0})})));
  TensorData V = TensorData::strings(tensorflow::DT_VARIANT, {1}, {""});
  EXPECT_TRUE(absl::IsUnimplemented(evalStatus("ZerosLike", {V})));
  // Reshape takes any dtype: float8 and variants move as they are.
  EXPECT_EQ(shapeOf(evalOne("Reshape", {F8, i32({0}, {})})), Shape{});
}

TEST(ArrayTest, UniqueOfHalvesWithBothZerosIsRefused) {
  // TensorFlow hashes half and bfloat16 by their bits, so whether 0.0 and
  // -0.0 (equal) become one value is up to its hash buckets: not guessed.
  // 0.0, -0.0, 1.0.
  TensorData H =
      TensorData::owned(tensorflow::DT_HALF, {3}, std::string("\x00\x00\x00\x80\x00\x3c", 6));
  AttrMap Attrs{{"out_idx", typeAttr(tensorflow::DT_INT32)}};
  absl::Status S = evalStatus("Unique", {H}, Attrs);
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
  // Floats: one value, the first seen (0.0, -0.0 and a subnormal are equal).
  std::vector<TensorData> Out =
      *evaluate("UniqueWithCounts", {f32({4}, {-0.0f, 1e-40f, 0.0f, 2})}, Attrs);
  EXPECT_EQ(std::signbit(Out[0].values<float>()[0]), true);
  EXPECT_EQ(Out[0].values<float>().size(), 2u);
  EXPECT_EQ(Out[1].values<int32_t>(), (std::vector<int32_t>{0, 0, 0, 1}));
  EXPECT_EQ(Out[2].values<int32_t>(), (std::vector<int32_t>{3, 1}));
}

TEST(ArrayTest, RaggedTensorToTensor) {
  auto Types = [](std::vector<std::string> Names) {
    tensorflow::AttrValue V;
    for (const std::string &N : Names)
      V.mutable_list()->add_s(N);
    return AttrMap{{"row_partition_types", V}};
  };
  AttrMap Splits = Types({"ROW_SPLITS"}), RowIds = Types({"FIRST_DIM_SIZE", "VALUE_ROWIDS"});
  // [[1, 2, 3], [], [4]] into rows of 2: cut and padded with the default.
  TensorData Out = evalOne("RaggedTensorToTensor",
                           {i64({2}, {-1, 2}), f32({4}, {1, 2, 3, 4}), f32({}, {0}),
                            i64({4}, {0, 3, 3, 4})},
                           Splits);
  EXPECT_EQ(shapeOf(Out), (Shape{3, 2}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{1, 2, 0, 0, 4, 0}));
  // Four rows, [[5, 6], [], [7], []]: the widest row sets the width; inner
  // rows of 2 take a default row.
  Out = evalOne("RaggedTensorToTensor",
                {i32({}, {-1}), f32({3, 2}, {5, 5, 6, 6, 7, 7}), f32({2}, {8, 9}),
                 i32({}, {4}), i32({3}, {0, 0, 2})},
                RowIds);
  EXPECT_EQ(shapeOf(Out), (Shape{4, 2, 2}));
  EXPECT_EQ(Out.values<float>(),
            (std::vector<float>{5, 5, 6, 6, 8, 9, 8, 9, 7, 7, 8, 9, 8, 9, 8, 9}));
  // Where TensorFlow's kernel would read past the values or write past its
  // output, Frost refuses.
  EXPECT_EQ(invalid("RaggedTensorToTensor",
                    {i64({}, {-1}), f32({3}, {1, 2, 3}), f32({}, {0}), i64({2}, {0, 5})},
                    Splits),
            "RaggedTensorToTensor: the row partitions cover 5 values but flat_values has 3");
  EXPECT_EQ(invalid("RaggedTensorToTensor",
                    {i64({}, {-1}), f32({2}, {1, 2}), f32({}, {0}), i64({}, {2}),
                     i64({2}, {1, 0})},
                    RowIds),
            "RaggedTensorToTensor: value_rowids must be sorted, got 0 after 1");
  EXPECT_EQ(invalid("RaggedTensorToTensor",
                    {i64({}, {-1}), f32({1}, {1}), f32({}, {0}), i64({0}, {})}, Splits),
            "RaggedTensorToTensor: Invalid first partition input. Tensor requires at least "
            "one element.");
}

} // namespace
