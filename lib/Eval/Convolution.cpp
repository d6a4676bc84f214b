//===- Convolution.cpp - Convolutions, for running graphs -----------------===//
//
// TensorFlow's Conv2D (grouped when the filter's depth divides the input's),
// DepthwiseConv2dNative, Conv2DBackpropInput (the transposed convolution of
// Conv2DTranspose layers), their 3-D forms Conv3D and Conv3DBackpropInputV2
// (Conv3D and Conv3DTranspose layers), and FusedPadConv2D and
// FusedResizeAndPadConv2D, which Frost's fuse-pad-and-conv passes produce
// (MirrorPad, or ResizeBilinear then MirrorPad, then Conv2D).
//
// Within rounding of TensorFlow's, not bit for bit: products are summed in
// double (uint32 for int32, wrapping as TensorFlow's sums do) and rounded once,
// where TensorFlow sums floats in Eigen's contraction order. Loops are plain:
// for each output pixel and filter tap, the inner loop runs over contiguous
// output channels. NCHW images are transposed to NHWC and back; unlike
// TensorFlow's CPU kernels, Frost computes NCHW (NCDHW), dilated depthwise,
// transposed and 3-D convolutions, unequal depthwise strides and grouped 3-D
// convolutions (TensorFlow refuses them on the CPU and computes them on GPUs).
//
//===----------------------------------------------------------------------===//
#include "ImageSupport.h"

#include "absl/strings/str_join.h"

namespace frost::eval {

namespace {

/// The attributes of a 2-D convolution, in NHWC terms.
struct ConvAttrs {
  DataFormat Format = DataFormat::NHWC;
  int64_t StrideH = 1, StrideW = 1, DilationH = 1, DilationW = 1;
  Padding Pad = Padding::Valid;
  std::array<int64_t, 4> Explicit{}; // top, bottom, left, right
};

/// strides, dilations, padding, explicit_paddings and data_format (absent
/// ones at their defaults) as TensorFlow's Conv2D checks them.
absl::StatusOr<ConvAttrs> convAttrs(const KernelContext &Ctx, bool AllowExplicit) {
  ConvAttrs A;
  FROST_ASSIGN_OR_RETURN(A.Format, dataFormatAttr(Ctx));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Strides, Ctx.intListAttr("strides"));
  if (Strides.size() != 4)
    return Ctx.invalid("Sliding window strides field must specify 4 dimensions");
  Dims4 S = inNhwcOrder(Strides, A.Format);
  if (S.N != 1 || S.C != 1)
    return Ctx.invalid("Current implementation does not yet support strides in the batch and "
                       "depth dimensions.");
  if (S.H <= 0 || S.W <= 0)
    return Ctx.invalid("Row and column strides should be larger than 0.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dilations,
                         Ctx.intListAttr("dilations", {1, 1, 1, 1}));
  if (Dilations.size() != 4)
    return Ctx.invalid("Sliding window dilations field must specify 4 dimensions");
  Dims4 D = inNhwcOrder(Dilations, A.Format);
  if (D.N != 1 || D.C != 1)
    return Ctx.invalid("Current implementation does not yet support dilations in the batch "
                       "and depth dimensions.");
  if (D.H <= 0 || D.W <= 0)
    return Ctx.invalid("Dilated rates should be larger than 0.");
  A.StrideH = S.H, A.StrideW = S.W, A.DilationH = D.H, A.DilationW = D.W;
  FROST_ASSIGN_OR_RETURN(A.Pad, paddingAttr(Ctx, AllowExplicit));
  FROST_ASSIGN_OR_RETURN(A.Explicit, explicitPaddings(Ctx, A.Pad, A.Format));
  return A;
}

/// One convolution in NHWC terms: `In` convolved with a filter of KH x KW
/// taps, each reading `FilterDepth` channels of its group of input channels
/// (Groups = In.C / FilterDepth) into Out.C / Groups output channels.
struct ConvPlan {
  ConvAttrs Attrs;
  ImageShape In, Out;
  int64_t KH = 0, KW = 0, FilterDepth = 0, Groups = 1;
  int64_t PadTop = 0, PadLeft = 0;

