//===- ImageSupport.h - What the image kernels share ------------*- C++ -*-===//
//
// The kernels for running graphs (convolutions, pooling, normalization,
// resizing) work on 4-D images (and 5-D volumes): data formats (NHWC, NCHW;
// NDHWC, NCDHW), sliding windows
// (strides, dilations, SAME/VALID/EXPLICIT padding as TensorFlow's
// GetWindowedOutputSize computes them) and images converted to a wider type
// in NHWC order. Their results are within rounding of TensorFlow's, not bit
// for bit: sums are accumulated in double and rounded once.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_IMAGESUPPORT_H
#define FROST_LIB_EVAL_IMAGESUPPORT_H

#include "ArraySupport.h"

namespace frost::eval {

// --- Formats and image shapes ------------------------------------------------

enum class DataFormat { NHWC, NCHW };

/// The "data_format" attribute (NHWC when absent): NHWC or NCHW, else
/// InvalidArgument "Invalid data format".
absl::StatusOr<DataFormat> dataFormatAttr(const KernelContext &Ctx);

/// A 4-D image's dims, whatever the order of its format.
struct ImageShape {
  int64_t N = 0, H = 0, W = 0, C = 0;

  int64_t pixels() const { return N * H * W; }
  int64_t elements() const { return N * H * W * C; }
  /// The dims in format `F`'s order.
  std::vector<int64_t> dims(DataFormat F) const {
    return F == DataFormat::NHWC ? std::vector<int64_t>{N, H, W, C}
                                 : std::vector<int64_t>{N, C, H, W};
  }
};

/// The image shape of input `I`, which must be 4-D: "<What> must be
/// 4-dimensional[2,3]" otherwise.
absl::StatusOr<ImageShape> imageShapeOf(const KernelContext &Ctx, size_t I, DataFormat F,
                                        llvm::StringRef What);

/// A 4-element attribute (strides, ksize, dilations) in format `F`'s order,
/// read as {N, H, W, C}.
struct Dims4 {
  int64_t N = 1, H = 1, W = 1, C = 1;
};
Dims4 inNhwcOrder(llvm::ArrayRef<int64_t> V, DataFormat F);

/// The element count of an image output of `Shape` for `DType` (overflow is
/// InvalidArgument, beyond a constant's 2 GiB Unimplemented).
absl::Status checkImageOutput(const KernelContext &Ctx, tensorflow::DataType DType,
                              const ImageShape &Shape);

/// A 5-D volume's dims (Conv3D, MaxPool3D...): batch, the three spatial dims
/// (planes, rows, columns) and channels. Its formats NDHWC and NCDHW are
/// DataFormat's NHWC and NCHW: channels last or first.
struct VolumeShape {
  int64_t N = 0;
  std::array<int64_t, 3> S{};
  int64_t C = 0;

