//===- GraphJobs.cpp - The graph-in, graph-out jobs -----------------------===//
//
// optimize-for-inference and transform-graph: read a graph, run a sequence
// of passes over it, write it bare. The output is prepared before any work,
// so that a bad or forbidden path fails at once, and committed last.
//
//===----------------------------------------------------------------------===//
#include "frost/Jobs/Jobs.h"

#include "JobsInternal.h"

#include "frost/IR/EdgeTypes.h"
#include "frost/IR/TensorName.h"
#include "frost/IR/Verifier.h"
#include "frost/Tensor/DataType.h"
#include "frost/Transforms/GraphTransforms.h"
#include "frost/Transforms/OptimizeForInference.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Pipelines.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <chrono>

namespace frost {

absl::StatusOr<std::unique_ptr<Model>> readGraphSource(Context &Ctx, const GraphSource &Source,
                                                       const ReadOptions &Read, bool Verify,
                                                       TimingReport *Timing) {
  absl::StatusOr<std::unique_ptr<Model>> M = [&]() -> absl::StatusOr<std::unique_ptr<Model>> {
    Stopwatch Timer(Timing, "read input");
    if (Source.Bytes)
      return parseModel(*Source.Bytes, Source.BytesName, Read);
    FROST_ASSIGN_OR_RETURN(ResolvedInput In, resolveInput(Ctx, Source.Path));
    return readModel(Ctx, In.GraphPath, Read);
  }();
  if (M.ok() && Verify)
    if (absl::Status S = verifyGraph((*M)->graph()); !S.ok())
      return absl::Status(S.code(), absl::StrCat(Source.name(), ": ", S.message()));
  return M;
}

absl::Status checkNamesExist(const Graph &G, llvm::ArrayRef<std::string> Names,
                             llvm::StringRef Flag) {
  for (const std::string &Name : Names)
    FROST_RETURN_IF_ERROR(resolveTensorName(G, Name, Flag).status());
  return absl::OkStatus();
}

void noteInputs(Context &Ctx, const GraphSource &Source) {
  if (!Source.Bytes)
    Ctx.inputs().noteWithSiblings(Source.Path);
}

absl::StatusOr<PreparedOutput> prepareDestination(Context &Ctx, const GraphDestination &Out) {
  PreparedOutput Prepared;
  if (Out.SavedModel) {
    FROST_ASSIGN_OR_RETURN(Prepared.Dir, OutputDirectory::prepare(Ctx, Out.Path));
    return Prepared;
  }
  if (Out.Path.empty())
    return Prepared;
  FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(Out.Path));
  FROST_ASSIGN_OR_RETURN(Prepared.File, OutputFile::prepare(Ctx, Out.Path));
  return Prepared;
}

static double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
}

absl::StatusOr<GraphJobResult> finishGraphJob(Context &Ctx, Model &M,
                                              const GraphDestination &Destination,
                                              PreparedOutput &Prepared,
                                              llvm::ArrayRef<std::string> Outputs,
                                              TimingReport *Timing) {
  Stopwatch Timer(Timing, "write output");
  M.dropContainer();
  WriteOptions Write;
  Write.Enc = Destination.Enc;
  GraphJobResult R;
  R.NodesAfter = M.graph().size();
  if (Prepared.Dir) {
    ServingExport Export;
    Export.Signatures.push_back(servingDefault(M.graph(), Outputs));
    FROST_ASSIGN_OR_RETURN(WrittenBytes Pb, writeServingSavedModel(Ctx, M, Export, *Prepared.Dir,
                                                                   Write.SizeLimit));
    FROST_RETURN_IF_ERROR(Prepared.Dir->commit());
    R.BytesWritten = Pb.Bytes;
    return R;
  }
  OutputFile *Out = Prepared.File.get();
  if (!Out) {
    FROST_ASSIGN_OR_RETURN(R.Bytes, serializeModel(Ctx, M, Write));
    R.BytesWritten = R.Bytes.size();
    return R;
  }
  FROST_RETURN_IF_ERROR(writeModel(M, *Out, Write));
  FROST_RETURN_IF_ERROR(Out->commit());
  R.BytesWritten = Out->written().Bytes;
  return R;
}