  /// The input row (column) read by output row `O` at filter tap `K`.
  int64_t inputRow(int64_t O, int64_t K) const {
    return O * Attrs.StrideH - PadTop + K * Attrs.DilationH;
  }
  int64_t inputCol(int64_t O, int64_t K) const {
    return O * Attrs.StrideW - PadLeft + K * Attrs.DilationW;
  }
};

/// The output's spatial size and the padding for `In` and a KH x KW filter.
absl::Status planWindows(const KernelContext &Ctx, ConvPlan &P) {
  const ConvAttrs &A = P.Attrs;
  FROST_ASSIGN_OR_RETURN(Window Rows, windowOf(Ctx, P.In.H, P.KH, A.DilationH, A.StrideH, A.Pad,
                                               A.Explicit[0], A.Explicit[1]));
  FROST_ASSIGN_OR_RETURN(Window Cols, windowOf(Ctx, P.In.W, P.KW, A.DilationW, A.StrideW, A.Pad,
                                               A.Explicit[2], A.Explicit[3]));
  P.Out.N = P.In.N;
  P.Out.H = Rows.Out, P.Out.W = Cols.Out;
  P.PadTop = Rows.PadBefore, P.PadLeft = Cols.PadBefore;
  return absl::OkStatus();
}

/// Conv2D's checks of an input of `In` and filter dims `Filter` ([KH, KW,
/// in depth per group, out depth]) into a plan.
absl::StatusOr<ConvPlan> planConv2D(const KernelContext &Ctx, const ConvAttrs &A,
                                    const ImageShape &In, llvm::ArrayRef<int64_t> Filter) {
  if (Filter.size() != 4)
    return Ctx.invalid(absl::StrCat("filter must be 4-dimensional: ", shapeString(Filter)));
  ConvPlan P;
  P.Attrs = A;
  P.In = In;
  P.KH = Filter[0], P.KW = Filter[1], P.FilterDepth = Filter[2];
  P.Out.C = Filter[3];
  FROST_RETURN_IF_ERROR(planWindows(Ctx, P));
  if (P.Out.elements() == 0)
    return P; // TensorFlow returns an empty output before looking further.
  if (P.FilterDepth <= 0)
    return Ctx.invalid(
        absl::StrCat("filter depth must be stricly positive, got ", P.FilterDepth));
  if (In.C % P.FilterDepth != 0)
    return Ctx.invalid(absl::StrCat("input depth must be evenly divisible by filter depth: ",
                                    In.C, " vs ", P.FilterDepth));
  if (P.KH == 0 || P.KW == 0)
    return Ctx.invalid(
        "filter must not have zero elements (i.e. all dimensions must be non-zero)");
  P.Groups = In.C / P.FilterDepth;
  if (P.Groups <= 0 || P.Out.C % P.Groups != 0)
    return Ctx.invalid(absl::StrCat("output depth must be evenly divisible by number of groups: ",
                                    P.Out.C, " vs ", P.Groups));
  return P;
}

/// Calls `Visit(Out, In, Tap)` for each output pixel and each filter tap that
/// reads an input pixel (not padding): the offsets of the pixels' first
/// channels in NHWC images of P.Out and P.In, and the tap's index (ky * KW +
/// kx). `Start(Out)` is called first for each output pixel.
template <typename StartFn, typename VisitFn>
void forEachTap(const ConvPlan &P, StartFn &&Start, VisitFn &&Visit) {
  for (int64_t N = 0; N < P.Out.N; ++N)
    for (int64_t OY = 0; OY < P.Out.H; ++OY)
      for (int64_t OX = 0; OX < P.Out.W; ++OX) {
        const int64_t Out = ((N * P.Out.H + OY) * P.Out.W + OX) * P.Out.C;
        Start(Out);
        for (int64_t KY = 0; KY < P.KH; ++KY) {
          int64_t IY = P.inputRow(OY, KY);
          if (IY < 0 || IY >= P.In.H)
            continue;
          for (int64_t KX = 0; KX < P.KW; ++KX) {
            int64_t IX = P.inputCol(OX, KX);
            if (IX >= 0 && IX < P.In.W)
              Visit(Out, ((N * P.In.H + IY) * P.In.W + IX) * P.In.C, KY * P.KW + KX);
          }
        }
      }
}

/// Out (channels last, P.Out) = In (channels last, P.In) convolved with
/// Filter ([taps..., FilterDepth, Out.C]); `Plan` is a ConvPlan or a
/// Conv3DPlan (whose forEachTap visits three spatial dims).
template <typename Plan, typename Acc>
void convolve(const Plan &P, const Acc *In, const Acc *Filter, Acc *Out) {
  const int64_t OutC = P.Out.C, GroupOut = OutC / P.Groups, Depth = P.FilterDepth;
  forEachTap(
      P, [&](int64_t O) { std::fill(Out + O, Out + O + OutC, Acc(0)); },
      [&](int64_t O, int64_t I, int64_t Tap) {
        const Acc *X = In + I, *W = Filter + Tap * Depth * OutC;
        for (int64_t G = 0; G < P.Groups; ++G)
          for (int64_t CI = 0; CI < Depth; ++CI) {
            const Acc V = X[G * Depth + CI];
            const Acc *Row = W + CI * OutC + G * GroupOut;
            Acc *OG = Out + O + G * GroupOut;
            for (int64_t CO = 0; CO < GroupOut; ++CO)
              OG[CO] += V * Row[CO];
          }
      });
}

/// The gradient of `convolve` with respect to its input: In (NHWC, P.In) =
/// the sum, over the output pixels and taps that read each input pixel, of
/// OutGrad's channels times the filter's.
template <typename Plan, typename Acc>
void convolveBackward(const Plan &P, const Acc *OutGrad, const Acc *Filter, Acc *InGrad) {
  const int64_t OutC = P.Out.C, GroupOut = OutC / P.Groups, Depth = P.FilterDepth;
  std::fill(InGrad, InGrad + P.In.elements(), Acc(0));
  forEachTap(
      P, [](int64_t) {},
      [&](int64_t O, int64_t I, int64_t Tap) {
        const Acc *W = Filter + Tap * Depth * OutC;
        for (int64_t G = 0; G < P.Groups; ++G)
          for (int64_t CI = 0; CI < Depth; ++CI) {
            const Acc *Row = W + CI * OutC + G * GroupOut, *GG = OutGrad + O + G * GroupOut;
            Acc Sum = 0;
            for (int64_t CO = 0; CO < GroupOut; ++CO)
              Sum += GG[CO] * Row[CO];
            InGrad[I + G * Depth + CI] += Sum;
          }
      });
}

/// Out (NHWC, C * M channels) = In (NHWC, C channels) convolved channel by
/// channel with Filter ([KH, KW, C, M]): output channel c * M + m reads
/// input channel c.
template <typename Acc>
void convolveDepthwise(const ConvPlan &P, int64_t Multiplier, const Acc *In, const Acc *Filter,
                       Acc *Out) {
  const int64_t OutC = P.Out.C;
  forEachTap(
      P, [&](int64_t O) { std::fill(Out + O, Out + O + OutC, Acc(0)); },
      [&](int64_t O, int64_t I, int64_t Tap) {
        const Acc *X = In + I, *W = Filter + Tap * OutC;
        for (int64_t C = 0; C < P.In.C; ++C)
          for (int64_t M = 0; M < Multiplier; ++M)
            Out[O + C * Multiplier + M] += X[C] * W[C * Multiplier + M];
      });
}

/// Conv2D of NHWC values (already widened) into an output tensor of T.
template <typename T>
TensorData convolved(const ConvPlan &P, const std::vector<WideType<T>> &In,
                     const TensorData &Filter) {
  using Acc = WideType<T>;
  std::vector<Acc> Out(static_cast<size_t>(P.Out.elements()));
  if (!Out.empty()) {
    std::vector<Acc> W = elementsAs<T, Acc>(Filter);
    convolve(P, In.data(), W.data(), Out.data());
  }
  return imageFromNhwc<T>(Out, P.Out, P.Attrs.Format);
}

// --- 3-D convolutions -------------------------------------------------------

/// One 3-D convolution in NDHWC terms, as ConvPlan over planes, rows and
/// columns (spatial dim 0, 1, 2). TensorFlow's Conv3D has no explicit padding.
struct Conv3DPlan {
  DataFormat Format = DataFormat::NHWC;
  Padding Pad = Padding::Valid;
  VolumeShape In, Out;
  std::array<int64_t, 3> K{}, Stride{}, Dilation{}, PadBefore{};
  int64_t FilterDepth = 0, Groups = 1;
};

/// strides, dilations, padding and data_format of Conv3D and
/// Conv3DBackpropInput(V2) (absent ones at their defaults) as TensorFlow's
/// kernels check them.
absl::StatusOr<Conv3DPlan> conv3DAttrs(const KernelContext &Ctx) {
  Conv3DPlan P;
  FROST_ASSIGN_OR_RETURN(P.Format, volumeFormatAttr(Ctx));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Strides, Ctx.intListAttr("strides"));
  if (Strides.size() != 5)
    return Ctx.invalid("Sliding window strides field must specify 5 dimensions");
  VolumeShape S = inNdhwcOrder(Strides, P.Format);
  if (S.N != 1 || S.C != 1)
    return Ctx.invalid("Current implementation does not yet support strides in the batch and "
                       "depth dimensions.");
  if (*std::min_element(S.S.begin(), S.S.end()) <= 0)
    return Ctx.invalid("Spatial strides should be larger than 0.");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dilations,
                         Ctx.intListAttr("dilations", {1, 1, 1, 1, 1}));
  if (Dilations.size() != 5)
    return Ctx.invalid("Dilation rates field must specify 5 dimensions");
  VolumeShape D = inNdhwcOrder(Dilations, P.Format);
  if (D.N != 1 || D.C != 1)
    return Ctx.invalid("Current implementation does not yet support dilation rates in the "
                       "batch and depth dimensions.");
  if (*std::min_element(D.S.begin(), D.S.end()) <= 0)
    return Ctx.invalid("Dilated rates should be larger than 0.");
  P.Stride = S.S, P.Dilation = D.S;
  FROST_ASSIGN_OR_RETURN(P.Pad, paddingAttr(Ctx, /*AllowExplicit=*/false));
  return P;
}

