//===- Pooling.cpp - Max and average pooling, for running graphs ----------===//
//
// TensorFlow's MaxPool, MaxPoolV2 (window and strides as inputs) and AvgPool
// over rows and columns, NHWC or NCHW, and MaxPool3D and AvgPool3D over
// planes, rows and columns, NDHWC or NCDHW (TensorFlow's CPU kernels take
// channels last only; their SAME windows are Eigen's, see cuboidWindowOf).
// Padded positions are left out: a maximum over the valid elements of the
// window, an average dividing by their count, as TensorFlow's do. Maxima
// are exact; averages are summed in double and rounded once (TensorFlow sums
// in the element type), so they are within rounding of TensorFlow's. Pooling
// across channels (a depth window) is Unimplemented. MaxPoolWithArgmax
// (exact: maxima and their indices) is bit for bit TensorFlow's.
//
//===----------------------------------------------------------------------===//
#include "ImageSupport.h"

#include <limits>

namespace frost::eval {

namespace {

struct PoolPlan {
  DataFormat Format = DataFormat::NHWC;
  ImageShape In, Out;
  int64_t KH = 1, KW = 1, StrideH = 1, StrideW = 1, PadTop = 0, PadLeft = 0;
};

/// The window (ksize) and strides, attributes or (MaxPoolV2) inputs 1 and 2,
/// checked as TensorFlow's pooling kernels do, into a plan.
absl::StatusOr<PoolPlan> planPool(const KernelContext &Ctx, bool AllowExplicit) {
  const bool FromInputs = Ctx.op() == "MaxPoolV2";
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(FromInputs ? 3 : 1));
  PoolPlan P;
  FROST_ASSIGN_OR_RETURN(P.Format, dataFormatAttr(Ctx));
  std::vector<int64_t> KSize, Strides;
  if (FromInputs) {
    FROST_ASSIGN_OR_RETURN(KSize, intElements(Ctx, 1, dtypeBit(tensorflow::DT_INT32)));
    FROST_ASSIGN_OR_RETURN(Strides, intElements(Ctx, 2, dtypeBit(tensorflow::DT_INT32)));
  } else {
    FROST_ASSIGN_OR_RETURN(KSize, Ctx.intListAttr("ksize"));
    FROST_ASSIGN_OR_RETURN(Strides, Ctx.intListAttr("strides"));
  }
  if (KSize.size() != 4)
    return Ctx.invalid("Sliding window ksize field must specify 4 dimensions");
  if (Strides.size() != 4)
    return Ctx.invalid("Sliding window stride field must specify 4 dimensions");
  for (size_t I = 0; I < 4; ++I)
    if (KSize[I] <= 0)
      return Ctx.invalid(
          absl::StrCat("Sliding window ksize for dimension ", I, " was zero."));
  Dims4 K = inNhwcOrder(KSize, P.Format), S = inNhwcOrder(Strides, P.Format);
  if (K.N != 1 || S.N != 1)
    return Ctx.unimplemented("Pooling is not yet supported on the batch dimension.");
  if (K.C != 1 || S.C != 1)
    return Ctx.unimplemented("pooling across channels");
  FROST_ASSIGN_OR_RETURN(Padding Pad, paddingAttr(Ctx, AllowExplicit));
  std::array<int64_t, 4> Explicit{};
  if (AllowExplicit) {
    FROST_ASSIGN_OR_RETURN(Explicit, explicitPaddings(Ctx, Pad, P.Format));
  }
  FROST_ASSIGN_OR_RETURN(P.In, imageShapeOf(Ctx, 0, P.Format, "input"));
  P.KH = K.H, P.KW = K.W, P.StrideH = S.H, P.StrideW = S.W;
  FROST_ASSIGN_OR_RETURN(Window Rows,
                         windowOf(Ctx, P.In.H, K.H, 1, S.H, Pad, Explicit[0], Explicit[1]));
  FROST_ASSIGN_OR_RETURN(Window Cols,
                         windowOf(Ctx, P.In.W, K.W, 1, S.W, Pad, Explicit[2], Explicit[3]));
  P.Out = ImageShape{P.In.N, Rows.Out, Cols.Out, P.In.C};
  P.PadTop = Rows.PadBefore, P.PadLeft = Cols.PadBefore;
  FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Ctx.input(0).dtype(), P.Out));
  return P;
}

