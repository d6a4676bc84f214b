//===- ColorSpace.cpp - RGB and HSV conversions, contrast -----------------===//
//
// TensorFlow's RGBToHSV and HSVToRGB (colorspace_op), AdjustContrastv2 (a
// run kernel, see there). For the conversions, the innermost
// dimension holds 3 channels; every step is an IEEE operation in the order
// of TensorFlow's Eigen expressions under its denormal flushing
// (PacketArithmetic.h).
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"
#include "PacketArithmetic.h"

namespace frost::eval {

using namespace elementwise;
namespace pk = tfmath::packet;

namespace {

absl::Status checkChannels(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  if (In.shape().empty())
    return Ctx.invalid(absl::StrCat("input must be at least 1D", shapeString(In.shape())));
  if (In.shape().back() != 3)
    return absl::FailedPreconditionError(
        absl::StrCat(Ctx.op().str(), ": input must have 3 channels but input only has ",
                     In.shape().back(), " channels."));
  return absl::OkStatus();
}

template <typename T> void rgbToHsv(const T *In, T *Out, int64_t Pixels) {
  const T Sixth = T(1) / T(6), TwoSixths = T(2) / T(6), FourSixths = T(4) / T(6);
  for (int64_t I = 0; I < Pixels; ++I) {
    const T R = In[3 * I], G = In[3 * I + 1], B = In[3 * I + 2];
    const T V = pk::pmax(pk::pmax(R, G), B);
    const T Range = pk::sub(V, pk::pmin(pk::pmin(R, G), B));
    const T S = pk::lt(T(0), V) ? pk::div(Range, V) : T(0);
    const T Norm = pk::mul(pk::div(T(1), Range), Sixth);
    T H = pk::eq(R, V)   ? pk::mul(Norm, pk::sub(G, B))
          : pk::eq(G, V) ? pk::add(pk::mul(Norm, pk::sub(B, R)), TwoSixths)
                         : pk::add(pk::mul(Norm, pk::sub(R, G)), FourSixths);
    H = pk::lt(T(0), Range) ? H : T(0);
    H = pk::lt(H, T(0)) ? pk::add(H, T(1)) : H;
    Out[3 * I] = H, Out[3 * I + 1] = S, Out[3 * I + 2] = V;
  }
}

template <typename T> void hsvToRgb(const T *In, T *Out, int64_t Pixels) {
  auto Clamp01 = [](T X) { return pk::pmin(pk::pmax(X, T(0)), T(1)); };
  for (int64_t I = 0; I < Pixels; ++I) {
    const T H = In[3 * I], S = In[3 * I + 1], V = In[3 * I + 2];
    const T Dh = pk::mul(H, T(6));
    const T Dr = Clamp01(pk::sub(pk::pabs(pk::sub(Dh, T(3))), T(1)));
    const T Dg = Clamp01(pk::add(pk::pnegate(pk::pabs(pk::sub(Dh, T(2)))), T(2)));
    const T Db = Clamp01(pk::add(pk::pnegate(pk::pabs(pk::sub(Dh, T(4)))), T(2)));
    const T OneMinusS = pk::add(pk::pnegate(S), T(1));
    Out[3 * I] = pk::mul(pk::add(OneMinusS, pk::mul(S, Dr)), V);
    Out[3 * I + 1] = pk::mul(pk::add(OneMinusS, pk::mul(S, Dg)), V);
    Out[3 * I + 2] = pk::mul(pk::add(OneMinusS, pk::mul(S, Db)), V);
  }
}

template <typename Fn> absl::StatusOr<Outputs> convertColors(const KernelContext &Ctx, Fn Convert) {
  FROST_RETURN_IF_ERROR(checkChannels(Ctx));
  const TensorData &In = Ctx.input(0);
  return dispatch<Float32 | Float64>(Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(In);
    OutputOf<T> Out(shapeOf(In));
    Convert(X.data(), Out.data(), X.size() / 3);
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace

absl::StatusOr<Outputs> evalRGBToHSV(const KernelContext &Ctx) {
  return convertColors(Ctx, [](const auto *In, auto *Out, int64_t N) { rgbToHsv(In, Out, N); });
}

absl::StatusOr<Outputs> evalHSVToRGB(const KernelContext &Ctx) {
  return convertColors(Ctx, [](const auto *In, auto *Out, int64_t N) { hsvToRgb(In, Out, N); });
}

absl::StatusOr<Outputs> evalAdjustContrastv2(const KernelContext &Ctx) {
  // mean + (x - mean) * factor per image and channel, the mean over height
  // and width; TensorFlow sums in float with Eigen's tree reduction, Frost
  // in double (a run kernel: within a few float epsilons of the largest
  // |output|, measured by scripts/compare_elementwise_with_tf.py).
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &Factor = Ctx.input(1);
  if (In.shape().size() < 3)
    return Ctx.invalid(absl::StrCat("input must be at least 3-D, got shape",
                                    shapeString(In.shape())));
  if (!Factor.shape().empty())
    return Ctx.invalid(absl::StrCat("contrast_factor must be scalar: ",
                                    shapeString(Factor.shape())));
  if (Factor.dtype() != tensorflow::DT_FLOAT)
    return Ctx.unimplementedType(Factor.dtype());
  const float F = ElementsOf<float>(Factor)[0];
  const size_t Rank = In.shape().size();
  const int64_t C = In.shape()[Rank - 1], Pixels = In.shape()[Rank - 2] * In.shape()[Rank - 3];
  // TensorFlow's CPU kernel takes float only.
  return dispatch<Float32>(Ctx, In.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(In);
    OutputOf<T> Out(shapeOf(In));
    const int64_t Images = Pixels * C == 0 ? 0 : X.size() / (Pixels * C);
    for (int64_t B = 0; B < Images; ++B)
      for (int64_t K = 0; K < C; ++K) {
        const int64_t Base = B * Pixels * C + K;
        double Sum = 0;
        for (int64_t P = 0; P < Pixels; ++P)
          Sum += static_cast<float>(X[Base + P * C]);
        const T Mean = T(static_cast<float>(Sum) / static_cast<float>(Pixels));
        for (int64_t P = 0; P < Pixels; ++P) {
          const T V = X[Base + P * C];
          Out[Base + P * C] = T(Mean + T(static_cast<float>(T(V - Mean)) * F));
        }
      }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace frost::eval