/// The output's spatial dims and the padding for P.In and a filter of P.K:
/// Conv3D's (`Cuboid`: Eigen's unclamped SAME padding, as TensorFlow's CPU
/// kernel pads) or its gradient's (clamped, as TensorFlow's CPU kernel pads).
absl::Status planWindows(const KernelContext &Ctx, Conv3DPlan &P, bool Cuboid) {
  P.Out.N = P.In.N;
  for (size_t D = 0; D < 3; ++D) {
    const int64_t In = P.In.S[D], K = P.K[D], Dilation = P.Dilation[D], Stride = P.Stride[D];
    FROST_ASSIGN_OR_RETURN(Window W, Cuboid
                                         ? cuboidWindowOf(Ctx, In, K, Dilation, Stride, P.Pad)
                                         : windowOf(Ctx, In, K, Dilation, Stride, P.Pad));
    P.Out.S[D] = W.Out;
    P.PadBefore[D] = W.PadBefore;
  }
  return absl::OkStatus();
}

/// forEachTap over three spatial dims: taps indexed (kd * KH + ky) * KW + kx.
template <typename StartFn, typename VisitFn>
void forEachTap(const Conv3DPlan &P, StartFn &&Start, VisitFn &&Visit) {
  const auto &In = P.In.S, &Out = P.Out.S;
  for (int64_t N = 0; N < P.Out.N; ++N)
    for (int64_t OD = 0; OD < Out[0]; ++OD)
      for (int64_t OY = 0; OY < Out[1]; ++OY)
        for (int64_t OX = 0; OX < Out[2]; ++OX) {
          const int64_t O = (((N * Out[0] + OD) * Out[1] + OY) * Out[2] + OX) * P.Out.C;
          Start(O);
          for (int64_t KD = 0; KD < P.K[0]; ++KD) {
            int64_t ID = OD * P.Stride[0] - P.PadBefore[0] + KD * P.Dilation[0];
            if (ID < 0 || ID >= In[0])
              continue;
            for (int64_t KY = 0; KY < P.K[1]; ++KY) {
              int64_t IY = OY * P.Stride[1] - P.PadBefore[1] + KY * P.Dilation[1];
              if (IY < 0 || IY >= In[1])
                continue;
              for (int64_t KX = 0; KX < P.K[2]; ++KX) {
                int64_t IX = OX * P.Stride[2] - P.PadBefore[2] + KX * P.Dilation[2];
                if (IX >= 0 && IX < In[2])
                  Visit(O, (((N * In[0] + ID) * In[1] + IY) * In[2] + IX) * P.In.C,
                        (KD * P.K[1] + KY) * P.K[2] + KX);
              }
            }
          }
        }
}

