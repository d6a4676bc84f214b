//===- OptMain.cpp - The frost-opt driver ---------------------------------===//
//
// Flags -> pipeline parsed once into a pass manager -> for the input (or each
// `# -----` chunk): runPipeline (lib/Jobs: read, verify, run that same pass
// manager), then write. Every debugging aid lives in the pass manager.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/OptMain.h"

#include "ArgParser.h"

#include "frost/IO/GraphIO.h"
#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

struct OptCommandLine {
  std::string Input = "-", Output = "-";
  /// --emit; else binary for a `.pb` or `.meta` output, text otherwise.
  std::optional<Encoding> Emit;
  /// The passes, in pipeline syntax (--list-passes).
  std::string Pipeline;
  PassManagerOptions PM;
  RunPipelineOptions Job;
  bool SplitInputFile = false;
  bool DumpPipeline = false, ListPasses = false, PassDocs = false;
  bool Timing = false, Help = false, Version = false;
};

/// frost-opt's job on one model; the result is appended to `TextOut`
/// (text) or goes straight to the output file (binary).
absl::Status processOne(Context &Ctx, llvm::StringRef Bytes, llvm::StringRef DisplayName,
                        PassManager &PM, const OptCommandLine &C, std::string &TextOut) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> M,
                         runPipeline(Ctx, Bytes, DisplayName, PM, C.Job));
  Stopwatch Timer(C.PM.Timing, "write output");
  if (*C.Emit == Encoding::Text) {
    // Checkpoint bytes in the text are checked first, as writeModel does.
    FROST_RETURN_IF_ERROR(Ctx.background().wait());
    TextOut += printModelText(*M);
    return absl::OkStatus();
  }
  WriteOptions Write; // binary
  Write.SizeLimit = C.Job.Read.SizeLimit;
  return writeModel(Ctx, *M, C.Output, Write);
}

ArgParser makeParser(OptCommandLine &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  const std::string Main = "Options", Debug = "Debugging (the pass manager's)";
  P.add({{"o", "output"}, K::Value, "FILE", "Output file (default -: standard output)",
         ArgParser::storeString(C.Output), Main});
  P.add({{"pass-pipeline"}, K::Value, "PIPELINE",
         "Passes to run, e.g. 'prune{outputs=add},clear-devices'",
         ArgParser::storeString(C.Pipeline), Main, /*Hidden=*/false, /*Multiline=*/true});
  P.add({{"emit"}, K::Value, "pb|pbtxt",
         "Output encoding (default: binary for .pb/.meta files, else text)",
         [&C](llvm::StringRef V) {
           if (V != "pb" && V != "pbtxt")
             return absl::InvalidArgumentError("expected pb or pbtxt");
           C.Emit = V == "pb" ? Encoding::Binary : Encoding::Text;
           return absl::OkStatus();
         },
         Main});
  P.add({{"split-input-file"}, K::Bool, "",
         "Treat each '# -----' separated part of a text input as its own\ngraph",
         flag(C.SplitInputFile), Main});
  P.add({{"allow-unimportable"}, K::Bool, "",
         "Write the graph even if TensorFlow could not import it (a write\n"
         "left on a frozen variable)",
         flag(C.Job.AllowUnimportable), Main});
  P.add({{"graph-only"}, K::Bool, "",
         "Write only the GraphDef, without its MetaGraph or SavedModel", flag(C.Job.GraphOnly),
         Main});
  P.add({{"tags"}, K::Value, "TAG,...", "SavedModel meta graph tags (default: serve)",
         ArgParser::appendCommaList(C.Job.Read.Tags), Main});
  P.add({{"list-passes"}, K::Bool, "", "List passes, their options and pipelines",
         flag(C.ListPasses), Main});
  P.add({{"print-pass-docs"}, K::Bool, "",
         "Print the pass reference (docs/passes.md) in Markdown", flag(C.PassDocs), Main});
  addHelpFlags(P, C.Help, C.Version, Main);
  addPassManagerFlags(P, C.PM, C.Timing, Debug, &C.DumpPipeline);
  addSizeLimitFlag(P, C.Job.Read.SizeLimit, Debug);
  return P;
}

