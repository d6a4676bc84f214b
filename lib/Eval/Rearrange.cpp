//===- Rearrange.cpp - Ops that move blocks of elements between dims ------===//
//
// TensorFlow's identity_n_op.cc, reverse_sequence_op.cc, spacetobatch_op.cc, batchtospace_op.cc,
// spacetodepth_op.cc and depthtospace_op.cc (NHWC, the only layout their CPU
// kernels take), with their checks and messages. Elements are moved as bytes
// or strings (ArraySupport.h), so every registered dtype is one code path.
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

namespace frost::eval {

namespace {

constexpr DTypeMask RealNumbers =
    dtypes::Pod & ~(dtypeBit(tensorflow::DT_BOOL) | dtypeBit(tensorflow::DT_COMPLEX64) |
                    dtypeBit(tensorflow::DT_COMPLEX128));

/// The block shape and the [M, 2] paddings (or crops) of a space/batch op,
/// checked as TensorFlow's kernels check them in order; `PadName` is
/// "paddings" or "crops".
struct BlockSpec {
  std::vector<int64_t> Block;
  std::vector<int64_t> Pads; // Start and end of each block dim, interleaved.
};

absl::StatusOr<BlockSpec> blockSpec(const KernelContext &Ctx, llvm::StringRef PadName) {
  const TensorData &In = Ctx.input(0), &BlockT = Ctx.input(1), &PadT = Ctx.input(2);
  if (BlockT.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat("block_shape rank should be 1 instead of ", BlockT.shape().size()));
  int64_t M = BlockT.shape()[0];
  int64_t Rank = In.shape().size();
  if (Rank < 1 + M)
    return Ctx.invalid(
        absl::StrCat("input rank should be >= ", 1 + M, " instead of ", Rank));
  if (!(PadT.shape().size() == 2 && PadT.shape()[0] == M && PadT.shape()[1] == 2))
    return Ctx.invalid(absl::StrCat(PadName.str(), " should have shape [", M, ", 2] instead of ",
                                    shapeOf(PadT)));
  BlockSpec Spec;
  FROST_ASSIGN_OR_RETURN(Spec.Block, intElements(Ctx, 1));
  FROST_ASSIGN_OR_RETURN(Spec.Pads, intElements(Ctx, 2));
  return Spec;
}

/// Appends, for each position of the spatial dims `Dims` (row-major), either
/// `Inner` elements of `In` from the flat index `Source(pos)` gives, or
/// `Inner` zeros when it gives -1.
template <typename SourceFn>
void appendSpatial(ElementWriter &Out, const TensorData &In, const TensorData &Zero,
                   llvm::ArrayRef<int64_t> Dims, int64_t Inner, SourceFn Source) {
  std::vector<int64_t> Pos(Dims.size(), 0);
  int64_t Count = 1;
  for (int64_t D : Dims)
    Count *= D;
  for (int64_t N = 0; N < Count; ++N) {
    int64_t From = Source(Pos);
    if (From < 0)
      Out.appendRepeated(Zero, 0, Inner);
    else
      Out.append(In, From, Inner);
    for (int64_t D = static_cast<int64_t>(Dims.size()) - 1; D >= 0; --D) {
      if (++Pos[D] < Dims[D])
        break;
      Pos[D] = 0;
    }
  }
}

/// The output of SpaceToBatchND or BatchToSpaceND, of `OutShape` (batch,
/// `M` spatial dims, then the dims moved whole): for each output batch B,
/// `Sources(B)` gives the source function of appendSpatial over its spatial
/// positions.
template <typename SourcesFn>
absl::StatusOr<Outputs> moveBlocks(const KernelContext &Ctx, const std::vector<int64_t> &OutShape,
                                   int64_t M, SourcesFn Sources) {
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), OutShape, {&In}).status());
  int64_t Inner = 1;
  for (size_t D = M + 1; D < OutShape.size(); ++D)
    Inner *= OutShape[D];
  const llvm::ArrayRef<int64_t> Spatial = llvm::ArrayRef(OutShape).slice(1, M);
  TensorData Zero = zeroScalar(In.dtype());
  ElementWriter Out(In.dtype(), OutShape);
  for (int64_t B = 0; B < OutShape[0]; ++B)
    appendSpatial(Out, In, Zero, Spatial, Inner, Sources(B));
  return Outputs{std::move(Out).finish()};
}