// --- Mirror padding and resizing of the fused ops ----------------------------

/// The [4, 2] paddings of a fused op (input `I`) for an image of `In`: only
/// rows and columns padded, each by at most the dimension (less than it for
/// REFLECT), as MirrorPad requires.
absl::StatusOr<std::array<int64_t, 4>> fusedPaddings(const KernelContext &Ctx, size_t I,
                                                     const ImageShape &In, int64_t EdgeOffset) {
  const TensorData &T = Ctx.input(I);
  if (T.shape().size() != 2 || T.shape()[0] != 4 || T.shape()[1] != 2)
    return Ctx.invalid(absl::StrCat("paddings must be a matrix of shape [4,2], got ",
                                    shapeString(T.shape())));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Pads, intElements(Ctx, I));
  auto Values = [&] { return absl::StrCat("[", absl::StrJoin(Pads, ","), "]"); };
  if (Pads[0] || Pads[1])
    return Ctx.invalid(absl::StrCat(
        "Fused mirror padding only support spatial padding, not batches: ", Values()));
  if (Pads[6] || Pads[7])
    return Ctx.invalid(absl::StrCat(
        "Fused mirror padding only support spatial padding, not channels: ", Values()));
  const int64_t Dims[] = {In.H, In.W};
  for (int D = 0; D < 2; ++D) {
    int64_t Before = Pads[2 + 2 * D], After = Pads[3 + 2 * D];
    if (Before < 0 || After < 0)
      return Ctx.invalid(absl::StrCat("paddings must be non-negative: ", Before, " ", After));
    if (Before > Dims[D] - EdgeOffset || After > Dims[D] - EdgeOffset)
      return Ctx.invalid(absl::StrCat(
          EdgeOffset ? "paddings must be less than the dimension size: "
                     : "paddings must be no greater than the dimension size: ",
          Before, ", ", After, EdgeOffset ? " not less than " : " greater than ", Dims[D]));
  }
  return std::array<int64_t, 4>{Pads[2], Pads[3], Pads[4], Pads[5]};
}

