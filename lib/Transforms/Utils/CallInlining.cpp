//===- CallInlining.cpp - One function call replaced by its body ----------===//
#include "frost/Transforms/Utils/CallInlining.h"

#include "frost/IR/EdgeTypes.h"
#include "frost/IR/OpClasses.h"
#include "frost/Tensor/DataType.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

bool isTrue(const Node &N, std::string_view Attr) {
  const tensorflow::AttrValue *V = N.findAttr(Attr);
  return V && V->value_case() == tensorflow::AttrValue::kB && V->b();
}

} // namespace

bool isFunctionCall(const FunctionIndex &Functions, const Node &N) {
  return isPartitionedCallOp(N.op()) || N.op() == "SymbolicGradient" ||
         Functions.find(N.op());
}

absl::Status inlineFunctionCall(Graph &G, Node &Call, const tensorflow::FunctionDef &F,
                                const OpRegistry &Ops, const FunctionIndex &Functions,
                                const CallInlining &How) {
  const tensorflow::OpDef &Sig = F.signature();
  std::string CallName = Call.name().str();
  std::string Where = absl::StrCat("node '", CallName, "' (call of ", Sig.name(), ")");
  if (static_cast<int>(Call.numDataInputs()) != Sig.input_arg_size())
    return absl::InvalidArgumentError(absl::StrCat(Where, ": ", Call.numDataInputs(),
                                                   " inputs for ", Sig.input_arg_size(),
                                                   " arguments"));
  // TensorFlow refuses to instantiate a function fed, or returning, a dtype
  // its signature does not declare; inlined, the mismatch would sit on the
  // Identity nodes that stand for the arguments and results.
  auto mistyped = [&](llvm::StringRef What, const tensorflow::OpDef::ArgDef &Arg,
                      const Node &Src, int Port) -> absl::Status {
    tensorflow::DataType Given = outputDType(Src, Port, Ops);
    if (dtypeFits(Arg.type(), Given))
      return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        Where, ": ", What.str(), " '", Arg.name(), "' is declared ", dataTypeName(Arg.type()),
        " but '", Src.name().str(), Port ? absl::StrCat(":", Port) : "", "' (", Src.op().str(),
        ") gives ", dataTypeName(Given)));
  };
  for (unsigned I = 0; I < Call.numDataInputs(); ++I)
    FROST_RETURN_IF_ERROR(mistyped("argument", Sig.input_arg(static_cast<int>(I)),
                                   *Call.input(I).Src, Call.input(I).Port));
  std::string Prefix = absl::StrCat("Func/", CallName);
  auto newName = [&](llvm::StringRef P) { return How.Names.newName(G, P); };

  // Grappler's AddStrictInputSemantics (instantiate-signature's captured
  // inputs stand for TensorFlow's captured Placeholders and are skipped too).
  if (How.BeforeInlining)
    How.BeforeInlining(Call, llvm::any_of(Sig.input_arg(), [](const tensorflow::OpDef::ArgDef &A) {
                         return A.type() == tensorflow::DT_RESOURCE;
                       }));
  // Grappler's multi-device inlining (calls and lowered branches) waits for
  // the body's control outputs, single-device inlining for the results.
  bool MultiDevice = isPartitionedCallOp(Call.op()) || isTrue(Call, "_lower_as_multi_device_function");

  // Each argument through an Identity; the call's control inputs through a
  // NoOp, made first.
  BodyCopyOptions Options;
  Options.Prefix = CallName + "/";
  Options.ConstructionOrder = true;
  Node *InputControl = nullptr;
  if (!Call.controlInputs().empty()) {
    InputControl = G.createNode(newName(Prefix + "/input_control_node"), "NoOp");
    InputControl->setDevice(Call.device());
    for (const Input &In : Call.controlInputs())
      InputControl->addControlInput(In.Src);
  }
  for (unsigned I = 0; I < Call.numDataInputs(); ++I) {
    Node *Id = G.createNode(newName(Prefix + "/input"), "Identity");
    Id->setDevice(Call.device());
    Id->attr("T").set_type(Sig.input_arg(I).type());
    Id->addDataInput(Call.input(I).Src, Call.input(I).Port);
    if (InputControl)
      Id->addControlInput(InputControl);
    Options.Args.push_back({Id, 0});
  }

  FROST_ASSIGN_OR_RETURN(BodyCopy Body, copyFunctionBody(G, F, Ops, Options));
  for (Node *N : Body.Nodes) {
    if (N->device().empty())
      N->setDevice(Call.device());
    // Body nodes without inputs, and calls without control inputs, wait for
    // the call's control inputs too.
    if (InputControl && (N->inputs().empty() ||
                         (isFunctionCall(Functions, *N) && N->controlInputs().empty())))
      N->addControlInput(InputControl);
  }

  for (unsigned I = 0; I < Body.Returns.size(); ++I) {
    const tensorflow::OpDef::ArgDef &Arg = Sig.output_arg(static_cast<int>(I));
    FROST_RETURN_IF_ERROR(mistyped("output", Arg, *Body.Returns[I].Src, Body.Returns[I].Port));
    // The call's own Tout (an If's, a PartitionedCall's) is what its readers take.
    if (tensorflow::DataType Declared = outputDType(Call, static_cast<int>(I), Ops);
        !dtypeFits(Declared, Arg.type()))
      return absl::InvalidArgumentError(absl::StrCat(
          Where, ": output ", I, " is declared ", dataTypeName(Declared), " by the call but ",
          dataTypeName(Arg.type()), " by the function's output '", Arg.name(), "'"));
  }
  // Each result through an Identity, read where the call's outputs were.
  std::vector<Node *> Outputs;
  for (unsigned I = 0; I < Body.Returns.size(); ++I) {
    Node *Out = G.createNode(newName(Prefix + "/output"), "Identity");
    Out->setDevice(Call.device());
    Out->attr("T").set_type(Sig.output_arg(I).type());
    Out->addDataInput(Body.Returns[I].Src, Body.Returns[I].Port);
    Call.replaceUsesOfOutput(static_cast<int>(I), Out, 0);
    Outputs.push_back(Out);
  }
  if (How.Results)
    *How.Results = Outputs;
  bool HasControlUsers = llvm::any_of(
      Call.uses(), [&](const Use &U) { return U.User->input(U.InputIndex).isControl(); });
  if (HasControlUsers) {
    Node *OutputControl = G.createNode(newName(Prefix + "/output_control_node"), "NoOp");
    OutputControl->setDevice(Call.device());
    for (Node *N : MultiDevice ? Body.ControlReturns : Outputs)
      OutputControl->addControlInput(N);
    if (OutputControl->inputs().empty() && InputControl)
      OutputControl->addControlInput(InputControl);
    Call.replaceUsesOfOutput(ControlPort, OutputControl, ControlPort);
  }
  if (Call.hasUses())
    return absl::InvalidArgumentError(
        absl::StrCat(Where, ": read through an output the function does not have"));
  G.eraseNode(&Call);
  return absl::OkStatus();
}

} // namespace frost
