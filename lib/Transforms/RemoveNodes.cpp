//===- RemoveNodes.cpp - Bypass the nodes of some ops ---------------------===//
//
// graph_transforms' remove_nodes: each node whose op is one of `op` and that
// has 1 to `max-inputs` data inputs is removed, its readers reading its first
// data input instead (port included: `split:1`), `^node` becoming `^input`.
// Nodes named by `inputs`/`outputs` stay. TensorFlow's transform could leave a
// broken graph; here a node whose removal would do so stays, with a warning
// saying why:
// - a reader uses another output than 0 (`node:1` would dangle);
// - it is a pivot: it reads a Switch and some node has a control input on it
//   (TF1 cond and while build them, TensorFlow PR #8765). `^Switch` fires in
//   both branches, so the branch's constants would run in the other one;
// - it changes its input's dtype (Cast, Bitcast, ...), as the model's OpDefs
//   or the usual attributes (SrcT/DstT, T/out_type, ...) say, or a reader
//   expects a resource, a reference or a value its input does not give
//   (ReadVariableOp);
// - a reader is its own input (a loop closing through it);
// - it has control inputs and a Merge reads it.
// Other differences: the node's control inputs move to its readers instead of
// being dropped, so what ran before them still does; its other data inputs'
// producers stay in the graph (TensorFlow deleted them, even when others read
// them); chains go in one sweep; an output naming no node is an error.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/EdgeTypes.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/DataType.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/GraphInterface.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