/// `In` (NHWC, `Shape`) mirror-padded by `Pads` (top, bottom, left, right);
/// `Shape` becomes the padded shape.
std::vector<double> mirrorPadded(const std::vector<double> &In, ImageShape &Shape,
                                 const std::array<int64_t, 4> &Pads, int64_t EdgeOffset) {
  ImageShape Padded = Shape;
  Padded.H += Pads[0] + Pads[1];
  Padded.W += Pads[2] + Pads[3];
  // REFLECT leaves out the edge element, SYMMETRIC repeats it.
  auto Source = [EdgeOffset](int64_t I, int64_t Dim) {
    if (I < 0)
      return -I - 1 + EdgeOffset;
    if (I >= Dim)
      return 2 * Dim - 1 - EdgeOffset - I;
    return I;
  };
  std::vector<double> Out(static_cast<size_t>(Padded.elements()));
  double *O = Out.data();
  for (int64_t N = 0; N < Padded.N; ++N)
    for (int64_t Y = 0; Y < Padded.H; ++Y) {
      int64_t SY = Source(Y - Pads[0], Shape.H);
      for (int64_t X = 0; X < Padded.W; ++X, O += Shape.C) {
        int64_t SX = Source(X - Pads[2], Shape.W);
        const double *S = In.data() + ((N * Shape.H + SY) * Shape.W + SX) * Shape.C;
        std::copy(S, S + Shape.C, O);
      }
    }
  Shape = Padded;
  return Out;
}

/// FusedPadConv2D (`Resize` false) and FusedResizeAndPadConv2D: the unfused
/// ops' results. TensorFlow 2.21's CPU kernels for both compute every image
/// of a batch from the first image (a TensorFlow bug); Frost computes each
/// image from its own, as ResizeBilinear, MirrorPad and Conv2D do.
template <unsigned Types>
absl::StatusOr<Outputs> fusedConv(const KernelContext &Ctx, bool Resize) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(Resize ? 4 : 3));
  const size_t PadsInput = Resize ? 2 : 1, FilterInput = PadsInput + 1;
  const TensorData &Input = Ctx.input(0), &Filter = Ctx.input(FilterInput);
  if (Filter.dtype() != Input.dtype())
    return Ctx.invalid(absl::StrCat("inputs of different dtypes: ", dataTypeName(Input.dtype()),
                                    " and ", dataTypeName(Filter.dtype())));
  FROST_ASSIGN_OR_RETURN(ConvAttrs A, convAttrs(Ctx, /*AllowExplicit=*/false));
  FROST_ASSIGN_OR_RETURN(std::string Mode, Ctx.stringAttr("mode"));
  if (Mode != "REFLECT" && Mode != "SYMMETRIC")
    return Ctx.invalid("mode must be either REFLECT or SYMMETRIC.");
  const int64_t EdgeOffset = Mode == "REFLECT" ? 1 : 0;
  FROST_ASSIGN_OR_RETURN(ImageShape Shape, imageShapeOf(Ctx, 0, DataFormat::NHWC, "input"));
  return dispatch<Types>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> Image = nhwcElements<T, double>(Input, Shape, DataFormat::NHWC);
        if (Resize) {
          FROST_ASSIGN_OR_RETURN(auto Size, resizeSizeInput(Ctx, 1, Shape));
          FROST_ASSIGN_OR_RETURN(bool AlignCorners, Ctx.boolAttr("resize_align_corners", false));
          ImageShape Resized{Shape.N, Size.first, Size.second, Shape.C};
          FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Input.dtype(), Resized));
          Image = resizeBilinear<double>(Image, Shape, Resized.H, Resized.W, AlignCorners,
                                         /*HalfPixelCenters=*/false);
          Shape = Resized;
        }
        FROST_ASSIGN_OR_RETURN(auto Pads, fusedPaddings(Ctx, PadsInput, Shape, EdgeOffset));
        ImageShape Padded = Shape;
        Padded.H += Pads[0] + Pads[1];
        Padded.W += Pads[2] + Pads[3];
        FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Input.dtype(), Padded));
        FROST_ASSIGN_OR_RETURN(ConvPlan P, planConv2D(Ctx, A, Padded, Filter.shape()));
        FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Input.dtype(), P.Out));
        if (P.Groups != 1)
          return Ctx.invalid(absl::StrCat("input and filter must have the same depth: ",
                                          Shape.C, " vs ", P.FilterDepth));
        Image = mirrorPadded(Image, Shape, Pads, EdgeOffset);
        std::vector<double> Out(static_cast<size_t>(P.Out.elements()));
        if (!Out.empty()) {
          std::vector<double> W = elementsAs<T, double>(Filter);
          convolve(P, Image.data(), W.data(), Out.data());
        }
        return Outputs{imageFromNhwc<T>(Out, P.Out, DataFormat::NHWC)};
      });
}

} // namespace