/// Calls `Visit(Out, Pixel)` for each output pixel (a pointer to its C
/// values) with the input pixels of its window (pointers), valid ones only.
template <typename V, typename Fn> void forEachWindow(const PoolPlan &P, const V *In, V *Out,
                                                      Fn &&Visit) {
  std::vector<const V *> Pixels;
  for (int64_t N = 0; N < P.Out.N; ++N)
    for (int64_t OY = 0; OY < P.Out.H; ++OY)
      for (int64_t OX = 0; OX < P.Out.W; ++OX) {
        Pixels.clear();
        int64_t Y0 = OY * P.StrideH - P.PadTop, X0 = OX * P.StrideW - P.PadLeft;
        for (int64_t Y = std::max<int64_t>(Y0, 0); Y < std::min(Y0 + P.KH, P.In.H); ++Y)
          for (int64_t X = std::max<int64_t>(X0, 0); X < std::min(X0 + P.KW, P.In.W); ++X)
            Pixels.push_back(In + ((N * P.In.H + Y) * P.In.W + X) * P.In.C);
        Visit(Out + ((N * P.Out.H + OY) * P.Out.W + OX) * P.Out.C, Pixels);
      }
}

/// A 3-D pooling (MaxPool3D, AvgPool3D) in NDHWC terms.
struct Pool3DPlan {
  DataFormat Format = DataFormat::NHWC;
  VolumeShape In, Out;
  std::array<int64_t, 3> K{}, Stride{}, PadBefore{};
};

/// ksize, strides, padding and data_format of a 3-D pooling, checked as
/// TensorFlow's Pooling3DOp does, into a plan.
absl::StatusOr<Pool3DPlan> planPool3D(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  Pool3DPlan P;
  FROST_ASSIGN_OR_RETURN(P.Format, volumeFormatAttr(Ctx));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> KSize, Ctx.intListAttr("ksize"));
  if (KSize.size() != 5)
    return Ctx.invalid("Sliding window ksize field must specify 5 dimensions");
  if (*std::min_element(KSize.begin(), KSize.end()) <= 0)
    return Ctx.invalid("Sliding window ksize field must have non-negative dimensions");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Strides, Ctx.intListAttr("strides"));
  if (Strides.size() != 5)
    return Ctx.invalid("Sliding window stride field must specify 5 dimensions");
  FROST_ASSIGN_OR_RETURN(Padding Pad, paddingAttr(Ctx, /*AllowExplicit=*/false));
  VolumeShape K = inNdhwcOrder(KSize, P.Format), S = inNdhwcOrder(Strides, P.Format);
  if (K.N != 1 || S.N != 1)
    return Ctx.unimplemented("Pooling is not yet supported on the batch dimension.");
  if (K.C != 1 || S.C != 1)
    return Ctx.unimplemented("Pooling is not yet supported on the depth dimension.");
  FROST_ASSIGN_OR_RETURN(P.In, volumeShapeOf(Ctx, Ctx.input(0).shape(), P.Format, "tensor_in"));
  P.K = K.S, P.Stride = S.S;
  P.Out.N = P.In.N, P.Out.C = P.In.C;
  for (size_t D = 0; D < 3; ++D) {
    FROST_ASSIGN_OR_RETURN(Window W,
                           cuboidWindowOf(Ctx, P.In.S[D], P.K[D], 1, P.Stride[D], Pad));
    P.Out.S[D] = W.Out, P.PadBefore[D] = W.PadBefore;
  }
  FROST_RETURN_IF_ERROR(
      checkOutputShape(Ctx, Ctx.input(0).dtype(), P.Out.dims(P.Format)).status());
  return P;
}

