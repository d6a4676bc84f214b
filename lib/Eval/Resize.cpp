//===- Resize.cpp - Image resizing and cropping ---------------------------===//
//
// TensorFlow's ResizeBilinear, ResizeArea (float output) and
// ResizeNearestNeighbor (the input's dtype), NHWC, with align_corners and
// half_pixel_centers: source coordinates, weights and interpolations in
// float in TensorFlow's order (top row, bottom row, then between them), so
// within rounding of TensorFlow's, usually identical (kernels for running
// graphs). ResizeBicubic and CropAndResize (float output) follow
// TensorFlow's CPU kernels step for step (the bicubic weight table, the
// crop's float and double arithmetic) and are bit for bit its results
// (scripts/compare_resize_with_tf.py).
//
//===----------------------------------------------------------------------===//
#include "ImageSupport.h"

#include <array>
#include <cmath>
#include <limits>

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

/// How far apart output rows (columns) are in the input's coordinates
/// (TensorFlow's CalculateResizeScale: aligning the corners of a single row
/// aligns nothing).
float resizeScale(int64_t In, int64_t Out, bool AlignCorners) {
  return AlignCorners && In > 1 && Out > 1
             ? static_cast<float>(In - 1) / static_cast<float>(Out - 1)
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
  // ImageResizerState's checks, in its order.
  if (P.HalfPixelCenters && P.AlignCorners)
    return Ctx.invalid("If half_pixel_centers is True, align_corners must be False.");
  FROST_ASSIGN_OR_RETURN(P.In, imageShapeOf(Ctx, 0, DataFormat::NHWC, "input"));
  if (P.In.C <= 0)
    return Ctx.invalid("image must have at least one channel");
  if (P.In.H <= 0 || P.In.W <= 0)
    return Ctx.invalid("input image must be of non-zero size");
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

namespace {

/// Entries of TensorFlow's table of cubic weights: 1024 steps between two
/// input pixels.
constexpr int64_t BicubicTableSize = 1024;

/// TensorFlow's table of cubic convolution weights for coefficient `A`:
/// entry 2i is the weight of a tap i/1024 of a pixel away, 2i+1 of a tap
/// 1 + i/1024 away; computed in double from the float offset, stored as
/// float.
std::vector<float> bicubicTable(double A) {
  std::vector<float> Table(static_cast<size_t>((BicubicTableSize + 1) * 2));
  for (int64_t I = 0; I <= BicubicTableSize; ++I) {
    float X = static_cast<float>(static_cast<double>(I) / BicubicTableSize);
    Table[2 * I] = static_cast<float>(((A + 2) * X - (A + 3)) * X * X + 1);
    X = static_cast<float>(X + 1.0);
    Table[2 * I + 1] = static_cast<float>(((A * X - 5 * A) * X + 8 * A) * X - 4 * A);
  }
  return Table;
}

/// The four input rows (columns) an output row reads, and their weights.
struct CubicTaps {
  std::array<int64_t, 4> Index{};
  std::array<float, 4> Weight{};
};

/// The taps of output row (column) `Out` over `Limit` input rows, as
/// TensorFlow's GetWeightsAndIndices computes them: the weights of the
/// nearest table entry; with half-pixel centers (Keys' cubic) taps outside
/// the image weigh 0 and the rest are renormalized, else the edge pixel is
/// repeated.
CubicTaps cubicTaps(int64_t Out, float Scale, int64_t Limit, bool HalfPixelCenters,
                    const std::vector<float> &Table) {
  const float InF = HalfPixelCenters ? (static_cast<float>(Out) + 0.5f) * Scale - 0.5f
                                     : static_cast<float>(Out) * Scale;
  const int64_t In = static_cast<int64_t>(std::floor(InF));
  const float Delta = InF - static_cast<float>(In);
  const int64_t Offset = std::lrint(Delta * static_cast<float>(BicubicTableSize));
  const std::array<float, 4> FromTable = {Table[Offset * 2 + 1], Table[Offset * 2],
                                          Table[(BicubicTableSize - Offset) * 2],
                                          Table[(BicubicTableSize - Offset) * 2 + 1]};
  CubicTaps T;
  for (int64_t K = 0; K < 4; ++K) {
    const int64_t Wanted = In - 1 + K;
    T.Index[K] = std::min(Limit - 1, std::max<int64_t>(0, Wanted));
    T.Weight[K] = !HalfPixelCenters || T.Index[K] == Wanted ? FromTable[K] : 0.0f;
  }
  if (HalfPixelCenters) {
    const float Sum = T.Weight[0] + T.Weight[1] + T.Weight[2] + T.Weight[3];
    if (std::abs(Sum) >= 1000.0f * std::numeric_limits<float>::min()) {
      const float OneOverSum = 1.0f / Sum;
      for (float &W : T.Weight)
        W *= OneOverSum;
    }
  }
  return T;
}

/// The weighted sum of four values, in float, left to right.
float cubicSum(const std::array<float, 4> &W, float V0, float V1, float V2, float V3) {
  return V0 * W[0] + V1 * W[1] + V2 * W[2] + V3 * W[3];
}

} // namespace

absl::StatusOr<Outputs> evalResizeBicubic(const KernelContext &Ctx) {
  // Each output pixel: the four tap columns, each interpolated down its four
  // tap rows, then interpolated across; in float in TensorFlow's order.
  FROST_ASSIGN_OR_RETURN(ResizePlan P, planResize(Ctx, tensorflow::DT_FLOAT));
  const TensorData &Images = Ctx.input(0);
  return dispatch<ResizeTypes>(Ctx, Images.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    const std::vector<float> Table = bicubicTable(P.HalfPixelCenters ? -0.5 : -0.75);
    const float HeightScale = resizeScale(P.In.H, P.Out.H, P.AlignCorners);
    const float WidthScale = resizeScale(P.In.W, P.Out.W, P.AlignCorners);
    std::vector<CubicTaps> Xs;
    for (int64_t X = 0; X < P.Out.W; ++X)
      Xs.push_back(cubicTaps(X, WidthScale, P.In.W, P.HalfPixelCenters, Table));
    const std::vector<float> In = elementsAs<T, float>(Images);
    OutputOf<float> Out(P.Out.dims(DataFormat::NHWC));
    const int64_t C = P.In.C, Row = P.In.W * C;
    float *O = Out.data();
    for (int64_t N = 0; N < P.In.N; ++N)
      for (int64_t Y = 0; Y < P.Out.H; ++Y) {
        const CubicTaps Ys = cubicTaps(Y, HeightScale, P.In.H, P.HalfPixelCenters, Table);
        const float *Image = In.data() + N * P.In.H * Row;
        const float *R0 = Image + Ys.Index[0] * Row, *R1 = Image + Ys.Index[1] * Row;
        const float *R2 = Image + Ys.Index[2] * Row, *R3 = Image + Ys.Index[3] * Row;
        for (const CubicTaps &X : Xs)
          for (int64_t K = 0; K < C; ++K, ++O) {
            std::array<float, 4> Column;
            for (size_t J = 0; J < 4; ++J) {
              const int64_t At = X.Index[J] * C + K;
              Column[J] = cubicSum(Ys.Weight, R0[At], R1[At], R2[At], R3[At]);
            }
            *O = cubicSum(X.Weight, Column[0], Column[1], Column[2], Column[3]);
          }
      }
    return Outputs{std::move(Out).finish()};
  });
}

