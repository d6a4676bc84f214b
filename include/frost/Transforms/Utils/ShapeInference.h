//===- ShapeInference.h - Static shapes of a node's outputs -----*- C++ -*-===//
//
// What TensorFlow's shape functions know about a tensor before the graph
// runs, for the ops inference graphs are made of: placeholders' declared
// shapes carried through elementwise ops, convolutions, pooling, matrix
// products, batch norms, and the shape-moving ops (Reshape, Transpose,
// StridedSlice, ConcatV2, ...) whose other inputs are constants. Folding
// uses it to replace Shape, Size and Rank of computed tensors, as
// graph_transforms' fold_constants does with TensorFlow's ShapeRefiner.
// An op without a rule here has outputs of unknown shape: never a guess.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_SHAPEINFERENCE_H
#define FROST_TRANSFORMS_UTILS_SHAPEINFERENCE_H

#include "frost/IR/Graph.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <vector>

namespace frost {

/// A tensor's shape as far as it is known statically: unknown rank, or
/// dimensions of which any may be unknown (-1).
class PartialShape {
public:
  /// Nothing known.
  PartialShape() = default;
  explicit PartialShape(std::vector<int64_t> Dims) : Dims(std::move(Dims)) {}
  /// The rank known, no dimension.
  static PartialShape ofRank(int64_t Rank) {
    return PartialShape(std::vector<int64_t>(static_cast<size_t>(Rank), -1));
  }

  bool rankKnown() const { return Dims.has_value(); }
  int64_t rank() const { return Dims ? static_cast<int64_t>(Dims->size()) : -1; }
  /// The dimensions; only when the rank is known.
  llvm::ArrayRef<int64_t> dims() const { return *Dims; }
  /// Dimension I, or -1 when unknown (also for an unknown rank).
  int64_t dim(int64_t I) const { return Dims && I >= 0 && I < rank() ? (*Dims)[I] : -1; }
  bool fullyDefined() const;

  bool operator==(const PartialShape &Other) const { return Dims == Other.Dims; }

private:
  std::optional<std::vector<int64_t>> Dims;
};

/// "1,224,224,3" (blank: a scalar's none) as dimensions, each a
/// non-negative integer: "'x' is not a dimension (a non-negative integer)".
absl::StatusOr<std::vector<int64_t>> parseDimensions(llvm::StringRef Text);

/// A TensorShapeProto as a partial shape (unknown rank, -1 dimensions).
PartialShape partialShapeFromProto(const tensorflow::TensorShapeProto &Proto);
/// The other way: unknown_rank, or a dim per dimension (-1 unknown).
tensorflow::TensorShapeProto partialShapeToProto(const PartialShape &Shape);
/// "[1,?,3]", "<unknown>" (formatPartialShape of its proto).
std::string formatPartialShape(const PartialShape &Shape);

/// What an inferred shape and a recorded one (`_output_shapes`) say together,
/// as TensorFlow's ShapeRefiner::SetShape merges them; nullopt when they
/// disagree (a rank or a known dimension).
std::optional<PartialShape> refineShape(const PartialShape &Inferred,
                                        const PartialShape &Recorded);

/// The static shape of tensor (N, Port), already inferred.
using ShapeOfFn = llvm::function_ref<PartialShape(const Node &N, int Port)>;
/// The value of tensor (N, Port) when it is a known constant, else null.
using ValueOfFn = llvm::function_ref<const TensorData *(const Node &N, int Port)>;

/// The static shapes of N's outputs (as many as the rules know of; any
/// other port is unknown) from its inputs' shapes and constant values.
std::vector<PartialShape> inferOutputShapes(const Node &N, ShapeOfFn ShapeOf, ValueOfFn ValueOf);

/// The static shapes of every node's outputs in a graph.
struct GraphShapes {
  /// By node id, then port.
  std::vector<std::vector<PartialShape>> Shapes;
  /// The shape of tensor (N, Port); unknown for a port without a rule.
  PartialShape of(const Node &N, int Port) const;
};

/// Infers every node's output shapes in construction order, Consts from
/// their values. The graph must not change while the result is used.
GraphShapes inferGraphShapes(const Graph &G);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_SHAPEINFERENCE_H