/// forEachWindow over planes, rows and columns.
template <typename V, typename Fn> void forEachWindow(const Pool3DPlan &P, const V *In, V *Out,
                                                      Fn &&Visit) {
  std::vector<const V *> Pixels;
  const auto &IS = P.In.S, &OS = P.Out.S;
  std::array<int64_t, 3> Begin, End;
  for (int64_t N = 0; N < P.Out.N; ++N)
    for (int64_t OD = 0; OD < OS[0]; ++OD)
      for (int64_t OY = 0; OY < OS[1]; ++OY)
        for (int64_t OX = 0; OX < OS[2]; ++OX) {
          const int64_t O[3] = {OD, OY, OX};
          for (size_t D = 0; D < 3; ++D) {
            int64_t First = O[D] * P.Stride[D] - P.PadBefore[D];
            Begin[D] = std::max<int64_t>(First, 0);
            End[D] = std::min(First + P.K[D], IS[D]);
          }
          Pixels.clear();
          for (int64_t Z = Begin[0]; Z < End[0]; ++Z)
            for (int64_t Y = Begin[1]; Y < End[1]; ++Y)
              for (int64_t X = Begin[2]; X < End[2]; ++X)
                Pixels.push_back(In + (((N * IS[0] + Z) * IS[1] + Y) * IS[2] + X) * P.In.C);
          Visit(Out + (((N * OS[0] + OD) * OS[1] + OY) * OS[2] + OX) * P.Out.C, Pixels);
        }
}

/// The maxima of each window of `X` (channels last), for a PoolPlan or a
/// Pool3DPlan. Eigen's max reducer starts from -inf (the lowest integer).
template <typename T, typename Plan> std::vector<T> maxPooled(const Plan &P, const std::vector<T> &X) {
  T Lowest = Eigen::NumTraits<T>::lowest();
  if constexpr (!std::is_integral_v<T>)
    Lowest = T(-std::numeric_limits<float>::infinity());
  std::vector<T> Out(static_cast<size_t>(P.Out.elements()));
  forEachWindow(P, X.data(), Out.data(), [&](T *O, llvm::ArrayRef<const T *> Pixels) {
    for (int64_t C = 0; C < P.Out.C; ++C) {
      T Best = Lowest;
      for (const T *Pixel : Pixels)
        Best = Pixel[C] > Best ? Pixel[C] : Best;
      O[C] = Best;
    }
  });
  return Out;
}

/// The averages of each window's valid elements of `X` (channels last).
template <typename Plan>
std::vector<double> averagePooled(const Plan &P, const std::vector<double> &X) {
  std::vector<double> Out(static_cast<size_t>(P.Out.elements()));
  forEachWindow(P, X.data(), Out.data(), [&](double *O, llvm::ArrayRef<const double *> Pixels) {
    for (int64_t C = 0; C < P.Out.C; ++C) {
      double Sum = 0;
      for (const double *Pixel : Pixels)
        Sum += Pixel[C];
      O[C] = Sum / static_cast<double>(Pixels.size());
    }
  });
  return Out;
}

} // namespace

// MaxPool and MaxPoolV2: TensorFlow's real number types.
absl::StatusOr<Outputs> evalMaxPool(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(PoolPlan P, planPool(Ctx, /*AllowExplicit=*/Ctx.op() == "MaxPool"));
  const TensorData &Input = Ctx.input(0);
  return dispatch<Floats | Ints>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<T> X = nhwcElements<T, T>(Input, P.In, P.Format);
        return Outputs{imageFromNhwc<T>(maxPooled(P, X), P.Out, P.Format)};
      });
}

// AvgPool: float, double, half, bfloat16.
absl::StatusOr<Outputs> evalAvgPool(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(PoolPlan P, planPool(Ctx, /*AllowExplicit=*/false));
  const TensorData &Input = Ctx.input(0);
  return dispatch<Floats>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> X = nhwcElements<T, double>(Input, P.In, P.Format);
        return Outputs{imageFromNhwc<T>(averagePooled(P, X), P.Out, P.Format)};
      });
}

