//===- ImageSupport.cpp - Formats, windows and paddings of image kernels --===//
#include "ImageSupport.h"

namespace frost::eval {

absl::StatusOr<DataFormat> dataFormatAttr(const KernelContext &Ctx) {
  absl::StatusOr<std::string> Format = Ctx.stringAttr("data_format", "NHWC");
  if (!Format.ok())
    return Format.status();
  if (*Format == "NHWC")
    return DataFormat::NHWC;
  if (*Format == "NCHW")
    return DataFormat::NCHW;
  return Ctx.invalid(absl::StrCat("Invalid data format: ", *Format));
}

absl::StatusOr<ImageShape> imageShapeOf(const KernelContext &Ctx, size_t I, DataFormat F,
                                        llvm::StringRef What) {
  llvm::ArrayRef<int64_t> D = Ctx.input(I).shape();
  if (D.size() != 4)
    return Ctx.invalid(absl::StrCat(What.str(), " must be 4-dimensional", shapeString(D)));
  if (F == DataFormat::NHWC)
    return ImageShape{D[0], D[1], D[2], D[3]};
  return ImageShape{D[0], D[2], D[3], D[1]};
}

absl::StatusOr<DataFormat> volumeFormatAttr(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(std::string Format, Ctx.stringAttr("data_format", "NDHWC"));
  if (Format == "NDHWC" || Format == "NHWC")
    return DataFormat::NHWC;
  if (Format == "NCDHW" || Format == "NCHW")
    return DataFormat::NCHW;
  return Ctx.invalid(absl::StrCat("Invalid data format: ", Format));
}

absl::StatusOr<VolumeShape> volumeShapeOf(const KernelContext &Ctx, llvm::ArrayRef<int64_t> D,
                                          DataFormat F, llvm::StringRef What) {
  if (D.size() != 5)
    return Ctx.invalid(absl::StrCat(What.str(), " must be 5-dimensional"));
  return inNdhwcOrder(D, F);
}

VolumeShape inNdhwcOrder(llvm::ArrayRef<int64_t> V, DataFormat F) {
  assert(V.size() == 5 && "checked by the caller");
  if (F == DataFormat::NHWC)
    return {V[0], {V[1], V[2], V[3]}, V[4]};
  return {V[0], {V[2], V[3], V[4]}, V[1]};
}

Dims4 inNhwcOrder(llvm::ArrayRef<int64_t> V, DataFormat F) {
  assert(V.size() == 4 && "checked by the caller");
  if (F == DataFormat::NHWC)
    return {V[0], V[1], V[2], V[3]};
  return {V[0], V[2], V[3], V[1]};
}

absl::Status checkImageOutput(const KernelContext &Ctx, tensorflow::DataType DType,
                              const ImageShape &Shape) {
  return checkOutputShape(Ctx, DType, {Shape.N, Shape.H, Shape.W, Shape.C}).status();
}

absl::StatusOr<Padding> paddingAttr(const KernelContext &Ctx, bool AllowExplicit) {
  FROST_ASSIGN_OR_RETURN(std::string P, Ctx.stringAttr("padding"));
  if (P == "SAME")
    return Padding::Same;
  if (P == "VALID")
    return Padding::Valid;
  if (P == "EXPLICIT" && AllowExplicit)
    return Padding::Explicit;
  return Ctx.invalid(absl::StrCat("Invalid padding: ", P));
}

absl::StatusOr<Window> windowOf(const KernelContext &Ctx, int64_t In, int64_t Filter,
                                int64_t Dilation, int64_t Stride, Padding P, int64_t Before,
                                int64_t After) {
  if (Stride <= 0)
    return Ctx.invalid(absl::StrCat("Stride must be > 0, but got ", Stride));
  if (Dilation < 1)
    return Ctx.invalid(absl::StrCat("Dilation rate must be >= 1, but got ", Dilation));
  int64_t Effective = 0, Padded = 0;
  if (__builtin_mul_overflow(Filter - 1, Dilation, &Effective) ||
      __builtin_add_overflow(Effective, 1, &Effective) ||
      __builtin_add_overflow(In, Before, &Padded) ||
      __builtin_add_overflow(Padded, After, &Padded) || Padded > (int64_t(1) << 62) ||
      Effective > (int64_t(1) << 62) || Stride > (int64_t(1) << 62))
    return Ctx.invalid("filter too large");
  Window W;
  switch (P) {
  case Padding::Valid:
    W.Out = (In - Effective + Stride) / Stride;
    break;
  case Padding::Explicit:
    W.Out = (Padded - Effective + Stride) / Stride;
    W.PadBefore = Before;
    break;
  case Padding::Same: {
    W.Out = (In + Stride - 1) / Stride;
    int64_t Needed = std::max<int64_t>(0, (W.Out - 1) * Stride + Effective - In);
    W.PadBefore = Needed / 2;
    break;
  }
  }
  if (W.Out < 0)
    return Ctx.invalid(absl::StrCat("Computed output size would be negative: ", W.Out,
                                    " [input_size: ", In, ", effective_filter_size: ", Effective,
                                    ", stride: ", Stride, "]"));
  return W;
}

absl::StatusOr<Window> cuboidWindowOf(const KernelContext &Ctx, int64_t In, int64_t Filter,
                                      int64_t Dilation, int64_t Stride, Padding P) {
  FROST_ASSIGN_OR_RETURN(Window W, windowOf(Ctx, In, Filter, Dilation, Stride, P));
  if (P == Padding::Same)
    W.PadBefore = ((W.Out - 1) * Stride + (Filter - 1) * Dilation + 1 - In) / 2;
  return W;
}

absl::StatusOr<std::array<int64_t, 4>> explicitPaddings(const KernelContext &Ctx, Padding P,
                                                        DataFormat F) {
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Pads, Ctx.intListAttr("explicit_paddings", {}));
  if (P != Padding::Explicit) {
    if (!Pads.empty())
      return Ctx.invalid("explicit_paddings attribute must be empty if the padding attribute "
                         "is not EXPLICIT");
    return std::array<int64_t, 4>{0, 0, 0, 0};
  }
  if (Pads.size() != 8)
    return Ctx.invalid(absl::StrCat("explicit_paddings attribute must contain 8 values, but got: ",
                                    Pads.size()));
  for (int64_t V : Pads)
    if (V < 0)
      return Ctx.invalid(
          absl::StrCat("All explicit padding values must be nonnegative, got ", V));
  // Pairs in format order: N, H, W, C (NHWC) or N, C, H, W (NCHW).
  size_t H = F == DataFormat::NHWC ? 1 : 2, W = H + 1, C = F == DataFormat::NHWC ? 3 : 1;
  if (Pads[0] || Pads[1] || Pads[2 * C] || Pads[2 * C + 1])
    return Ctx.invalid(
        "Nonzero explicit padding in the batch or depth dimensions is not supported");
  return std::array<int64_t, 4>{Pads[2 * H], Pads[2 * H + 1], Pads[2 * W], Pads[2 * W + 1]};
}

} // namespace frost::eval
