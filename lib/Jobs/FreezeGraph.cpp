//===- FreezeGraph.cpp - freeze-graph's and frost-verify's jobs -----------===//
//
// freezeGraph: options -> both output paths checked -> freeze() -> size
// check -> --verify -> the graph and its report written, committed together.
// verifyFrozenGraph: the source frozen again, keeping its graph before
// freezing -> the frozen graph checked against it.
//
//===----------------------------------------------------------------------===//
#include "frost/Jobs/Jobs.h"

#include "JobsInternal.h"

#include "frost/IR/CandidateOutputs.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/TensorName.h"

#include "absl/strings/str_cat.h"

#include <chrono>
#include <filesystem>

namespace frost {

namespace {

/// Whether two output paths name one file (existing or not).
bool sameFile(const std::string &A, const std::string &B) {
  if (A == "-" || B == "-")
    return A == B;
  std::error_code EC1, EC2;
  std::filesystem::path PA = std::filesystem::weakly_canonical(A, EC1);
  std::filesystem::path PB = std::filesystem::weakly_canonical(B, EC2);
  return EC1 || EC2 ? A == B : PA == PB;
}

/// The SavedModel of a freeze: the signature it froze, else serving_default
/// over its placeholders and outputs; its table initializers as the init op.
ServingExport servingExport(const FreezeResult &R) {
  ServingExport E;
  if (!R.Signature.empty() && !R.SignatureOutputs.empty()) {
    E.Signatures.push_back(
        {R.Signature, R.SignatureInputs, R.SignatureOutputs, &R.SignatureDeclared});
  } else {
    std::vector<std::string> Outputs;
    for (const FreezeOutput &Out : R.Outputs) {
      // A tensor the user named keeps its port; a node gives its output 0.
      absl::StatusOr<TensorRef> Ref = resolveTensorName(R.M->graph(), Out.Requested, "output");
      bool Tensor = Ref.ok() && Ref->Port >= 0 && Ref->N->name() == Out.Node;
      Outputs.push_back(Tensor ? Out.Requested : Out.Node);
    }
    E.Signatures.push_back(servingDefault(R.M->graph(), Outputs));
  }
  E.InitNodes = R.Initializers;
  return E;
}

FrozenFormat formatOf(const FreezeGraphOptions &O) {
  if (O.Format)
    return *O.Format;
  return llvm::StringRef(O.Output).ends_with(".pbtxt") ? FrozenFormat::Text
                                                        : FrozenFormat::Binary;
}

} // namespace

absl::StatusOr<FreezeGraphResult> freezeGraph(Context &Ctx, const FreezeGraphOptions &Options) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  FreezeOptions O = Options.Freeze;
  // The report holds the timings, also when nobody asked to print them.
  TimingReport OwnTiming;
  if (!O.PM.Timing)
    O.PM.Timing = &OwnTiming;
  TimingReport &Timing = *O.PM.Timing;

  // Before any work: no output may replace an input, and a run that fails
  // writes nothing, so both paths are checked now and committed together.
  noteFreezeInputs(Ctx, O);
  const bool Saved = Options.Format == FrozenFormat::SavedModel;
  if (Saved && (Options.Output.empty() || Options.Output == "-"))
    return usageError(absl::InvalidArgumentError(
        "a SavedModel is a directory: name it as the output (-o DIR)"));
  std::unique_ptr<OutputFile> Output, Report;
  std::unique_ptr<OutputDirectory> SavedDir;
  if (Saved) {
    FROST_ASSIGN_OR_RETURN(SavedDir, OutputDirectory::prepare(Ctx, Options.Output));
  } else if (!Options.Output.empty()) {
    FROST_ASSIGN_OR_RETURN(Output, OutputFile::prepare(Ctx, Options.Output));
  }
  if (!Options.ReportPath.empty()) {
    if (!Options.Output.empty() && sameFile(Options.ReportPath, Options.Output))
      return absl::InvalidArgumentError(absl::StrCat("--report ", Options.ReportPath,
                                                     " and the output are the same file: "
                                                     "name two files"));
    FROST_ASSIGN_OR_RETURN(Report, OutputFile::prepare(Ctx, Options.ReportPath));
  }

