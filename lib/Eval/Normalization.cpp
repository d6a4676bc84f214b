//===- Normalization.cpp - Batch norm, softmax, LRN, for running graphs ---===//
//
// TensorFlow's FusedBatchNorm, V2 and V3 in inference (is_training=false;
// training is Unimplemented), BatchNormWithGlobalNormalization, Softmax and
// LogSoftmax (over the last dimension) and LRN (over channels, NHWC).
// Within rounding of TensorFlow's: batch norms compute in float as
// TensorFlow's does, the others in double, rounded once.
//
//===----------------------------------------------------------------------===//
#include "ImageSupport.h"

#include <cmath>

namespace frost::eval {

namespace {

/// A 1-D float parameter of a batch norm (input `I`) with one element per
/// channel, as FusedBatchNormOp checks it.
absl::StatusOr<std::vector<float>> channelParameter(const KernelContext &Ctx, size_t I,
                                                    llvm::StringRef Name, int64_t Channels,
                                                    llvm::StringRef CountPrefix = "") {
  const TensorData &T = Ctx.input(I);
  if (T.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat(Name.str(), " must be 1-dimensional", shapeString(T.shape())));
  if (T.numElements() != Channels)
    return Ctx.invalid(absl::StrCat(CountPrefix.str(), Name.str(),
                                    " must have the same number of elements as the channels "
                                    "of x, got ",
                                    T.numElements(), " and ", Channels));
  if (T.dtype() != tensorflow::DT_FLOAT)
    return Ctx.unimplementedType(T.dtype());
  ElementsOf<float> V(T);
  return std::vector<float>(V.begin(), V.end());
}

/// The channel dimension of a batch norm's x for `Format`, or an error.
absl::StatusOr<size_t> channelDim(const KernelContext &Ctx, llvm::StringRef Format, size_t Rank) {
  if (Format == "NHWC" || Format == "NDHWC")
    return Rank - 1;
  if (Format == "NCHW" || Format == "NCDHW")
    return 1;
  return Ctx.invalid(absl::StrCat("Invalid data format: ", Format.str()));
}

} // namespace

// FusedBatchNorm (x float), V2 and V3 (x float, half or bfloat16; the other
// inputs float) with is_training=false: y = (x - mean) * (rsqrt(variance +
// epsilon) * scale) + offset, computed in float. batch_mean and
// batch_variance are the mean and variance, as TensorFlow returns them in
// inference; so are reserve_space_1 and 2, as TensorFlow's oneDNN kernels
// (its default on x86) return them: its Eigen kernels return zeros
// (FusedBatchNorm) or leave them uninitialized (V2, V3). Only gradients read
// them. V3's reserve_space_3 is an empty float vector, as oneDNN's (a scalar
// in TensorFlow's Eigen kernel).
absl::StatusOr<Outputs> evalFusedBatchNorm(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(5));
  FROST_ASSIGN_OR_RETURN(bool Training, Ctx.boolAttr("is_training", true));
  if (Training)
    return Ctx.unimplemented("is_training=true (Frost runs inference graphs only)");
  FROST_ASSIGN_OR_RETURN(float Epsilon, Ctx.floatAttr("epsilon", 0.0001f));
  FROST_ASSIGN_OR_RETURN(std::string Format, Ctx.stringAttr("data_format", "NHWC"));
  const TensorData &X = Ctx.input(0);
  llvm::ArrayRef<int64_t> Shape = X.shape();
  if (Shape.size() != 4 && Shape.size() != 5)
    return Ctx.invalid(absl::StrCat("input must be 4 or 5-dimensional", shapeString(Shape)));
  FROST_ASSIGN_OR_RETURN(size_t Dim, channelDim(Ctx, Format, Shape.size()));
  const int64_t Channels = Shape[Dim];
  FROST_ASSIGN_OR_RETURN(auto Scale, channelParameter(Ctx, 1, "scale", Channels));
  FROST_ASSIGN_OR_RETURN(auto Offset, channelParameter(Ctx, 2, "offset", Channels));
  constexpr llvm::StringLiteral Inference = "When is_training=false, ";
  FROST_ASSIGN_OR_RETURN(auto Mean, channelParameter(Ctx, 3, "mean", Channels, Inference));
  FROST_ASSIGN_OR_RETURN(auto Variance,
                         channelParameter(Ctx, 4, "variance", Channels, Inference));
  // Each channel's x * Factor + Shift, as (x - mean) * factor + offset.
  std::vector<float> Factor(Channels);
  for (int64_t C = 0; C < Channels; ++C)
    Factor[C] = 1.0f / std::sqrt(Variance[C] + Epsilon) * Scale[C];
  // Elements are [Outer, Channels, Inner] whatever the format.
  int64_t Inner = 1;
  for (size_t I = Dim + 1; I < Shape.size(); ++I)
    Inner *= Shape[I];
  if (Ctx.op() == "FusedBatchNorm" && X.dtype() != tensorflow::DT_FLOAT)
    return Ctx.unimplementedType(X.dtype());
  constexpr unsigned Types = Float32 | Half | BFloat16;
  return dispatch<Types>(Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        ElementsOf<T> In(X);
        OutputOf<T> Y(shapeVector(X));
        for (int64_t I = 0; I < In.size(); ++I) {
          int64_t C = (I / Inner) % Channels;
          float Centered = static_cast<float>(In[I]) - Mean[C];
          Y[I] = T(Centered * Factor[C] + Offset[C]);
        }
        Outputs Out{std::move(Y).finish(), Ctx.input(3), Ctx.input(4), Ctx.input(3),
                    Ctx.input(4)};
        if (Ctx.op() == "FusedBatchNormV3")
          Out.push_back(OutputOf<float>({0}).finish());
        return Out;
      });
}

