//===- ArraySupport.h - What the array kernels share ------------*- C++ -*-===//
//
// The array ops move elements without looking at them, so they work on
// element bytes (any fixed-size dtype) or whole strings (DT_STRING and
// DT_VARIANT's serialized elements), never per C++ type: an ElementWriter
// appends elements of a source tensor in the output's row-major order.
// Outputs are bounded: a shape whose element count overflows int64 is
// TensorFlow's error, one beyond what a constant can hold is Frost's.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_EVAL_ARRAYSUPPORT_H
#define FROST_LIB_EVAL_ARRAYSUPPORT_H

#include "Kernel.h"

namespace frost::eval {

// --- Dtypes ------------------------------------------------------------------

/// A set of dtypes as bits indexed by the DataType number (all below 64).
using DTypeMask = uint64_t;
constexpr DTypeMask dtypeBit(tensorflow::DataType D) { return DTypeMask(1) << D; }

namespace dtypes {
using namespace tensorflow;
/// TensorFlow's TF_CALL_POD_TYPES: numbers (with complex) and bool.
constexpr DTypeMask Pod = dtypeBit(DT_FLOAT) | dtypeBit(DT_DOUBLE) | dtypeBit(DT_HALF) |
                          dtypeBit(DT_BFLOAT16) | dtypeBit(DT_INT8) | dtypeBit(DT_INT16) |
                          dtypeBit(DT_INT32) | dtypeBit(DT_INT64) | dtypeBit(DT_UINT8) |
                          dtypeBit(DT_UINT16) | dtypeBit(DT_UINT32) | dtypeBit(DT_UINT64) |
                          dtypeBit(DT_COMPLEX64) | dtypeBit(DT_COMPLEX128) | dtypeBit(DT_BOOL);
constexpr DTypeMask Float8 = dtypeBit(DT_FLOAT8_E4M3FN) | dtypeBit(DT_FLOAT8_E5M2);
constexpr DTypeMask Int4 = dtypeBit(DT_INT4) | dtypeBit(DT_UINT4);
/// The quantized dtypes most array kernels register (not the 16-bit ones).
constexpr DTypeMask Quantized8And32 =
    dtypeBit(DT_QINT8) | dtypeBit(DT_QUINT8) | dtypeBit(DT_QINT32);
constexpr DTypeMask Quantized = Quantized8And32 | dtypeBit(DT_QINT16) | dtypeBit(DT_QUINT16);
constexpr DTypeMask String = dtypeBit(DT_STRING);
constexpr DTypeMask Variant = dtypeBit(DT_VARIANT);
/// Ops registered without a dtype constraint (Reshape, Shape...): every
/// dtype a TensorData holds.
constexpr DTypeMask Any = ~DTypeMask(0);
} // namespace dtypes

/// Unimplemented (no kernel for the dtype) unless `DType` is in `Allowed` and
/// Frost holds its elements (fixed size, string or variant).
absl::Status checkDType(const KernelContext &Ctx, tensorflow::DataType DType, DTypeMask Allowed);

// --- Output sizes ------------------------------------------------------------

/// The most bytes one output may take: what a Const's TensorProto can hold.
constexpr int64_t MaxOutputBytes = int64_t(1) << 31;

/// The element count of `Shape` (dims known non-negative): InvalidArgument
/// "Shape [a,b] would have more than 2**63 - 1 elements" as TensorShape says
/// it; beyond MaxOutputBytes for `DType` is Unimplemented (Frost refuses to
/// build it, TensorFlow would try to allocate it). String outputs are bounded
/// by their count times the longest string of `Sources`, the tensors their
/// elements come from, so nothing big is ever allocated.
absl::StatusOr<int64_t> checkOutputShape(const KernelContext &Ctx, tensorflow::DataType DType,
                                         llvm::ArrayRef<int64_t> Shape,
                                         llvm::ArrayRef<const TensorData *> Sources = {});

/// TensorShape::AddDimWithStatus dim by dim (Tile, Pad compute dims that
/// may wrap): "Expected a non-negative size, got -2", an overflowing element
/// count, then checkOutputShape.
absl::Status addDims(const KernelContext &Ctx, tensorflow::DataType DType,
                     llvm::ArrayRef<int64_t> Dims);

/// Row-major strides of `Shape`, in elements.
std::vector<int64_t> stridesOf(llvm::ArrayRef<int64_t> Shape);

/// TensorShapeUtils::MakeShape over a shape input's values: each dim
/// non-negative ("Dimension -1 must be >= 0"), the product within int64, then
/// checkOutputShape.
absl::StatusOr<std::vector<int64_t>> makeShape(const KernelContext &Ctx, tensorflow::DataType DType,
                                               std::vector<int64_t> Dims);

/// The dims of `T`, as a vector to build another shape from.
inline std::vector<int64_t> shapeVector(const TensorData &T) {
  return std::vector<int64_t>(T.shape().begin(), T.shape().end());
}

/// TensorShape::DebugString: "[2,3]", "[]" for a scalar.
inline std::string shapeOf(const TensorData &T) { return shapeString(T.shape()); }

// --- Index inputs ------------------------------------------------------------

/// Every element of integer input `I` (of a dtype in `Allowed`, uint8, int16, int32
/// or int64 or int8) as int64, whatever its shape; Unimplemented otherwise.
absl::StatusOr<std::vector<int64_t>>
intElements(const KernelContext &Ctx, size_t I,
            DTypeMask Allowed = dtypeBit(tensorflow::DT_INT32) | dtypeBit(tensorflow::DT_INT64));

/// A scalar integer input that TensorFlow also takes as a one-element
/// vector (an axis); `Message` is the error for any other shape.
absl::StatusOr<int64_t> axisInput(const KernelContext &Ctx, size_t I, llvm::StringRef Message);

// --- Writing elements --------------------------------------------------------

/// Builds an output tensor by appending elements of sources of its dtype.
class ElementWriter {
public:
  /// `Shape` passed checkOutputShape (with the sources appended from).
  ElementWriter(tensorflow::DataType DType, std::vector<int64_t> Shape);

