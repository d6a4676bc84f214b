//===- GraphDiffValues.h - Attribute values and tensors, compared -*- C++ -*-===//
//
// GraphDiff's pieces that know values, not graphs (GraphDiffValues.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_INSPECT_GRAPHDIFFVALUES_H
#define FROST_LIB_INSPECT_GRAPHDIFFVALUES_H

#include "frost/IR/ConstValue.h"
#include "frost/IR/Graph.h"
#include "frost/Inspect/GraphDiff.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/Hashing.h"

#include <optional>
#include <string>

namespace frost::inspect::detail {

/// "float32 [?,3]".
std::string typeAndShape(tensorflow::DataType DType, const tensorflow::TensorShapeProto &Shape);

/// An attribute value in a few words: numbers, types by name ("float32"),
/// shapes ("[?,3]"), lists ("[1, 2, 2, 1]"), tensors by type ("float32 [3]").
std::string spellAttr(const tensorflow::AttrValue &V);


/// Whether A and B hold the same values (within Atol); D says how they differ.
bool compareTensors(const TensorData &A, const TensorData &B, double Atol, ValueDiff &D);

/// A hash of dtype, shape and values, for pairing constants by value.
llvm::hash_code hashTensor(const TensorData &T);

} // namespace frost::inspect::detail

#endif // FROST_LIB_INSPECT_GRAPHDIFFVALUES_H
