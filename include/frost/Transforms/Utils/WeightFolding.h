//===- WeightFolding.h - Folding per-channel arithmetic into weights -*- C++ -*-===//
//
// A batch norm at inference is y = x * scale + offset per output channel.
// When x is a convolution or matrix product with constant weights, the scale
// multiplies the weights of each output channel instead and the offset
// becomes a bias: the passes fold-batch-norms, fold-old-batch-norms and
// fuse-decomposed-batch-norm share these pieces. Values are computed in
// double and rounded once to the weights' dtype, as optimize_for_inference's
// numpy code does.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_WEIGHTFOLDING_H
#define FROST_TRANSFORMS_UTILS_WEIGHTFOLDING_H

#include "frost/IR/Graph.h"
#include "frost/Tensor/Tensor.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace frost {

/// A Conv2D, DepthwiseConv2dNative or MatMul reading constant float or
/// double weights: the ops whose output channels a scale folds into.
struct WeightedOp {
  Node *Op = nullptr;
  /// The Const behind input 1.
  Node *Weights = nullptr;
  TensorData WeightValue;
  /// Output channels: HWIO's O, HWCM's C*M, the columns of the product.
  int64_t Channels = 0;
  /// The output axis holding the channels (NHWC 3, NCHW 1, MatMul 1) and the
  /// output's rank.
  int ChannelAxis = 0;
  int OutputRank = 0;
};

/// N as a WeightedOp: nullopt when N is none of those ops, an error saying
/// why when it is one but its weights cannot be folded into.
absl::StatusOr<std::optional<WeightedOp>> matchWeightedOp(Node *N);

/// Whether `In` reads output 0 of a Const node.
bool isConstInput(const Input &In);

/// The values of a float or double Const that broadcasts along W's channel
/// axis only (a scalar, [C], or [C] padded with ones to W's output rank), as
/// C doubles; an error naming `Role` otherwise.
absl::StatusOr<std::vector<double>> channelValues(const WeightedOp &W, const Input &In,
                                                  llvm::StringRef Role);

/// The per-channel values `Add` (BiasAdd, Add or AddV2 of W's output) adds
/// through its input `Bias`: a BiasAdd adds along the axis its data_format
/// names, which must be W's channel axis; an add broadcasts (channelValues).
absl::StatusOr<std::vector<double>> biasValues(const WeightedOp &W, const Node &Add,
                                               const Input &Bias);

/// Gives `To` the control inputs of `From`, which is going away.
void moveControlInputs(const Node &From, Node &To);

/// The values of a float or double Const as doubles, exactly.
absl::StatusOr<std::vector<double>> constDoubles(const Node &C);

/// W's weights with output channel c multiplied by Scale[c], each product
/// computed in double and rounded to the weights' dtype.
TensorData scaledWeights(const WeightedOp &W, llvm::ArrayRef<double> Scale);

/// A new Const named `Name` (made unique) holding `Values` rounded to `DType`
/// (float or double) with shape [Values.size()], on Near's device.
absl::StatusOr<Node *> createChannelConst(Graph &G, llvm::StringRef Name,
                                          tensorflow::DataType DType,
                                          llvm::ArrayRef<double> Values, const Node &Near);

/// Makes W.Op read `Value` from a new Const `<op>_weights` (as
/// optimize_for_inference names it); the old weights are erased when nothing
/// else reads them, so weights shared with another node stay theirs.
absl::Status replaceWeights(Graph &G, WeightedOp &W, const TensorData &Value);

/// Erases each of `Nodes` that nothing reads any more, in order (readers
/// first; a node listed twice is erased once).
void eraseIfUnused(Graph &G, llvm::ArrayRef<Node *> Nodes);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_WEIGHTFOLDING_H