absl::StatusOr<GraphJobResult> optimizeForInference(Context &Ctx,
                                                    const OptimizeForInferenceOptions &O) {
  auto Start = std::chrono::steady_clock::now();
  for (const std::string &Name : O.InputNames)
    if (Name.find(':') != std::string::npos)
      return usageError(absl::InvalidArgumentError(
          absl::StrCat("input name '", Name, "' has a port: give the node's name")));
  PassRegistry Registry;
  registerAllPasses(Registry);
  FROST_RETURN_IF_ERROR(usageError(checkPassManagerOptions(O.PM, Registry)));
  OptimizeTargets Targets{O.InputNames, O.OutputNames, {}, {},
                          static_cast<int64_t>(O.FoldBudget.WorkLeft),
                          static_cast<int64_t>(O.FoldBudget.MaxTensorBytes)};
  if (O.PlaceholderTypes.size() > 1 && O.PlaceholderTypes.size() != O.InputNames.size())
    return usageError(absl::InvalidArgumentError(absl::StrCat(
        "--placeholder_type_enum has ", O.PlaceholderTypes.size(), " types for ",
        O.InputNames.size(), " inputs: give one for all, or one per input in order")));
  // TensorFlow's default: 1, float.
  for (int Number : O.PlaceholderTypes.empty() ? std::vector<int>{1} : O.PlaceholderTypes) {
    auto Type = static_cast<tensorflow::DataType>(Number);
    if (Type == tensorflow::DT_INVALID || !tensorflow::DataType_IsValid(Number) ||
        Number >= tensorflow::DT_FLOAT_REF)
      return usageError(absl::InvalidArgumentError(absl::StrCat(
          "--placeholder_type_enum: ", Number, " is not a DataType number (1 is float)")));
    Targets.PlaceholderTypes.push_back(dataTypeName(Type));
  }
  const SetInputShapesOptions Shapes{O.InputShapes, O.BatchSize};
  FROST_RETURN_IF_ERROR(usageError(validateInputShapes(Shapes)));
  noteInputs(Ctx, O.Input);
  FROST_ASSIGN_OR_RETURN(PreparedOutput Out, prepareDestination(Ctx, O.Output));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> M,
                         readGraphSource(Ctx, O.Input, {}, O.PM.VerifyEach, O.PM.Timing));

  FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.InputNames, "--input_names"));
  FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.OutputNames, "--output_names"));
  std::vector<std::string> Skipped;
  FROST_ASSIGN_OR_RETURN(Targets.Bind, placeholdersToConst(M->graph(), O.ToConst, Skipped));
  for (const std::string &Name : Skipped)
    Ctx.diagnostics().warning(
        absl::StrCat("not binding '", Name, "': only bool placeholders become constants"));
  OptimizeSequence Sequence;
  Sequence.BindPlaceholders = !Targets.Bind.empty();
  Sequence.TocoCompatible = O.TocoCompatible;
  Sequence.ComputeInFloat32 = O.ComputeInFloat32;
  PassManager PM(O.PM);
  FROST_RETURN_IF_ERROR(usageError(addOptimizePasses(PM, Registry, Sequence, Targets)));
  buildInputShapesPipeline(PM, Shapes, O.OutputNames);
  PassContext PassCtx(Ctx);
  size_t NodesBefore = M->graph().size();
  if (absl::Status S = PM.run(*M, PassCtx); !S.ok())
    return absl::Status(S.code(), absl::StrCat(O.Input.name(), ": ", S.message()));
  if (O.PM.Statistics)
    PM.printStatistics(*O.PM.Out, PassCtx);
  FROST_ASSIGN_OR_RETURN(GraphJobResult R,
                         finishGraphJob(Ctx, *M, O.Output, Out, O.OutputNames, O.PM.Timing));
  R.NodesBefore = NodesBefore;
  R.Changes = PM.changes();
  R.Seconds = secondsSince(Start);
  return R;
}

