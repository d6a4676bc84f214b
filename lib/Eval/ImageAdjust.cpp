//===- ImageAdjust.cpp - AdjustHue, AdjustSaturation ----------------------===//
//
// TensorFlow's adjust_hue_op.cc and adjust_saturation_op.cc on CPU (float
// only, as TensorFlow registers them): each RGB pixel goes to hue and value
// range (AdjustHue) or to HSV (AdjustSaturation) with those kernels' own
// helpers, not RGBToHSV's, is adjusted, and comes back. The arithmetic is
// theirs, in float and in their order (a double constant where they add one),
// so results are bit for bit TensorFlow's.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include <algorithm>
#include <cmath>

namespace frost::eval {

namespace {

constexpr int64_t ChannelSize = 3;

/// TensorFlow brings a hue back into range by repeated additions: beyond
/// this they take long, and from 2^24 on (or at infinity) never end.
constexpr float LoopBound = 1e4f;

bool loopEnds(float H) { return !(std::fabs(H) > LoopBound); } // NaN: the loops do not run.

/// The checks both ops share; the pixel count on success.
absl::StatusOr<int64_t> checkImage(const KernelContext &Ctx, llvm::StringRef ScaleName) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &Scale = Ctx.input(1);
  if (In.shape().size() < 3)
    return Ctx.invalid(absl::StrCat("input must be at least 3-D, got shape", shapeOf(In)));
  if (!Scale.shape().empty())
    return Ctx.invalid(absl::StrCat(ScaleName.str(), " must be scalar: ", shapeOf(Scale)));
  const int64_t Channels = In.shape().back();
  if (Channels != ChannelSize)
    return Ctx.invalid(absl::StrCat("input must have 3 channels but instead has ", Channels,
                                    " channels."));
  if (In.dtype() != tensorflow::DT_FLOAT || Scale.dtype() != tensorflow::DT_FLOAT)
    return Ctx.unimplementedType(In.dtype() != tensorflow::DT_FLOAT ? In.dtype()
                                                                    : Scale.dtype());
  return In.numElements() / ChannelSize;
}

/// Hue in [0, 6) and the smallest and largest component.
void rgbToHueRange(float R, float G, float B, float &H, float &VMin, float &VMax) {
  float VMid;
  int Category;
  if (R < G) {
    if (B < R) {
      VMax = G, VMid = R, VMin = B, Category = 1;
    } else if (B > G) {
      VMax = B, VMid = G, VMin = R, Category = 3;
    } else {
      VMax = G, VMid = B, VMin = R, Category = 2;
    }
  } else {
    if (B < G) {
      VMax = R, VMid = G, VMin = B, Category = 0;
    } else if (B > R) {
      VMax = B, VMid = R, VMin = G, Category = 4;
    } else {
      VMax = R, VMid = B, VMin = G, Category = 5;
    }
  }
  if (VMax == VMin) {
    H = 0;
    return;
  }
  const float Ratio = (VMid - VMin) / (VMax - VMin);
  const bool Increase = (Category & 1) == 0;
  H = static_cast<float>(Category) + (Increase ? Ratio : 1 - Ratio);
}

void hueRangeToRgb(float H, float VMin, float VMax, float *Out) {
  const int Category = static_cast<int>(H);
  float Ratio = H - static_cast<float>(Category);
  if ((Category & 1) != 0)
    Ratio = 1 - Ratio;
  const float VMid = VMin + Ratio * (VMax - VMin);
  float &R = Out[0], &G = Out[1], &B = Out[2];
  switch (Category) {
  case 0:
    R = VMax, G = VMid, B = VMin;
    break;
  case 1:
    R = VMid, G = VMax, B = VMin;
    break;
  case 2:
    R = VMin, G = VMax, B = VMid;
    break;
  case 3:
    R = VMin, G = VMid, B = VMax;
    break;
  case 4:
    R = VMid, G = VMin, B = VMax;
    break;
  default:
    R = VMax, G = VMin, B = VMid;
  }
}

void rgbToHsv(float R, float G, float B, float &H, float &S, float &V) {
  const float VV = std::max(R, std::max(G, B));
  const float Range = VV - std::min(R, std::min(G, B));
  S = VV > 0 ? Range / VV : 0;
  const float Norm = 1.0f / (6.0f * Range);
  float HH;
  if (R == VV)
    HH = Norm * (G - B);
  else if (G == VV)
    HH = static_cast<float>(Norm * (B - R) + 2.0 / 6.0);
  else
    HH = static_cast<float>(Norm * (R - G) + 4.0 / 6.0);
  if (Range <= 0.0)
    HH = 0;
  if (HH < 0.0)
    HH = HH + 1;
  V = VV;
  H = HH;
}

/// False (and no output) where TensorFlow's loop would not end in time.
bool hsvToRgb(float H, float S, float V, float *Out) {
  const float C = S * V;
  const float M = V - C;
  const float DH = H * 6;
  const int Category = static_cast<int>(DH);
  float FModU = DH;
  if (!loopEnds(FModU))
    return false;
  while (FModU <= 0)
    FModU += 2.0f;
  while (FModU >= 2.0f)
    FModU -= 2.0f;
  const float X = C * (1 - std::abs(FModU - 1));
  float RR = 0, GG = 0, BB = 0;
  switch (Category) {
  case 0:
    RR = C, GG = X;
    break;
  case 1:
    RR = X, GG = C;
    break;
  case 2:
    GG = C, BB = X;
    break;
  case 3:
    GG = X, BB = C;
    break;
  case 4:
    RR = X, BB = C;
    break;
  case 5:
    RR = C, BB = X;
    break;
  default:
    break;
  }
  Out[0] = RR + M;
  Out[1] = GG + M;
  Out[2] = BB + M;
  return true;
}

} // namespace

absl::StatusOr<Outputs> evalAdjustHue(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(int64_t Pixels, checkImage(Ctx, "delta"));
  const TensorData &In = Ctx.input(0);
  const float Delta = ElementsOf<float>(Ctx.input(1))[0];
  ElementsOf<float> X(In);
  OutputOf<float> Out(shapeVector(In));
  constexpr int HueRange = 6;
  for (int64_t P = 0; P < Pixels; ++P) {
    const float *Px = X.data() + P * ChannelSize;
    float H, VMin, VMax;
    rgbToHueRange(Px[0], Px[1], Px[2], H, VMin, VMax);
    H += Delta * HueRange;
    if (!loopEnds(H))
      return Ctx.unimplemented("a hue TensorFlow's kernel takes too long to bring back into "
                               "range (or never does)");
    while (H < 0)
      H += HueRange;
    while (H >= HueRange)
      H -= HueRange;
    hueRangeToRgb(H, VMin, VMax, Out.data() + P * ChannelSize);
  }
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalAdjustSaturation(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(int64_t Pixels, checkImage(Ctx, "scale"));
  const TensorData &In = Ctx.input(0);
  const float Scale = ElementsOf<float>(Ctx.input(1))[0];
  ElementsOf<float> X(In);
  OutputOf<float> Out(shapeVector(In));
  for (int64_t P = 0; P < Pixels; ++P) {
    const float *Px = X.data() + P * ChannelSize;
    float H, S, V;
    rgbToHsv(Px[0], Px[1], Px[2], H, S, V);
    S = std::min(1.0f, std::max(0.0f, S * Scale));
    if (!hsvToRgb(H, S, V, Out.data() + P * ChannelSize))
      return Ctx.unimplemented("a hue TensorFlow's kernel takes too long to bring back into "
                               "range (or never does)");
  }
  return Outputs{std::move(Out).finish()};
}

} // namespace frost::eval