  O.KeepSource = Options.Verify;
  FreezeGraphResult R;
  FROST_ASSIGN_OR_RETURN(R.Frozen, freeze(Ctx, O));
  FreezeResult &Frozen = R.Frozen;
  R.Format = formatOf(Options);
  llvm::StringRef Shown = Options.Output.empty() ? "<bytes>" : llvm::StringRef(Options.Output);
  // Before --verify: a graph TensorFlow could not load is not worth checking.
  if (R.Format != FrozenFormat::Text)
    FROST_RETURN_IF_ERROR(checkFrozenGraphSize(Frozen, Shown, O.SizeLimit));
  if (Options.Verify) {
    Stopwatch Timer(&Timing, "verify");
    FROST_ASSIGN_OR_RETURN(R.Verified,
                           verify::verifyFrozen(Ctx, Frozen, *Frozen.M, Shown, Options.Numeric));
    if (!R.Verified->passed())
      return R;
    Frozen.Source.reset();
  }

  {
    Stopwatch Timer(&Timing, "write output");
    if (SavedDir) {
      FROST_ASSIGN_OR_RETURN(WrittenBytes Pb,
                             writeServingSavedModel(Ctx, *Frozen.M, servingExport(Frozen),
                                                    *SavedDir, O.SizeLimit));
      R.Written = FrozenFile{Options.Output, R.Format, Pb.Bytes, Report ? Pb.Sha256 : ""};
    } else if (Output) {
      FROST_ASSIGN_OR_RETURN(R.Written, writeFrozenGraph(Frozen, *Output, R.Format,
                                                         /*Hash=*/Report != nullptr,
                                                         O.SizeLimit));
    } else {
      WriteOptions Write;
      Write.Enc = R.Format == FrozenFormat::Text ? Encoding::Text : Encoding::Binary;
      Write.SizeLimit = O.SizeLimit;
      FROST_ASSIGN_OR_RETURN(R.Bytes, serializeModel(Ctx, *Frozen.M, Write));
      R.Written = FrozenFile{"", R.Format, R.Bytes.size(),
                             Report ? sha256Hex(R.Bytes) : std::string()};
    }
  }
  R.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  if (Report)
    FROST_RETURN_IF_ERROR(
        Report->writeString(freezeReportJson(Frozen, R.Written, Timing, R.Seconds)));
  // Both checked before either is renamed: inputs found during the run
  // (vocabularies, a checkpoint named by a state file) count too.
  for (const std::string *Path : {&Options.Output, &Options.ReportPath})
    if (!Path->empty())
      FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(*Path));
  if (Output)
    FROST_RETURN_IF_ERROR(Output->commit());
  if (SavedDir)
    FROST_RETURN_IF_ERROR(SavedDir->commit());
  if (Report)
    FROST_RETURN_IF_ERROR(Report->commit());
  return R;
}

absl::StatusOr<verify::VerifyReport> verifyFrozenGraph(Context &Ctx,
                                                       const VerifyFrozenOptions &Options) {
  TimingReport *Timing = Options.Freeze.PM.Timing;
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> Frozen,
                         readGraphSource(Ctx, Options.Frozen, {}, /*Verify=*/true, Timing));
  FreezeOptions O = Options.Freeze;
  O.KeepSource = true;
  bool Unnamed = O.Outputs.empty() && O.Signature.empty();
  std::string Chosen;
  absl::StatusOr<FreezeResult> Expected = [&] {
    Stopwatch Timer(Timing, "freeze the source");
    return freeze(Ctx, O);
  }();
  // No --outputs: a SavedModel's freeze takes its signature's; else the
  // frozen graph's sinks (what nothing reads, less no-ops, Saver and
  // initializer nodes) are what it was frozen for.
  if (Unnamed && Expected.ok() && !Expected->Signature.empty())
    Chosen = absl::StrCat("signature '", Expected->Signature, "'");
  if (Unnamed && !Expected.ok()) {
    for (const Node *N : candidateOutputNodes(*Frozen))
      if (!isAnyVariableOp(N->op()) && !isTableInitializerOp(N->op()))
        O.Outputs.push_back(N->name().str());
    if (!O.Outputs.empty()) {
      Chosen = "the frozen graph's sinks";
      Stopwatch Timer(Timing, "freeze the source");
      Expected = freeze(Ctx, O);
    }
  }
  if (!Expected.ok())
    return Expected.status();
  Stopwatch Timer(Timing, "verify");
  FROST_ASSIGN_OR_RETURN(verify::VerifyReport R,
                         verify::verifyFrozen(Ctx, *Expected, *Frozen, Options.Frozen.name(),
                                              Options.Numeric));
  R.OutputsChosen = Chosen;
  for (const FreezeOutput &Out : Expected->Outputs)
    R.OutputNames.push_back(Out.Node);
  return R;
}

} // namespace frost
