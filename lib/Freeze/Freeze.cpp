//===- Freeze.cpp - Freezing a model, as a library ------------------------===//
//
// Inputs -> (a TF2 signature: instantiate-signature) -> outputs -> the
// freeze sequence of frost/Transforms/Pipelines.h -> run. Every pass runs in
// one pass manager with one PassContext, so the checkpoint is opened once and
// the reachability of the outputs is shared while the graph is unchanged.
//
// The policies that are freeze-graph's and not a pass's live here: a TF1
// Keras graph's learning phase is bound to false, lookup-table initializers
// the outputs need are kept (and read their files into the graph), and a
// missing checkpoint is reported in the user's terms before any pass runs.
//
//===----------------------------------------------------------------------===//
#include "FreezeInternal.h"

#include "frost/IR/EdgeTypes.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/TensorName.h"
#include "frost/IR/Verifier.h"
#include "frost/Support/File.h"
#include "frost/Pass/PassManager.h"
#include "frost/Transforms/OptimizeForInference.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Pipelines.h"
#include "frost/Transforms/Utils/SignatureInstantiation.h"
#include "frost/Transforms/Variables.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

namespace frost {

namespace {

/// Each pass's option combinations, checked before anything runs.
absl::Status validatePasses(const PassManager &PM) {
  for (const std::unique_ptr<Pass> &P : PM.passes())
    FROST_RETURN_IF_ERROR(P->validateOptions());
  return absl::OkStatus();
}

/// Without a checkpoint, the variables the outputs need cannot be frozen:
/// say so in freeze-graph's terms before any pass runs.
absl::Status checkCheckpointNeeded(const FreezeInput &In, const std::vector<std::string> &Keep,
                                   const FreezeOptions &C, AnalysisManager &Analyses) {
  if (!In.Checkpoint.empty())
    return absl::OkStatus();
  const Graph &G = In.M->graph();
  FROST_ASSIGN_OR_RETURN(const std::vector<bool> *Needed, Analyses.nodesNeededBy(G, Keep));
  std::vector<std::string> Vars;
  for (const Node &N : G)
    if ((*Needed)[N.id()] && isVariableOp(N.op()) && !llvm::is_contained(C.Except, N.name()) &&
        (C.Only.empty() || llvm::is_contained(C.Only, N.name())))
      Vars.push_back(absl::StrCat("'", N.name().str(), "'"));
  if (Vars.empty())
    return absl::OkStatus();
  size_t Total = Vars.size();
  Vars.resize(std::min<size_t>(Total, 3));
  return absl::InvalidArgumentError(absl::StrCat(
      In.GraphPath, ": the outputs need ", Total, Total == 1 ? " variable" : " variables", " (",
      absl::StrJoin(Vars, ", "), Total > 3 ? ", ..." : "",
      ") but no checkpoint was given",
      llvm::StringRef(In.GraphPath).ends_with(".meta") ? " and none is beside the .meta" : "",
      ": use --checkpoint PREFIX (--input_checkpoint)"));
}

/// Whether the kept nodes need a table initialized from a text file, which
/// the freeze reads into the graph.
bool needsTableFiles(const Graph &G, const std::vector<std::string> &Keep,
                     AnalysisManager &Analyses) {
  absl::StatusOr<const std::vector<bool> *> Needed = Analyses.nodesNeededBy(G, Keep);
  return Needed.ok() && llvm::any_of(G, [&](const Node &N) {
           return (**Needed)[N.id()] && isTextFileTableInitializerOp(N.op());
         });
}

/// A TF1 Keras graph's training flag, bound to false unless the user binds
/// or keeps it: freezing is for inference.
bool bindsKerasLearningPhase(const Graph &G, const FreezeOptions &C,
                             const std::vector<std::string> &Keep) {
  const Node *Phase = G.findNode("keras_learning_phase");
  if (!Phase || (Phase->op() != "Placeholder" && Phase->op() != "PlaceholderWithDefault") ||
      llvm::is_contained(Keep, Phase->name()) ||
      llvm::any_of(C.Bind, [](const std::string &B) {
        return llvm::StringRef(B).split('=').first.trim() == "keras_learning_phase";
      }))
    return false;
  const tensorflow::AttrValue *DType = Phase->findAttr("dtype");
  return DType && DType->type() == tensorflow::DT_BOOL;
}

/// TensorFlow refuses a graph in which an op taking a resource or reference
/// is fed a value: the final check, naming the first such op in the user's
/// terms (a write to a frozen variable, mostly).
absl::Status checkEdgeTypes(const Model &M, const FreezeResult &R) {
  OpRegistry Ops = modelOpRegistry(M);
  std::vector<IllTypedEdge> Bad = findIllTypedEdges(M.graph(), Ops);
  std::string Where = R.Signature.empty()
                          ? R.GraphPath
                          : absl::StrCat(R.GraphPath, ": signature '", R.Signature, "'");
  if (Bad.empty()) {
    // A branch or called function still writing a variable whose handle
    // argument freezing made a value: TensorFlow fails when it runs.
    std::vector<IllTypedFunctionEdge> InFunctions = findIllTypedFunctionEdges(M.graph(), Ops);
    if (InFunctions.empty())
      return absl::OkStatus();
    const IllTypedFunctionEdge &E = InFunctions.front();
    return absl::InvalidArgumentError(absl::StrCat(
        Where, ": function '", E.Function, "', which the frozen graph calls: ", E.Description,
        InFunctions.size() > 1 ? absl::StrCat(" (and ", InFunctions.size() - 1, " more)") : "",
        "; it writes a variable freezing makes a constant, and TensorFlow could not run the "
        "graph: bind what decides the branch (--bind) so that only the inference branch stays, "
        "or --drop-variable-writes drops such writes"));
  }
  const IllTypedEdge &E = Bad.front();
  const Node &User = *E.User;
  const Node *Variable = constantSource(User.input(E.Input));
  std::string More = Bad.size() > 1 ? absl::StrCat(" (and ", Bad.size() - 1, " more)") : "";
  auto Source = Variable ? M.variableSources().find(Variable->name())
                         : M.variableSources().end();
  if (Source == M.variableSources().end())
    return absl::InternalError(absl::StrCat(Where, ": the frozen graph would not import: ",
                                            describeIllTypedEdges(Bad)));
  bool RefAssign = User.op() == "Assign" || User.op() == "AssignAdd" || User.op() == "AssignSub";
  return absl::InvalidArgumentError(absl::StrCat(
      Where, ": '", User.name().str(), "' (", User.op().str(), ") writes variable '",
      Variable->name().str(), "' (checkpoint key '", Source->second.Key,
      "'), which freezing makes a constant", More,
      "; TensorFlow could not import the graph: --drop-variable-writes drops such writes",
      RefAssign ? ", --strip-training-ops turns them into the values they compute" : ""));
}

/// PyFunc and its kin call Python functions registered in the process that
/// built the graph: they stay, as in TensorFlow, but the user should know.
std::vector<std::string> pythonCallWarnings(const Graph &G) {
  auto isPythonCall = [](llvm::StringRef Op) {
    return Op == "PyFunc" || Op == "PyFuncStateless" || Op == "EagerPyFunc";
  };
  std::vector<std::string> Names;
  for (const Node &N : G)
    if (isPythonCall(N.op()))
      Names.push_back(absl::StrCat("'", N.name().str(), "' (", N.op().str(), ")"));
  for (const tensorflow::FunctionDef &F : G.library().function())
    for (const tensorflow::NodeDef &N : F.node_def())
      if (isPythonCall(N.op()))
        Names.push_back(absl::StrCat("'", N.name(), "' (", N.op(), ", in function ",
                                     F.signature().name(), ")"));
  if (Names.empty())
    return {};
  return {absl::StrCat(
      "the frozen graph calls Python: ", absl::StrJoin(Names, ", "),
      Names.size() == 1 ? " runs" : " run",
      " tf.py_function/tf.numpy_function code that only the process which built the graph "
      "has; elsewhere it fails with \"callback pyfunc_N is not found\"")};
}

/// The signature's keys -> tensor names, sorted by key: its inputs, and the
/// outputs whose nodes are kept.
void recordSignature(const Model &M, FreezeResult &R, const std::vector<std::string> &Keep) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta || R.Signature.empty())
    return;
  auto It = Meta->signature_def().find(R.Signature);
  if (It == Meta->signature_def().end()) {
    R.Signature.clear();
    return;
  }
  R.SignatureDeclared = It->second;
  for (const auto &[Key, Info] : It->second.inputs())
    R.SignatureInputs.push_back({Key, Info.name()});
  for (const auto &[Key, Info] : It->second.outputs())
    if (llvm::is_contained(Keep, nodeOfTensor(Info.name())))
      R.SignatureOutputs.push_back({Key, Info.name()});
  llvm::sort(R.SignatureInputs);
  llvm::sort(R.SignatureOutputs);
}

} // namespace

