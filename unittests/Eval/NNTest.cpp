//===- NNTest.cpp - Kernels for running graphs, hand-checked --------------===//
//
// Convolutions, pooling, batch norms, softmax and resizing on small inputs
// whose results are computed by hand; scripts/compare_nn_with_tf.py compares
// many random cases with TensorFlow. These kernels exist for
// Exactness::WithinRounding only: folding never sees them.
//
//===----------------------------------------------------------------------===//
#include "EvalTestSupport.h"

#include <algorithm>
#include <cmath>
#include <complex>

using namespace frost;
using namespace frost::eval;
using namespace frost::eval::test;

namespace {

using Shape = std::vector<int64_t>;
constexpr Exactness ForRunning = Exactness::WithinRounding;

Shape shapeOf(const TensorData &T) { return Shape(T.shape().begin(), T.shape().end()); }

TensorData floats(Shape S, std::vector<float> V) {
  return tensor<float>(tensorflow::DT_FLOAT, std::move(S), std::move(V));
}
TensorData ints(Shape S, std::vector<int32_t> V) {
  return tensor<int32_t>(tensorflow::DT_INT32, std::move(S), std::move(V));
}

/// strides, padding and optionally data_format and more attributes.
AttrMap windowAttrs(std::vector<int64_t> Strides, const std::string &Padding,
                    const std::string &Format = "NHWC") {
  return {{"strides", intListAttr(std::move(Strides))},
          {"padding", stringAttr(Padding)},
          {"data_format", stringAttr(Format)}};
}

std::vector<TensorData> run(llvm::StringRef Op, std::vector<TensorData> Inputs,
                            const AttrMap &Attrs) {
  absl::StatusOr<std::vector<TensorData>> Out = evaluate(Op, Inputs, Attrs, ForRunning);
  EXPECT_TRUE(Out.ok()) << Out.status();
  return Out.ok() ? *Out : std::vector<TensorData>{};
}

TensorData runOne(llvm::StringRef Op, std::vector<TensorData> Inputs, const AttrMap &Attrs) {
  std::vector<TensorData> Out = run(Op, std::move(Inputs), Attrs);
  EXPECT_EQ(Out.size(), 1u);
  return Out.empty() ? TensorData() : Out[0];
}

absl::Status runStatus(llvm::StringRef Op, std::vector<TensorData> Inputs, const AttrMap &Attrs) {
  return evaluate(Op, Inputs, Attrs, ForRunning).status();
}

/// The 4x4 image 1..16 (one channel, NHWC).
TensorData image4x4() {
  std::vector<float> V(16);
  for (int I = 0; I < 16; ++I)
    V[I] = static_cast<float>(I + 1);
  return floats({1, 4, 4, 1}, V);
}

TEST(NNTest, KernelsForRunningGraphsOnlyWhenAskedFor) {
  EXPECT_FALSE(hasKernel("Conv2D"));
  EXPECT_TRUE(hasKernel("Conv2D", ForRunning));
  EXPECT_TRUE(hasKernel("Add", ForRunning)); // Bitwise kernels run graphs too.
  std::vector<llvm::StringRef> Folding = opsWithKernels(), Running = opsWithKernels(ForRunning);
  EXPECT_EQ(std::count(Folding.begin(), Folding.end(), "MaxPool"), 0);
  EXPECT_EQ(std::count(Running.begin(), Running.end(), "MaxPool"), 1);
  EXPECT_EQ(Running.size(), Folding.size() + 38);
  EXPECT_TRUE(std::is_sorted(Running.begin(), Running.end()));
  absl::Status S = evaluate("Conv2D", {image4x4(), floats({1, 1, 1, 1}, {1})},
                            windowAttrs({1, 1, 1, 1}, "VALID"))
                       .status();
  EXPECT_TRUE(absl::IsUnimplemented(S)) << S;
}

// Exp and Mul fold for real dtypes only: their complex results (Eigen's
// packets, split as TensorFlow's build and threads split a tensor) are for
// running graphs.
TEST(NNTest, ComplexExpAndMulOnlyForRunning) {
  TensorData Z = tensor<std::complex<float>>(tensorflow::DT_COMPLEX64, {2}, {{0, 0}, {1, 2}});
  for (const char *Op : {"Exp", "Mul"}) {
    std::vector<TensorData> Inputs(Op == std::string("Exp") ? 1 : 2, Z);
    absl::Status Folding = evaluate(Op, Inputs, {}).status();
    EXPECT_TRUE(absl::IsUnimplemented(Folding)) << Op << ": " << Folding;
    absl::StatusOr<std::vector<TensorData>> Running = evaluate(Op, Inputs, {}, ForRunning);
    ASSERT_TRUE(Running.ok()) << Op << ": " << Running.status();
    EXPECT_EQ((*Running)[0].dtype(), tensorflow::DT_COMPLEX64);
  }
  // exp(0) = 1; exp(1 + 2i) = e (cos 2 + i sin 2), in float; (1 + 2i)^2 = -3 + 4i.
  std::vector<std::complex<float>> E =
      evaluate("Exp", {Z}, {}, ForRunning)->at(0).values<std::complex<float>>();
  EXPECT_EQ(E[0], std::complex<float>(1, 0));
  EXPECT_NEAR(E[1].real(), std::exp(1.0) * std::cos(2.0), 1e-6);
  EXPECT_NEAR(E[1].imag(), std::exp(1.0) * std::sin(2.0), 1e-6);
  EXPECT_EQ(evaluate("Mul", {Z, Z}, {}, ForRunning)->at(0).values<std::complex<float>>()[1],
            std::complex<float>(-3, 4));
  // Real dtypes still fold.
  EXPECT_TRUE(evaluate("Exp", {tensor<float>(tensorflow::DT_FLOAT, {1}, {0})}, {}).ok());
}

TEST(NNTest, Conv2DValidAndSame) {
  TensorData Ones = floats({3, 3, 1, 1}, std::vector<float>(9, 1));
  // Sums of the four 3x3 windows.
  TensorData Valid = runOne("Conv2D", {image4x4(), Ones}, windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(shapeOf(Valid), (Shape{1, 2, 2, 1}));
  EXPECT_EQ(Valid.values<float>(), (std::vector<float>{54, 63, 90, 99}));
  // SAME with stride 2 pads one row and column at the end.
  TensorData Same = runOne("Conv2D", {image4x4(), Ones}, windowAttrs({1, 2, 2, 1}, "SAME"));
  EXPECT_EQ(Same.values<float>(), (std::vector<float>{54, 45, 72, 54}));
  // EXPLICIT: one row above, none below, no columns.
  AttrMap Explicit = windowAttrs({1, 1, 1, 1}, "EXPLICIT");
  Explicit["explicit_paddings"] = intListAttr({0, 0, 1, 0, 0, 0, 0, 0});
  TensorData Padded = runOne("Conv2D", {image4x4(), Ones}, Explicit);
  EXPECT_EQ(shapeOf(Padded), (Shape{1, 3, 2, 1}));
  EXPECT_EQ(Padded.values<float>(), (std::vector<float>{24, 30, 54, 63, 90, 99}));
  // Dilation 3 reads the corners: 1 + 4 + 13 + 16 with a 2x2 filter.
  AttrMap Dilated = windowAttrs({1, 1, 1, 1}, "VALID");
  Dilated["dilations"] = intListAttr({1, 3, 3, 1});
  TensorData Corners =
      runOne("Conv2D", {image4x4(), floats({2, 2, 1, 1}, {1, 1, 1, 1})}, Dilated);
  EXPECT_EQ(Corners.values<float>(), (std::vector<float>{34}));
}

TEST(NNTest, Conv2DChannelsGroupsAndNCHW) {
  // Two input channels (x and 10x), two output channels: sum and difference.
  TensorData X = floats({1, 1, 2, 2}, {1, 10, 2, 20});
  TensorData F = floats({1, 1, 2, 2}, {1, 1, 1, -1});
  TensorData Out = runOne("Conv2D", {X, F}, windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{11, -9, 22, -18}));
  // The same in NCHW: [1, 2, 1, 2].
  TensorData XT = floats({1, 2, 1, 2}, {1, 2, 10, 20});
  TensorData OutT = runOne("Conv2D", {XT, F}, windowAttrs({1, 1, 1, 1}, "VALID", "NCHW"));
  EXPECT_EQ(shapeOf(OutT), (Shape{1, 2, 1, 2}));
  EXPECT_EQ(OutT.values<float>(), (std::vector<float>{11, 22, -9, -18}));
  // Two groups of one channel: each output channel reads its own input.
  TensorData G = floats({1, 1, 1, 2}, {2, 3});
  TensorData Grouped = runOne("Conv2D", {X, G}, windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(Grouped.values<float>(), (std::vector<float>{2, 30, 4, 60}));
  // int32 wraps as TensorFlow's sums do.
  TensorData Big = runOne("Conv2D", {ints({1, 1, 1, 2}, {0x40000000, 0x40000000}),
                                     ints({1, 1, 2, 1}, {2, 2})},
                          windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(Big.values<int32_t>(), (std::vector<int32_t>{0}));
}

TEST(NNTest, DepthwiseConv2dNative) {
  // Channels c = 0, 1 with multiplier 2: output channel c * 2 + m.
  TensorData X = floats({1, 1, 2, 2}, {1, 10, 2, 20});
  TensorData F = floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  TensorData Out =
      runOne("DepthwiseConv2dNative", {X, F}, windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(shapeOf(Out), (Shape{1, 1, 1, 4}));
  // Tap 0 reads pixel 0, tap 1 pixel 1.
  EXPECT_EQ(Out.values<float>(),
            (std::vector<float>{1 * 1 + 2 * 5, 1 * 2 + 2 * 6, 10 * 3 + 20 * 7, 10 * 4 + 20 * 8}));
}

TEST(NNTest, Conv2DBackpropInputIsATransposedConvolution) {
  // A 1x1 filter of 2 with stride 2 spreads the gradient over every other
  // pixel of a 3x3 input.
  TensorData Out = runOne("Conv2DBackpropInput",
                          {ints({4}, {1, 3, 3, 1}), floats({1, 1, 1, 1}, {2}),
                           floats({1, 2, 2, 1}, {1, 2, 3, 4})},
                          windowAttrs({1, 2, 2, 1}, "VALID"));
  EXPECT_EQ(shapeOf(Out), (Shape{1, 3, 3, 1}));
  EXPECT_EQ(Out.values<float>(), (std::vector<float>{2, 0, 4, 0, 0, 0, 6, 0, 8}));
  // A 2x2 filter of ones, stride 1: each input pixel sums the gradients of
  // the outputs whose windows hold it.
  TensorData Sum =
      runOne("Conv2DBackpropInput",
             {ints({2}, {3, 3}), floats({2, 2, 1, 1}, {1, 1, 1, 1}),
              floats({1, 2, 2, 1}, {1, 2, 3, 4})},
             windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_EQ(Sum.values<float>(), (std::vector<float>{1, 3, 2, 4, 10, 6, 3, 7, 4}));
  absl::Status S = runStatus("Conv2DBackpropInput",
                             {ints({4}, {1, 4, 4, 1}), floats({1, 1, 1, 1}, {2}),
                              floats({1, 2, 2, 1}, {1, 2, 3, 4})},
                             windowAttrs({1, 1, 1, 1}, "VALID"));
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
  EXPECT_NE(S.message().find("Size of out_backprop doesn't match computed: actual = 2, "
                             "computed = 4"),
            std::string::npos)
      << S;
}

TEST(NNTest, FusedPadConv2DComputesEachImageFromItsOwn) {
  // Two 2x2 images, reflected by one pixel on every side, through a 1x1
  // filter: the padded images themselves. (TensorFlow 2.21's CPU kernel
  // computes both from the first image.)
  TensorData X = floats({2, 2, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8});
  AttrMap Attrs = windowAttrs({1, 1, 1, 1}, "VALID");
  Attrs.erase("data_format");
  Attrs["mode"] = stringAttr("REFLECT");
  TensorData Pads = ints({4, 2}, {0, 0, 1, 1, 1, 1, 0, 0});
  TensorData Out = runOne("FusedPadConv2D", {X, Pads, floats({1, 1, 1, 1}, {1})}, Attrs);
  EXPECT_EQ(shapeOf(Out), (Shape{2, 4, 4, 1}));
  std::vector<float> V = Out.values<float>();
  EXPECT_EQ(std::vector<float>(V.begin(), V.begin() + 4), (std::vector<float>{4, 3, 4, 3}));
  EXPECT_EQ(std::vector<float>(V.begin() + 16, V.begin() + 20), (std::vector<float>{8, 7, 8, 7}));
  // Resized first: 2x2 -> 4x4 (legacy coordinates), SYMMETRIC padding of 0.
  Attrs["mode"] = stringAttr("SYMMETRIC");
  TensorData None = ints({4, 2}, std::vector<int32_t>(8, 0));
  TensorData Resized = runOne("FusedResizeAndPadConv2D",
                              {X, ints({2}, {2, 4}), None, floats({1, 1, 1, 1}, {1})}, Attrs);
  EXPECT_EQ(shapeOf(Resized), (Shape{2, 2, 4, 1}));
  EXPECT_EQ(Resized.values<float>(),
            (std::vector<float>{1, 1.5, 2, 2, 3, 3.5, 4, 4, 5, 5.5, 6, 6, 7, 7.5, 8, 8}));
  Attrs["mode"] = stringAttr("REFLECT");
  absl::Status S = runStatus("FusedPadConv2D",
                             {X, ints({4, 2}, {1, 0, 0, 0, 0, 0, 0, 0}),
                              floats({1, 1, 1, 1}, {1})},
                             Attrs);
  EXPECT_TRUE(absl::IsInvalidArgument(S)) << S;
}

TEST(NNTest, Pooling) {
  AttrMap Attrs = windowAttrs({1, 2, 2, 1}, "VALID");
  Attrs["ksize"] = intListAttr({1, 2, 2, 1});
  EXPECT_EQ(runOne("MaxPool", {image4x4()}, Attrs).values<float>(),
            (std::vector<float>{6, 8, 14, 16}));
  EXPECT_EQ(runOne("AvgPool", {image4x4()}, Attrs).values<float>(),
            (std::vector<float>{3.5, 5.5, 11.5, 13.5}));
  TensorData MaxV2 = runOne("MaxPoolV2",
                            {image4x4(), ints({4}, {1, 2, 2, 1}), ints({4}, {1, 2, 2, 1})},
                            {{"padding", stringAttr("VALID")}});
  EXPECT_EQ(MaxV2.values<float>(), (std::vector<float>{6, 8, 14, 16}));
  // SAME averages divide by the valid elements: the corner's window holds
  // 1, 2, 5, 6.
  AttrMap Same = windowAttrs({1, 1, 1, 1}, "SAME");
  Same["ksize"] = intListAttr({1, 3, 3, 1});
  std::vector<float> Avg = runOne("AvgPool", {image4x4()}, Same).values<float>();
  EXPECT_EQ(Avg[0], 3.5f);
  EXPECT_EQ(Avg[5], 6.0f); // 1..3, 5..7, 9..11
  // NCHW: two channels pooled apart.
  AttrMap Nchw = windowAttrs({1, 1, 1, 1}, "VALID", "NCHW");
  Nchw["ksize"] = intListAttr({1, 1, 1, 2});
  EXPECT_EQ(runOne("MaxPool", {floats({1, 2, 1, 2}, {1, 5, 7, 3})}, Nchw).values<float>(),
            (std::vector<float>{5, 7}));
  Attrs["strides"] = intListAttr({2, 1, 1, 1});
  EXPECT_TRUE(absl::IsUnimplemented(runStatus("MaxPool", {image4x4()}, Attrs)));
}

TEST(NNTest, FusedBatchNormInInference) {
  // One channel: (5 - 1) / sqrt(3 + 1) * 2 + 1 = 5.
  AttrMap Attrs = {{"epsilon", floatAttr(1)}, {"is_training", boolAttr(false)}};
  std::vector<TensorData> Out =
      run("FusedBatchNormV3",
          {floats({1, 1, 2, 1}, {5, 1}), floats({1}, {2}), floats({1}, {1}), floats({1}, {1}),
           floats({1}, {3})},
          Attrs);
  ASSERT_EQ(Out.size(), 6u);
  EXPECT_EQ(Out[0].values<float>(), (std::vector<float>{5, 1}));
  EXPECT_EQ(Out[1].values<float>(), (std::vector<float>{1}));
  EXPECT_EQ(Out[2].values<float>(), (std::vector<float>{3}));
  EXPECT_EQ(shapeOf(Out[5]), (Shape{0}));
  EXPECT_EQ(run("FusedBatchNorm",
                {floats({1, 1, 2, 1}, {5, 1}), floats({1}, {2}), floats({1}, {1}),
                 floats({1}, {1}), floats({1}, {3})},
                Attrs)
                .size(),
            5u);
  Attrs["is_training"] = boolAttr(true);
  EXPECT_TRUE(absl::IsUnimplemented(
      runStatus("FusedBatchNorm",
                {floats({1, 1, 2, 1}, {5, 1}), floats({1}, {2}), floats({1}, {1}),
                 floats({1}, {1}), floats({1}, {3})},
                Attrs)));
  // Without gamma: (5 - 1) / 2 + 1 = 3.
  AttrMap Global = {{"variance_epsilon", floatAttr(1)},
                    {"scale_after_normalization", boolAttr(false)}};
  TensorData Y = runOne("BatchNormWithGlobalNormalization",
                        {floats({1, 1, 1, 1}, {5}), floats({1}, {1}), floats({1}, {3}),
                         floats({1}, {1}), floats({1}, {10})},
                        Global);
  EXPECT_EQ(Y.values<float>(), (std::vector<float>{3}));
}

TEST(NNTest, SoftmaxAndLogSoftmax) {
  TensorData X = floats({2, 2}, {0, std::log(3.0f), 100, 100});
  std::vector<float> S = runOne("Softmax", {X}, {}).values<float>();
  EXPECT_NEAR(S[0], 0.25f, 1e-7);
  EXPECT_NEAR(S[1], 0.75f, 1e-7);
  EXPECT_EQ(S[2], 0.5f);
  std::vector<float> L = runOne("LogSoftmax", {X}, {}).values<float>();
  EXPECT_NEAR(L[0], std::log(0.25f), 1e-6);
  EXPECT_NEAR(L[3], std::log(0.5f), 1e-6);
  EXPECT_TRUE(absl::IsInvalidArgument(runStatus("Softmax", {floats({}, {1})}, {})));
}

TEST(NNTest, LRN) {
  // Radius 1 over three channels: the middle one sums all three squares.
  AttrMap Attrs = {{"depth_radius", intAttr(1)},
                   {"bias", floatAttr(1)},
                   {"alpha", floatAttr(1)},
                   {"beta", floatAttr(1)}};
  std::vector<float> V = runOne("LRN", {floats({1, 1, 1, 3}, {1, 2, 3})}, Attrs).values<float>();
  EXPECT_FLOAT_EQ(V[0], 1.0f / 6);  // 1 / (1 + 1 + 4)
  EXPECT_FLOAT_EQ(V[1], 2.0f / 15); // 2 / (1 + 1 + 4 + 9)
  EXPECT_FLOAT_EQ(V[2], 3.0f / 14); // 3 / (1 + 4 + 9)
}

TEST(NNTest, Resize) {
  TensorData X = floats({1, 1, 2, 1}, {0, 4});
  AttrMap Legacy;
  EXPECT_EQ(runOne("ResizeBilinear", {X, ints({2}, {1, 4})}, Legacy).values<float>(),
            (std::vector<float>{0, 2, 4, 4}));
  EXPECT_EQ(runOne("ResizeNearestNeighbor", {X, ints({2}, {1, 4})}, Legacy).values<float>(),
            (std::vector<float>{0, 0, 4, 4}));
  AttrMap Align = {{"align_corners", boolAttr(true)}};
  std::vector<float> A = runOne("ResizeBilinear", {X, ints({2}, {1, 3})}, Align).values<float>();
  EXPECT_EQ(A, (std::vector<float>{0, 2, 4}));
  // Half-pixel centers: output x reads input (x + 0.5) / 2 - 0.5.
  AttrMap Half = {{"half_pixel_centers", boolAttr(true)}};
  EXPECT_EQ(runOne("ResizeBilinear", {X, ints({2}, {1, 4})}, Half).values<float>(),
            (std::vector<float>{0, 1, 3, 4}));
  // Integers resize to float (bilinear) or to themselves (nearest).
  TensorData I = tensor<uint8_t>(tensorflow::DT_UINT8, {1, 1, 1, 1}, {7});
  EXPECT_EQ(runOne("ResizeBilinear", {I, ints({2}, {1, 2})}, Legacy).dtype(),
            tensorflow::DT_FLOAT);
  EXPECT_EQ(runOne("ResizeNearestNeighbor", {I, ints({2}, {1, 2})}, Legacy).dtype(),
            tensorflow::DT_UINT8);
  Align["half_pixel_centers"] = boolAttr(true);
  EXPECT_TRUE(absl::IsInvalidArgument(runStatus("ResizeBilinear", {X, ints({2}, {1, 4})}, Align)));
}

TEST(NNTest, BadShapesAndHostileSizesAreErrors) {
  AttrMap Valid = windowAttrs({1, 1, 1, 1}, "VALID");
  // A filter larger than the input (by one: an empty output, as TensorFlow's).
  TensorData Empty = runOne("Conv2D", {image4x4(), floats({5, 1, 1, 1}, {1, 1, 1, 1, 1})}, Valid);
  EXPECT_EQ(shapeOf(Empty), (Shape{1, 0, 4, 1}));
  absl::Status S =
      runStatus("Conv2D", {image4x4(), floats({6, 1, 1, 1}, std::vector<float>(6, 1))}, Valid);
  EXPECT_TRUE(absl::IsInvalidArgument(S));
  EXPECT_NE(S.message().find("Computed output size would be negative: -1 [input_size: 4, "
                             "effective_filter_size: 6, stride: 1]"),
            std::string::npos)
      << S;
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("Conv2D", {floats({4, 4}, std::vector<float>(16)), floats({1, 1, 1, 1}, {1})},
                Valid)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("Conv2D", {image4x4(), floats({1, 1, 3, 1}, {1, 1, 1})}, Valid)));
  AttrMap BadStrides = windowAttrs({1, 1, 1}, "VALID");
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("Conv2D", {image4x4(), floats({1, 1, 1, 1}, {1})}, BadStrides)));
  // Dilations and paddings that overflow, outputs beyond 2 GiB.
  AttrMap Dilated = Valid;
  Dilated["dilations"] = intListAttr({1, int64_t(1) << 62, 1, 1});
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("Conv2D", {image4x4(), floats({3, 1, 1, 1}, {1, 1, 1})}, Dilated)));
  AttrMap Padded = windowAttrs({1, 1, 1, 1}, "EXPLICIT");
  Padded["explicit_paddings"] = intListAttr({0, 0, int64_t(1) << 61, int64_t(1) << 61, 0, 0, 0, 0});
  EXPECT_FALSE(runStatus("Conv2D", {image4x4(), floats({1, 1, 1, 1}, {1})}, Padded).ok());
  Padded["explicit_paddings"] = intListAttr({0, 0, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 0, 0});
  EXPECT_TRUE(absl::IsUnimplemented(
      runStatus("Conv2D", {image4x4(), floats({1, 1, 1, 1}, {1})}, Padded)));
  EXPECT_TRUE(absl::IsUnimplemented(runStatus(
      "ResizeBilinear", {image4x4(), ints({2}, {0x7fffffff, 0x7fffffff})}, {})));
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("ResizeBilinear", {image4x4(), ints({2}, {0, 3})}, {})));
  EXPECT_FALSE(runStatus("Conv2DBackpropInput",
                         {tensor<int64_t>(tensorflow::DT_INT64, {4},
                                          {int64_t(1) << 40, int64_t(1) << 40, 1, 1}),
                          floats({1, 1, 1, 1}, {1}), floats({1, 2, 2, 1}, {1, 2, 3, 4})},
                         Valid)
                   .ok());
  AttrMap Pool = windowAttrs({1, 1, 1, 1}, "VALID");
  Pool["ksize"] = intListAttr({1, 0, 1, 1});
  EXPECT_TRUE(absl::IsInvalidArgument(runStatus("MaxPool", {image4x4()}, Pool)));
  EXPECT_TRUE(absl::IsInvalidArgument(
      runStatus("FusedBatchNorm",
                {image4x4(), floats({2}, {1, 1}), floats({1}, {1}), floats({1}, {1}),
                 floats({1}, {1})},
                {{"is_training", boolAttr(false)}})));
}

} // namespace
