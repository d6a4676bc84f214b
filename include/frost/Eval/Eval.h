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

/// What evaluating may cost a caller (a fold, a verification run), so that a
/// hostile graph fails with a message instead of taking the machine's memory
/// or hours: one budget per run, shared by its kernel calls.
struct EvalBudget {
  /// Work units (elements read and written, multiply-adds) by default:
  /// about ten seconds of kernels.
  static constexpr uint64_t DefaultWork = 100'000'000'000;
  /// The largest tensor by default (1 GiB).
  static constexpr uint64_t DefaultMaxTensorBytes = uint64_t(1) << 30;

  /// Work units the run may still spend; each kernel call is charged an
  /// estimate (estimateWork) before it runs and is refused beyond this.
  uint64_t WorkLeft = DefaultWork;
  /// The most bytes one tensor may take: a kernel's output, or a constant a
  /// caller expands (a splat) before evaluating.
  uint64_t MaxTensorBytes = DefaultMaxTensorBytes;

  /// The limit a refused call ran into, so that its caller can name the
  /// flag that raises it (None while nothing was refused).
  enum class Limit { None, Work, TensorBytes, Memory };
  Limit Exceeded = Limit::None;
};

/// A cheap estimate, from shapes and attributes (and, for regular
/// expressions, the compiled pattern's size), of the work units `Op` on
/// `Inputs` costs: the elements it reads, times the window or inner
/// dimension for products, convolutions and pooling.
uint64_t estimateWork(llvm::StringRef Op, llvm::ArrayRef<TensorData> Inputs, const AttrMap &Attrs);

/// Computes the outputs of `Op` (a TensorFlow op name) on `Inputs` (the data
/// inputs, in order) with attributes `Attrs`, with a kernel of `Needed`
/// exactness (an op with only a kernel for running graphs is Unimplemented
/// for Exactness::Bitwise). With a `Budget`, the call is charged its work
/// and an output over its MaxTensorBytes is refused; either is
/// ResourceExhausted, as is an allocation that fails (never an abort).
absl::StatusOr<std::vector<TensorData>> evaluate(llvm::StringRef Op,
                                                 llvm::ArrayRef<TensorData> Inputs,
                                                 const AttrMap &Attrs,
                                                 Exactness Needed = Exactness::Bitwise,
                                                 EvalBudget *Budget = nullptr);

/// Whether Frost has a kernel of `Needed` exactness for `Op` (for some
/// dtypes at least).
bool hasKernel(llvm::StringRef Op, Exactness Needed = Exactness::Bitwise);

/// Every op with a kernel of `Needed` exactness, sorted.
std::vector<llvm::StringRef> opsWithKernels(Exactness Needed = Exactness::Bitwise);

} // namespace frost::eval

#endif // FROST_EVAL_EVAL_H
