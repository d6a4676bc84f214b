//===- FreezeMain.cpp - The freeze-graph driver ---------------------------===//
//
// Flags -> FreezeOptions -> freeze() (lib/Freeze) -> write the frozen graph
// and the report -> say what was done. TensorFlow's freeze_graph.py flags are
// accepted with argparse's spellings; its known defects are not copied: a
// missing checkpoint, a graph frozen twice and bad flags are errors or
// notices with the right exit code.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/FreezeMain.h"

#include "FreezeFlags.h"

#include "frost/Freeze/Freeze.h"
#include "frost/Support/Context.h"
#include "frost/Support/WarningLines.h"
#include "frost/Tools/ToolSupport.h"
#include "frost/Verify/Verify.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/FormatVariadic.h"

#include <chrono>
#include <filesystem>

namespace frost {

namespace {

/// "a, b ,c" -> {"a", "b", "c"}: freeze_graph.py drops every space.
void appendCommaList(llvm::StringRef Text, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    std::string Item;
    for (char C : P)
      if (C != ' ')
        Item += C;
    if (!Item.empty())
      Out.push_back(std::move(Item));
  }
}

} // namespace

void addFreezeFlags(ArgParser &P, FreezeOptions &O, const std::string &Main) {
  using K = ArgParser::Kind;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field, bool Invert = false) { return ArgParser::storeFlag(Field, Invert); };
  auto list = [](std::vector<std::string> &Field) {
    return [&Field](llvm::StringRef V) {
      appendCommaList(V, Field);
      return absl::OkStatus();
    };
  };
  P.add({{"outputs", "output_node_names"}, K::Value, "LIST",
         "Outputs to keep, comma separated: node names, tensor names\n"
         "(add:0), collection:NAME (a MetaGraph collection's nodes),\n"
         "signature:NAME (a signature's outputs)",
         list(O.Outputs), Main});
  P.add({{"checkpoint", "input_checkpoint"}, K::Value, "PREFIX",
         "Checkpoint to freeze from: a prefix, one of its files, or a\n"
         "directory (its latest); default: the input's own", str(O.Checkpoint), Main});
  P.add({{"signature"}, K::Value, "NAME",
         "Signature whose outputs to keep when --outputs is not given",
         str(O.Signature), Main});
  P.add({{"tags", "saved_model_tags"}, K::Value, "TAG,...",
         "Tags of the SavedModel meta graph to freeze (default: serve)",
         [&O](llvm::StringRef V) {
           O.Tags.clear();
           appendCommaList(V, O.Tags);
           return absl::OkStatus();
         },
         Main});
  P.add({{"ema"}, K::OptionalValue, "NAME",
         "Freeze averaged variables with their moving averages (NAME:\n"
         "the EMA's name, default ExponentialMovingAverage)",
         [&O](llvm::StringRef V) {
           O.Ema = V.empty() ? "ExponentialMovingAverage" : V.str();
           return absl::OkStatus();
         },
         Main});
  P.add({{"rename"}, K::Value, "VAR:KEY,...",
         "Freeze graph variable VAR from checkpoint key KEY\n"
         "(what Saver({KEY: VAR}) restores)",
         list(O.Rename), Main});
  P.add({{"bind"}, K::Value, "NAME=VALUE,...",
         "Replace placeholders by constants (is_training=false) and\n"
         "fold the branches they decide",
         [&O](llvm::StringRef V) {
           llvm::SmallVector<llvm::StringRef, 4> Parts;
           V.split(Parts, ',', -1, false);
           for (llvm::StringRef Part : Parts)
             O.Bind.push_back(Part.trim().str());
           return absl::OkStatus();
         },
         Main});
  P.add({{"only", "variable_names_whitelist"}, K::Value, "VAR,...",
         "Freeze only these variables (node names)", list(O.Only), Main});
  P.add({{"except", "variable_names_blacklist", "variable_names_denylist"}, K::Value,
         "VAR,...", "Leave these variables unfrozen (node names)", list(O.Except), Main});
  P.add({{"keep-devices"}, K::Bool, "", "Keep the nodes' device placements",
         flag(O.ClearDevices, /*Invert=*/true), Main});
  P.add({{"strip-training-ops"}, K::Bool, "",
         "Rewrite reference-typed training ops left after pruning\n"
         "(RefSwitch to Switch, AssignSub to Sub, ...)",
         flag(O.StripTrainingOps), Main});
  P.add({{"drop-variable-writes"}, K::Bool, "",
         "Make the ops that write a frozen variable (v.assign_add in a\n"
         "signature, optimizer updates kept as outputs) NoOps, with a\n"
         "warning; without it freezing refuses them",
         flag(O.DropVariableWrites), Main});
  P.add({{"keep-functional-control-flow"}, K::Bool, "",
         "TF2 SavedModels: keep If/While functional instead of lowering\n"
         "them to Switch/Merge (TensorFlow's lower_control_flow=False)",
         flag(O.KeepFunctionalControlFlow), Main});
  P.add({{"optimize"}, K::Bool, "",
         "Then optimize for inference, in the same run and write:\n"
         "training nodes removed, batch norms folded into weights,\n"
         "constants folded, pad/resize fused into convolutions\n"
         "(optimize_for_inference.py's passes; docs/transforms.md)",
         flag(O.Optimize), Main});
  P.add({{"toco-compatible"}, K::Bool, "",
         "With --optimize: only rewrites TensorFlow Lite's converter\n"
         "understands (no fused pad/resize convolutions)",
         flag(O.TocoCompatible), Main});
  P.add({{"compute-in-float32"}, K::Bool, "",
         "With --optimize: compute half and bfloat16 (mixed-precision)\n"
         "graphs in float32 (for runtimes without half or Cast)",
         flag(O.ComputeInFloat32), Main});
  P.add({{"pass-pipeline"}, K::Value, "PIPELINE",
         "More passes to run after freezing (frost-opt --list-passes)",
         str(O.ExtraPipeline), Main, /*Hidden=*/false, /*Multiline=*/true});
}

