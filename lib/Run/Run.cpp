//===- Run.cpp - Running a model on given inputs --------------------------===//
//
// A model is made runnable as freeze-graph would make it (a graph without
// variables is run as it is), its inputs matched to placeholders and checked
// against their declarations before anything runs, and GraphRunner fetches
// the outputs. What cannot be computed is an error naming the output and
// the node to blame, never a missing entry in the result.
//
//===----------------------------------------------------------------------===//
#include "frost/Run/Run.h"

#include "frost/IO/GraphIO.h"
#include "frost/IR/CandidateOutputs.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/Reachability.h"
#include "frost/IR/TensorName.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"
#include "frost/Verify/GraphRunner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"

namespace frost::run {

namespace {

/// The graph's sinks a user would fetch: what nothing reads, less no-ops,
/// Saver nodes, variables and table initializers.
std::vector<std::string> sinkOutputs(const std::vector<const Node *> &Candidates) {
  std::vector<std::string> Outputs;
  for (const Node *N : Candidates)
    if (!isAnyVariableOp(N->op()) && !isTableInitializerOp(N->op()))
      Outputs.push_back(N->name().str());
  return Outputs;
}

bool hasVariables(const Graph &G) {
  return llvm::any_of(G, [](const Node &N) { return isAnyVariableOp(N.op()); });
}

/// "x:0" and "x" name the same placeholder; a node's name for freezing.
std::string nodeOf(llvm::StringRef Tensor) {
  auto [Node, Port] = Tensor.rsplit(':');
  unsigned K;
  return !Port.empty() && !Port.getAsInteger(10, K) ? Node.str() : Tensor.str();
}

std::string quoted(llvm::StringRef S) { return absl::StrCat("'", S.str(), "'"); }

/// The placeholder's declared shape as text ("[?,224,224,3]"), and whether
/// `Shape` fits it.
std::pair<std::string, bool> fitsDeclaredShape(const Node &N, llvm::ArrayRef<int64_t> Shape) {
  const tensorflow::AttrValue *A = N.findAttr("shape");
  if (!A || !A->has_shape() || A->shape().unknown_rank())
    return {"", true};
  const tensorflow::TensorShapeProto &Declared = A->shape();
  bool Fits = Declared.dim_size() == static_cast<int>(Shape.size());
  for (int D = 0; Fits && D < Declared.dim_size(); ++D)
    Fits = Declared.dim(D).size() < 0 || Declared.dim(D).size() == Shape[D];
  return {formatPartialShape(Declared), Fits};
}

} // namespace

absl::StatusOr<RunnableModel> loadRunnable(Context &Ctx, const FreezeOptions &Options) {
  RunnableModel R;
  FreezeOptions O = Options;
  for (std::string &Output : O.Outputs)
    Output = nodeOf(Output);
  std::string Path = !O.Positional.empty() ? O.Positional.front() : O.InputGraph;
  R.Name = O.InputBytes ? O.InputBytesName
           : !Path.empty() ? Path
           : !O.SavedModelDir.empty() ? O.SavedModelDir
                                      : O.InputMetaGraph;
  ReadOptions Read;
  Read.Tags = O.Tags;
  // The model as read, when no checkpoint is named: a bare GraphDef without
  // variables runs as it is.
  std::unique_ptr<Model> Plain;
  if (O.Checkpoint.empty() && O.Signature.empty()) {
    if (O.InputBytes) {
      FROST_ASSIGN_OR_RETURN(Plain, parseModel(*O.InputBytes, O.InputBytesName, Read));
    } else if (O.Positional.size() == 1) {
      FROST_ASSIGN_OR_RETURN(ResolvedInput In, resolveInput(Ctx, Path));
      if (!In.Checkpoint) {
        FROST_ASSIGN_OR_RETURN(Plain, readModel(Ctx, In.GraphPath, Read));
      }
    }
  }
  if (Plain && Plain->kind() == ContainerKind::GraphDef && !hasVariables(Plain->graph())) {
    R.Outputs = Options.Outputs;
    if (R.Outputs.empty()) {
      R.Outputs = sinkOutputs(candidateOutputNodes(Plain->graph()));
      R.OutputsChosen = "the graph's sinks";
    }
    for (const Node &N : Plain->graph())
      if (N.name() == "init_all_tables" || (isTableInitializerOp(N.op()) && N.uses().empty()))
        R.Initializers.push_back(N.name().str());
    R.M = std::move(Plain);
    return R;
  }
  bool Unnamed = O.Outputs.empty() && O.Signature.empty();
  absl::StatusOr<FreezeResult> Frozen = freeze(Ctx, O);
  // No outputs named and no signature to take them from: the source's
  // sinks, as frost-verify takes the frozen graph's.
  if (!Frozen.ok() && Unnamed && !Plain && O.Positional.size() == 1) {
    if (absl::StatusOr<ResolvedInput> In = resolveInput(Ctx, Path); In.ok())
      if (absl::StatusOr<std::unique_ptr<Model>> M = readModel(Ctx, In->GraphPath, Read); M.ok())
        Plain = std::move(*M);
  }
  if (!Frozen.ok() && Unnamed && Plain) {
    O.Outputs = sinkOutputs(candidateOutputNodes(*Plain));
    if (!O.Outputs.empty()) {
      Frozen = freeze(Ctx, O);
      R.OutputsChosen = "the graph's sinks";
    }
  }
  if (!Frozen.ok())
    return Frozen.status();
  R.Frozen = true;
  R.M = std::move(Frozen->M);
  R.SignatureInputs = Frozen->SignatureInputs;
  R.Initializers = Frozen->Initializers;
  if (!Options.Outputs.empty()) {
    R.Outputs = Options.Outputs;
  } else if (!Frozen->Signature.empty()) {
    for (const auto &[Key, Tensor] : Frozen->SignatureOutputs)
      R.Outputs.push_back(Tensor);
    R.OutputsChosen = absl::StrCat("signature '", Frozen->Signature, "'");
  } else {
    for (const FreezeOutput &Out : Frozen->Outputs)
      R.Outputs.push_back(Out.Node);
  }
  return R;
}

absl::StatusOr<RunResult> runModel(const RunnableModel &M, const RunOptions &Options) {
  const Graph &G = M.M->graph();
  // What to fetch: nodes, and the ports asked for (-1: all).
  std::vector<std::pair<std::string, int>> Wanted;
  verify::RunRequest Request;
  Request.Initializers = M.Initializers;
  for (const std::string &Name : M.Outputs) {
    FROST_ASSIGN_OR_RETURN(TensorRef Ref, resolveTensorName(G, Name, "output"));
    Wanted.emplace_back(Ref.N->name().str(), Ref.Port);
    if (!llvm::is_contained(Request.Fetches, Ref.N->name().str()))
      Request.Fetches.push_back(Ref.N->name().str());
  }
  if (Request.Fetches.empty())
    return absl::InvalidArgumentError(
        absl::StrCat(M.Name, ": no outputs to run: name them (--outputs)"));
  FROST_ASSIGN_OR_RETURN(std::vector<bool> Needed, nodesNeededBy(G, Request.Fetches));

  // The inputs given, each a placeholder the outputs need, of its dtype and
  // shape.
  RunResult R;
  for (size_t I = 0; I < Options.Inputs.size(); ++I) {
    const auto &[Name, Value] = Options.Inputs[I];
    std::string Origin = I < Options.InputOrigins.size() && !Options.InputOrigins[I].empty()
                             ? Options.InputOrigins[I]
                             : absl::StrCat("input ", quoted(Name));
    std::string Tensor = Name;
    for (const auto &[Key, SignatureTensor] : M.SignatureInputs)
      if (Key == Name && !G.findNode(nodeOf(Name)))
        Tensor = SignatureTensor;
    absl::StatusOr<TensorRef> Ref = resolveTensorName(G, Tensor, "input");
    if (!Ref.ok())
      return absl::Status(Ref.status().code(),
                          absl::StrCat(Origin, ": ", Ref.status().message()));
    const Node &N = *Ref->N;
    if (!isPlaceholderOp(N.op()) || Ref->Port > 0)
      return absl::InvalidArgumentError(absl::StrCat(
          Origin, ": ", quoted(Tensor), " is a ", N.op().str(), ", not a placeholder to feed"));
    if (!Needed[N.id()] && I < Options.FromBundle.size() && Options.FromBundle[I])
      continue;
    if (!Needed[N.id()])
      return absl::InvalidArgumentError(absl::StrCat(
          Origin, ": the outputs (", absl::StrJoin(M.Outputs, ", "), ") do not need ",
          quoted(N.name())));
    const tensorflow::AttrValue *DType = N.findAttr("dtype");
    if (DType && DType->type() != Value.dtype())
      return absl::InvalidArgumentError(
          absl::StrCat(Origin, ": ", dataTypePythonName(Value.dtype()), ", but placeholder ",
                       quoted(N.name()), " is ", dataTypePythonName(DType->type())));
    if (auto [Declared, Fits] = fitsDeclaredShape(N, Value.shape()); !Fits)
      return absl::InvalidArgumentError(
          absl::StrCat(Origin, ": shape ", formatShape(Value.shape()), ", but placeholder ",
                       quoted(N.name()), " is ", Declared));
    if (Request.Feeds.count(N.name()))
      return absl::InvalidArgumentError(
          absl::StrCat(Origin, ": placeholder ", quoted(N.name()), " is given twice"));
    Request.Feeds[N.name().str()] = Value;
  }
  // The placeholders left: random values, or an error naming them.
  std::vector<std::string> Unfed;
  for (const Node &N : G) {
    if (!Needed[N.id()] || !isPlaceholderOp(N.op()) || Request.Feeds.count(N.name()))
      continue;
    if (Options.RandomInputs) {
      absl::StatusOr<TensorData> V = verify::randomInput(G, N, Options.Numeric);
      if (!V.ok())
        return absl::Status(V.status().code(), absl::StrCat(M.Name, ": ", V.status().message()));
      Request.Feeds[N.name().str()] = *std::move(V);
    } else if (N.op() != "PlaceholderWithDefault") {
      const tensorflow::AttrValue *DType = N.findAttr("dtype");
      auto [Declared, Fits] = fitsDeclaredShape(N, {});
      Unfed.push_back(absl::StrCat(quoted(N.name()), " (",
                                   DType ? dataTypePythonName(DType->type()) : "?",
                                   Declared.empty() ? "" : " ", Declared, ")"));
    }
  }
  if (!Unfed.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        M.Name, ": no value for input", Unfed.size() > 1 ? "s " : " ", absl::StrJoin(Unfed, ", "),
        ": give --input NAME=FILE.npy, --inputs FILE.npz or --random-inputs"));
  for (const auto &[Name, Value] : Request.Feeds)
    R.Inputs.emplace_back(Name, Value);
  Request.Budget = Options.Numeric.Budget;
  FROST_ASSIGN_OR_RETURN(verify::RunResult Run, verify::runGraph(G, Request));
  R.NodesRun = Run.NodesRun;

