//===- ConstValue.h - Reading and writing a Const node's value --*- C++ -*-===//
//
// A Const's `value` lives in its AttrValue or, for weights taken from a
// checkpoint, outside it (ExternalContent, never copied). These read it as a
// TensorData whichever way it is held, and write one back as
// make_tensor_proto would spell it, large values left in place.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_CONSTVALUE_H
#define FROST_IR_CONSTVALUE_H

#include "frost/IR/Graph.h"
#include "frost/Tensor/Tensor.h"

#include <optional>

namespace frost {

/// The tensor of attribute `Name` of N, borrowing external content.
/// InvalidArgument, naming the node, when it has none or it does not decode.
absl::StatusOr<TensorData> tensorAttrValue(const Node &N, std::string_view Name);

/// The value of Const node N: tensorAttrValue(N, "value").
absl::StatusOr<TensorData> constValue(const Node &N);

/// The bytes Const N's value takes once decoded from its typed fields,
/// known before decoding (a splat is one value in the proto, however large
/// its shape; UINT64_MAX when the size overflows); nullopt for a value held
/// as bytes already (tensor_content, external content) or of strings.
std::optional<uint64_t> decodedValueBytes(const Node &N);

/// Sets N's `value` attribute to T as make_tensor_proto(value, dtype, shape)
/// would write it; bytes it would store as tensor_content stay where they are
/// (zero copy).
absl::Status setValueAttr(Node &N, const TensorData &T);

/// A new Const named `Name` (made unique when the name is taken) holding T,
/// placed on `Device`.
absl::StatusOr<Node *> createConst(Graph &G, llvm::StringRef Name, const TensorData &T,
                                   llvm::StringRef Device);

} // namespace frost

#endif // FROST_IR_CONSTVALUE_H
