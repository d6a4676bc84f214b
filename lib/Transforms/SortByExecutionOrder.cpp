//===- SortByExecutionOrder.cpp - Nodes in an order they can run ----------===//
//
// graph_transforms' sort_by_execution_order: Kahn's algorithm with a LIFO
// stack (input-less nodes pushed in graph order, the last pushed first), so
// the output matches TensorFlow's node for node. Differences:
// - a Merge waits for all its control inputs and one data input (TensorFlow
//   counts any one input beyond the control count, so a Merge could come
//   before one of its control inputs);
// - a cycle is an error naming the nodes left over, not "N nodes in a
//   cycle"; nothing is reordered then.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Support/Suggest.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ExecutionOrder.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

class SortByExecutionOrderPass : public Pass {
  Statistic NumMoved{*this, "nodes-moved", "Nodes whose position changed"};

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    ExecutionOrder Order = executionOrder(G, ReadyPolicy::Stack);
    if (!Order.Unordered.empty()) {
      std::vector<std::string> Names;
      for (const Node *N : Order.Unordered)
        Names.push_back(absl::StrCat("'", N->name().str(), "' (", N->op().str(), ")"));
      return absl::InvalidArgumentError(
          absl::StrCat(Order.Unordered.size(), " of ", G.size(),
                       " nodes are on a cycle or wait for one (only a NextIteration into a "
                       "Merge may close a loop): ",
                       listFindings(Names)));
    }
    size_t Position = 0;
    for (const Node &N : G)
      NumMoved += &N != Order.Sorted[Position++];
    G.reorder(Order.Sorted);
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createSortByExecutionOrderPass() {
  return std::make_unique<SortByExecutionOrderPass>();
}

} // namespace frost
