//===- AddOutputShapes.cpp - Write each node's static output shapes -------===//
//
// TensorFlow's `add_shapes=True` (as_graph_def, Saver, write_graph): every
// node gets `_output_shapes`, one TensorShapeProto per output, as far as
// static shape inference knows it (Utils/ShapeInference: a dimension of -1
// is unknown, `unknown_rank` when nothing is). Constants are the Const
// nodes' values; run fold-constants first to make computed constants known.
// A node whose number of outputs Frost does not know is left without the
// attribute; an existing one is replaced.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpInfo.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"
#include "frost/Transforms/Utils/ShapeInference.h"

namespace frost {

namespace {

/// Nodes declaring more outputs (hostile `num` attributes) go unannotated.
constexpr int MaxListedOutputs = 1 << 16;

class AddOutputShapesPass : public Pass {
  Statistic NumNodes{*this, "nodes-annotated", "Nodes given `_output_shapes`"};
  Statistic NumFullyDefined{*this, "outputs-fully-defined", "Outputs whose shape is fully known"};

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    GraphShapes Shapes = inferGraphShapes(G);
    auto ShapeOf = [&](const Node &N, int Port) { return Shapes.of(N, Port); };
    for (Node *N : graphConstructionOrder(G)) {
      std::optional<int> Count = numOutputs(*N);
      N->eraseAttr("_output_shapes");
      if (!Count || *Count < 0 || *Count > MaxListedOutputs)
        continue;
      tensorflow::AttrValue::ListValue &List = *N->attr("_output_shapes").mutable_list();
      for (int Port = 0; Port < *Count; ++Port) {
        PartialShape S = ShapeOf(*N, Port);
        *List.add_shape() = partialShapeToProto(S);
        if (S.fullyDefined())
          ++NumFullyDefined;
      }
      ++NumNodes;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createAddOutputShapesPass() {
  return std::make_unique<AddOutputShapesPass>();
}

} // namespace frost
