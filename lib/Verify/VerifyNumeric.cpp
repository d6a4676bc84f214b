//===- VerifyNumeric.cpp - Check 3: both graphs run on the same inputs ----===//
//
// Both graphs run by GraphRunner on the inputs VerifyInputs.cpp chooses,
// each output compared within a tolerance by dtype (exactly
// for integers and dtypes without arithmetic), and the values saved as
// .npy files when asked.
//
//===----------------------------------------------------------------------===//
#include "VerifyInternal.h"

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/IR/OpClasses.h"
#include "frost/Pass/PassManager.h"
#include "frost/Support/File.h"
#include "frost/Support/Json.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Npy.h"
#include "frost/Tensor/Shape.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Verify/GraphRunner.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <filesystem>

namespace frost::verify {

using namespace detail;

using tensorflow::DataType;


namespace {

/// A dimension the source leaves unknown that the frozen graph's Placeholder
/// fixes (freeze-graph --batch-size, --input-shape) is fed at that size: the
/// frozen graph takes no other, and the source takes it too. --input-shape
/// given to frost-verify wins.
void adoptFixedDimensions(InputDecl &D, const Graph &Frozen, const NumericOptions &Options) {
  if (!D.Shape || D.InPlace || Options.InputShapes.count(D.N->name().str()))
    return;
  const Node *F = Frozen.findNode(D.N->name());
  const tensorflow::AttrValue *Fixed = F && isPlaceholderOp(F->op()) ? F->findAttr("shape") : nullptr;
  const tensorflow::AttrValue *Declared = D.N->findAttr("shape");
  if (!Fixed || !Fixed->has_shape() || Fixed->shape().unknown_rank() ||
      Fixed->shape().dim_size() != static_cast<int>(D.Shape->size()))
    return;
  bool DeclaredKnown = Declared && Declared->has_shape() && !Declared->shape().unknown_rank() &&
                       Declared->shape().dim_size() == Fixed->shape().dim_size();
  for (int I = 0; I < Fixed->shape().dim_size(); ++I)
    if (Fixed->shape().dim(I).size() >= 0 &&
        (!DeclaredKnown || Declared->shape().dim(I).size() < 0))
      (*D.Shape)[I] = Fixed->shape().dim(I).size();
}

/// Whether the source run refused what it was fed: an output a kernel could
/// not compute (no kernel and verification's limits are not the inputs').
bool refusedInputs(const RunResult &Source) {
  return llvm::any_of(Source.Fetched, [](const FetchedNode &F) {
    return F.Missing && !F.Missing->NoKernel && !F.Missing->OverLimit;
  });
}

} // namespace

/// The default tolerances of dtype `T`: float32's are polygraphy's (atol
/// 1e-5, rtol 1e-5: a little above float32 rounding after a folded batch
/// norm, far below a changed weight), float64's numpy.allclose's; half and
/// bfloat16 a few of their ulps. Nothing for dtypes compared exactly.
std::pair<double, double> defaultTolerance(DataType T) {
  if (T == tensorflow::DT_DOUBLE || T == tensorflow::DT_COMPLEX128)
    return {1e-8, 1e-5};
  if (T == tensorflow::DT_HALF)
    return {1e-3, 1e-2};
  if (T == tensorflow::DT_BFLOAT16)
    return {1e-2, 5e-2};
  return {1e-5, 1e-5};
}

/// Flat element `I` of `Shape` as an index per dimension.
std::vector<int64_t> unflatten(uint64_t I, llvm::ArrayRef<int64_t> Shape) {
  std::vector<int64_t> Index(Shape.size());
  for (size_t D = Shape.size(); D-- > 0;) {
    int64_t Dim = std::max<int64_t>(Shape[D], 1);
    Index[D] = static_cast<int64_t>(I % Dim);
    I /= Dim;
  }
  return Index;
}

/// Compares output `Got` (frozen) with `Want` (source), element by element.
void compareOutput(const TensorData &Got, const TensorData &Want, const NumericOptions &Options,
                   OutputCheck &Out) {
  Out.DType = dataTypePythonName(Want.dtype());
  Out.Shape.assign(Want.shape().begin(), Want.shape().end());
  Out.Elements = static_cast<uint64_t>(Want.numElements());
  if (Got.dtype() != Want.dtype() || Got.shape() != Want.shape()) {
    Out.Differing = Out.Elements;
    Out.MaxAbs = INFINITY;
    return;
  }
  auto element = [&](uint64_t I, double Abs, double Rel) {
    return OutputCheck::Element{unflatten(I, Out.Shape), elementText(Got, static_cast<int64_t>(I)),
                                elementText(Want, static_cast<int64_t>(I)), Abs, Rel};
  };
  // Integers, booleans, strings and the dtypes without arithmetic (quantized,
  // float8, int4) compare exactly, element by element.
  if (!isArithmetic(Want)) {
    Out.Exact = true;
    size_t Size = dataTypeSize(Want.dtype());
    for (int64_t I = 0; I < Want.numElements(); ++I) {
      bool Differs = Size ? Got.bytes().substr(I * Size, Size) != Want.bytes().substr(I * Size, Size)
                          : Got.elements()[I] != Want.elements()[I];
      if (Differs && !Out.Worst)
        Out.Worst = element(static_cast<uint64_t>(I), NAN, NAN);
      Out.Differing += Differs;
    }
    return;
  }
  auto [Atol, Rtol] = defaultTolerance(Want.dtype());
  Atol = Options.Atol.value_or(Atol);
  Rtol = Options.Rtol.value_or(Rtol);
  uint64_t Count = numComponents(Want);
  // Values all below atol are within it whatever they become (7% of 6e-6
  // is nothing to atol 1e-5): rtol alone judges them.
  Out.BelowAtol = Atol > 0 && Count > 0;
  for (uint64_t K = 0; K < Count && Out.BelowAtol; ++K)
    Out.BelowAtol = std::fabs(componentAt(Want, K)) < Atol;
  Out.Atol = Atol;
  Out.Rtol = Rtol;
  if (Out.BelowAtol)
    Atol = 0;
  uint64_t Width = isComplex(Want.dtype()) ? 2 : 1;
  // The worst element: furthest outside its tolerance (the largest
  // difference over tolerance), else the largest difference.
  double WorstExcess = -1, WorstAbs = 0, WorstRel = 0;
  uint64_t WorstElement = 0;
  for (uint64_t I = 0; I < Count; I += Width) {
    bool Differs = false;
    for (uint64_t K = I; K < I + Width; ++K) {
      double A = componentAt(Got, K), B = componentAt(Want, K);
      double Abs, Allowed = Atol + Rtol * std::fabs(B);
      if (std::isnan(A) || std::isnan(B) || std::isinf(A) || std::isinf(B)) {
        bool Same = (std::isnan(A) && std::isnan(B)) || A == B;
        Abs = Same ? 0 : INFINITY;
      } else {
        Abs = std::fabs(A - B);
      }
      if (Abs == 0)
        continue;
      Out.MaxAbs = std::max(Out.MaxAbs, Abs);
      bool Outside = !(Abs <= Allowed);
      Differs |= Outside;
      double Excess = Allowed > 0 ? Abs / Allowed : INFINITY;
      if (Excess > WorstExcess) {
        WorstExcess = Excess;
        WorstElement = I / Width;
        WorstAbs = Abs;
        WorstRel = B != 0 && !std::isnan(B) ? Abs / std::fabs(B) : INFINITY;
      }
    }
    Out.Differing += Differs;
  }
  // Formatted once, after the scan: an output of millions of elements
  // whose differences keep growing costs no text per element.
  if (WorstExcess >= 0)
    Out.Worst = element(WorstElement, WorstAbs, WorstRel);
}

/// The worst element, for a report line: "worst at [0,3]: frozen 4.0,
/// source 5.0 (abs diff 1, rel diff 0.2)".
std::string detail::worstText(const OutputCheck &C, llvm::StringRef Got, llvm::StringRef Want) {
  if (!C.Worst)
    return "";
  std::vector<std::string> Index;
  for (int64_t I : C.Worst->Index)
    Index.push_back(std::to_string(I));
  std::string Text = absl::StrCat(C.Exact ? "first at [" : "worst at [", absl::StrJoin(Index, ","),
                                  "]: ", Got.str(), " ", C.Worst->Frozen, ", ",
                                  Want.str(), " ", C.Worst->Source);
  if (!C.Exact)
    absl::StrAppend(&Text, " (abs diff ", formatDiff(C.Worst->Abs), ", rel diff ",
                    formatDiff(C.Worst->Rel), ")");
  return Text;
}

/// "atol 1e-05 + rtol 1e-05 * |source|", or what judged an output below atol.
std::string detail::toleranceText(const OutputCheck &C, llvm::StringRef Want) {
  if (C.BelowAtol)
    return absl::StrCat("rtol ", formatDiff(C.Rtol), " * |", Want.str(), "| alone (every ",
                        Want.str(), " value is below atol ", formatDiff(C.Atol),
                        ", which cannot see them)");
  return absl::StrCat("atol ", formatDiff(C.Atol), " + rtol ", formatDiff(C.Rtol), " * |",
                      Want.str(), "|");
}

std::string notComputedText(const NotComputed &Why) {
  return absl::StrCat("needs ", inQuotes(Why.Node), " (", Why.Op, "), which ",
                      Why.NoKernel ? "has no kernel" : "failed", ": ", Why.Reason);
}

/// Writes `T` as a .npy file; false for dtypes numpy cannot hold.
bool writeNpy(Context &Ctx, const std::string &Path, const TensorData &T) {
  absl::StatusOr<std::string> Bytes = encodeNpy(T, Path);
  return Bytes.ok() && writeStringAtomically(Ctx, Path, *Bytes).ok();
}

/// Saves what the numeric check computed, for a comparison with TensorFlow.
absl::Status saveValues(Context &Ctx, const std::string &Dir, const TensorMap &Feeds,
                        const RunResult &Source, const RunResult &Frozen) {
  std::error_code EC;
  std::filesystem::create_directories(Dir, EC);
  if (EC)
    return absl::InvalidArgumentError(absl::StrCat(Dir, ": ", EC.message()));
  std::string Index;
  llvm::raw_string_ostream OS(Index);
  {
    JsonWriter J(OS);
    J.objectBegin();
    int File = 0;
    auto save = [&](llvm::StringRef Role, llvm::StringRef Tensor, const TensorData &T) {
      std::string Name = absl::StrCat(File++, ".npy");
      if (!writeNpy(Ctx, Dir + "/" + Name, T))
        return;
      J.objectBegin();
      J.member("role", Role);
      J.member("tensor", Tensor);
      J.member("file", Name);
      J.objectEnd();
    };
    J.key("values");
    J.arrayBegin();
    for (const auto &[Name, T] : Feeds)
      save("input", absl::StrCat(Name, ":0"), T);
    for (auto [Role, Run] : {std::pair<llvm::StringRef, const RunResult *>{"source", &Source},
                             {"frozen", &Frozen}})
      for (const FetchedNode &F : Run->Fetched)
        for (size_t Port = 0; Port < F.Outputs.size(); ++Port)
          if (F.Outputs[Port])
            save(Role, absl::StrCat(F.Node, ":", Port), *F.Outputs[Port]);
    J.arrayEnd();
    J.objectEnd();
  }
  return writeStringAtomically(Ctx, Dir + "/index.json", Index);
}

void detail::checkNumeric(Context &Ctx, const FreezeResult &Expected, const Model &Frozen,
                  const CheckpointReader *Reader, const NumericOptions &Options,
                  VerifyReport &R) {
  if (!Expected.Source)
    return;
  const Model *Source = Expected.Source.get();
  // The runner reads no files: a source whose tables are initialized from
  // text files (vocabularies) runs on a copy whose initializers hold the
  // files' keys and values, read as freezing reads them (inline-table-files,
  // TensorFlow's rules). A file that cannot be read leaves the source as it
  // is: its outputs are then NOT CHECKED, naming the initializer.
  std::unique_ptr<Model> WithTables;
  if (llvm::any_of(Source->graph(),
                   [](const Node &N) { return isTextFileTableInitializerOp(N.op()); })) {
    WithTables = Source->clone();
    PassManager PM;
    PM.addPass(createInlineTableFilesPass());
    PassContext PassCtx(Ctx);
    if (PM.run(*WithTables, PassCtx).ok())
      Source = WithTables.get();
  }
  const Graph *FrozenGraph = &Frozen.graph();
  std::vector<std::string> Outputs;
  for (const FreezeOutput &O : Expected.Outputs)
    if (FrozenGraph->findNode(O.Node) && Source->graph().findNode(O.Node) &&
        !llvm::is_contained(Outputs, O.Node))
      Outputs.push_back(O.Node);

  // The inputs, as the source declares them (the structure check compares
  // the frozen graph's). Inputs of unknown rank take the candidate shapes
  // in turn (all the same one) until the source runs.
  RunRequest FrozenRun, SourceRun;
  FrozenRun.Fetches = SourceRun.Fetches = Outputs;
  FrozenRun.Budget = SourceRun.Budget = Options.Budget;
  // The lookup-table initializers freezing keeps run first in both graphs,
  // as TensorFlow's session runs them before the outputs.
  for (const std::string &Init : Expected.Initializers) {
    if (Source->graph().findNode(Init))
      SourceRun.Initializers.push_back(Init);
    if (FrozenGraph->findNode(Init))
      FrozenRun.Initializers.push_back(Init);
  }
  std::vector<InputDecl> Inputs = declaredInputs(*Source, Expected, Outputs, Options);
  for (InputDecl &D : Inputs)
    adoptFixedDimensions(D, *FrozenGraph, Options);
  bool UnknownRank = llvm::any_of(Inputs, [](const InputDecl &D) { return !D.Shape; });
  std::string InputProblem;
  auto feedInputs = [&](const std::vector<int64_t> *Candidate) {
    InputProblem.clear();
    R.Inputs.clear();
    FrozenRun.Feeds.clear();
    SourceRun.Feeds.clear();
    for (const InputDecl &D : Inputs) {
      absl::StatusOr<TensorData> V =
          randomValue(D.N->name(), D.DType, D.Shape ? *D.Shape : *Candidate, Options,
                      D.Parser);
      if (!V.ok()) {
        InputProblem = std::string(V.status().message());
        continue;
      }
      R.Inputs.push_back({D.N->name().str(), dataTypePythonName(V->dtype()),
                          std::vector<int64_t>(V->shape().begin(), V->shape().end())});
      // A placeholder the frozen graph made something else (a Const) is
      // left as it is there: the numbers show what that changed.
      const Node *InFrozen = FrozenGraph->findNode(D.N->name());
      if (D.InPlace || !InFrozen || isPlaceholderOp(InFrozen->op()))
        FrozenRun.Feeds[D.N->name().str()] = *V;
      SourceRun.Feeds[D.N->name().str()] = *std::move(V);
    }
  };
  // Both graphs read the checkpoint: the source for every variable, the
  // frozen graph for those freezing leaves variables (--except), restored
  // by name as TensorFlow's Saver does, and for any it failed to freeze
  // (which the structure check names), so the outputs still compare.
  std::map<std::string, VariableSource, std::less<>> Sources = convertedVariables(Expected);
  llvm::StringSet<> Kept = keptVariables(Expected);
  SourceRun.VariableValue = FrozenRun.VariableValue =
      [&](const Node &N) -> absl::StatusOr<TensorData> {
    auto It = Sources.find(N.name());
    if (It == Sources.end() && !Kept.contains(N.name()))
      return absl::InvalidArgumentError("a variable freezing left unfrozen");
    if (!Reader)
      return absl::InvalidArgumentError("no checkpoint was read");
    if (It == Sources.end())
      return Reader->read(N.name());
    return checkpointValue(*Reader, It->second);
  };

  absl::StatusOr<RunResult> SourceResult = absl::UnknownError("not run");
  if (!UnknownRank) {
    feedInputs(nullptr);
    SourceResult = runGraph(Source->graph(), SourceRun);
  } else {
    std::vector<std::string> Tried;
    for (const std::vector<int64_t> &Candidate : unknownRankCandidates()) {
      feedInputs(&Candidate);
      SourceResult = runGraph(Source->graph(), SourceRun);
      if (!SourceResult.ok() || !refusedInputs(*SourceResult))
        break;
      Tried.push_back(formatShape(Candidate));
    }
    if (SourceResult.ok() && refusedInputs(*SourceResult)) {
      std::vector<std::string> Names;
      for (const InputDecl &D : Inputs)
        if (!D.Shape)
          Names.push_back(D.N->name().str());
      InputProblem = absl::StrCat(
          "input", Names.size() > 1 ? "s " : " ", inQuotes(Names.front()),
          Names.size() > 1 ? absl::StrCat(" (and ", Names.size() - 1, " more)") : "",
          " of unknown rank: the source runs on none of the shapes tried (",
          absl::StrJoin(Tried, ", "), "): give --input-shape ", Names.front(), "=D,D,...");
    }
  }
  absl::StatusOr<RunResult> FrozenResult = runGraph(*FrozenGraph, FrozenRun);
  if (!SourceResult.ok() || !FrozenResult.ok()) {
    R.Findings.push_back({"numeric", "", std::string((!SourceResult.ok() ? SourceResult : FrozenResult)
                                                         .status()
                                                         .message())});
    return;
  }
  R.NumericRun = true;
  for (const RunResult *Run : {&*SourceResult, &*FrozenResult})
    for (const auto &[Op, Nodes] : Run->NoKernel)
      for (const std::string &N : Nodes)
        if (!llvm::is_contained(R.NoKernel[Op], N))
          R.NoKernel[Op].push_back(N);

  for (size_t I = 0; I < Outputs.size(); ++I) {
    const FetchedNode &S = SourceResult->Fetched[I], &F = FrozenResult->Fetched[I];
    auto notChecked = [&](std::string Tensor, std::string Why) {
      OutputCheck C;
      C.Tensor = std::move(Tensor);
      C.NotChecked = std::move(Why);
      R.Outputs.push_back(std::move(C));
    };
    if (S.Missing || F.Missing) {
      const FetchedNode &Failed = S.Missing ? S : F;
      std::string Why = absl::StrCat(S.Missing ? "the source " : "the frozen graph ",
                                     notComputedText(*Failed.Missing));
      if (!InputProblem.empty() &&
          (Failed.Missing->Reason == "no value fed" || UnknownRank)) {
        notChecked(F.Node, InputProblem);
        continue;
      }
      // No kernel (or verification's own limits): the evaluator's gap, NOT
      // CHECKED. A kernel that refused its inputs: TensorFlow would refuse
      // them too, so the graph cannot run, in either graph: a failure.
      if (Failed.Missing->NoKernel || Failed.Missing->OverLimit) {
        notChecked(F.Node, Why);
        continue;
      }
      R.Findings.push_back({"numeric", F.Node, absl::StrCat("cannot be computed: ", Why)});
      OutputCheck C;
      C.Tensor = F.Node;
      C.Failed = Why;
      R.Outputs.push_back(std::move(C));
      continue;
    }
    if (S.Dead != F.Dead) {
      R.Findings.push_back({"numeric", F.Node, S.Dead ? "is computed where the source's is dead"
                                                      : "is dead where the source's is computed"});
      continue;
    }
    // TensorFlow refuses to fetch a dead tensor: nothing to compare, which
    // must not pass for a comparison.
    if (S.Dead) {
      notChecked(F.Node, "dead in both graphs (on a branch not taken)");
      continue;
    }
    if (S.Outputs.size() != F.Outputs.size()) {
      R.Findings.push_back({"numeric", F.Node, absl::StrCat("has ", F.Outputs.size(),
                                                            " outputs, the source's ",
                                                            S.Outputs.size())});
      continue;
    }
    for (size_t Port = 0; Port < S.Outputs.size(); ++Port) {
      std::string Tensor = absl::StrCat(F.Node, ":", Port);
      if (!S.Outputs[Port] || !F.Outputs[Port]) {
        if (S.Outputs[Port].has_value() != F.Outputs[Port].has_value())
          R.Findings.push_back({"numeric", Tensor, "is dead in one graph only"});
        else
          notChecked(Tensor, "dead in both graphs (on a branch not taken)");
        continue;
      }
      OutputCheck C;
      C.Tensor = Tensor;
      compareOutput(*F.Outputs[Port], *S.Outputs[Port], Options, C);
      if (F.Outputs[Port]->dtype() != S.Outputs[Port]->dtype() ||
          F.Outputs[Port]->shape() != S.Outputs[Port]->shape())
        R.Findings.push_back(
            {"numeric", Tensor,
             absl::StrCat("is ", dataTypePythonName(F.Outputs[Port]->dtype()), " ",
                          formatShape(F.Outputs[Port]->shape()), ", the source's ",
                          dataTypePythonName(S.Outputs[Port]->dtype()), " ",
                          formatShape(S.Outputs[Port]->shape()))});
      else if (C.Differing)
        R.Findings.push_back(
            {"numeric", Tensor,
             absl::StrCat("differs from the source in ", C.Differing, " of ", C.Elements,
                          C.Exact ? " values (compared exactly)"
                                  : absl::StrCat(" values, outside ", toleranceText(C)),
                          "; ", worstText(C))});
      R.Outputs.push_back(std::move(C));
    }
  }
  if (!Options.SaveValues.empty())
    if (absl::Status S = saveValues(Ctx, Options.SaveValues, SourceRun.Feeds, *SourceResult,
                                    *FrozenResult);
        !S.ok())
      R.Findings.push_back({"numeric", "", std::string(S.message())});
}

} // namespace frost::verify