// BatchNormWithGlobalNormalization (deprecated, in old graphs): (t - m) *
// rsqrt(v + variance_epsilon) (* gamma with scale_after_normalization) +
// beta over the last dimension; half, float, double.
absl::StatusOr<Outputs> evalBatchNormWithGlobalNormalization(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(5));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 5));
  FROST_ASSIGN_OR_RETURN(float Epsilon, Ctx.floatAttr("variance_epsilon"));
  FROST_ASSIGN_OR_RETURN(bool ScaleAfter, Ctx.boolAttr("scale_after_normalization"));
  const TensorData &X = Ctx.input(0);
  if (X.shape().size() != 4)
    return Ctx.invalid(absl::StrCat("input must be 4-dimensional", shapeString(X.shape())));
  const int64_t Channels = X.shape()[3];
  const char *Names[] = {"mean", "variance", "beta", "gamma"};
  for (size_t I = 1; I < 5; ++I) {
    const TensorData &P = Ctx.input(I);
    if (P.shape().size() != 1)
      return Ctx.invalid(
          absl::StrCat(Names[I - 1], " must be 1-dimensional", shapeString(P.shape())));
    if (P.numElements() != Channels)
      return Ctx.invalid(absl::StrCat(Names[I - 1], " must have ", Channels,
                                      " elements (the input's depth), got ", P.numElements()));
  }
  constexpr unsigned Types = Float32 | Float64 | Half;
  return dispatch<Types>(Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        auto Mean = elementsAs<T, double>(Ctx.input(1));
        auto Variance = elementsAs<T, double>(Ctx.input(2));
        auto Beta = elementsAs<T, double>(Ctx.input(3));
        auto Gamma = elementsAs<T, double>(Ctx.input(4));
        std::vector<double> Factor(Channels);
        for (int64_t C = 0; C < Channels; ++C)
          Factor[C] = 1.0 / std::sqrt(Variance[C] + static_cast<double>(Epsilon)) *
                      (ScaleAfter ? Gamma[C] : 1.0);
        ElementsOf<T> In(X);
        OutputOf<T> Y(shapeVector(X));
        for (int64_t I = 0; I < In.size(); ++I) {
          int64_t C = I % Channels;
          Y[I] = narrowed<T>((static_cast<double>(In[I]) - Mean[C]) * Factor[C] + Beta[C]);
        }
        return Outputs{std::move(Y).finish()};
      });
}

