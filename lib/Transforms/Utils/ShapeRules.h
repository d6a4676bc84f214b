//===- ShapeRules.h - What the shape inference rules share ------*- C++ -*-===//
//
// The operands of the node being inferred (shapes, constant values,
// attributes) and checked dimension arithmetic, for ShapeInference.cpp
// (arithmetic on shapes) and ShapeMovingOps.cpp (the ops that rearrange
// them).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_TRANSFORMS_UTILS_SHAPERULES_H
#define FROST_LIB_TRANSFORMS_UTILS_SHAPERULES_H

#include "frost/Transforms/Utils/ShapeInference.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string_view>
#include <vector>

namespace frost::shape_rules {

using Shapes = std::vector<PartialShape>;

/// TensorFlow's largest rank (TensorShape), and the most outputs a rule
/// lists (Split, Unpack): beyond, hostile graphs could make Frost allocate
/// without bound.
constexpr int64_t MaxRank = 254;
constexpr int64_t MaxOutputs = int64_t(1) << 16;

/// The node being inferred, its operands' shapes and known values.
class Operands {
public:
  Operands(const Node &N, ShapeOfFn ShapeOf, ValueOfFn ValueOf)
      : N(N), ShapeOf(ShapeOf), ValueOf(ValueOf) {}

  unsigned size() const { return N.numDataInputs(); }
  PartialShape shape(unsigned I) const {
    if (I >= size())
      return PartialShape();
    if (const TensorData *V = value(I))
      return PartialShape(std::vector<int64_t>(V->shape().begin(), V->shape().end()));
    const Input &In = N.dataInputs()[I];
    return ShapeOf(*In.Src, In.Port);
  }
  const TensorData *value(unsigned I) const {
    if (I >= size())
      return nullptr;
    const Input &In = N.dataInputs()[I];
    return ValueOf(*In.Src, In.Port);
  }

  llvm::StringRef stringAttr(std::string_view Name, llvm::StringRef Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->value_case() == tensorflow::AttrValue::kS ? llvm::StringRef(A->s()) : Default;
  }
  bool boolAttr(std::string_view Name) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->b();
  }
  /// A list(int) attribute, or `Default` when absent.
  std::vector<int64_t> intsAttr(std::string_view Name, std::vector<int64_t> Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || !A->has_list() || A->list().i_size() == 0)
      return Default;
    return std::vector<int64_t>(A->list().i().begin(), A->list().i().end());
  }
  int64_t intAttr(std::string_view Name, int64_t Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->value_case() == tensorflow::AttrValue::kI ? A->i() : Default;
  }
  std::optional<tensorflow::DataType> typeAttr(std::string_view Name) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || A->value_case() != tensorflow::AttrValue::kType)
      return std::nullopt;
    return A->type();
  }

  const Node &N;

private:
  ShapeOfFn ShapeOf;
  ValueOfFn ValueOf;
};

/// A + B and A * B of dimensions (hostile graphs carry any integers):
/// unknown (-1) when either is unknown or negative, or the result overflows.
inline int64_t addDims(int64_t A, int64_t B) {
  int64_t R;
  return A < 0 || B < 0 || __builtin_add_overflow(A, B, &R) ? -1 : R;
}
inline int64_t mulDims(int64_t A, int64_t B) {
  int64_t R;
  return A < 0 || B < 0 || __builtin_mul_overflow(A, B, &R) ? -1 : R;
}

/// The integers of a known constant operand (int32 or int64), or nullopt.
inline std::optional<std::vector<int64_t>> intsOf(const Operands &In, unsigned I) {
  const TensorData *V = In.value(I);
  if (!V || (V->dtype() != tensorflow::DT_INT32 && V->dtype() != tensorflow::DT_INT64))
    return std::nullopt;
  std::vector<int64_t> Out;
  for (int64_t K = 0; K < V->numElements(); ++K)
    Out.push_back(V->dtype() == tensorflow::DT_INT64 ? V->element<int64_t>(K)
                                                     : V->element<int32_t>(K));
  return Out;
}

/// An axis in [-Rank, Rank) made non-negative, or nullopt.
inline std::optional<int64_t> axisIn(int64_t Axis, int64_t Rank) {
  if (Axis < -Rank || Axis >= Rank)
    return std::nullopt;
  return Axis < 0 ? Axis + Rank : Axis;
}

/// Reshape and the shape-moving ops (Transpose, StridedSlice, ConcatV2, Pad,
/// reductions, ...); nullopt for another op or when the shape is not known.
std::optional<Shapes> inferShapeMovingOp(const Operands &In);

} // namespace frost::shape_rules

#endif // FROST_LIB_TRANSFORMS_UTILS_SHAPERULES_H
