//===- Resize.cpp - Image resizing, for running graphs --------------------===//
//
// TensorFlow's ResizeBilinear (float output) and ResizeNearestNeighbor (the
// input's dtype), NHWC, with align_corners and half_pixel_centers. Source
// coordinates, weights and interpolations are computed in float in
// TensorFlow's order (top row, bottom row, then between them), so results
// are within rounding of TensorFlow's, usually identical.
//
//===----------------------------------------------------------------------===//
#include "ImageSupport.h"

#include <cmath>

namespace frost::eval {

absl::StatusOr<std::pair<int64_t, int64_t>> resizeSizeInput(const KernelContext &Ctx, size_t I,
                                                            const ImageShape &In) {
  const TensorData &Size = Ctx.input(I);
  if (Size.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat("shape_t must be 1-dimensional", shapeString(Size.shape())));
  if (Size.numElements() != 2)
    return Ctx.invalid(
        absl::StrCat("shape_t must have two elements", shapeString(Size.shape())));
  if (Size.dtype() != tensorflow::DT_INT32)
    return Ctx.unimplemented(
        absl::StrCat("size of dtype ", dataTypeName(Size.dtype()), " (int32 only)"));
  ElementsOf<int32_t> V(Size);
  if (In.H > INT32_MAX || In.W > INT32_MAX)
    return Ctx.invalid("input sizes must be between 0 and max int32");
  if (V[0] <= 0 || V[1] <= 0)
    return Ctx.invalid("output dimensions must be positive");
  if (In.H <= 0 || In.W <= 0)
    return Ctx.invalid("input image must be of non-zero size");
  return std::pair<int64_t, int64_t>(V[0], V[1]);
}

namespace {

/// How far apart output rows (columns) are in the input's coordinates.
float resizeScale(int64_t In, int64_t Out, bool AlignCorners) {
  return AlignCorners && Out > 1 ? static_cast<float>(In - 1) / static_cast<float>(Out - 1)
                                 : static_cast<float>(In) / static_cast<float>(Out);
}

/// The two input rows (columns) an output row reads and the weight of the
/// second.
struct Interpolation {
  int64_t Lower = 0, Upper = 0;
  float Lerp = 0;
};

std::vector<Interpolation> interpolations(int64_t In, int64_t Out, float Scale,
                                          bool HalfPixelCenters) {
  std::vector<Interpolation> W(static_cast<size_t>(Out));
  for (int64_t I = 0; I < Out; ++I) {
    float X = HalfPixelCenters ? (static_cast<float>(I) + 0.5f) * Scale - 0.5f
                               : static_cast<float>(I) * Scale;
    float Floor = std::floor(X);
    W[I].Lower = std::max<int64_t>(static_cast<int64_t>(Floor), 0);
    W[I].Upper = std::min<int64_t>(static_cast<int64_t>(std::ceil(X)), In - 1);
    W[I].Lerp = X - Floor;
  }
  return W;
}

/// The input row (column) nearest to each output row.
std::vector<int64_t> nearest(int64_t In, int64_t Out, float Scale, bool AlignCorners,
                             bool HalfPixelCenters) {
  std::vector<int64_t> Index(static_cast<size_t>(Out));
  for (int64_t I = 0; I < Out; ++I) {
    float X = HalfPixelCenters ? (static_cast<float>(I) + 0.5f) * Scale
                               : static_cast<float>(I) * Scale;
    int64_t K = static_cast<int64_t>(AlignCorners ? std::round(X) : std::floor(X));
    K = std::min(K, In - 1);
    Index[I] = HalfPixelCenters ? std::max<int64_t>(K, 0) : K;
  }
  return Index;
}

/// The attributes and sizes shared by both resizes.
struct ResizePlan {
  ImageShape In, Out;
  bool AlignCorners = false, HalfPixelCenters = false;
};

absl::StatusOr<ResizePlan> planResize(const KernelContext &Ctx, tensorflow::DataType OutType) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  ResizePlan P;
  FROST_ASSIGN_OR_RETURN(P.AlignCorners, Ctx.boolAttr("align_corners", false));
  FROST_ASSIGN_OR_RETURN(P.HalfPixelCenters, Ctx.boolAttr("half_pixel_centers", false));
  FROST_ASSIGN_OR_RETURN(P.In, imageShapeOf(Ctx, 0, DataFormat::NHWC, "input"));
  if (P.HalfPixelCenters && P.AlignCorners)
    return Ctx.invalid("If half_pixel_centers is True, align_corners must be False.");
  FROST_ASSIGN_OR_RETURN(auto Size, resizeSizeInput(Ctx, 1, P.In));
  P.Out = ImageShape{P.In.N, Size.first, Size.second, P.In.C};
  FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, OutType, P.Out));
  return P;
}