  /// Appends `Count` consecutive elements of `Src` from element `Begin`.
  void append(const TensorData &Src, int64_t Begin, int64_t Count = 1);
  /// Appends element `Index` of `Src` `Times` times.
  void appendRepeated(const TensorData &Src, int64_t Index, int64_t Times);
  /// Appends, in row-major order over the dims of `Offsets`, the element of
  /// `Src` at `Base + sum over d of Offsets[d][i_d]`.
  void appendIndexed(const TensorData &Src, int64_t Base,
                     llvm::ArrayRef<std::vector<int64_t>> Offsets);

  TensorData finish() &&;

private:
  tensorflow::DataType DType;
  std::vector<int64_t> Shape;
  size_t ElementSize;
  std::string Bytes;
  std::vector<std::string> Strings;
};

/// A one-element tensor of `DType` holding zero (all bytes zero; "" for
/// strings), e.g. Pad's padding.
TensorData zeroScalar(tensorflow::DataType DType);

/// The elements of `Src` that ElementWriter::appendIndexed reads with
/// `Base` and `Offsets` (one list per output dim), as a tensor of `Shape`
/// (the same element count as the lists' sizes multiplied).
absl::StatusOr<TensorData> gatherIndexed(const KernelContext &Ctx, const TensorData &Src,
                                         int64_t Base, llvm::ArrayRef<std::vector<int64_t>> Offsets,
                                         std::vector<int64_t> Shape);

/// The offsets (gatherIndexed's) that read a tensor of `InShape` broadcast
/// to `Shape`: dims aligned right, a size-1 or missing dim repeated. The
/// shapes are known to broadcast.
std::vector<std::vector<int64_t>> broadcastOffsets(llvm::ArrayRef<int64_t> InShape,
                                                   llvm::ArrayRef<int64_t> Shape);

} // namespace frost::eval

#endif // FROST_LIB_EVAL_ARRAYSUPPORT_H
