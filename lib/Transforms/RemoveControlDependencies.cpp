//===- RemoveControlDependencies.cpp - Drop `^` inputs --------------------===//
//
// graph_transforms' remove_control_dependencies drops every `^name` input of
// the graph's nodes. That breaks TF1 control flow: a constant inside a cond
// branch or a loop body hangs off the branch's pivot by a control input, which
// makes it dead in the branch not taken and puts it in the loop's frame;
// without it, `tf.cond(p, lambda: 1., lambda: 2.)` feeds both constants to
// the Merge and a loop constant lands outside its frame ("has inputs from
// different frames"). So this pass keeps the control inputs whose producer
// runs under control flow (fed, through any path, by a Switch or an Enter) and
// drops all others: a graph without Switch or Enter loses every `^` input.
// Function bodies are untouched, as in TensorFlow.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

bool startsControlFlow(llvm::StringRef Op) {
  return isSwitchOp(Op) || Op == "_SwitchN" || Op == "Enter" || Op == "RefEnter";
}

class RemoveControlDependenciesPass : public Pass {
  Statistic NumRemoved{*this, "control-inputs-removed", "Control inputs removed"};
  Statistic NumKept{*this, "control-inputs-kept",
                    "Control inputs kept because their producer runs under control flow"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    // Everything a Switch or an Enter reaches, through data and control edges.
    std::vector<char> UnderControlFlow(G.idBound());
    std::vector<Node *> Work;
    for (Node &N : G)
      if (startsControlFlow(N.op())) {
        UnderControlFlow[N.id()] = true;
        Work.push_back(&N);
      }
    while (!Work.empty()) {
      Node *N = Work.back();
      Work.pop_back();
      for (const Use &U : N->uses())
        if (!UnderControlFlow[U.User->id()]) {
          UnderControlFlow[U.User->id()] = true;
          Work.push_back(U.User);
        }
    }

    for (Node &N : G) {
      unsigned Before = N.numInputs();
      unsigned Control = Before - N.numDataInputs();
      if (Control == 0)
        continue;
      N.removeInputsIf(
          [&](const Input &In) { return In.isControl() && !UnderControlFlow[In.Src->id()]; });
      unsigned Removed = Before - N.numInputs();
      NumRemoved += Removed;
      NumKept += Control - Removed;
    }
    if (NumKept.value())
      Ctx.warning(name(), absl::StrCat("kept ", NumKept.value(),
                                       " control inputs from nodes under control flow (Switch, "
                                       "Enter): they decide which branch or frame runs"));
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRemoveControlDependenciesPass() {
  return std::make_unique<RemoveControlDependenciesPass>();
}

} // namespace frost
