//===- Eval.h - Evaluate one op on constant tensors -------------*- C++ -*-===//
//
// The constant evaluator: TensorFlow's CPU kernels, re-done over TensorData
// and a node's attributes (never a graph), for the passes that fold
// constants and for running whole inference graphs to verify them. Two
// kinds of kernels: bitwise ones compute as TensorFlow's do, on Eigen where
// TensorFlow uses Eigen, so rounding matches (vectorized tanh/exp, reduction
// order); the kernels for running graphs (convolutions, pooling, batch
// normalization, softmax, resizing) are within rounding of TensorFlow's, not
// bit for bit, and are only used when a caller asks for
// Exactness::WithinRounding. Folding never does: a folded constant must be
// what TensorFlow would have computed.
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

/// How close to TensorFlow's results a caller needs a kernel's to be.
enum class Exactness {
  /// Bit for bit (constant folding): only the bitwise kernels.
  Bitwise,
  /// Within a few roundings (running a graph to compare it with another):
  /// the bitwise kernels and those for running graphs.
  WithinRounding,
};

/// Computes the outputs of `Op` (a TensorFlow op name) on `Inputs` (the data
/// inputs, in order) with attributes `Attrs`, with a kernel of `Needed`
/// exactness (an op with only a kernel for running graphs is Unimplemented
/// for Exactness::Bitwise).
absl::StatusOr<std::vector<TensorData>> evaluate(llvm::StringRef Op,
                                                 llvm::ArrayRef<TensorData> Inputs,
                                                 const AttrMap &Attrs,
                                                 Exactness Needed = Exactness::Bitwise);

/// Whether Frost has a kernel of `Needed` exactness for `Op` (for some
/// dtypes at least).
bool hasKernel(llvm::StringRef Op, Exactness Needed = Exactness::Bitwise);

/// Every op with a kernel of `Needed` exactness, sorted.
std::vector<llvm::StringRef> opsWithKernels(Exactness Needed = Exactness::Bitwise);

} // namespace frost::eval

#endif // FROST_EVAL_EVAL_H
