//===- Patches.cpp - Roll, ExtractImagePatches ----------------------------===//
//
// Ops that only move elements: Roll (roll_op.cc: shifts along axes, summed
// per axis in int and reduced modulo the dim) and ExtractImagePatches
// (extract_image_patches_op.cc: each output pixel holds the ksize window,
// taps `rates` apart, rows then columns then depth, zeros outside the
// padded input). Both copy elements, so they are exact.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"
#include "ImageSupport.h"

#include <cstring>

namespace frost::eval {

// --- Roll ----------------------------------------------------------------------

absl::StatusOr<Outputs> evalRoll(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0), &Shift = Ctx.input(1), &Axis = Ctx.input(2);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Any));
  if (In.shape().empty())
    return Ctx.invalid("input must be 1-D or higher");
  if (Shift.shape().size() > 1)
    return Ctx.invalid(
        absl::StrCat("shift must be a scalar or a 1-D vector. Found: ", shapeOf(Shift)));
  if (Axis.shape().size() > 1)
    return Ctx.invalid(
        absl::StrCat("axis must be a scalar or a 1-D vector. Found: ", shapeOf(Axis)));
  if (Shift.shape() != Axis.shape())
    return Ctx.invalid("shift and axis must have the same size");
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shifts, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Axes, intElements(Ctx, 2));
  const auto Shape = In.shape();
  const int64_t Rank = static_cast<int64_t>(Shape.size());
  // TensorFlow sums the shifts of each axis in int (an int64 shift is
  // truncated), keeping the sum in [0, dim).
  std::vector<int32_t> ShiftOf(Shape.size(), 0);
  for (size_t I = 0; I < Axes.size(); ++I) {
    int64_t A = Axes[I];
    if (A < 0)
      A += Rank;
    if (A < 0 || A >= Rank)
      return Ctx.invalid(absl::StrCat("axis ", A, " is out of range"));
    const int32_t Dim = static_cast<int32_t>(std::max<int64_t>(Shape[A], 1));
    const int32_t Sum = static_cast<int32_t>(static_cast<uint32_t>(ShiftOf[A]) +
                                             static_cast<uint32_t>(Shifts[I]));
    ShiftOf[A] = (Sum % Dim + Dim) % Dim;
  }
  // Output index j along a dim reads input index (j - shift) mod dim.
  const std::vector<int64_t> Strides = stridesOf(Shape);
  std::vector<std::vector<int64_t>> Offsets(Shape.size());
  for (size_t D = 0; D < Shape.size(); ++D) {
    Offsets[D].resize(static_cast<size_t>(Shape[D]));
    for (int64_t J = 0; J < Shape[D]; ++J)
      Offsets[D][J] = ((J - ShiftOf[D]) % Shape[D] + Shape[D]) % Shape[D] * Strides[D];
  }
  FROST_ASSIGN_OR_RETURN(TensorData Out, gatherIndexed(Ctx, In, 0, Offsets, shapeVector(In)));
  return Outputs{std::move(Out)};
}

// --- ExtractImagePatches -------------------------------------------------------

namespace {

/// A 4-element window attribute that moves over space only.
absl::StatusOr<std::vector<int64_t>> spatialAttr(const KernelContext &Ctx, llvm::StringRef Name) {
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> V, Ctx.intListAttr(Name));
  if (V.size() != 4)
    return Ctx.invalid(
        absl::StrCat("Sliding window ", Name.str(), " field must specify 4 dimensions"));
  if (V[0] != 1 || V[3] != 1)
    return Ctx.unimplemented(absl::StrCat("Only support ", Name.str(), " across space."));
  return V;
}

} // namespace

absl::StatusOr<Outputs> evalExtractImagePatches(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> KSizes, spatialAttr(Ctx, "ksizes"));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Strides, spatialAttr(Ctx, "strides"));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Rates, spatialAttr(Ctx, "rates"));
  FROST_ASSIGN_OR_RETURN(Padding P, paddingAttr(Ctx, /*AllowExplicit=*/false));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod & ~dtypeBit(tensorflow::DT_BOOL)));
  if (In.shape().size() != 4)
    return Ctx.invalid(absl::StrCat("input must be 4-dimensional", shapeOf(In)));
  const int64_t Batch = In.shape()[0], Rows = In.shape()[1], Cols = In.shape()[2],
                Depth = In.shape()[3];
  for (auto [Name, V] : {std::pair{"ksizes", &KSizes}, {"strides", &Strides}, {"rates", &Rates}})
    for (int64_t D : *V)
      if (D < 1)
        return absl::OutOfRangeError(absl::StrCat(Ctx.op().str(), ": ", Name, " is out of range."));
  const int64_t KRows = KSizes[1], KCols = KSizes[2];
  FROST_ASSIGN_OR_RETURN(Window RowW,
                         windowOf(Ctx, Rows, KRows, Rates[1], Strides[1], P));
  FROST_ASSIGN_OR_RETURN(Window ColW,
                         windowOf(Ctx, Cols, KCols, Rates[2], Strides[2], P));
  std::vector<int64_t> OutShape{Batch, RowW.Out, ColW.Out, KRows * KCols * Depth};
  FROST_RETURN_IF_ERROR(addDims(Ctx, In.dtype(), OutShape));
  const size_t Size = dataTypeSize(In.dtype());
  int64_t N = 1;
  for (int64_t D : OutShape)
    N *= D;
  std::string Bytes(static_cast<size_t>(N) * Size, '\0'); // Zero is the padding.
  const char *Src = In.bytes().data();
  char *Dst = Bytes.data();
  for (int64_t B = 0; B < Batch; ++B)
    for (int64_t I = 0; I < RowW.Out; ++I)
      for (int64_t J = 0; J < ColW.Out; ++J)
        for (int64_t R = 0; R < KRows; ++R)
          for (int64_t C = 0; C < KCols; ++C, Dst += Depth * Size) {
            const int64_t Y = I * Strides[1] - RowW.PadBefore + R * Rates[1];
            const int64_t X = J * Strides[2] - ColW.PadBefore + C * Rates[2];
            if (Y < 0 || Y >= Rows || X < 0 || X >= Cols)
              continue;
            std::memcpy(Dst, Src + ((B * Rows + Y) * Cols + X) * Depth * Size, Depth * Size);
          }
  return Outputs{TensorData::owned(In.dtype(), std::move(OutShape), std::move(Bytes))};
}

} // namespace frost::eval