const char *Usage =
    "Usage: frost-opt [INPUT] [options]\n"
    "\n"
    "Runs a pass pipeline over a TensorFlow graph: reads INPUT (a GraphDef, MetaGraphDef or\n"
    "SavedModel, binary or text; - or none: standard input), verifies it, runs the passes of\n"
    "--pass-pipeline and writes the result. Options may be shortened to any unambiguous\n"
    "prefix. Reference: docs/passes.md.\n";

void printOptHelp(llvm::raw_ostream &OS) {
  OptCommandLine Unused;
  makeParser(Unused).printHelp(OS, Usage);
}

int runOpt(OptCommandLine &C, const PassRegistry &Registry) {
  TimingReport Report;
  C.PM.Timing = C.Timing ? &Report : nullptr;
  // Parsed once, before reading anything; every model runs these passes.
  PassManager PM(C.PM);
  if (absl::Status S = parsePassPipeline(C.Pipeline, Registry, PM); !S.ok())
    return runFailure(S);
  if (absl::Status S = checkPassManagerOptions(C.PM, Registry); !S.ok())
    return runFailure(S);
  if (C.DumpPipeline)
    PM.dumpPipeline(llvm::errs());
  if (C.SplitInputFile && *C.Emit == Encoding::Binary)
    return runFailure(absl::InvalidArgumentError("--split-input-file writes text; drop --emit=pb"));

  Context Ctx;
  // Its output may keep the container: details about it are shown.
  Ctx.diagnostics().printTo(llvm::errs(), Diagnostics::Shown::Verbose);
  absl::StatusOr<std::unique_ptr<MappedFile>> File = openModelFile(Ctx, C.Input);
  if (!File.ok())
    return runFailure(File.status());
  std::string DisplayName = modelDisplayName((*File)->path());
  // Before any work: the output must be writable and not the input.
  if (absl::StatusOr<std::unique_ptr<OutputFile>> Out = OutputFile::prepare(Ctx, C.Output);
      !Out.ok())
    return runFailure(Out.status());
  std::vector<std::string> Chunks;
  std::vector<llvm::StringRef> Parts = {(*File)->bytes()};
  if (C.SplitInputFile) {
    Chunks = splitInputFile((*File)->bytes());
    Parts.assign(Chunks.begin(), Chunks.end());
  }
  std::string TextOut;
  bool Failed = false;
  for (size_t I = 0; I < Parts.size(); ++I) {
    if (I > 0)
      TextOut += "# -----\n";
    if (absl::Status S = processOne(Ctx, Parts[I], DisplayName, PM, C, TextOut); !S.ok()) {
      printError(S);
      Failed = true;
    }
  }
  // A failed run leaves no output file; on standard output the chunks that
  // worked are still shown next to the errors of the others.
  if (*C.Emit == Encoding::Text && (!Failed || C.Output == "-"))
    if (absl::Status S = writeStringAtomically(Ctx, C.Output, TextOut); !S.ok()) {
      printError(S);
      Failed = true;
    }
  if (C.Timing)
    Report.print(llvm::errs());
  return Failed ? 1 : 0;
}

} // namespace

int frostOptMain(int Argc, char **Argv) {
  initTool();
  OptCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  std::vector<std::string> Positional;
  absl::Status Parsed = makeParser(C).parse(Args, Positional);
  if (Parsed.ok() && !C.Help && Positional.size() > 1)
    Parsed = absl::InvalidArgumentError(
        absl::StrCat("give one input graph, not ", Positional.size(), " (see --help)"));
  if (std::optional<int> Done =
          answerCommandLine("frost-opt", Parsed, C.Help, C.Version, printOptHelp))
    return *Done;
  if (!Positional.empty())
    C.Input = Positional.front();
  llvm::StringRef Out(C.Output);
  if (!C.Emit)
    C.Emit = Out.ends_with(".pb") || Out.ends_with(".meta") ? Encoding::Binary : Encoding::Text;
  PassRegistry Registry;
  registerAllPasses(Registry);
  if (C.ListPasses || C.PassDocs) {
    printPassReference(Registry, llvm::outs(), C.PassDocs);
    return 0;
  }
  return runOpt(C, Registry);
}

} // namespace frost
