//===- Eval.h - Evaluate one op on constant tensors -------------*- C++ -*-===//
//
// The constant evaluator: TensorFlow's CPU kernels, re-done over TensorData
// and a node's attributes (never a graph), for the passes that fold
// constants and, later, for running whole inference graphs to verify them.
// Kernels compute as TensorFlow's do, on Eigen where TensorFlow uses Eigen,
// so rounding matches (vectorized tanh/exp, reduction order).
//
// An op, or a dtype of an op, without a kernel is Unimplemented: callers leave
// that node alone, they never guess. What TensorFlow refuses (incompatible
// shapes, integer division by zero) is InvalidArgument with TensorFlow's
// message.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_EVAL_EVAL_H
#define FROST_EVAL_EVAL_H

#include "frost/Tensor/Tensor.h"
#include "frost/proto/graph.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace frost::eval {

/// A node's attributes by name (the same type as the IR's AttrMap).
using AttrMap = std::map<std::string, tensorflow::AttrValue, std::less<>>;

/// How close to TensorFlow's a kernel's results must be.
enum class Exactness {
  /// Bit for bit (constant folding).
  Bitwise,
  /// Within rounding (running graphs to verify them).
  WithinRounding,
};

/// Computes the outputs of `Op` (a TensorFlow op name) on `Inputs` (the data
/// inputs, in order) with attributes `Attrs`.
absl::StatusOr<std::vector<TensorData>> evaluate(llvm::StringRef Op,
                                                 llvm::ArrayRef<TensorData> Inputs,
                                                 const AttrMap &Attrs,
                                                 Exactness Exact = Exactness::Bitwise);

/// Whether Frost has a kernel for `Op` (for some dtypes at least).
bool hasKernel(llvm::StringRef Op);

/// Every op with a kernel, sorted.
std::vector<llvm::StringRef> opsWithKernels();

} // namespace frost::eval

#endif // FROST_EVAL_EVAL_H