namespace {

/// Where crop row (column) `I` of `CropSize` samples a box side running from
/// `Lo` to `Hi` (normalized) in an image side of `Size` pixels, in
/// TensorFlow's arithmetic: `Scale` is (Hi - Lo) * (Size - 1) / (CropSize -
/// 1) in float, and a crop of size 1 samples the middle, computed in double.
float cropCoordinate(int64_t I, float Lo, float Hi, float Scale, int64_t CropSize,
                     int64_t Size) {
  const float Last = static_cast<float>(Size - 1);
  if (CropSize > 1)
    return Lo * Last + static_cast<float>(I) * Scale;
  return static_cast<float>(0.5 * static_cast<double>(Lo + Hi) * static_cast<double>(Last));
}

absl::Status overflowingBox(const KernelContext &Ctx, int64_t B) {
  return Ctx.invalid(absl::StrCat("box ", B,
                                  " samples at NaN (its coordinates overflow float): TensorFlow's "
                                  "kernel would read outside the image"));
}

} // namespace

absl::StatusOr<Outputs> evalCropAndResize(const KernelContext &Ctx) {
  // TensorFlow's crop_and_resize_op.cc: its checks and messages in its
  // order, then per box and crop pixel the sampling point; points outside
  // the image get extrapolation_value, the others are read bilinearly
  // (float lerps: top row, bottom row, between them) or from the nearest
  // pixel (roundf).
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(4));
  FROST_ASSIGN_OR_RETURN(std::string Method, Ctx.stringAttr("method", "bilinear"));
  if (Method != "bilinear" && Method != "nearest")
    return Ctx.invalid(absl::StrCat("method must be 'bilinear' or 'nearest'", Method));
  FROST_ASSIGN_OR_RETURN(float Extrapolation, Ctx.floatAttr("extrapolation_value", 0.0f));
  const TensorData &Images = Ctx.input(0), &Boxes = Ctx.input(1), &BoxIndex = Ctx.input(2),
                   &CropSize = Ctx.input(3);
  if (Boxes.dtype() != tensorflow::DT_FLOAT || BoxIndex.dtype() != tensorflow::DT_INT32 ||
      CropSize.dtype() != tensorflow::DT_INT32)
    return Ctx.unimplemented("boxes other than float, box_ind or crop_size other than int32");
  if (Images.shape().size() != 4)
    return Ctx.invalid(absl::StrCat("input image must be 4-D", shapeOf(Images)));
  const ImageShape In{Images.shape()[0], Images.shape()[1], Images.shape()[2],
                      Images.shape()[3]};
  if (In.H <= 0 || In.W <= 0)
    return Ctx.invalid("image dimensions must be positive");
  if (Boxes.shape().size() != 2)
    return Ctx.invalid(absl::StrCat("boxes must be 2-D, got: ", shapeOf(Boxes)));
  if (BoxIndex.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("box_indices must be rank 1 but is shape ", shapeOf(BoxIndex)));
  int64_t NumBoxes = 0;
  if (Boxes.numElements() != 0 || BoxIndex.numElements() != 0) {
    NumBoxes = Boxes.shape()[0];
    if (Boxes.shape()[1] != 4)
      return Ctx.invalid("boxes must have 4 columns");
    if (BoxIndex.shape()[0] != NumBoxes)
      return Ctx.invalid("box_index has incompatible shape");
  }
  if (CropSize.shape().size() != 1)
    return Ctx.invalid(absl::StrCat("crop_size must be 1-D", shapeOf(CropSize)));
  if (CropSize.shape()[0] != 2)
    return Ctx.invalid(absl::StrCat("crop_size must have two elements", shapeOf(CropSize)));
  ElementsOf<int32_t> Crop(CropSize);
  const int64_t CropH = Crop[0], CropW = Crop[1];
  if (CropH <= 0 || CropW <= 0)
    return Ctx.invalid("crop dimensions must be positive");
  const ImageShape OutShape{NumBoxes, CropH, CropW, In.C};
  FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, tensorflow::DT_FLOAT, OutShape));
  ElementsOf<int32_t> Index(BoxIndex);
  for (int64_t B = 0; B < NumBoxes; ++B)
    if (Index[B] < 0 || Index[B] >= In.N)
      return absl::OutOfRangeError(
          absl::StrCat(Ctx.op().str(), ": box_index has values outside [0, batch_size)"));
  ElementsOf<float> Box(Boxes);
  for (int64_t I = 0; I < Box.size(); ++I)
    if (!std::isfinite(Box[I]))
      return Ctx.invalid("Boxes contains at least one element that is not finite");

  // TensorFlow's real number types but bfloat16.
  constexpr unsigned CropTypes = Float32 | Float64 | Half | Int8 | UInt8 | Int16 | UInt16 |
                                 Int32 | Int64;
  return dispatch<CropTypes>(Ctx, Images.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> Image(Images);
    OutputOf<float> Out(OutShape.dims(DataFormat::NHWC));
    const int64_t C = In.C;
    auto Pixel = [&](int64_t N, int64_t Y, int64_t X) {
      return Image.data() + ((N * In.H + Y) * In.W + X) * C;
    };
    float *O = Out.data();
    for (int64_t B = 0; B < NumBoxes; ++B) {
      const float Y1 = Box[B * 4], X1 = Box[B * 4 + 1], Y2 = Box[B * 4 + 2],
                  X2 = Box[B * 4 + 3];
      const int64_t N = Index[B];
      const float HeightScale =
          CropH > 1 ? (Y2 - Y1) * static_cast<float>(In.H - 1) / static_cast<float>(CropH - 1)
                    : 0.0f;
      const float WidthScale =
          CropW > 1 ? (X2 - X1) * static_cast<float>(In.W - 1) / static_cast<float>(CropW - 1)
                    : 0.0f;
      for (int64_t Y = 0; Y < CropH; ++Y) {
        const float InY = cropCoordinate(Y, Y1, Y2, HeightScale, CropH, In.H);
        // A box so large that its arithmetic overflows samples at NaN,
        // where TensorFlow's kernel reads outside the image (and crashes):
        // a graph no one can run.
        if (std::isnan(InY))
          return overflowingBox(Ctx, B);
        if (InY < 0 || InY > static_cast<float>(In.H - 1)) {
          O = std::fill_n(O, CropW * C, Extrapolation);
          continue;
        }
        for (int64_t X = 0; X < CropW; ++X) {
          const float InX = cropCoordinate(X, X1, X2, WidthScale, CropW, In.W);
          if (std::isnan(InX))
            return overflowingBox(Ctx, B);
          if (InX < 0 || InX > static_cast<float>(In.W - 1)) {
            O = std::fill_n(O, C, Extrapolation);
            continue;
          }
          if (Method == "nearest") {
            const T *P = Pixel(N, static_cast<int64_t>(std::round(InY)),
                               static_cast<int64_t>(std::round(InX)));
            for (int64_t K = 0; K < C; ++K)
              *O++ = static_cast<float>(P[K]);
            continue;
          }
          const int64_t Top = static_cast<int64_t>(std::floor(InY));
          const int64_t Bottom = static_cast<int64_t>(std::ceil(InY));
          const int64_t Left = static_cast<int64_t>(std::floor(InX));
          const int64_t Right = static_cast<int64_t>(std::ceil(InX));
          const float YLerp = InY - static_cast<float>(Top);
          const float XLerp = InX - static_cast<float>(Left);
          const T *TL = Pixel(N, Top, Left), *TR = Pixel(N, Top, Right);
          const T *BL = Pixel(N, Bottom, Left), *BR = Pixel(N, Bottom, Right);
          for (int64_t K = 0; K < C; ++K) {
            const float TopLeft = static_cast<float>(TL[K]), TopRight = static_cast<float>(TR[K]);
            const float BottomLeft = static_cast<float>(BL[K]);
            const float BottomRight = static_cast<float>(BR[K]);
            const float TopValue = TopLeft + (TopRight - TopLeft) * XLerp;
            const float BottomValue = BottomLeft + (BottomRight - BottomLeft) * XLerp;
            *O++ = TopValue + (BottomValue - TopValue) * YLerp;
          }
        }
      }
    }
    return Outputs{std::move(Out).finish()};
  });
}

} // namespace frost::eval