  for (const auto &[Node, Port] : Wanted) {
    const verify::FetchedNode &F =
        *llvm::find_if(Run.Fetched, [&](const verify::FetchedNode &X) { return X.Node == Node; });
    std::string Name = Port < 0 ? Node : absl::StrCat(Node, ":", Port);
    if (F.Missing) {
      const verify::NotComputed &Why = *F.Missing;
      std::string Text = absl::StrCat(M.Name, ": output ", quoted(Name), " cannot be computed: ",
                                      "it needs ", quoted(Why.Node), " (", Why.Op, "), which ",
                                      Why.NoKernel ? "has no kernel in Frost's evaluator"
                                                   : "failed",
                                      ": ", Why.Reason);
      return Why.NoKernel ? absl::UnimplementedError(Text)
             : Why.OverLimit ? absl::ResourceExhaustedError(Text)
                             : absl::InvalidArgumentError(Text);
    }
    for (size_t K = 0; K < F.Outputs.size(); ++K) {
      if (Port >= 0 && static_cast<size_t>(Port) != K)
        continue;
      std::string Tensor = absl::StrCat(Node, ":", K);
      if (F.Dead || !F.Outputs[K])
        return absl::InvalidArgumentError(
            absl::StrCat(M.Name, ": output ", quoted(Tensor),
                         " is dead (on a branch not taken): TensorFlow would not fetch it"));
      R.Outputs.emplace_back(Tensor, *F.Outputs[K]);
    }
  }
  return R;
}