// Conv2D: float, double, half, bfloat16, int32 (TensorFlow's CPU kernels).
absl::StatusOr<Outputs> evalConv2D(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(ConvAttrs A, convAttrs(Ctx, /*AllowExplicit=*/true));
  FROST_ASSIGN_OR_RETURN(ImageShape In, imageShapeOf(Ctx, 0, A.Format, "input"));
  const TensorData &Input = Ctx.input(0), &Filter = Ctx.input(1);
  return dispatch<Floats | Int32>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        FROST_ASSIGN_OR_RETURN(ConvPlan P, planConv2D(Ctx, A, In, Filter.shape()));
        FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Input.dtype(), P.Out));
        auto X = nhwcElements<T, WideType<T>>(Input, In, A.Format);
        return Outputs{convolved<T>(P, X, Filter)};
      });
}

// DepthwiseConv2dNative: float, double, half, bfloat16.
absl::StatusOr<Outputs> evalDepthwiseConv2dNative(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(ConvAttrs A, convAttrs(Ctx, /*AllowExplicit=*/true));
  FROST_ASSIGN_OR_RETURN(ImageShape In, imageShapeOf(Ctx, 0, A.Format, "input"));
  const TensorData &Input = Ctx.input(0), &Filter = Ctx.input(1);
  llvm::ArrayRef<int64_t> F = Filter.shape();
  if (F.size() != 4)
    return Ctx.invalid(absl::StrCat("filter must be 4-dimensional: ", shapeString(F)));
  if (F[2] != In.C)
    return Ctx.invalid(
        absl::StrCat("input and filter must have the same depth: ", In.C, " vs ", F[2]));
  ConvPlan P;
  P.Attrs = A;
  P.In = In;
  P.KH = F[0], P.KW = F[1], P.FilterDepth = 1, P.Groups = In.C;
  int64_t OutC = 0;
  if (__builtin_mul_overflow(In.C, F[3], &OutC))
    return Ctx.invalid("filter too large");
  P.Out.C = OutC;
  FROST_RETURN_IF_ERROR(planWindows(Ctx, P));
  FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Input.dtype(), P.Out));
  return dispatch<Floats>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> Out(static_cast<size_t>(P.Out.elements()));
        if (!Out.empty()) {
          auto X = nhwcElements<T, double>(Input, In, A.Format);
          std::vector<double> W = elementsAs<T, double>(Filter);
          convolveDepthwise(P, F[3], X.data(), W.data(), Out.data());
        }
        return Outputs{imageFromNhwc<T>(Out, P.Out, A.Format)};
      });
}