namespace {

absl::StatusOr<std::vector<PreparedTransform>> prepareTransforms(const TransformGraphOptions &O) {
  PassRegistry Registry;
  registerAllPasses(Registry);
  FROST_RETURN_IF_ERROR(checkPassManagerOptions(O.PM, Registry));
  FROST_ASSIGN_OR_RETURN(std::vector<TransformCall> Calls, parseTransformList(O.Transforms));
  return prepareGraphTransforms(Calls, {O.Inputs, O.Outputs}, Registry, O.Transforms);
}

} // namespace

absl::StatusOr<GraphJobResult> transformGraph(Context &Ctx, const TransformGraphOptions &O) {
  absl::StatusOr<std::vector<PreparedTransform>> Transforms = prepareTransforms(O);
  if (!Transforms.ok())
    return usageError(Transforms.status());
  if (O.Output.SavedModel && O.Outputs.empty())
    return usageError(absl::InvalidArgumentError(
        "a SavedModel's signature fetches the graph's outputs: name them (--outputs)"));
  auto Start = std::chrono::steady_clock::now();
  noteInputs(Ctx, O.Input);
  FROST_ASSIGN_OR_RETURN(PreparedOutput Out, prepareDestination(Ctx, O.Output));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> M,
                         readGraphSource(Ctx, O.Input, {}, O.PM.VerifyEach, O.PM.Timing));
  FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.Inputs, "--inputs"));
  FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.Outputs, "--outputs"));
  size_t NodesBefore = M->graph().size();
  std::vector<PassChanges> Changes;
  FROST_RETURN_IF_ERROR(runGraphTransforms(Ctx, M, std::move(*Transforms), O.PM, &Changes));
  FROST_ASSIGN_OR_RETURN(GraphJobResult R,
                         finishGraphJob(Ctx, *M, O.Output, Out, O.Outputs, O.PM.Timing));
  R.NodesBefore = NodesBefore;
  R.Changes = std::move(Changes);
  R.Seconds = secondsSince(Start);
  return R;
}

namespace {

/// S with `Prefix: ` (a file name) before every line, each a finding.
absl::Status prefixLines(const absl::Status &S, llvm::StringRef Prefix) {
  std::string Out;
  llvm::StringRef Rest(S.message().data(), S.message().size());
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    absl::StrAppend(&Out, Out.empty() ? "" : "\n", Prefix.str(), ": ", Line.str());
    Rest = Tail;
  }
  return absl::Status(S.code(), Out);
}

} // namespace

absl::StatusOr<std::unique_ptr<Model>> runPipeline(Context &Ctx, llvm::StringRef Bytes,
                                                   llvm::StringRef Name, PassManager &PM,
                                                   const RunPipelineOptions &O) {
  const PassManagerOptions &PMOptions = PM.options();
  std::unique_ptr<Model> M;
  {
    Stopwatch Timer(PMOptions.Timing, "read input");
    FROST_ASSIGN_OR_RETURN(M, parseModel(Bytes, Name, O.Read));
  }
  if (PMOptions.VerifyEach) {
    Stopwatch Timer(PMOptions.Timing, "(verify)");
    if (absl::Status S = verifyGraph(M->graph()); !S.ok())
      return prefixLines(S, Name);
  }
  PM.rewind();
  PassContext PassCtx(Ctx); // this model's analyses
  FROST_RETURN_IF_ERROR(PM.run(*M, PassCtx));
  // TensorFlow could not import an op taking a resource or reference fed a
  // value (a write left on a frozen variable).
  if (std::vector<IllTypedEdge> Bad = findIllTypedEdges(M->graph(), modelOpRegistry(*M));
      !Bad.empty() && !O.AllowUnimportable)
    return absl::InvalidArgumentError(
        absl::StrCat(Name.str(), ": the graph would not import in TensorFlow: ",
                     describeIllTypedEdges(Bad),
                     "; drop-variable-writes or strip-training-ops rewrite writes to frozen "
                     "variables"));
  if (O.GraphOnly)
    M->dropContainer();
  return M;
}

} // namespace frost