/// The offset of block number `Index` (row-major over `Block`) in each dim.
std::vector<int64_t> blockOffsets(int64_t Index, llvm::ArrayRef<int64_t> Block) {
  std::vector<int64_t> Offsets(Block.size());
  for (int64_t D = static_cast<int64_t>(Block.size()) - 1; D >= 0; --D) {
    Offsets[D] = Index % Block[D];
    Index /= Block[D];
  }
  return Offsets;
}

} // namespace

absl::StatusOr<Outputs> evalIdentityN(const KernelContext &Ctx) {
  return Outputs(Ctx.inputs().begin(), Ctx.inputs().end());
}

// --- SpaceToBatchND, BatchToSpaceND ------------------------------------------

absl::StatusOr<Outputs> evalSpaceToBatchND(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), RealNumbers));
  FROST_ASSIGN_OR_RETURN(BlockSpec Spec, blockSpec(Ctx, "paddings"));
  int64_t M = Spec.Block.size();
  for (int64_t D = 0; D < M; ++D)
    if (Spec.Block[D] < 1)
      return Ctx.invalid(absl::StrCat("All values in block_shape must be positive, got value, ",
                                      Spec.Block[D], " at index ", D, "."));
  std::vector<int64_t> Shape = shapeVector(In);
  int64_t Batch = Shape[0], Product = 1;
  for (int64_t D = 0; D < M; ++D) {
    int64_t Start = Spec.Pads[2 * D], End = Spec.Pads[2 * D + 1];
    if (Start == 0 && End == 0 && Spec.Block[D] == 1)
      continue; // TensorFlow folds such a dim into the batch or depth unchecked.
    if (Start < 0 || End < 0)
      return Ctx.invalid("Paddings must be non-negative");
    int64_t Padded = Shape[D + 1] + Start + End;
    if (Padded % Spec.Block[D] != 0)
      return Ctx.invalid(absl::StrCat("padded_shape[", D, "]=", Padded,
                                      " is not divisible by block_shape[", D,
                                      "]=", Spec.Block[D]));
  }
  std::vector<int64_t> OutShape = Shape;
  for (int64_t D = 0; D < M; ++D) {
    Product *= Spec.Block[D];
    OutShape[D + 1] = (Shape[D + 1] + Spec.Pads[2 * D] + Spec.Pads[2 * D + 1]) / Spec.Block[D];
  }
  OutShape[0] = Batch * Product;
  std::vector<int64_t> Strides = stridesOf(Shape);
  // Output batch `Block * Batch + B` holds the elements of input batch B at
  // that block offset.
  return moveBlocks(Ctx, OutShape, M, [&](int64_t OutBatch) {
    std::vector<int64_t> Offsets = blockOffsets(OutBatch / Batch, Spec.Block);
    int64_t B = OutBatch % Batch;
    return [&, Offsets = std::move(Offsets), B](llvm::ArrayRef<int64_t> Pos) -> int64_t {
      int64_t Flat = B * Strides[0];
      for (int64_t D = 0; D < M; ++D) {
        int64_t I = Pos[D] * Spec.Block[D] + Offsets[D] - Spec.Pads[2 * D];
        if (I < 0 || I >= Shape[D + 1])
          return -1;
        Flat += I * Strides[D + 1];
      }
      return Flat;
    };
  });
}

