//===- ContainerValues.h - What the TensorList and TensorArray runs share -===//
//
// The values RunContainers.cpp (TensorLists) and RunArrays.cpp (TensorArrays)
// build and check: items stacked and sliced, shapes merged, index and
// element_shape inputs read, every size checked against the run's budget
// before anything is allocated.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_VERIFY_CONTAINERVALUES_H
#define FROST_LIB_VERIFY_CONTAINERVALUES_H

#include "frost/Eval/Eval.h"
#include "frost/IR/Graph.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace frost::verify::containers {

using Shape = std::vector<int64_t>;

/// The bytes `Count` tensors of `DType` and shape `S` (all dimensions known)
/// take (strings: 8 a string), refused over the budget's limit per tensor
/// before anything is allocated.
absl::StatusOr<uint64_t> checkedBytes(tensorflow::DataType DType, const Shape &S, uint64_t Count,
                                      llvm::StringRef What, eval::EvalBudget &Budget);

/// `T` with another shape of as many elements (shares the storage).
TensorData reshaped(const TensorData &T, Shape NewShape);

/// An item never set: zeros of shape `S`, within the budget's limit.
absl::StatusOr<TensorData> zeros(tensorflow::DataType DType, Shape S, eval::EvalBudget &Budget);

/// A scalar of DType (int32 or int64) holding V.
TensorData scalarOf(tensorflow::DataType DType, int64_t V);

/// An int32 or int64 scalar input's value; `What` names it in the error.
absl::StatusOr<int64_t> scalarInt(const TensorData &T, llvm::StringRef What);

/// An int32 or int64 input's values.
absl::StatusOr<std::vector<int64_t>> intValues(const TensorData &T, llvm::StringRef What);

/// An element_shape input: a scalar -1 is an unknown rank.
absl::StatusOr<std::optional<Shape>> shapeInput(const TensorData &T);

/// A shape attribute of N; nullopt when absent or of unknown rank.
std::optional<Shape> shapeAttr(const Node &N, llvm::StringRef Name);

/// A type attribute of N; DT_INVALID when absent.
tensorflow::DataType typeAttr(const Node &N, llvm::StringRef Name);

/// The most two partial shapes say together, or an error when they differ.
absl::StatusOr<std::optional<Shape>> mergeShapes(const std::optional<Shape> &A,
                                                 const std::optional<Shape> &B);

/// A known rank with every dimension known.
bool fullyDefined(const std::optional<Shape> &S);

/// Items stacked along a new first axis; unset items are zeros of
/// `ElementShape` (which must then be fully defined).
absl::StatusOr<TensorData> stack(tensorflow::DataType DType,
                                 llvm::ArrayRef<std::optional<TensorData>> Items,
                                 const std::optional<Shape> &KnownShape, eval::EvalBudget &Budget);

/// Row `I` of `T` along its first axis.
absl::StatusOr<TensorData> row(const TensorData &T, int64_t I);

/// An item fits the container: its dtype, and its shape the element shape.
absl::Status checkItem(const TensorData &Item, tensorflow::DataType DType,
                       const std::optional<Shape> &ElementShape);

/// Index is within [0, Size).
absl::Status inRange(int64_t Index, size_t Size);

/// The node has exactly N inputs.
absl::Status arity(const std::vector<TensorData> &In, size_t N);

} // namespace frost::verify::containers

#endif // FROST_LIB_VERIFY_CONTAINERVALUES_H