/// The dtypes TensorFlow's CPU resizes take: its real number types.
constexpr unsigned ResizeTypes = Floats | Int8 | UInt8 | Int16 | UInt16 | Int32 | Int64;

} // namespace

template <typename V>
std::vector<V> resizeBilinear(const std::vector<V> &In, const ImageShape &Shape, int64_t OutH,
                              int64_t OutW, bool AlignCorners, bool HalfPixelCenters) {
  std::vector<Interpolation> Ys = interpolations(
      Shape.H, OutH, resizeScale(Shape.H, OutH, AlignCorners), HalfPixelCenters);
  std::vector<Interpolation> Xs = interpolations(
      Shape.W, OutW, resizeScale(Shape.W, OutW, AlignCorners), HalfPixelCenters);
  const int64_t C = Shape.C;
  std::vector<V> Out(static_cast<size_t>(Shape.N * OutH * OutW * C));
  V *O = Out.data();
  for (int64_t N = 0; N < Shape.N; ++N) {
    const V *Image = In.data() + N * Shape.H * Shape.W * C;
    for (const Interpolation &Y : Ys) {
      const V *Top = Image + Y.Lower * Shape.W * C, *Bottom = Image + Y.Upper * Shape.W * C;
      const V YLerp = Y.Lerp;
      for (const Interpolation &X : Xs) {
        const V XLerp = X.Lerp;
        for (int64_t K = 0; K < C; ++K, ++O) {
          V TopLeft = Top[X.Lower * C + K], TopRight = Top[X.Upper * C + K];
          V BottomLeft = Bottom[X.Lower * C + K], BottomRight = Bottom[X.Upper * C + K];
          V TopValue = TopLeft + (TopRight - TopLeft) * XLerp;
          V BottomValue = BottomLeft + (BottomRight - BottomLeft) * XLerp;
          *O = TopValue + (BottomValue - TopValue) * YLerp;
        }
      }
    }
  }
  return Out;
}

template std::vector<float> resizeBilinear(const std::vector<float> &, const ImageShape &,
                                           int64_t, int64_t, bool, bool);
template std::vector<double> resizeBilinear(const std::vector<double> &, const ImageShape &,
                                            int64_t, int64_t, bool, bool);

absl::StatusOr<Outputs> evalResizeBilinear(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(ResizePlan P, planResize(Ctx, tensorflow::DT_FLOAT));
  const TensorData &Images = Ctx.input(0);
  return dispatch<ResizeTypes>(Ctx, Images.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<float> Out =
            resizeBilinear<float>(elementsAs<T, float>(Images), P.In, P.Out.H, P.Out.W,
                                  P.AlignCorners, P.HalfPixelCenters);
        return Outputs{imageFromNhwc<float>(Out, P.Out, DataFormat::NHWC)};
      });
}