namespace frost {

namespace {

using tensorflow::DataType;

std::optional<DataType> typeAttr(const Node &N, llvm::StringRef Name) {
  const tensorflow::AttrValue *A = N.findAttr(Name);
  if (!A || A->value_case() != tensorflow::AttrValue::kType)
    return std::nullopt;
  return A->type();
}

/// The dtype of the first tensor of an OpDef argument in node N.
std::optional<DataType> argType(const Node &N, const tensorflow::OpDef::ArgDef &Arg) {
  if (Arg.type() != tensorflow::DT_INVALID)
    return Arg.type();
  if (!Arg.type_attr().empty())
    return typeAttr(N, Arg.type_attr());
  if (const tensorflow::AttrValue *List = N.findAttr(Arg.type_list_attr());
      List && List->list().type_size() > 0)
    return static_cast<DataType>(List->list().type(0));
  return std::nullopt;
}

/// The dtypes of N's first input and first output, when known.
std::pair<std::optional<DataType>, std::optional<DataType>> ioTypes(const Node &N,
                                                                    const OpRegistry &Ops) {
  if (const tensorflow::OpDef *Def = Ops.find(N.op())) {
    if (Def->input_arg_size() == 0 || Def->output_arg_size() == 0)
      return {};
    std::optional<DataType> In = argType(N, Def->input_arg(0));
    std::optional<DataType> Out = argType(N, Def->output_arg(0));
    if (In && Out)
      return {In, Out};
  }
  // A node without the attributes its OpDef types it by, or of an op without
  // an OpDef: the usual spellings: Cast(SrcT -> DstT), Bitcast(T -> type), Shape(T ->
  // out_type), ...; an op with one type attribute keeps it.
  std::optional<DataType> In = typeAttr(N, "SrcT");
  if (!In)
    In = typeAttr(N, "T");
  for (llvm::StringRef Out : {"DstT", "out_type", "Tout", "output_type", "type"})
    if (std::optional<DataType> T = typeAttr(N, Out))
      return {In, T};
  return {In, In};
}

bool fits(EdgeKind Expected, EdgeKind Given) {
  return Expected == EdgeKind::Unknown || Given == EdgeKind::Unknown || Expected == Given ||
         (Expected == EdgeKind::Value && Given == EdgeKind::Ref);
}

const char *kindText(EdgeKind K) {
  return K == EdgeKind::Resource ? "a resource" : K == EdgeKind::Ref ? "a reference" : "a value";
}

std::string quoted(const Node &N) { return absl::StrCat("'", N.name().str(), "'"); }

class RemoveNodesPass : public Pass {
  ListOption<std::string> Ops{*this, "op", "Ops whose nodes are removed (readers bypass them)"};
  Option<int64_t> MaxInputs{*this, "max-inputs",
                            "Remove nodes with at most this many data inputs (at least 1)", 1};
  ListOption<std::string> Inputs{*this, "inputs", "Nodes never removed (the graph's inputs)"};
  ListOption<std::string> Outputs{*this, "outputs", "Nodes never removed (the graph's outputs)"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Statistic NumRemoved{*this, "nodes-removed", "Nodes removed"};
  Statistic NumKept{*this, "nodes-kept", "Nodes of the ops kept so that the graph stays valid"};

  absl::Status validateOptions() const override {
    if (Ops.empty())
      return absl::InvalidArgumentError("needs op=OP[;OP...]: the ops whose nodes to remove");
    if (*MaxInputs < 1)
      return absl::InvalidArgumentError(
          absl::StrCat("max-inputs must be at least 1, not ", *MaxInputs));
    return absl::OkStatus();
  }

  /// Why N must stay, or "" when its readers can read its first input.
  static std::string whyKept(const Node &N, const OpRegistry &Registry) {
    const Input &Replacement = N.input(0);
    const Node &Src = *Replacement.Src;
    bool ControlRead = false;
    for (const Use &U : N.uses()) {
      const Input &In = U.User->input(U.InputIndex);
      if (In.Port > 0)
        return absl::StrCat(quoted(*U.User), " reads its output ", In.Port,
                            "; only output 0 can be bypassed");
      if (U.User == &Src)
        return absl::StrCat(quoted(Src), " is both its input and its reader");
      if (isMergeOp(U.User->op()) && !N.controlInputs().empty())
        return absl::StrCat("its control inputs cannot move onto Merge ", quoted(*U.User));
      ControlRead |= In.isControl();
      if (In.isControl())
        continue;
      EdgeKind Expected = expectedInputKind(*U.User, U.InputIndex, Registry);
      EdgeKind Given = outputKind(Src, Replacement.Port, Registry);
      if (!fits(Expected, Given))
        return absl::StrCat("input ", U.InputIndex, " of ", quoted(*U.User), " takes ",
                            kindText(Expected), " but ", quoted(Src), " gives ",
                            kindText(Given));
    }
    if (ControlRead && (isSwitchOp(Src.op()) || Src.op() == "_SwitchN"))
      return absl::StrCat("it is a pivot: nodes have control inputs on it and it reads Switch ",
                          quoted(Src), ", whose control edges fire in both branches");
    auto [In, Out] = ioTypes(N, Registry);
    if (In && Out && *In != *Out)
      return absl::StrCat("it turns ", dataTypeName(*In), " into ", dataTypeName(*Out));
    return "";
  }

  /// Points N's readers at its first input and gives them its control inputs.
  static void bypass(Node &N) {
    Input Replacement = N.input(0);
    llvm::SmallSetVector<Node *, 8> Readers;
    for (const Use &U : N.uses())
      Readers.insert(U.User);
    llvm::SmallVector<Node *, 4> Controls;
    for (const Input &In : N.controlInputs())
      Controls.push_back(In.Src);
    N.replaceUsesOfOutput(0, Replacement.Src, Replacement.Port);
    N.replaceUsesOfOutput(ControlPort, Replacement.Src, ControlPort);
    for (Node *Reader : Readers)
      for (Node *Control : Controls)
        if (Control != Reader)
          Reader->addControlInput(Control);
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, *Inputs, *Outputs));
    llvm::StringSet<> Removable;
    for (const std::string &Op : Ops)
      Removable.insert(Op);
    OpRegistry Registry = modelOpRegistry(M);
    std::vector<std::string> Kept;
    for (auto It = G.begin(); It != G.end();) {
      Node &N = *It++;
      unsigned Data = N.numDataInputs();
      if (!Removable.contains(N.op()) || Data == 0 || Data > *MaxInputs ||
          Protected.contains(N.name()))
        continue;
      if (std::string Why = whyKept(N, Registry); !Why.empty()) {
        Kept.push_back(absl::StrCat(quoted(N), " (", N.op().str(), "): ", Why));
        ++NumKept;
        continue;
      }
      bypass(N);
      G.eraseNode(&N);
      ++NumRemoved;
    }
    if (!Kept.empty())
      Ctx.warning(name(), absl::StrCat("kept ", Kept.size(),
                                       " nodes whose removal would break the graph: ",
                                       listFindings(Kept)));
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRemoveNodesPass() { return std::make_unique<RemoveNodesPass>(); }

} // namespace frost