// MaxPool3D and AvgPool3D: float, bfloat16 (TensorFlow's CPU kernels);
// NCDHW too (TensorFlow's CPU kernels refuse it).
absl::StatusOr<Outputs> evalPool3D(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(Pool3DPlan P, planPool3D(Ctx));
  const TensorData &Input = Ctx.input(0);
  const bool Max = Ctx.op() == "MaxPool3D";
  return dispatch<Float32 | BFloat16>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        const VolumeShape &In = P.In;
        if (Max) {
          auto X = channelsLastElements<T, T>(Input, In.N, In.plane(), In.C, P.Format);
          return Outputs{volumeFromNdhwc<T>(maxPooled(P, X), P.Out, P.Format)};
        }
        auto X = channelsLastElements<T, double>(Input, In.N, In.plane(), In.C, P.Format);
        return Outputs{volumeFromNdhwc<T>(averagePooled(P, X), P.Out, P.Format)};
      });
}

// MaxPoolWithArgmax: TensorFlow's real number types, int64 argmax (its only
// CPU registration). Like TensorFlow's CPU kernel, it visits the input pixels
// in order and offers each to the windows that hold it: a window keeps the
// first of equal maxima, and its first pixel even when that is NaN. The
// argmax is the flat NHWC index, with or without the batch.
absl::StatusOr<Outputs> evalMaxPoolWithArgmax(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(PoolPlan P, planPool(Ctx, /*AllowExplicit=*/false));
  FROST_ASSIGN_OR_RETURN(tensorflow::DataType ArgmaxType, Ctx.typeAttr("Targmax"));
  if (ArgmaxType != tensorflow::DT_INT64)
    return Ctx.unimplementedType(ArgmaxType);
  FROST_ASSIGN_OR_RETURN(bool WithBatch, Ctx.boolAttr("include_batch_in_index", false));
  const TensorData &Input = Ctx.input(0);
  return dispatch<Floats | Ints>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    ElementsOf<T> X(Input);
    const int64_t C = P.In.C;
    std::vector<int64_t> Shape{P.Out.N, P.Out.H, P.Out.W, C};
    OutputOf<T> Out(Shape);
    OutputOf<int64_t> Argmax(Shape);
    for (int64_t I = 0; I < Out.size(); ++I) {
      Out[I] = Eigen::NumTraits<T>::lowest();
      Argmax[I] = -1;
    }
    for (int64_t N = 0; N < P.In.N; ++N)
      for (int64_t Y = 0; Y < P.In.H; ++Y)
        for (int64_t X0 = 0; X0 < P.In.W; ++X0) {
          // The windows (output rows and columns) this pixel falls in.
          const int64_t YPad = Y + P.PadTop, XPad = X0 + P.PadLeft;
          const int64_t RowBegin = YPad < P.KH ? 0 : (YPad - P.KH) / P.StrideH + 1;
          const int64_t RowEnd = std::min(YPad / P.StrideH + 1, P.Out.H);
          const int64_t ColBegin = XPad < P.KW ? 0 : (XPad - P.KW) / P.StrideW + 1;
          const int64_t ColEnd = std::min(XPad / P.StrideW + 1, P.Out.W);
          const int64_t Pixel = (N * P.In.H + Y) * P.In.W + X0;
          for (int64_t OY = RowBegin; OY < RowEnd; ++OY)
            for (int64_t OX = ColBegin; OX < ColEnd; ++OX) {
              const int64_t O = ((N * P.Out.H + OY) * P.Out.W + OX) * C;
              for (int64_t D = 0; D < C; ++D) {
                const T &V = X[Pixel * C + D];
                if (Out[O + D] < V || Argmax[O + D] == -1) {
                  Out[O + D] = V;
                  Argmax[O + D] = WithBatch ? Pixel * C + D : (Y * P.In.W + X0) * C + D;
                }
              }
            }
        }
    return Outputs{std::move(Out).finish(), std::move(Argmax).finish()};
  });
}

} // namespace frost::eval
