//===- Prune.cpp - Keep only what the outputs need ------------------------===//
//
// Like TensorFlow's extract_sub_graph as convert_variables_to_constants uses
// it: a node survives when an output reaches it through data inputs, control
// inputs or a `_class` colocation reference (`loc:@X`); dropping a colocation
// target would make TensorFlow's import fail. Survivors keep their order.
// Unlike extract_sub_graph, the library keeps only the functions the
// survivors call (directly or through other functions): one nothing calls
// could only still name the variables freezing made constants.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

class PrunePass : public Pass {
public:
  PrunePass() = default;
  explicit PrunePass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes or tensors to keep (`name` or `name:k`)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumRemoved{*this, "nodes-removed", "Nodes removed"};
  Statistic NumFunctionsDropped{*this, "functions-dropped",
                                "Library functions no kept node calls"};

  absl::Status validateOptions() const override {
    if (Outputs.empty())
      return absl::InvalidArgumentError("needs outputs=NAME[;NAME...]: the nodes to keep");
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(
        const std::vector<bool> *Keep,
        Ctx.analyses().nodesNeededBy(G, *Outputs, [&](const Node &N, llvm::StringRef Target) {
          Ctx.warning(name(), absl::StrCat("node '", N.name().str(), "' is colocated with '",
                                           Target.str(), "', which is not in the graph"));
        }));
    size_t Before = G.size();
    G.eraseNodesIf([&](const Node &N) { return !(*Keep)[N.id()]; });
    NumRemoved += Before - G.size();
    if (G.library().function_size())
      NumFunctionsDropped += dropUncalledFunctions(G);
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createPrunePass() { return std::make_unique<PrunePass>(); }

std::unique_ptr<Pass> createPrunePass(const KeepOutputsOptions &Options) {
  return makeNamedPass<PrunePass>(PassName::createPrunePass, Options);
}

} // namespace frost
