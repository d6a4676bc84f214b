//===- Truth.h - TensorFlow's truth of a tensor -----------------*- C++ -*-===//
#ifndef FROST_TENSOR_TRUTH_H
#define FROST_TENSOR_TRUTH_H

#include "frost/Tensor/Tensor.h"

#include <optional>

namespace frost {

/// TensorFlow's truth of a predicate (If's `cond`, a functional While's
/// condition; its ToBool): a scalar bool, a nonzero number, a non-empty
/// string; a tensor of any other shape is true when it has elements. nullopt
/// for a dtype TensorFlow refuses.
std::optional<bool> truthOf(const TensorData &T);

} // namespace frost

#endif // FROST_TENSOR_TRUTH_H