// Conv2DBackpropInput: float, double, half, bfloat16, int32; input_sizes is
// the input's full shape (4 values) or its rows and columns (2 values).
absl::StatusOr<Outputs> evalConv2DBackpropInput(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 1, 3));
  FROST_ASSIGN_OR_RETURN(ConvAttrs A, convAttrs(Ctx, /*AllowExplicit=*/true));
  const TensorData &Filter = Ctx.input(1), &OutGrad = Ctx.input(2);
  constexpr llvm::StringLiteral Label = "Conv2DBackpropInput: ";
  if (OutGrad.shape().size() != 4)
    return Ctx.invalid(absl::StrCat(Label.str(), "out_backprop must be 4-dimensional"));
  if (Filter.shape().size() != 4)
    return Ctx.invalid(absl::StrCat(Label.str(), "filter must be 4-dimensional"));
  FROST_ASSIGN_OR_RETURN(ImageShape Out, imageShapeOf(Ctx, 2, A.Format, "out_backprop"));
  if (Ctx.input(0).shape().size() != 1)
    return Ctx.invalid(absl::StrCat(Label.str(), "input_sizes input must be 1-dim, not ",
                                    Ctx.input(0).shape().size()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Sizes, intElements(Ctx, 0));
  ImageShape In;
  if (Sizes.size() == 4) {
    for (int64_t D : Sizes)
      if (D < 0)
        return Ctx.invalid(absl::StrCat("Dimension ", D, " must be >= 0"));
    In = ImageShape{Sizes[0], Sizes[A.Format == DataFormat::NHWC ? 1 : 2],
                    Sizes[A.Format == DataFormat::NHWC ? 2 : 3],
                    Sizes[A.Format == DataFormat::NHWC ? 3 : 1]};
  } else if (Sizes.size() == 2) {
    if (Sizes[0] < 0 || Sizes[1] < 0)
      return Ctx.invalid(absl::StrCat("Dimension ", std::min(Sizes[0], Sizes[1]),
                                      " must be >= 0"));
    In = ImageShape{Out.N, Sizes[0], Sizes[1], Filter.shape()[2]};
  } else {
    return Ctx.invalid(absl::StrCat(
        "Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, but got: ",
        Sizes.size()));
  }
  FROST_RETURN_IF_ERROR(checkImageOutput(Ctx, Filter.dtype(), In));
  if (In.N != Out.N)
    return Ctx.invalid(absl::StrCat(Label.str(),
                                    "input and out_backprop must have the same batch size, "
                                    "input batch: ",
                                    In.N, " outbackprop batch: ", Out.N));
  llvm::ArrayRef<int64_t> F = Filter.shape();
  if (F[2] <= 0 || In.C % F[2] != 0)
    return Ctx.invalid(absl::StrCat(Label.str(),
                                    "input depth must be evenly divisible by filter depth"));
  if (F[3] != Out.C)
    return Ctx.invalid(
        absl::StrCat(Label.str(), "filter and out_backprop must have the same out_depth"));
  ConvPlan P;
  P.Attrs = A;
  P.In = In;
  P.KH = F[0], P.KW = F[1], P.FilterDepth = F[2], P.Groups = In.C / F[2];
  P.Out.C = F[3];
  if (P.Out.C % P.Groups != 0)
    return Ctx.invalid(absl::StrCat("output depth must be evenly divisible by number of groups: ",
                                    P.Out.C, " vs ", P.Groups));
  FROST_RETURN_IF_ERROR(planWindows(Ctx, P));
  const int64_t Actual[] = {Out.H, Out.W}, Computed[] = {P.Out.H, P.Out.W};
  for (int D = 0; D < 2; ++D)
    if (Actual[D] != Computed[D])
      return Ctx.invalid(absl::StrCat(Label.str(),
                                      "Size of out_backprop doesn't match computed: actual = ",
                                      Actual[D], ", computed = ", Computed[D],
                                      " spatial_dim: ", D + 1, " input: ", D ? In.W : In.H,
                                      " filter: ", F[D], " output: ", Actual[D],
                                      " stride: ", D ? A.StrideW : A.StrideH,
                                      " dilation: ", D ? A.DilationW : A.DilationH));
  P.Out = Out;
  return dispatch<Floats | Int32>(Ctx, Filter.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        using Acc = WideType<T>;
        std::vector<Acc> InGrad(static_cast<size_t>(In.elements()));
        if (!InGrad.empty()) {
          auto G = nhwcElements<T, Acc>(OutGrad, Out, A.Format);
          std::vector<Acc> W = elementsAs<T, Acc>(Filter);
          convolveBackward(P, G.data(), W.data(), InGrad.data());
        }
        return Outputs{imageFromNhwc<T>(InGrad, In, A.Format)};
      });
}

// Conv3D: float, double, half, bfloat16. Grouped when the filter's depth
// divides the input's, NCDHW and dilated (TensorFlow's CPU kernel refuses
// all three).
absl::StatusOr<Outputs> evalConv3D(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, 2));
  FROST_ASSIGN_OR_RETURN(Conv3DPlan P, conv3DAttrs(Ctx));
  const TensorData &Input = Ctx.input(0), &Filter = Ctx.input(1);
  FROST_ASSIGN_OR_RETURN(P.In, volumeShapeOf(Ctx, Input.shape(), P.Format, "input"));
  llvm::ArrayRef<int64_t> F = Filter.shape();
  if (F.size() != 5)
    return Ctx.invalid("filter must be 5-dimensional");
  P.K = {F[0], F[1], F[2]};
  P.FilterDepth = F[3];
  P.Out.C = F[4];
  if (P.FilterDepth == 0)
    return Ctx.invalid("filter_depth must be non-zero");
  if (P.In.C % P.FilterDepth != 0)
    return Ctx.invalid(absl::StrCat("Input depth must be evenly divisible by filter depth: ",
                                    P.In.C, " vs ", P.FilterDepth));
  if (Filter.numElements() == 0)
    return Ctx.invalid(
        "filter must not have zero elements (i.e. all dimensions must be non-zero)");
  FROST_RETURN_IF_ERROR(planWindows(Ctx, P, /*Cuboid=*/true));
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Input.dtype(), P.Out.dims(P.Format)).status());
  P.Groups = P.In.C / P.FilterDepth;
  if (P.Out.elements() != 0 && (P.Groups <= 0 || P.Out.C % P.Groups != 0))
    return Ctx.invalid(absl::StrCat("output depth must be evenly divisible by number of groups: ",
                                    P.Out.C, " vs ", P.Groups));
  return dispatch<Floats>(Ctx, Input.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> Out(static_cast<size_t>(P.Out.elements()));
        if (!Out.empty()) {
          auto X = channelsLastElements<T, double>(Input, P.In.N, P.In.plane(), P.In.C, P.Format);
          std::vector<double> W = elementsAs<T, double>(Filter);
          convolve(P, X.data(), W.data(), Out.data());
        }
        return Outputs{volumeFromNdhwc<T>(Out, P.Out, P.Format)};
      });
}