  int64_t plane() const { return S[0] * S[1] * S[2]; }
  int64_t elements() const { return N * plane() * C; }
  /// The dims in format `F`'s order.
  std::vector<int64_t> dims(DataFormat F) const {
    return F == DataFormat::NHWC ? std::vector<int64_t>{N, S[0], S[1], S[2], C}
                                 : std::vector<int64_t>{N, C, S[0], S[1], S[2]};
  }
};

/// The "data_format" of a 3-D op (NDHWC when absent): NDHWC or NCDHW (or
/// NHWC, NCHW, which TensorFlow takes for them), else "Invalid data format".
absl::StatusOr<DataFormat> volumeFormatAttr(const KernelContext &Ctx);

/// The volume shape of a 5-D shape in format `F`; "<What> must be
/// 5-dimensional" otherwise.
absl::StatusOr<VolumeShape> volumeShapeOf(const KernelContext &Ctx, llvm::ArrayRef<int64_t> Dims,
                                          DataFormat F, llvm::StringRef What);

/// A 5-element attribute (strides, ksize, dilations) in format `F`'s order,
/// read as a volume shape (batch, spatial dims, channels).
VolumeShape inNdhwcOrder(llvm::ArrayRef<int64_t> V, DataFormat F);

// --- Sliding windows ---------------------------------------------------------

enum class Padding { Same, Valid, Explicit };

/// The "padding" attribute: SAME, VALID or, when `AllowExplicit`, EXPLICIT.
absl::StatusOr<Padding> paddingAttr(const KernelContext &Ctx, bool AllowExplicit);

/// One spatial dimension of a sliding window: output size and the padding
/// before the first input element.
struct Window {
  int64_t Out = 0;
  int64_t PadBefore = 0;
};

/// TensorFlow's GetWindowedOutputSizeVerbose for an input of `In` elements,
/// a filter of `Filter` taps `Dilation` apart, moving by `Stride`:
/// "Computed output size would be negative: ..." when the window does not
/// fit. `Before` and `After` are the explicit paddings (EXPLICIT only).
absl::StatusOr<Window> windowOf(const KernelContext &Ctx, int64_t In, int64_t Filter,
                                int64_t Dilation, int64_t Stride, Padding P, int64_t Before = 0,
                                int64_t After = 0);

/// windowOf for TensorFlow's CPU 3-D kernels (Conv3D, MaxPool3D, AvgPool3D,
/// through Eigen's volume patches): their SAME padding before is half of
/// (Out - 1) * Stride + effective filter - In rounded toward zero, not
/// clamped at zero, so windows wider apart than the filter start inside the
/// input (an input of 7 pooled by 1 with stride 4 reads elements 1 and 5).
absl::StatusOr<Window> cuboidWindowOf(const KernelContext &Ctx, int64_t In, int64_t Filter,
                                      int64_t Dilation, int64_t Stride, Padding P);

/// The explicit paddings of a 4-D op ("explicit_paddings": 8 values, pairs
/// in format order), as {top, bottom, left, right}; checked as TensorFlow's
/// CheckValidPadding does (empty unless EXPLICIT, non-negative, none on the
/// batch or channel dimension).
absl::StatusOr<std::array<int64_t, 4>> explicitPaddings(const KernelContext &Ctx, Padding P,
                                                        DataFormat F);

// --- Elements ----------------------------------------------------------------

/// The type a kernel computes elements of T in: double for floating point
/// types, the unsigned type for integers (their sums wrap as TensorFlow's do).
template <typename T> struct WideTypeOf {
  using type = double;
};
template <> struct WideTypeOf<int32_t> {
  using type = uint32_t;
};
template <> struct WideTypeOf<int64_t> {
  using type = uint64_t;
};
template <typename T> using WideType = typename WideTypeOf<T>::type;

/// The elements of `Tensor` (of T: `Batch` images of `Plane` pixels of
/// `Channels` values, channels last or first as format `F` says) as Acc,
/// channels last.
template <typename T, typename Acc>
std::vector<Acc> channelsLastElements(const TensorData &Tensor, int64_t Batch, int64_t Plane,
                                      int64_t Channels, DataFormat F) {
  ElementsOf<T> In(Tensor);
  std::vector<Acc> Out(static_cast<size_t>(In.size()));
  if (F == DataFormat::NHWC) {
    for (int64_t I = 0; I < In.size(); ++I)
      Out[I] = static_cast<Acc>(In[I]);
    return Out;
  }
  for (int64_t N = 0; N < Batch; ++N)
    for (int64_t C = 0; C < Channels; ++C)
      for (int64_t P = 0; P < Plane; ++P)
        Out[(N * Plane + P) * Channels + C] =
            static_cast<Acc>(In[(N * Channels + C) * Plane + P]);
  return Out;
}

/// The elements of `Tensor` (of T, a 4-D image of `Shape` in format `F`) as
/// Acc, in NHWC order.
template <typename T, typename Acc>
std::vector<Acc> nhwcElements(const TensorData &Tensor, const ImageShape &Shape, DataFormat F) {
  return channelsLastElements<T, Acc>(Tensor, Shape.N, Shape.H * Shape.W, Shape.C, F);
}


/// A value computed in a wide type, rounded (or wrapped) to T.
template <typename T, typename Acc> T narrowed(Acc V) {
  if constexpr (std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>)
    return T(static_cast<float>(V));
  else
    return static_cast<T>(V);
}

/// An output tensor of T of `Dims` (`Batch` images of `Plane` pixels of
/// `Channels` values, channels last or first as format `F` says) from
/// channels-last values of Acc.
template <typename T, typename Acc>
TensorData fromChannelsLast(const std::vector<Acc> &Values, std::vector<int64_t> Dims,
                            int64_t Batch, int64_t Plane, int64_t Channels, DataFormat F) {
  OutputOf<T> Out(std::move(Dims));
  if (F == DataFormat::NHWC) {
    for (int64_t I = 0; I < Out.size(); ++I)
      Out[I] = narrowed<T>(Values[I]);
    return std::move(Out).finish();
  }
  for (int64_t N = 0; N < Batch; ++N)
    for (int64_t C = 0; C < Channels; ++C)
      for (int64_t P = 0; P < Plane; ++P)
        Out[(N * Channels + C) * Plane + P] =
            narrowed<T>(Values[(N * Plane + P) * Channels + C]);
  return std::move(Out).finish();
}

/// An output tensor of T in format `F` from NHWC values of Acc.
template <typename T, typename Acc>
TensorData imageFromNhwc(const std::vector<Acc> &Values, const ImageShape &Shape, DataFormat F) {
  return fromChannelsLast<T>(Values, Shape.dims(F), Shape.N, Shape.H * Shape.W, Shape.C, F);
}

/// An output tensor of T in format `F` from NDHWC values of Acc.
template <typename T, typename Acc>
TensorData volumeFromNdhwc(const std::vector<Acc> &Values, const VolumeShape &Shape,
                           DataFormat F) {
  return fromChannelsLast<T>(Values, Shape.dims(F), Shape.N, Shape.plane(), Shape.C, F);
}

// --- Resizing (Resize.cpp) ---------------------------------------------------

/// The "size" input `I` of a resize (int32 [new_height, new_width], both
/// positive) for images of `In` (rows and columns non-zero), as TensorFlow's
/// ImageResizerState checks it.
absl::StatusOr<std::pair<int64_t, int64_t>> resizeSizeInput(const KernelContext &Ctx, size_t I,
                                                            const ImageShape &In);

/// `In` (NHWC, `Shape`) resized bilinearly to OutH x OutW: coordinates and
/// weights computed in float as TensorFlow's ResizeBilinear computes them,
/// values interpolated in V (float or double).
template <typename V>
std::vector<V> resizeBilinear(const std::vector<V> &In, const ImageShape &Shape, int64_t OutH,
                              int64_t OutW, bool AlignCorners, bool HalfPixelCenters);
extern template std::vector<float> resizeBilinear(const std::vector<float> &, const ImageShape &,
                                                  int64_t, int64_t, bool, bool);
extern template std::vector<double> resizeBilinear(const std::vector<double> &,
                                                   const ImageShape &, int64_t, int64_t, bool,
                                                   bool);

} // namespace frost::eval

#endif // FROST_LIB_EVAL_IMAGESUPPORT_H