void addFreezeCompatFlags(ArgParser &P, FreezeOptions &O, const std::string &Compat) {
  using K = ArgParser::Kind;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  auto list = [](std::vector<std::string> &Field) {
    return [&Field](llvm::StringRef V) {
      appendCommaList(V, Field);
      return absl::OkStatus();
    };
  };

  P.add({{"input_graph"}, K::Value, "FILE", "GraphDef to freeze (binary or text)",
         str(O.InputGraph), Compat});
  P.add({{"input_meta_graph"}, K::Value, "FILE",
         "MetaGraphDef to freeze (wins over --input_graph, as in TF)",
         str(O.InputMetaGraph), Compat});
  P.add({{"input_saved_model_dir"}, K::Value, "DIR", "SavedModel to freeze",
         str(O.SavedModelDir), Compat});
  P.add({{"input_saver"}, K::Value, "FILE",
         "SaverDef whose restore op maps variables to checkpoint keys",
         str(O.InputSaver), Compat});
  P.add({{"input_binary"}, K::Bool, "",
         "Accepted; binary and text are told apart by content",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"clear_devices"}, K::Bool, "", "Clear device placements (default true)",
         flag(O.ClearDevices), Compat});
  P.add({{"initializer_nodes"}, K::Value, "NODE,...",
         "Nodes to keep with the outputs (table initializers, ...)",
         list(O.InitializerNodes), Compat});
  P.add({{"checkpoint_version"}, K::Value, "1|2",
         "Accepted; the checkpoint's format is detected",
         [](llvm::StringRef V) {
           if (V != "1" && V != "2")
             return absl::InvalidArgumentError("must be 1 or 2");
           return absl::OkStatus();
         },
         Compat});
  P.add({{"restore_op_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"filename_tensor_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
}

namespace {

ArgParser makeParser(FreezeCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto str = ArgParser::storeString;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  const std::string Main = "Options", Compat = "freeze_graph.py flags (same meaning)",
                    Debug = "Debugging (the pass manager's)";
  P.add({{"o", "output", "output_graph"}, K::Value, "FILE",
         "Where to write the frozen GraphDef (- for standard output)", str(C.Output), Main});
  addFreezeFlags(P, C.O, Main);
  P.add({{"emit"}, K::Value, "pb|pbtxt", "Output encoding (default: pbtxt for a .pbtxt file)",
         [&C](llvm::StringRef V) {
           if (V != "pb" && V != "pbtxt")
             return absl::InvalidArgumentError("expected pb or pbtxt");
           C.Emit = V.str();
           return absl::OkStatus();
         },
         Main});
  P.add({{"report"}, K::Value, "FILE.json",
         "Write what was done as JSON: inputs, outputs, each frozen\n"
         "variable and its checkpoint key, node counts, output size\n"
         "and SHA-256, timings",
         str(C.ReportPath), Main});
  P.add({{"verify"}, K::Bool, "",
         "Then check the frozen graph as frost-verify does (constants,\n"
         "structure, outputs on random inputs); write nothing unless it holds",
         flag(C.Verify), Main});
  P.add({{"quiet", "q"}, K::Bool, "", "Print errors and warnings only", flag(C.Quiet), Main});
  addHelpFlags(P, C.Help, C.Version, Main);
  addFreezeCompatFlags(P, C.O, Compat);

  addPassManagerFlags(P, C.O.PM, C.Timing, Debug, &C.O.DumpPipeline);
  addSizeLimitFlag(P, C.O.SizeLimit, Debug);
  return P;
}

const char *Usage =
    "Usage: freeze-graph INPUT --outputs NAMES -o FROZEN.pb [options]\n"
    "\n"
    "Freezes a TensorFlow model: its variables become constants holding their values from a\n"
    "checkpoint, the Saver and training-only nodes go, and only what the outputs need stays.\n"
    "Writes a GraphDef, as TensorFlow's freeze_graph.py does (whose flags are accepted too).\n"
    "\n"
    "INPUT is a checkpoint prefix (its .meta beside it), a checkpoint directory (its latest\n"
    "checkpoint), a .meta file, a GraphDef (.pb or .pbtxt, with --checkpoint) or a SavedModel\n"
    "directory (with --signature or --outputs). Options may be shortened to any unambiguous\n"
    "prefix, and `_` and `-` are the same in their names.\n";

/// Whether two output paths name one file (existing or not).
bool sameFile(const std::string &A, const std::string &B) {
  if (A == "-" || B == "-")
    return A == B;
  std::error_code EC1, EC2;
  std::filesystem::path PA = std::filesystem::weakly_canonical(A, EC1);
  std::filesystem::path PB = std::filesystem::weakly_canonical(B, EC2);
  return EC1 || EC2 ? A == B : PA == PB;
}

std::string formatSeconds(double S) { return llvm::formatv("{0:f3} s", S).str(); }

int runFreeze(FreezeCommandLine &C) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  Context Ctx;
  TimingReport Timing;
  C.O.PM.Timing = &Timing;
  WarningLines WarningsOnly(llvm::errs());
  C.O.Notes = C.Quiet ? static_cast<llvm::raw_ostream *>(&WarningsOnly) : &llvm::errs();
  // Mistakes on the command line are usage errors: exit 2, as argparse does.
  auto fail = runFailure;
  auto usage = usageFailure;
  if (C.Output.empty())
    return usage(absl::InvalidArgumentError(
        "no output file: give -o FROZEN.pb (freeze_graph.py: --output_graph; - for stdout)"));
  if (absl::Status S = checkFreezeOptions(C.O); !S.ok())
    return usage(S);

  // Before any work: no output may replace an input, and a run that fails
  // writes nothing, so both paths are checked now and committed together.
  noteFreezeInputs(Ctx, C.O);
  absl::StatusOr<std::unique_ptr<OutputFile>> Output = OutputFile::prepare(Ctx, C.Output);
  if (!Output.ok())
    return fail(Output.status());
  std::unique_ptr<OutputFile> Report;
  if (!C.ReportPath.empty()) {
    if (sameFile(C.ReportPath, C.Output))
      return fail(absl::InvalidArgumentError(absl::StrCat(
          "--report ", C.ReportPath, " and the output are the same file: name two files")));
    absl::StatusOr<std::unique_ptr<OutputFile>> R = OutputFile::prepare(Ctx, C.ReportPath);
    if (!R.ok())
      return fail(R.status());
    Report = std::move(*R);
  }

  C.O.KeepSource = C.Verify;
  absl::StatusOr<FreezeResult> Result = freeze(Ctx, C.O);
  if (!Result.ok())
    return fail(Result.status());
  FreezeResult &R = *Result;
  bool Text = C.Emit == "pbtxt" || (C.Emit.empty() && llvm::StringRef(C.Output).ends_with(".pbtxt"));
  // Before --verify: a graph TensorFlow could not load is not worth checking.
  if (!Text)
    if (absl::Status S = checkFrozenGraphSize(R, C.Output, C.O.SizeLimit); !S.ok())
      return fail(S);
  if (C.Verify) {
    Stopwatch Timer(&Timing, "verify");
    absl::StatusOr<verify::VerifyReport> Checked =
        verify::verifyFrozen(Ctx, R, *R.M, C.Output, verify::NumericOptions());
    if (!Checked.ok())
      return fail(Checked.status());
    verify::printVerifyReport(llvm::errs(), *Checked, "freeze-graph --verify", C.Quiet);
    if (!Checked->passed())
      return 1;
    R.Source.reset();
  }

  absl::StatusOr<FrozenFile> Written = [&] {
    Stopwatch Timer(&Timing, "write output");
    return writeFrozenGraph(R, **Output, Text ? FrozenFormat::Text : FrozenFormat::Binary,
                            /*Hash=*/Report != nullptr, C.O.SizeLimit);
  }();
  if (!Written.ok())
    return fail(Written.status());
  double TotalSeconds = std::chrono::duration<double>(Clock::now() - Start).count();
  if (Report)
    if (absl::Status S = Report->writeString(freezeReportJson(R, *Written, Timing, TotalSeconds));
        !S.ok())
      return fail(S);
  // Both checked before either is renamed: inputs found during the run
  // (vocabularies, a checkpoint named by a state file) count too.
  for (const std::string *Path : {&C.Output, &C.ReportPath})
    if (absl::Status S = Ctx.inputs().checkNotAnInput(*Path); !Path->empty() && !S.ok())
      return fail(S);
  if (absl::Status S = (*Output)->commit(); !S.ok())
    return fail(S);
  if (Report)
    if (absl::Status S = Report->commit(); !S.ok())
      return fail(S);
  if (C.Timing)
    Timing.print(llvm::errs());
  if (!C.Quiet) {
    std::vector<std::string> Names;
    for (const FreezeOutput &O : R.Outputs)
      Names.push_back(O.Node);
    llvm::errs() << "freeze-graph: froze " << R.Frozen.size()
                 << (R.Frozen.size() == 1 ? " variable" : " variables") << " ("
                 << formatBytes(R.frozenBytes()) << ")"
                 << (R.Checkpoint.empty() ? std::string() : absl::StrCat(" from ", R.Checkpoint))
                 << "; " << R.NodesBefore << " -> " << R.NodesAfter << " nodes for "
                 << absl::StrJoin(Names, ", ") << "\n";
    for (const FreezeResult::PassChanges &P : R.Optimizations) {
      std::vector<std::string> Counts;
      for (const auto &[Name, Count] : P.Counts)
        Counts.push_back(absl::StrCat(Count, " ", Name));
      llvm::errs() << "freeze-graph: " << P.Pass << ": " << absl::StrJoin(Counts, ", ") << "\n";
    }
    llvm::errs() << "freeze-graph: wrote " << (C.Output == "-" ? "<stdout>" : C.Output) << " ("
                 << formatBytes(Written->Bytes) << ", " << (Text ? "pbtxt" : "pb") << ") in "
                 << formatSeconds(TotalSeconds) << "\n";
  }
  return 0;
}

} // namespace

absl::Status parseFreezeCommandLine(llvm::ArrayRef<const char *> Args, FreezeCommandLine &C) {
  return makeParser(C).parse(Args, C.O.Positional);
}

void printFreezeHelp(llvm::raw_ostream &OS) {
  FreezeCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

int frostFreezeMain(int Argc, char **Argv) {
  initTool();
  FreezeCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  absl::Status Parsed = parseFreezeCommandLine(Args, C);
  if (std::optional<int> Done =
          answerCommandLine("freeze-graph", Parsed, C.Help, C.Version, printFreezeHelp))
    return *Done;
  return runFreeze(C);
}

} // namespace frost
