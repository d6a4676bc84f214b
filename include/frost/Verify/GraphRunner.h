//===- GraphRunner.h - Running an inference graph on given inputs -*- C++ -*-===//
//
// Runs the nodes a set of fetches needs with the constant evaluator's kernels
// (lib/Eval, within rounding of TensorFlow's), the way TensorFlow's executor
// does: placeholders take the fed values, variables the values a callback
// gives (a checkpoint's), Switch and Merge pass dead tensors along so a
// lowered cond runs one branch, TF1 while loops run iteration by iteration in
// their frames. Function calls (PartitionedCall, StatefulPartitionedCall, a
// library function as op), If, Case and While run the functions' bodies;
// TensorLists, TensorArrays and lookup tables live for the run (the tables'
// initializers run first). A loop that does not end
// runs out of the evaluation budget. What it cannot run (an op without a
// kernel, a failing kernel) marks the node and everything downstream as not
// computed, with the first node to blame (inside a function:
// `call/body_node`): a caller always learns why a fetch has no value, it
// never gets a guess.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_VERIFY_GRAPHRUNNER_H
#define FROST_VERIFY_GRAPHRUNNER_H

#include "frost/Eval/Eval.h"
#include "frost/IR/Graph.h"
#include "frost/Support/Status.h"
#include "frost/Tensor/Tensor.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace frost::verify {

using TensorMap = std::map<std::string, TensorData, std::less<>>;

struct RunRequest {
  /// Values of placeholders, or of other nodes of the top-level graph with
  /// one output, fed in place of what computes them, by node name.
  TensorMap Feeds;
  /// The value of a variable node (VariableV2, VarHandleOp, ...).
  std::function<absl::StatusOr<TensorData>(const Node &)> VariableValue;
  /// Nodes whose outputs to return.
  std::vector<std::string> Fetches;
  /// What the run may spend; over it, runGraph fails (ResourceExhausted,
  /// naming the node).
  eval::EvalBudget Budget;
  /// Nodes run once before the fetches, as a TensorFlow session runs the
  /// lookup-table initializers (init_all_tables, a SavedModel's init op)
  /// first. One that fails leaves its tables empty: a lookup in them then
  /// fails blaming it.
  std::vector<std::string> Initializers;
};

/// Why a node has no value: the node that could not run and what it said.
struct NotComputed {
  std::string Node;
  std::string Op;
  std::string Reason;
  /// The node had no kernel (as opposed to a kernel that refused its inputs).
  bool NoKernel = false;
  /// The run hit verification's own limit there (memory): the graph may
  /// well run in TensorFlow.
  bool OverLimit = false;
};

struct FetchedNode {
  std::string Node;
  /// One entry per output; nullopt for a dead output (the branch not taken).
  std::vector<std::optional<TensorData>> Outputs;
  /// Set when the node was not computed; Outputs is then empty.
  std::optional<NotComputed> Missing;
  /// The node is dead (all of it on an untaken branch).
  bool Dead = false;
};

struct RunResult {
  std::vector<FetchedNode> Fetched;
  /// Ops without a kernel among the nodes needed -> those nodes, sorted.
  std::map<std::string, std::vector<std::string>> NoKernel;
  size_t NodesRun = 0;
};

/// Runs what `Request.Fetches` need in `G`. Errors only for fetches not in
/// the graph; whatever fails while running is reported in the result.
absl::StatusOr<RunResult> runGraph(const Graph &G, const RunRequest &Request);

} // namespace frost::verify

#endif // FROST_VERIFY_GRAPHRUNNER_H
