//===- RemoveTrainingNodes.cpp - Identity and CheckNumerics spliced out ---===//
//
// TensorFlow's graph_util.remove_training_nodes, the step of
// optimize_for_inference that exposes batch norms to the folding passes:
// CheckNumerics nodes go, and Identity and StopGradient nodes are spliced
// out (their readers read their input) unless they have control inputs, are
// a control input, are named in a colocation group (`loc:@x`) or are
// `outputs`; Frost also keeps those nothing reads (unnamed outputs), and
// splices IdentityN the same way, output k to input k (Keras' swish and
// other custom-gradient activations leave one per layer, which OpenCV's
// importer has no layer for).
//
// First, control inputs from nodes that cannot do anything are dropped: a
// Const, Identity, StopGradient, Snapshot or NoOp whose own inputs (control
// ones too) are all of that kind. A frozen TF2 graph orders its outputs after such a chain
// (`Identity(y, ^NoOp)`, the NoOp after the variables' reads, now Consts),
// which keeps TensorFlow from splicing them and makes OpenCV refuse the graph
// ("removePhaseSwitches: Input node ... should have at least one output
// node"). TensorFlow also drops every reference to a CheckNumerics, data
// ones included, which leaves its readers an input short; Frost gives them
// the CheckNumerics' input.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/GraphInterface.h"

#include "llvm/ADT/StringSet.h"

namespace frost {

namespace {

bool isPassThrough(llvm::StringRef Op) {
  return Op == "Identity" || Op == "StopGradient" || Op == "Snapshot" || Op == "NoOp";
}

class RemoveTrainingNodesPass : public Pass {
public:
  RemoveTrainingNodesPass() = default;
  explicit RemoveTrainingNodesPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{*this, "outputs", "Nodes never removed (the graph's outputs)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumChecks{*this, "check-numerics-removed", "CheckNumerics nodes removed"};
  Statistic NumSpliced{*this, "identities-spliced", "Identity, IdentityN and StopGradient nodes spliced out"};
  Statistic NumControls{*this, "inert-control-inputs-dropped",
                        "Control inputs on constants and chains of them dropped"};

  /// Readers of N's output 0 read `Replacement`; readers of its control
  /// edge get Replacement's node as a control input.
  static void bypass(Node &N, const Input &Replacement) {
    Input R = Replacement;
    N.replaceUsesOfOutput(0, R.Src, R.Port);
    N.replaceUsesOfOutput(ControlPort, R.Src, ControlPort);
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, {}, *Outputs));

    // Inputs come first in construction order, so one walk decides; nodes
    // on a cycle are not inert.
    std::vector<bool> Inert(G.idBound(), false);
    std::vector<Node *> All = graphConstructionOrder(G);
    for (Node *N : All)
      Inert[N->id()] = (N->op() == "Const" || isPassThrough(N->op())) &&
                       llvm::all_of(N->inputs(), [&](const Input &In) { return Inert[In.Src->id()]; });
    G.removeInputsIf([&](const Node &, const Input &In) {
      bool Drop = In.isControl() && Inert[In.Src->id()];
      NumControls += Drop;
      return Drop;
    });

    // Colocation groups name their members: those stay.
    llvm::StringSet<> Colocated;
    for (Node *N : All)
      if (const tensorflow::AttrValue *Class = N->findAttr("_class"))
        for (const std::string &S : Class->list().s())
          if (llvm::StringRef(S).starts_with("loc:@"))
            Colocated.insert(llvm::StringRef(S).drop_front(5));

    for (Node *N : All) {
      if (Protected.contains(N->name()) || N->numDataInputs() == 0)
        continue;
      if (N->op() == "CheckNumerics") {
        bypass(*N, N->input(0));
        G.eraseNode(N);
        ++NumChecks;
        continue;
      }
      if (N->op() != "Identity" && N->op() != "StopGradient" && N->op() != "IdentityN")
        continue;
      bool ControlRead = llvm::any_of(
          N->uses(), [](const Use &U) { return U.User->input(U.InputIndex).isControl(); });
      // An Identity nothing reads is most likely an output the caller did
      // not name: splicing it would only delete it.
      if (!N->hasUses() || !N->controlInputs().empty() || ControlRead ||
          Colocated.contains(N->name()) ||
          llvm::any_of(N->dataInputs(), [&](const Input &In) { return In.Src == N; }))
        continue;
      if (N->op() == "IdentityN") {
        for (unsigned K = 0; K < N->numDataInputs(); ++K) {
          Input In = N->input(K);
          N->replaceUsesOfOutput(K, In.Src, In.Port);
        }
        G.eraseNode(N);
        ++NumSpliced;
        continue;
      }
      bypass(*N, N->input(0));
      G.eraseNode(N);
      ++NumSpliced;
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRemoveTrainingNodesPass() {
  return std::make_unique<RemoveTrainingNodesPass>();
}

std::unique_ptr<Pass> createRemoveTrainingNodesPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<RemoveTrainingNodesPass>(PassName::createRemoveTrainingNodesPass, Options);
}

} // namespace frost