absl::StatusOr<Outputs> evalBatchToSpaceND(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), RealNumbers));
  FROST_ASSIGN_OR_RETURN(BlockSpec Spec, blockSpec(Ctx, "crops"));
  int64_t M = Spec.Block.size();
  std::vector<int64_t> Shape = shapeVector(In);
  int64_t Product = 1;
  for (int64_t B : Spec.Block)
    Product *= B;
  if (Product <= 0)
    return Ctx.invalid(absl::StrCat("Product of block sizes must be positive, got ", Product));
  if (Shape[0] % Product != 0)
    return Ctx.invalid(absl::StrCat("Input batch dimension (", Shape[0],
                                    ") is not divisible by product of block sizes (", Product,
                                    ")"));
  std::vector<int64_t> OutShape = Shape;
  for (int64_t D = 0; D < M; ++D) {
    int64_t Start = Spec.Pads[2 * D], End = Spec.Pads[2 * D + 1];
    if (!(Start == 0 && End == 0 && Spec.Block[D] == 1) && (Start < 0 || End < 0))
      return Ctx.invalid("Crops must be non-negative");
    int64_t Cropped = Shape[D + 1] * Spec.Block[D] - Start - End;
    if (Cropped < 0)
      return Ctx.invalid(
          absl::StrCat("cropped_shape[", D, "]=", Cropped, " must be non-negative"));
    OutShape[D + 1] = Cropped;
  }
  int64_t Batch = Shape[0] / Product;
  OutShape[0] = Batch;
  std::vector<int64_t> Strides = stridesOf(Shape);
  return moveBlocks(Ctx, OutShape, M, [&](int64_t B) {
    return [&, B](llvm::ArrayRef<int64_t> Pos) -> int64_t {
      // Padded position P of dim D came from block offset P % block, input
      // position P / block.
      int64_t Block = 0, Flat = 0;
      for (int64_t D = 0; D < M; ++D) {
        int64_t P = Pos[D] + Spec.Pads[2 * D];
        Block = Block * Spec.Block[D] + P % Spec.Block[D];
        Flat += (P / Spec.Block[D]) * Strides[D + 1];
      }
      return Flat + (Block * Batch + B) * Strides[0];
    };
  });
}

// --- SpaceToDepth, DepthToSpace ----------------------------------------------

namespace {

constexpr DTypeMask DepthTypes = dtypes::Pod | dtypes::String | dtypes::Variant |
                                 dtypeBit(tensorflow::DT_QINT8);

absl::StatusOr<int64_t> blockSize(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(std::string Format, Ctx.stringAttr("data_format", "NHWC"));
  if (Format != "NHWC")
    return Ctx.unimplemented(
        absl::StrCat("data_format ", Format, " (TensorFlow's CPU kernel takes NHWC only)"));
  FROST_ASSIGN_OR_RETURN(int64_t Size, Ctx.intAttr("block_size"));
  if (Size <= 1)
    return Ctx.invalid(absl::StrCat("Block size should be > 1, but was: ", Size));
  return Size;
}

} // namespace

absl::StatusOr<Outputs> evalSpaceToDepth(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), DepthTypes));
  FROST_ASSIGN_OR_RETURN(int64_t Bs, blockSize(Ctx));
  if (In.shape().size() != 4)
    return Ctx.invalid(
        absl::StrCat("Input rank should be 4 instead of ", In.shape().size()));
  auto S = In.shape();
  if (S[1] % Bs != 0 || S[2] % Bs != 0)
    return Ctx.invalid(absl::StrCat("Image width ", S[2], " and height ", S[1],
                                    " should be divisible by block_size: ", Bs));
  std::vector<int64_t> OutShape = {S[0], S[1] / Bs, S[2] / Bs, S[3] * Bs * Bs};
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), OutShape, {&In}).status());
  ElementWriter Out(In.dtype(), OutShape);
  // Output depth (OH * Bs + OW) * C + c holds input pixel (H * Bs + OH, W * Bs + OW).
  for (int64_t B = 0; B < S[0]; ++B)
    for (int64_t H = 0; H < OutShape[1]; ++H)
      for (int64_t W = 0; W < OutShape[2]; ++W)
        for (int64_t OH = 0; OH < Bs; ++OH)
          for (int64_t OW = 0; OW < Bs; ++OW)
            Out.append(In, ((B * S[1] + H * Bs + OH) * S[2] + W * Bs + OW) * S[3], S[3]);
  return Outputs{std::move(Out).finish()};
}

