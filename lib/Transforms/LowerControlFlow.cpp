//===- LowerControlFlow.cpp - If/Case/While to Switch/Merge ---------------===//
//
// TensorFlow's LowerFunctionalOpsPass on the top-level graph: each If, Case
// and While marked `_lower_using_switch_merge` becomes Switch/Merge (and
// Enter/Exit/NextIteration) dataflow around one call per branch (cond, body),
// named and wired as Grappler's function optimizer does (see
// Utils/ControlFlowLowering.h). The branch calls are left as calls: their
// functions stay in the library, so the graph still runs. For TensorFlow's
// names after inlining too, use inline-functions{lower-control-flow=true}
// instead, which lowers and inlines in one walk on one counter as Grappler
// does; this pass followed by inline-functions numbers the names differently.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Utils/ControlFlowLowering.h"
#include "frost/Transforms/Passes.h"

namespace frost {

namespace {

class LowerControlFlowPass : public Pass {
  Statistic NumLowered{*this, "control-flow-lowered", "If, Case and While nodes lowered"};

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    std::vector<Node *> Walk = graphConstructionOrder(G);
    std::vector<unsigned> Rank(G.idBound());
    for (unsigned I = 0; I < Walk.size(); ++I)
      Rank[Walk[I]->id()] = I;
    // The new nodes are calls and Switch/Merge nodes, nothing to lower, so
    // the original nodes are all the walk needs to visit.
    NameCounter Names;
    for (Node *N : Walk) {
      if (!shouldLowerControlFlow(*N))
        continue;
      addStrictInputSemantics(
          *N, controlFlowTakesResource(*N),
          [&](const Node &X) { return X.id() < Rank.size() ? Rank[X.id()] : X.id(); },
          M.capturedInputs());
      FROST_RETURN_IF_ERROR(lowerControlFlowNode(G, *N, Names));
      ++NumLowered;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createLowerControlFlowPass() {
  return std::make_unique<LowerControlFlowPass>();
}

} // namespace frost
