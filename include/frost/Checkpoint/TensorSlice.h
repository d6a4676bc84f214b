//===- TensorSlice.h - Keys of partitioned-variable slices ------*- C++ -*-===//
//
// A slice of a partitioned variable is stored under
// EncodeTensorNameSlice(name, slice): TensorFlow's "ordered code" of 0, the
// name, the rank and each dimension's (start, length), length -1 = full.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_CHECKPOINT_TENSORSLICE_H
#define FROST_CHECKPOINT_TENSORSLICE_H

#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tensorflow {
class TensorSliceProto;
} // namespace tensorflow

namespace frost {

/// One dimension of a slice: [Start, Start + Length), or the whole dimension
/// when Length is -1 (then Start is 0).
struct SliceExtent {
  int64_t Start = 0;
  int64_t Length = -1;
  bool isFull() const { return Length < 0; }
  bool operator==(const SliceExtent &O) const = default;
};

/// The extents of `Proto` (an extent without a length is full).
std::vector<SliceExtent> sliceExtents(const tensorflow::TensorSliceProto &Proto);

/// The table key of slice `Extents` of tensor `Name`.
std::string encodeTensorNameSlice(llvm::StringRef Name, llvm::ArrayRef<SliceExtent> Extents);
std::string encodeTensorNameSlice(llvm::StringRef Name, const tensorflow::TensorSliceProto &Slice);

/// Inverse of encodeTensorNameSlice; InvalidArgument on malformed keys.
absl::Status decodeTensorNameSlice(llvm::StringRef Key, std::string &Name,
                                   std::vector<SliceExtent> &Extents);

/// True for keys written by encodeTensorNameSlice (they start with byte 0),
/// which listings hide.
inline bool isSliceKey(llvm::StringRef Key) { return !Key.empty() && Key[0] == '\0'; }

/// Checks `Extents` against `Shape` (same rank, inside every dimension) and
/// returns the slice's own shape.
absl::StatusOr<std::vector<int64_t>> sliceShape(llvm::ArrayRef<int64_t> Shape,
                                                llvm::ArrayRef<SliceExtent> Extents);

/// A `shape_and_slices` entry of a restore op: "10 5 0,4:-" = the full tensor
/// is [10,5] and this variable holds rows 0..3 of it. Empty = whole tensor.
struct SliceSpec {
  std::vector<int64_t> FullShape;
  std::vector<SliceExtent> Extents;
  bool isWhole() const { return FullShape.empty() && Extents.empty(); }
};
absl::StatusOr<SliceSpec> parseSliceSpec(llvm::StringRef Spec);
/// The spec as TensorFlow spells it ("10 5 0,4:0,5"; "-" for full extents).
std::string formatSliceSpec(const SliceSpec &Spec);

/// The part `Spec` of `Full` (a view when it is contiguous): what a
/// partitioned variable's slice holds of its key's full tensor.
absl::StatusOr<TensorData> cutSlice(const TensorData &Full, const SliceSpec &Spec);

} // namespace frost

#endif // FROST_CHECKPOINT_TENSORSLICE_H