Comparison compareRuns(const NamedTensors &Got, const NamedTensors &Want,
                       const verify::NumericOptions &Options) {
  Comparison C;
  auto find = [](const NamedTensors &In, const std::string &Name) -> const TensorData * {
    for (const auto &[N, T] : In)
      if (N == Name)
        return &T;
    return nullptr;
  };
  for (const auto &[Name, W] : Want) {
    const TensorData *G = find(Got, Name);
    if (!G) {
      C.Findings.push_back(absl::StrCat(quoted(Name), " is an output of the other graph only"));
      continue;
    }
    verify::OutputCheck Check;
    Check.Tensor = Name;
    verify::compareOutput(*G, W, Options, Check);
    if (G->dtype() != W.dtype() || G->shape() != W.shape())
      C.Findings.push_back(absl::StrCat(
          quoted(Name), " is ", dataTypePythonName(G->dtype()), " ", formatShape(G->shape()),
          ", the other graph's ", dataTypePythonName(W.dtype()), " ", formatShape(W.shape())));
    else if (Check.Differing)
      C.Findings.push_back(absl::StrCat(quoted(Name), " differs from the other graph's in ",
                                        Check.Differing, " of ", Check.Elements, " values"));
    C.Outputs.push_back(std::move(Check));
  }
  for (const auto &[Name, T] : Got)
    if (!find(Want, Name))
      C.Findings.push_back(absl::StrCat(quoted(Name), " is an output of this graph only"));
  return C;
}

} // namespace frost::run