// Softmax and LogSoftmax over the last dimension: float, double, half,
// bfloat16. exp(x - max) / sum and (x - max) - log(sum), in double.
absl::StatusOr<Outputs> evalSoftmax(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &X = Ctx.input(0);
  if (X.shape().empty())
    return Ctx.invalid(
        absl::StrCat("logits must have >= 1 dimension, got ", shapeString(X.shape())));
  const bool Log = Ctx.op() == "LogSoftmax";
  const int64_t Depth = X.shape().back();
  return dispatch<Floats>(Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        ElementsOf<T> In(X);
        OutputOf<T> Out(shapeVector(X));
        std::vector<double> Shifted(static_cast<size_t>(Depth));
        for (int64_t Row = 0; Depth > 0 && Row < In.size() / Depth; ++Row) {
          const T *R = In.data() + Row * Depth;
          double Max = -std::numeric_limits<double>::infinity();
          for (int64_t I = 0; I < Depth; ++I)
            Max = std::max(Max, static_cast<double>(R[I]));
          double Sum = 0;
          for (int64_t I = 0; I < Depth; ++I) {
            Shifted[I] = static_cast<double>(R[I]) - Max;
            Sum += std::exp(Shifted[I]);
          }
          for (int64_t I = 0; I < Depth; ++I)
            Out[Row * Depth + I] = narrowed<T>(Log ? Shifted[I] - std::log(Sum)
                                                   : std::exp(Shifted[I]) / Sum);
        }
        return Outputs{std::move(Out).finish()};
      });
}

// LRN (local response normalization over channels, NHWC): x / (bias + alpha
// * sum of x^2 over channels c - depth_radius .. c + depth_radius)^beta;
// float and half, in double.
absl::StatusOr<Outputs> evalLRN(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(ImageShape Shape, imageShapeOf(Ctx, 0, DataFormat::NHWC, "in"));
  FROST_ASSIGN_OR_RETURN(int64_t Radius, Ctx.intAttr("depth_radius", 5));
  FROST_ASSIGN_OR_RETURN(float Bias, Ctx.floatAttr("bias", 1.0f));
  FROST_ASSIGN_OR_RETURN(float Alpha, Ctx.floatAttr("alpha", 1.0f));
  FROST_ASSIGN_OR_RETURN(float Beta, Ctx.floatAttr("beta", 0.5f));
  if (Radius < 0 || Radius > INT32_MAX)
    return Ctx.invalid(absl::StrCat("depth_radius = ", Radius, " larger than int max"));
  const TensorData &X = Ctx.input(0);
  return dispatch<Float32 | Half>(Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> In = elementsAs<T, double>(X);
        OutputOf<T> Out(shapeVector(X));
        const int64_t C = Shape.C;
        for (int64_t P = 0; P < Shape.pixels(); ++P) {
          const double *Pixel = In.data() + P * C;
          for (int64_t K = 0; K < C; ++K) {
            double Squares = 0;
            for (int64_t J = std::max<int64_t>(K - Radius, 0); J <= std::min(K + Radius, C - 1);
                 ++J)
              Squares += Pixel[J] * Pixel[J];
            double Scale = static_cast<double>(Bias) + static_cast<double>(Alpha) * Squares;
            Out[P * C + K] = narrowed<T>(Pixel[K] / std::pow(Scale, static_cast<double>(Beta)));
          }
        }
        return Outputs{std::move(Out).finish()};
      });
}

} // namespace frost::eval
