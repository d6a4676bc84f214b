//===- DropVariableWrites.cpp - Writes to frozen variables become NoOps ---===//
//
// A frozen variable is a Const: an op still writing it (a signature's
// `v.assign_add(1)`, an optimizer update or initializer kept as an output, a
// batch-norm moving-average update reached through a control dependency)
// takes a resource or reference and is fed a value (the Const, or an Identity
// of it where a call was inlined), and TensorFlow refuses
// the graph ("expected resource"). Freezing refuses it too unless asked to
// drop such writes: this pass turns each op that takes a resource or
// reference from a Const, and whose result nothing reads, into a NoOp of the
// same name with the same control inputs (what waited on the write still
// waits), and warns for each. An op whose result is read stays, and the
// final check names it. The same holds inside the bodies of the functions
// the graph calls (an If branch left with a batch norm's moving-average
// updates): a write whose handle argument became a value, and whose result
// the body neither reads nor returns, becomes a NoOp there.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/EdgeTypes.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/MapVector.h"

namespace frost {

namespace {

bool hasDataUses(const Node &N) {
  return llvm::any_of(N.uses(),
                      [](const Use &U) { return !U.User->input(U.InputIndex).isControl(); });
}

class DropVariableWritesPass : public Pass {
  Statistic NumDropped{*this, "writes-dropped", "Ops writing a frozen variable made NoOps"};

  void dropWritesInFunctions(Graph &G, const OpRegistry &Ops, PassContext &Ctx) {
    std::vector<IllTypedFunctionEdge> Edges = findIllTypedFunctionEdges(G, Ops);
    if (Edges.empty())
      return;
    tensorflow::FunctionDefLibrary &Lib = *G.mutableOtherFields().mutable_library();
    for (const IllTypedFunctionEdge &E : Edges) {
      if (E.ResultUsed || !E.FromArgument)
        continue;
      auto F = llvm::find_if(*Lib.mutable_function(), [&](const tensorflow::FunctionDef &D) {
        return D.signature().name() == E.Function;
      });
      if (F == Lib.mutable_function()->end())
        continue;
      auto W = llvm::find_if(*F->mutable_node_def(),
                             [&](const tensorflow::NodeDef &N) { return N.name() == E.Node; });
      if (W == F->mutable_node_def()->end() || W->op() == "NoOp")
        continue; // gone already (another of its inputs)
      Ctx.warning(name(), absl::StrCat("dropped '", E.Node, "' (", W->op(), ") in function '",
                                       E.Function,
                                       "', which writes a variable freezing makes a constant: "
                                       "the frozen graph does not do it"));
      google::protobuf::RepeatedPtrField<std::string> Controls;
      for (const std::string &In : W->input())
        if (llvm::StringRef(In).starts_with("^"))
          Controls.Add(std::string(In));
      W->mutable_input()->Swap(&Controls);
      W->clear_attr();
      W->set_op("NoOp");
      ++NumDropped;
    }
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    OpRegistry Ops = modelOpRegistry(M);
    // Each writer once, with the first frozen variable it writes.
    llvm::MapVector<Node *, const Node *> Writers;
    for (const IllTypedEdge &E : findIllTypedEdges(G, Ops))
      if (const Node *Variable = constantSource(E.User->input(E.Input));
          Variable && !hasDataUses(*E.User))
        Writers.insert({const_cast<Node *>(E.User), Variable});
    for (auto [W, Variable] : Writers) {
      Ctx.warning(name(), absl::StrCat("dropped '", W->name().str(), "' (", W->op().str(),
                                       "), which writes the frozen variable '", Variable->name().str(),
                                       "': the frozen graph does not do it"));
      W->removeInputsIf([](const Input &In) { return !In.isControl(); });
      std::vector<std::string> Attrs;
      for (const auto &Entry : W->attrs())
        Attrs.push_back(Entry.first);
      for (const std::string &A : Attrs)
        W->eraseAttr(A);
      W->setOp("NoOp");
      ++NumDropped;
    }
    dropWritesInFunctions(G, Ops, Ctx);
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createDropVariableWritesPass() {
  return std::make_unique<DropVariableWritesPass>();
}

} // namespace frost