absl::StatusOr<Outputs> evalDepthToSpace(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(1));
  const TensorData &In = Ctx.input(0);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), DepthTypes & ~dtypeBit(tensorflow::DT_QINT8)));
  FROST_ASSIGN_OR_RETURN(int64_t Bs, blockSize(Ctx));
  if (In.shape().size() != 4)
    return Ctx.invalid(
        absl::StrCat("Input rank should be: 4 instead of: ", In.shape().size()));
  auto S = In.shape();
  if (S[3] % (Bs * Bs) != 0)
    return Ctx.invalid(absl::StrCat("Input depth dimension ", S[3],
                                    " should be divisible by: ", Bs * Bs));
  int64_t Depth = S[3] / (Bs * Bs);
  std::vector<int64_t> OutShape = {S[0], S[1] * Bs, S[2] * Bs, Depth};
  FROST_RETURN_IF_ERROR(checkOutputShape(Ctx, In.dtype(), OutShape, {&In}).status());
  ElementWriter Out(In.dtype(), OutShape);
  for (int64_t B = 0; B < S[0]; ++B)
    for (int64_t H = 0; H < OutShape[1]; ++H)
      for (int64_t W = 0; W < OutShape[2]; ++W)
        Out.append(In,
                   ((B * S[1] + H / Bs) * S[2] + W / Bs) * S[3] +
                       ((H % Bs) * Bs + W % Bs) * Depth,
                   Depth);
  return Outputs{std::move(Out).finish()};
}

// --- ReverseSequence -----------------------------------------------------------

// reverse_sequence_op.cc: along seq_dim, the first seq_lengths[b] elements of
// each batch b (along batch_dim) in reverse order, the rest as they are. Every
// dtype TensorFlow registers (TF_CALL_ALL_TYPES), int32 or int64 lengths.
absl::StatusOr<Outputs> evalReverseSequence(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(2));
  const TensorData &In = Ctx.input(0), &LengthsT = Ctx.input(1);
  FROST_RETURN_IF_ERROR(checkDType(Ctx, In.dtype(), dtypes::Pod | dtypes::String));
  FROST_ASSIGN_OR_RETURN(int64_t SeqDim, Ctx.intAttr("seq_dim"));
  FROST_ASSIGN_OR_RETURN(int64_t BatchDim, Ctx.intAttr("batch_dim", 0));
  // The constructor's checks, then Compute's, in TensorFlow's order.
  if (BatchDim < 0)
    return Ctx.invalid(absl::StrCat("Invalid batch_dim ", BatchDim));
  if (SeqDim < 0)
    return Ctx.invalid(absl::StrCat("Invalid seq_dim ", SeqDim));
  if (LengthsT.shape().size() != 1)
    return Ctx.invalid(
        absl::StrCat("seq_lengths must be 1-dim, not ", LengthsT.shape().size()));
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Lengths, intElements(Ctx, 1));
  const int64_t Rank = In.shape().size();
  if (BatchDim == SeqDim)
    return Ctx.invalid(absl::StrCat("batch_dim == seq_dim == ", SeqDim));
  if (SeqDim >= Rank)
    return Ctx.invalid(absl::StrCat("seq_dim must be < input rank ( ", SeqDim, " vs. ", Rank, ")"));
  if (BatchDim >= Rank)
    return Ctx.invalid(
        absl::StrCat("batch_dim must be < input rank ( ", BatchDim, " vs. ", Rank, ")"));
  const int64_t Batches = In.shape()[BatchDim], SeqLength = In.shape()[SeqDim];
  if (static_cast<int64_t>(Lengths.size()) != Batches)
    return Ctx.invalid(absl::StrCat("Length of seq_lengths != input.dims(", BatchDim, "), (",
                                    Lengths.size(), " vs. ", Batches, ")"));
  for (size_t B = 0; B < Lengths.size(); ++B) {
    if (Lengths[B] < 0)
      return Ctx.invalid(absl::StrCat("seq_lens(", B, ") < 0"));
    if (Lengths[B] > SeqLength)
      return Ctx.invalid(absl::StrCat("seq_lens(", B, ") > input.dims(", SeqDim, ")"));
  }
  const std::vector<int64_t> Strides = stridesOf(In.shape());
  ElementWriter Out(In.dtype(), shapeVector(In));
  for (int64_t I = 0, N = In.numElements(); I < N; ++I) {
    const int64_t B = (I / Strides[BatchDim]) % Batches, S = (I / Strides[SeqDim]) % SeqLength;
    Out.append(In, S < Lengths[B] ? I + (Lengths[B] - 1 - 2 * S) * Strides[SeqDim] : I);
  }
  return Outputs{std::move(Out).finish()};
}

} // namespace frost::eval