// Conv3DBackpropInputV2 (input_sizes: the input's shape) and the deprecated
// Conv3DBackpropInput (input 0's own shape): float, double, half, bfloat16;
// NCDHW and dilated too (TensorFlow's CPU kernels refuse both).
absl::StatusOr<Outputs> evalConv3DBackpropInput(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 1, 3));
  FROST_ASSIGN_OR_RETURN(Conv3DPlan P, conv3DAttrs(Ctx));
  const TensorData &Filter = Ctx.input(1), &OutGrad = Ctx.input(2);
  std::vector<int64_t> Sizes = shapeVector(Ctx.input(0));
  if (Ctx.op() == "Conv3DBackpropInputV2") {
    if (Ctx.input(0).shape().size() != 1)
      return Ctx.invalid(absl::StrCat("shape must be a vector of {int32,int64}, got shape ",
                                      shapeOf(Ctx.input(0))));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Dims, intElements(Ctx, 0));
    FROST_ASSIGN_OR_RETURN(Sizes, makeShape(Ctx, Filter.dtype(), std::move(Dims)));
  }
  constexpr llvm::StringLiteral Label = "Conv3DBackpropInputOp: ";
  auto Invalid = [&](auto &&...Parts) { return Ctx.invalid(absl::StrCat(Label.str(), Parts...)); };
  if (Sizes.size() != 5)
    return Invalid("input must be 5-dimensional");
  if (Filter.shape().size() != 5)
    return Invalid("filter must be 5-dimensional");
  if (OutGrad.shape().size() != 5)
    return Invalid("out_backprop must be 5-dimensional");
  FROST_ASSIGN_OR_RETURN(P.In, volumeShapeOf(Ctx, Sizes, P.Format, "input"));
  FROST_ASSIGN_OR_RETURN(VolumeShape Out,
                         volumeShapeOf(Ctx, OutGrad.shape(), P.Format, "out_backprop"));
  if (P.In.N != Out.N)
    return Invalid("input and out_backprop must have the same batch size. Input batch: ", P.In.N,
                   ", outbackprop batch: ", Out.N, ", batch_dim: 0");
  llvm::ArrayRef<int64_t> F = Filter.shape();
  if (F[3] <= 0)
    return Invalid("filter depth must be strictly greated than zero");
  if (P.In.C % F[3] != 0)
    return Invalid("input depth must be evenly divisible by filter depth");
  if (F[4] != Out.C)
    return Invalid("filter and out_backprop must have the same out_depth");
  P.K = {F[0], F[1], F[2]};
  P.FilterDepth = F[3], P.Groups = P.In.C / F[3];
  P.Out.C = F[4];
  FROST_RETURN_IF_ERROR(planWindows(Ctx, P, /*Cuboid=*/false));
  const size_t FirstSpatial = P.Format == DataFormat::NHWC ? 1 : 2;
  for (size_t D = 0; D < 3; ++D)
    if (Out.S[D] != P.Out.S[D])
      return Invalid("Size of out_backprop doesn't match computed: actual = ", Out.S[D],
                     ", computed = ", P.Out.S[D], " spatial_dim: ", FirstSpatial + D,
                     " input: ", P.In.S[D], " filter: ", P.K[D], " output: ", Out.S[D],
                     " stride: ", P.Stride[D], " dilation: ", P.Dilation[D]);
  if (P.Out.C % P.Groups != 0)
    return Ctx.invalid(absl::StrCat("output depth must be evenly divisible by number of groups: ",
                                    P.Out.C, " vs ", P.Groups));
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, Filter.dtype(), Sizes).status());
  return dispatch<Floats>(Ctx, Filter.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
        using T = typename decltype(Tag)::type;
        std::vector<double> InGrad(static_cast<size_t>(P.In.elements()));
        if (!InGrad.empty()) {
          auto G = channelsLastElements<T, double>(OutGrad, Out.N, Out.plane(), Out.C, P.Format);
          std::vector<double> W = elementsAs<T, double>(Filter);
          convolveBackward(P, G.data(), W.data(), InGrad.data());
        }
        return Outputs{volumeFromNdhwc<T>(InGrad, P.In, P.Format)};
      });
}

// FusedPadConv2D: float, double, half, bfloat16 (NHWC only, no dilations).
absl::StatusOr<Outputs> evalFusedPadConv2D(const KernelContext &Ctx) {
  return fusedConv<Floats>(Ctx, /*Resize=*/false);
}

// FusedResizeAndPadConv2D: float, double, half. The resize is bilinear with
// TensorFlow's legacy (not half-pixel) coordinates, interpolated in double.
absl::StatusOr<Outputs> evalFusedResizeAndPadConv2D(const KernelContext &Ctx) {
  return fusedConv<Float32 | Float64 | Half>(Ctx, /*Resize=*/true);
}

} // namespace frost::eval