absl::StatusOr<Outputs> evalResizeNearestNeighbor(const KernelContext &Ctx) {
  const TensorData &Images = Ctx.input(0);
  FROST_ASSIGN_OR_RETURN(ResizePlan P, planResize(Ctx, Images.dtype()));
  return dispatch<ResizeTypes>(Ctx, Images.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<int64_t> Ys =
            nearest(P.In.H, P.Out.H, resizeScale(P.In.H, P.Out.H, P.AlignCorners),
                    P.AlignCorners, P.HalfPixelCenters);
        std::vector<int64_t> Xs =
            nearest(P.In.W, P.Out.W, resizeScale(P.In.W, P.Out.W, P.AlignCorners),
                    P.AlignCorners, P.HalfPixelCenters);
        ElementsOf<T> In(Images);
        OutputOf<T> Out(P.Out.dims(DataFormat::NHWC));
        const int64_t C = P.In.C;
        T *O = Out.data();
        for (int64_t N = 0; N < P.In.N; ++N)
          for (int64_t Y : Ys)
            for (int64_t X : Xs) {
              const T *S = In.data() + ((N * P.In.H + Y) * P.In.W + X) * C;
              O = std::copy(S, S + C, O);
            }
        return Outputs{std::move(Out).finish()};
      });
}

namespace {

/// One output row's (column's) span of input rows in ResizeArea: each
/// covered input row with its share of the output pixel, in float as
/// TensorFlow computes it.
struct AreaSpan {
  std::vector<int64_t> Index;
  std::vector<float> Weight;
};

AreaSpan areaSpan(int64_t Out, int64_t InSize, float Scale) {
  AreaSpan S;
  const float In0 = static_cast<float>(Out) * Scale, In1 = static_cast<float>(Out + 1) * Scale;
  const int64_t Start = static_cast<int64_t>(std::floor(In0));
  const int64_t End = static_cast<int64_t>(std::ceil(In1));
  for (int64_t I = Start; I < End; ++I) {
    float W;
    if (static_cast<float>(I) < In0)
      W = static_cast<float>(I + 1) > In1 ? Scale : static_cast<float>(I + 1) - In0;
    else
      W = static_cast<float>(I + 1) > In1 ? In1 - static_cast<float>(I) : 1.0f;
    S.Index.push_back(std::min(I, InSize - 1));
    S.Weight.push_back(W);
  }
  return S;
}

} // namespace

absl::StatusOr<Outputs> evalResizeArea(const KernelContext &Ctx) {
  // Each output pixel is the mean of the input area it covers: per input
  // row, the weighted sum of its columns, then the rows' sums weighted,
  // times 1 / (row scale * column scale), all in float.
  FROST_ASSIGN_OR_RETURN(ResizePlan P, planResize(Ctx, tensorflow::DT_FLOAT));
  const TensorData &Images = Ctx.input(0);
  return dispatch<ResizeTypes>(Ctx, Images.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const float HeightScale = resizeScale(P.In.H, P.Out.H, P.AlignCorners);
    const float WidthScale = resizeScale(P.In.W, P.Out.W, P.AlignCorners);
    const float Scale = static_cast<float>(1.0 / (HeightScale * WidthScale));
    std::vector<AreaSpan> Xs;
    for (int64_t X = 0; X < P.Out.W; ++X)
      Xs.push_back(areaSpan(X, P.In.W, WidthScale));
    ElementsOf<T> In(Images);
    OutputOf<float> Out(P.Out.dims(DataFormat::NHWC));
    const int64_t C = P.In.C;
    float *O = Out.data();
    for (int64_t N = 0; N < P.In.N; ++N)
      for (int64_t Y = 0; Y < P.Out.H; ++Y) {
        const AreaSpan Ys = areaSpan(Y, P.In.H, HeightScale);
        for (const AreaSpan &Xspan : Xs)
          for (int64_t K = 0; K < C; ++K, ++O) {
            float Sum = 0;
            for (size_t I = 0; I < Ys.Index.size(); ++I) {
              const T *Row = In.data() + (N * P.In.H + Ys.Index[I]) * P.In.W * C;
              float RowSum = 0;
              for (size_t J = 0; J < Xspan.Index.size(); ++J)
                RowSum += static_cast<float>(Row[Xspan.Index[J] * C + K]) * Xspan.Weight[J];
              Sum += RowSum * Ys.Weight[I];
            }
            *O = Sum * Scale;
          }
      }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace frost::eval
