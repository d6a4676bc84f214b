//===- BackportTensorArrayV3.cpp - TensorArray V3 ops to V2 ---------------===//
//
// TensorFlow's graph_transforms backport_tensor_array_v3, for runtimes that
// predate the V3 ops: TensorArrayV3 and TensorArrayGradV3 become ...V2, whose
// handle is a string and which have no second `flow` output: readers of
// `<node>:1` read a float Const 1.0 named `<node>/replacement_flow_node`
// instead (the value does not matter: a flow tensor only orders the ops).
// TensorArray{Write,Read,Gather,Scatter,Concat,Split,Size,Close}V3 become
// ...V2 with the same inputs and attributes. Differences from TensorFlow, each
// so the result loads:
//  - TensorArrayV3's `identical_element_shapes`, which TensorArrayV2 lacks, is
//    dropped (with a warning when it was true);
//  - the handle's forwarding nodes (Identity, Enter, Switch, Merge,
//    NextIteration, Exit: a TF1 while loop's) get T=string instead of
//    resource; a handle reaching any other op (TensorArrayGradWithShape, a
//    function call) fails the pass naming it, since the V2 handle is no
//    resource;
//  - the replacement Const is made only when `<node>:1` is read, and has a
//    control input from the node: it stays in the node's while frame and
//    runs after it, as the flow did.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

#include <cstring>
#include <vector>

namespace frost {

namespace {

/// The V3 ops and their V2 replacements.
const llvm::StringMap<llvm::StringRef> &v2Ops() {
  static const llvm::StringMap<llvm::StringRef> Table = {
      {"TensorArrayV3", "TensorArrayV2"},
      {"TensorArrayGradV3", "TensorArrayGradV2"},
      {"TensorArrayWriteV3", "TensorArrayWriteV2"},
      {"TensorArrayReadV3", "TensorArrayReadV2"},
      {"TensorArrayGatherV3", "TensorArrayGatherV2"},
      {"TensorArrayScatterV3", "TensorArrayScatterV2"},
      {"TensorArrayConcatV3", "TensorArrayConcatV2"},
      {"TensorArraySplitV3", "TensorArraySplitV2"},
      {"TensorArraySizeV3", "TensorArraySizeV2"},
      {"TensorArrayCloseV3", "TensorArrayCloseV2"}};
  return Table;
}

bool isV2Op(llvm::StringRef Op) {
  return llvm::any_of(v2Ops(), [&](const auto &Entry) { return Entry.getValue() == Op; });
}

/// Ops that pass their input 0 through as output(s) of type `T`, and which of
/// their outputs carry it.
std::optional<llvm::SmallVector<int, 2>> forwardedPorts(llvm::StringRef Op) {
  if (Op == "Identity" || Op == "Enter" || Op == "Exit" || Op == "NextIteration" || Op == "Merge")
    return llvm::SmallVector<int, 2>{0};
  if (Op == "Switch")
    return llvm::SmallVector<int, 2>{0, 1};
  return std::nullopt;
}

class BackportTensorArrayV3Pass : public Pass {
  Statistic NumRewritten{*this, "ops-backported", "TensorArray V3 ops rewritten to V2"};
  Statistic NumFlowConsts{*this, "flow-constants", "Constants standing in for a flow output"};
  Statistic NumRetyped{*this, "handles-retyped",
                       "Forwarding nodes of a handle retyped from resource to string"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Node *> Arrays; // TensorArrayV2 and TensorArrayGradV2 once rewritten
    for (Node &N : G) {
      auto It = v2Ops().find(N.op());
      if (It == v2Ops().end())
        continue;
      if (N.op() == "TensorArrayV3" || N.op() == "TensorArrayGradV3")
        Arrays.push_back(&N);
      if (N.op() == "TensorArrayV3")
        dropIdenticalElementShapes(N, Ctx);
      N.setOp(It->getValue());
      ++NumRewritten;
    }
    for (Node *Array : Arrays) {
      FROST_RETURN_IF_ERROR(replaceFlowOutput(G, *Array));
      FROST_RETURN_IF_ERROR(retypeHandleUsers(*Array));
    }
    return absl::OkStatus();
  }

  void dropIdenticalElementShapes(Node &N, PassContext &Ctx) {
    const tensorflow::AttrValue *A = N.findAttr("identical_element_shapes");
    if (!A)
      return;
    if (A->b())
      Ctx.warning(name(), absl::StrCat("node '", N.name().str(),
                                       "': TensorArrayV2 has no identical_element_shapes; "
                                       "dropped it (it was true)"));
    N.eraseAttr("identical_element_shapes");
  }

  absl::Status replaceFlowOutput(Graph &G, Node &Array) {
    if (numDataUses(Array, 1) == 0)
      return absl::OkStatus();
    Node *Flow = G.createNode(
        G.uniqueName(absl::StrCat(Array.name().str(), "/replacement_flow_node")), "Const");
    Flow->attr("dtype").set_type(tensorflow::DT_FLOAT);
    float One = 1.0f;
    std::string Bytes(sizeof(One), '\0');
    std::memcpy(Bytes.data(), &One, sizeof(One));
    FROST_RETURN_IF_ERROR(
        makeTensorProto(TensorData::owned(tensorflow::DT_FLOAT, {}, std::move(Bytes)),
                        *Flow->attr("value").mutable_tensor()));
    Flow->addControlInput(&Array);
    Array.replaceUsesOfOutput(1, Flow, 0);
    ++NumFlowConsts;
    return absl::OkStatus();
  }

  /// Follows the handle (output 0 of `Array`) through forwarding nodes,
  /// retyping those that say resource; every other reader must be a V2 op.
  absl::Status retypeHandleUsers(Node &Array) {
    std::vector<std::pair<Node *, int>> Work = {{&Array, 0}};
    llvm::DenseSet<Node *> Seen = {&Array};
    while (!Work.empty()) {
      auto [Producer, Port] = Work.back();
      Work.pop_back();
      for (const Use &U : Producer->uses()) {
        const Input &In = U.User->input(U.InputIndex);
        if (In.isControl() || In.Port != Port)
          continue;
        Node *User = U.User;
        if (isV2Op(User->op()) && U.InputIndex == 0)
          continue;
        std::optional<llvm::SmallVector<int, 2>> Ports = forwardedPorts(User->op());
        if (!Ports || (User->op() != "Merge" && U.InputIndex != 0))
          return absl::InvalidArgumentError(
              absl::StrCat("node '", User->name().str(), "' (", User->op().str(),
                           ") reads the handle of '", Array.name().str(), "' as input ",
                           U.InputIndex, "; the V2 handle is a string and that op has no V2 form"));
        if (!Seen.insert(User).second)
          continue;
        tensorflow::AttrValue *T = nullptr;
        if (auto It = User->mutableAttrs().find("T"); It != User->mutableAttrs().end())
          T = &It->second;
        if (T && T->type() == tensorflow::DT_RESOURCE) {
          T->set_type(tensorflow::DT_STRING);
          ++NumRetyped;
        }
        for (int Out : *Ports)
          Work.push_back({User, Out});
      }
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createBackportTensorArrayV3Pass() {
  return std::make_unique<BackportTensorArrayV3Pass>();
}

} // namespace frost