uint64_t FreezeResult::frozenBytes() const {
  uint64_t Bytes = 0;
  for (const FrozenVariable &V : Frozen)
    Bytes += V.Bytes;
  return Bytes;
}

void noteFreezeInputs(Context &Ctx, const FreezeOptions &O) {
  for (const std::string *Input :
       {&O.InputGraph, &O.InputMetaGraph, &O.SavedModelDir, &O.Checkpoint, &O.InputSaver})
    if (!Input->empty())
      Ctx.inputs().noteWithSiblings(*Input);
  for (const std::string &Input : O.Positional)
    Ctx.inputs().noteWithSiblings(Input);
}

absl::StatusOr<FreezeResult> freeze(Context &Ctx, const FreezeOptions &Options) {
  FreezeOptions C = Options; // the policies below add a signature and binds
  auto note = [&Ctx](llvm::StringRef Text) { Ctx.diagnostics().note(Text); };
  auto noteAll = [&note](std::vector<std::string> &Texts) {
    for (const std::string &T : Texts)
      note(T);
    Texts.clear();
  };

  // The options, checked before anything is read; the user's passes parsed
  // once, and added last.
  FROST_RETURN_IF_ERROR(usageError(checkOneInput(C)));
  PassRegistry Registry;
  registerAllPasses(Registry);
  FROST_RETURN_IF_ERROR(usageError(checkPassManagerOptions(C.PM, Registry)));
  const SetInputShapesOptions Shapes{C.InputShapes, C.BatchSize};
  FROST_RETURN_IF_ERROR(usageError(validateInputShapes(Shapes)));
  PassManager Extra;
  if (!C.ExtraPipeline.empty())
    FROST_RETURN_IF_ERROR(usageError(
        parsePassPipeline(C.ExtraPipeline, Registry, Extra, "--pass-pipeline")));

  noteFreezeInputs(Ctx, C);
  PassContext PassCtx(Ctx);
  std::vector<std::string> Pending;
  absl::StatusOr<FreezeInput> Loaded = [&] {
    Stopwatch Timer(C.PM.Timing, "read input");
    return loadFreezeInput(C, PassCtx.analyses());
  }();
  if (!Loaded.ok())
    return Loaded.status();
  FreezeInput &In = *Loaded;
  Model &M = *In.M;
  if (C.PM.VerifyEach) {
    Stopwatch Timer(C.PM.Timing, "(verify)");
    if (absl::Status S = verifyGraph(M.graph()); !S.ok()) {
      // A served signature's function gone from the library is the
      // signature's fault, not only its call node's.
      std::string Message(S.message());
      if (const tensorflow::MetaGraphDef *Meta = M.metaGraph()) {
        std::vector<std::string> Keys;
        for (const auto &Entry : Meta->signature_def())
          Keys.push_back(Entry.first);
        llvm::sort(Keys);
        for (const std::string &Sig : Keys)
          if (std::string F = signatureFunction(M, Sig); !F.empty() && !findFunction(M.graph(), F)) {
            Message = absl::StrCat("signature '", Sig, "': its function '", F,
                                   "' is not in the graph's library (", Message, ")");
            break;
          }
      }
      return absl::Status(S.code(), absl::StrCat(In.GraphPath, ": ", Message));
    }
  }

  FreezeResult R;
  R.GraphPath = In.GraphPath;
  R.Checkpoint = In.Checkpoint;
  R.Container = M.kind();
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
    for (const auto &A : Meta->asset_file_def())
      R.Assets.push_back(A.filename());
  if (R.Container == ContainerKind::SavedModel)
    R.Tags = C.Tags;

  // Statistics are printed once, after the last pass.
  PassManagerOptions PMOptions = C.PM;
  PMOptions.Statistics = false;
  PassManager PM(PMOptions);

  // A TF2 signature is a function call: its function becomes the graph, as
  // tf.saved_model.load makes it, and its outputs are the function's.
  FreezePipelineOptions T;
  FreezeSequence &Sequence = T.Sequence;
  // A TF1 signature (no function) only names tensors of the graph: the
  // report keeps it, and verification feeds its inputs.
  std::string GraphSignature;
  if (M.kind() == ContainerKind::SavedModel) {
    std::string Sig = requestedSignature(C, M);
    if (Sig.empty()) {
      // Output keys and node names of one signature choose it.
      absl::StatusOr<std::string> Holding = signatureOfOutputs(C, M);
      if (!Holding.ok())
        return Holding.status();
      Sig = *std::move(Holding);
      if (!Sig.empty())
        note(absl::StrCat("freezing for signature '", Sig, "', which has --outputs ",
                          absl::StrJoin(C.Outputs, ",")));
    }
    if (!Sig.empty() && !signatureFunction(M, Sig).empty()) {
      PM.addPass(createInstantiateSignaturePass({Sig, In.Checkpoint}));
      if (absl::Status S = PM.run(M, PassCtx); !S.ok()) {
        // Instantiation errors are about the SavedModel: name it.
        llvm::StringRef Message(S.message().data(), S.message().size());
        Message.consume_front("instantiate-signature: ");
        return absl::Status(S.code(), absl::StrCat(In.GraphPath, ": ", Message.str()));
      }
      C.Signature = Sig;
      Sequence.FunctionGraph = true;
      // The signature's inputs, in argument order.
      const tensorflow::SignatureDef &Def = M.metaGraph()->signature_def().at(Sig);
      for (const Node &N : M.graph())
        for (const auto &[Key, Info] : Def.inputs())
          if (nodeOfTensor(Info.name()) == N.name())
            T.SignatureInputs.push_back(N.name().str());
    } else if (!Sig.empty() && M.metaGraph()->signature_def().contains(Sig)) {
      GraphSignature = Sig;
    }
  }

  absl::StatusOr<std::vector<FreezeOutput>> Outputs =
      resolveFreezeOutputs(C, M, Sequence.FunctionGraph ? C.Signature : "", Pending);
  noteAll(Pending);
  if (!Outputs.ok())
    return Outputs.status();
  R.Outputs = *std::move(Outputs);
  for (const FreezeOutput &O : R.Outputs)
    T.Keep.push_back(O.Node);
  for (const std::string &Init : C.InitializerNodes) {
    if (!M.graph().findNode(Init)) {
      absl::Status S = resolveTensorName(M.graph(), Init, "initializer node").status();
      return S.ok() ? absl::InvalidArgumentError(absl::StrCat(
                          In.GraphPath, ": initializer node '", Init,
                          "' names a tensor: give the node's name"))
                    : S;
    }
    if (!llvm::is_contained(T.Keep, Init))
      T.Keep.push_back(Init);
  }
  if (bindsKerasLearningPhase(M.graph(), C, T.Keep)) {
    note("binding keras_learning_phase=false (inference: Dropout and batch-statistics branches "
         "go); --bind keras_learning_phase=true keeps training behaviour");
    C.Bind.push_back("keras_learning_phase=false");
  }
  R.Initializers = tableInitializers(M, T.Keep, PassCtx.analyses());
  if (!R.Initializers.empty()) {
    note(absl::StrCat("keeping the lookup-table initializers ",
                      absl::StrJoin(R.Initializers, ", "), ": run ", R.Initializers.back(),
                      " once before the outputs (TensorFlow's freezing loses them, and "
                      "the lookups fail with \"Table not initialized\")"));
    for (const std::string &Init : R.Initializers)
      if (!llvm::is_contained(T.Keep, Init))
        T.Keep.push_back(Init);
  }
  FROST_RETURN_IF_ERROR(checkCheckpointNeeded(In, T.Keep, C, PassCtx.analyses()));
  if (Sequence.FunctionGraph) {
    std::map<std::string, std::string> ByKey; // sorted: the function's order
    for (const auto &[Key, Info] : M.metaGraph()->signature_def().at(C.Signature).outputs())
      ByKey[Key] = nodeOfTensor(Info.name());
    for (const auto &[Key, Out] : ByKey)
      if (llvm::is_contained(T.Keep, Out) && !llvm::is_contained(T.FunctionOutputs, Out))
        T.FunctionOutputs.push_back(Out);
    for (const std::string &Kept : T.Keep)
      if (!llvm::is_contained(T.FunctionOutputs, Kept))
        T.FunctionOutputs.push_back(Kept);
  }

  Sequence.TableFiles = needsTableFiles(M.graph(), T.Keep, PassCtx.analyses());
  Sequence.RenameVariables = !C.Rename.empty();
  Sequence.EmaRemap = C.Ema.has_value();
  Sequence.BindPlaceholders = !C.Bind.empty();
  Sequence.FoldConstantBranches = llvm::any_of(
      M.graph(), [](const Node &N) { return isIfOp(N.op()) || isCaseOp(N.op()); });
  Sequence.StripTrainingOps = C.StripTrainingOps;
  Sequence.DropVariableWrites = C.DropVariableWrites;
  Sequence.ClearDevices = C.ClearDevices;
  R.Signature = C.Signature.empty() ? GraphSignature : C.Signature;
  recordSignature(M, R, T.Keep);
  R.NodesBefore = M.graph().size();
  T.Checkpoint = In.Checkpoint;
  T.Rename = C.Rename;
  T.Bind = C.Bind;
  T.Only = C.Only;
  T.Except = C.Except;
  T.Ema = C.Ema.value_or("");
  T.LowerControlFlow = !C.KeepFunctionalControlFlow;
  // The pass manager runs what was added since its last run: with a
  // snapshot, the passes before the conversion run first.
  if (C.KeepSource) {
    buildFreezePipeline(PM, T, FreezeStage::BeforeConversion);
    FROST_RETURN_IF_ERROR(validatePasses(PM));
    FROST_RETURN_IF_ERROR(PM.run(M, PassCtx));
    R.Source = M.clone();
  }
  buildFreezePipeline(PM, T, C.KeepSource ? FreezeStage::FromConversion : FreezeStage::All);
  FROST_RETURN_IF_ERROR(validatePasses(PM));
  size_t FirstOptimizing = PM.passes().size();
  buildInputShapesPipeline(PM, Shapes, T.Keep);
  if (C.Optimize) {
    OptimizeSequence Optimize;
    Optimize.StripUnused = false; // pruned already
    Optimize.TocoCompatible = C.TocoCompatible;
    Optimize.ComputeInFloat32 = C.ComputeInFloat32;
    FROST_RETURN_IF_ERROR(addOptimizePasses(PM, Registry, Optimize, {{}, T.Keep, {}, {}}));
  }
  PM.append(std::move(Extra));
  R.Pipeline = PM.printPipeline();
  if (C.DumpPipeline)
    PM.dumpPipeline(*C.PM.Out);

  FROST_RETURN_IF_ERROR(PM.run(M, PassCtx));
  R.Optimizations = PM.changes(FirstOptimizing);
  FROST_RETURN_IF_ERROR(checkEdgeTypes(M, R));
  for (const std::string &W : pythonCallWarnings(M.graph()))
    Ctx.diagnostics().warning(W);
  if (C.PM.Statistics)
    PM.printStatistics(*C.PM.Out, PassCtx);
  R.NodesAfter = M.graph().size();
  R.Frozen = frozenVariables(M);
  R.Left = leftVariables(M);
  R.CheckpointsOpened = PassCtx.analyses().checkpointsOpened();
  M.dropContainer();
  R.M = std::move(In.M);
  return R;
}

} // namespace frost
