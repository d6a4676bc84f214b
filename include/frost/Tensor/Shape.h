//===- Shape.h - Tensor shapes: element counts, protos, text ----*- C++ -*-===//
//
// A shape is a list of dimensions (llvm::ArrayRef<int64_t>); a
// TensorShapeProto may also be partial (unknown rank, -1 dimensions).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TENSOR_SHAPE_H
#define FROST_TENSOR_SHAPE_H

#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tensorflow {
class TensorShapeProto;
} // namespace tensorflow

namespace frost {

/// Product of the dimensions; InvalidArgument for negative dimensions or a
/// product past INT64_MAX.
absl::StatusOr<int64_t> numElements(llvm::ArrayRef<int64_t> Shape);
/// Dimensions of `Proto`; InvalidArgument for unknown rank or unknown (-1)
/// or negative dimensions, or an element count overflowing int64.
absl::StatusOr<std::vector<int64_t>> shapeFromProto(const tensorflow::TensorShapeProto &Proto);

/// "[2,3]"; every dimension as its number ("[-2,2]" in error messages).
std::string formatShape(llvm::ArrayRef<int64_t> Shape);
/// A shape that may be partial: "[2,3]", "[?,3]" for unknown dimensions,
/// "<unknown>" for unknown rank.
std::string formatPartialShape(const tensorflow::TensorShapeProto &Shape);

} // namespace frost

#endif // FROST_TENSOR_SHAPE_H
