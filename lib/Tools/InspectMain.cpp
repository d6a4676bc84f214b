//===- InspectMain.cpp - The frost-inspect driver -------------------------===//
//
// The first word picks the subcommand, whose own flags parse the rest;
// lib/Inspect builds what it prints: on stdout, or (graph) in -o FILE.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/InspectMain.h"

#include "ArgParser.h"

#include "frost/Inspect/CheckpointSummary.h"
#include "frost/Jobs/Jobs.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

struct InspectCommandLine {
  std::string Path;
  inspect::CheckpointQuery Checkpoint;
  // graph: JSON, a picture (DOT or HTML) or, by default, the summary.
  InspectGraphOptions Graph;
  bool Json = false, Dot = false, Html = false;
  /// Where the output goes ("-": standard output), written atomically.
  std::string Output = "-";
  bool Help = false, Version = false;
};

absl::Status runGraph(const InspectCommandLine &C) {
  using Form = InspectGraphOptions::Form;
  InspectGraphOptions Job = C.Graph;
  Job.Input.Path = C.Path;
  Job.Output = C.Output;
  Job.As = C.Dot ? Form::Dot : C.Html ? Form::Html : C.Json ? Form::Json : Form::Summary;
  Context Ctx;
  Ctx.diagnostics().printTo(llvm::errs());
  return inspectGraph(Ctx, Job).status();
}

absl::Status runCheckpoint(const InspectCommandLine &C) {
  Context Ctx;
  return inspect::printCheckpoint(Ctx, C.Path, C.Checkpoint, llvm::outs());
}

void addCheckpointFlags(ArgParser &P, InspectCommandLine &C, const std::string &Group) {
  using K = ArgParser::Kind;
  inspect::CheckpointQuery &Q = C.Checkpoint;
  auto flag = [](bool &Field, bool Invert = false) { return ArgParser::storeFlag(Field, Invert); };
  P.add({{"tensor"}, K::Value, "NAME", "Print the values of this variable (repeatable)",
         ArgParser::appendString(Q.Tensors), Group});
  P.add({{"all"}, K::Bool, "",
         "Print every value: of the --tensor variables, or of all variables\n"
         "without --tensor",
         flag(Q.All), Group});
  P.add({{"json"}, K::Bool, "", "Print JSON (schema in docs/inspect.md)", flag(Q.Json), Group});
  P.add({{"verify"}, K::Bool, "",
         "Read every tensor, checking sizes and checksums, and report the\ntotals",
         flag(Q.Verify), Group});
  P.add({{"no-verify-crc"}, K::Bool, "",
         "Do not verify tensor checksums (table block checksums are always\nverified)",
         flag(Q.VerifyChecksums, /*Invert=*/true), Group});
}

void addGraphFlags(ArgParser &P, InspectCommandLine &C, const std::string &Group) {
  using K = ArgParser::Kind;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  P.add({{"tags"}, K::Value, "TAG,...", "SavedModel meta graph tags (default: serve)",
         ArgParser::appendCommaList(C.Graph.Read.Tags), Group});
  P.add({{"json"}, K::Bool, "", "Print JSON (schema in docs/inspect.md)", flag(C.Json), Group});
  P.add({{"dot"}, K::Bool, "", "Draw the graph as Graphviz DOT (render with dot -Tsvg)",
         flag(C.Dot), Group});
  P.add({{"html"}, K::Bool, "",
         "Draw the graph as one self-contained HTML page (zoom, pan, node\ndetails)",
         flag(C.Html), Group});
  P.add({{"inputs"}, K::Value, "NAME,...",
         "With --dot/--html: highlight the paths from these nodes (default:\nthe placeholders)",
         ArgParser::appendCommaList(C.Graph.PathsFrom), Group});
  P.add({{"outputs"}, K::Value, "NAME,...",
         "With --dot/--html: highlight the paths to these nodes (default: the\n"
         "candidate outputs)",
         ArgParser::appendCommaList(C.Graph.PathsTo), Group});
  P.add({{"o", "output"}, K::Value, "FILE",
         "Write to this file (atomically) instead of standard output",
         ArgParser::storeString(C.Output), Group});
}

struct Subcommand {
  const char *Name, *Summary, *About;
  void (*AddFlags)(ArgParser &, InspectCommandLine &, const std::string &);
  absl::Status (*Run)(const InspectCommandLine &);
};

const Subcommand Subcommands[] = {
    {"checkpoint", "List a checkpoint's variables, or print their values",
     "Lists a checkpoint's variables (dtype, shape, bytes, shard), or prints their values. PATH\n"
     "is a checkpoint prefix, one of its files, or a directory (its latest checkpoint).\n",
     addCheckpointFlags, runCheckpoint},
    {"graph", "Summarise or draw a GraphDef, MetaGraphDef or SavedModel",
     "Summarises a graph (inputs, outputs, ops, parameters, signatures), or draws it. PATH is a\n"
     "GraphDef, MetaGraphDef or SavedModel (file or directory, binary or text), or a\n"
     "checkpoint prefix, one of its files or its directory (the .meta beside it).\n",
     addGraphFlags, runGraph},
};

/// The parser for `Sub`, or for the bare command (--help, --version).
ArgParser makeParser(const Subcommand *Sub, InspectCommandLine &C) {
  ArgParser P;
  if (Sub)
    Sub->AddFlags(P, C, absl::StrCat(Sub->Name, " options"));
  addHelpFlags(P, C.Help, C.Version, Sub ? absl::StrCat(Sub->Name, " options") : "Options");
  return P;
}

void printInspectHelp(const Subcommand *Sub, llvm::raw_ostream &OS) {
  std::string Usage;
  llvm::raw_string_ostream Text(Usage);
  Text << "Usage: frost-inspect " << (Sub ? Sub->Name : "SUBCOMMAND") << " PATH [options]\n\n"
       << (Sub ? Sub->About : "Looks inside TensorFlow checkpoints and graphs.\n")
       << "Options may be shortened to any unambiguous prefix. Reference: docs/inspect.md.\n";
  if (!Sub) {
    Text << "\nSubcommands ('frost-inspect SUBCOMMAND --help' lists a subcommand's options):\n";
    for (const Subcommand &S : Subcommands)
      ArgParser::printHelpEntry(Text, absl::StrCat("  ", S.Name, " PATH"), S.Summary);
  }
  InspectCommandLine Unused;
  makeParser(Sub, Unused).printHelp(OS, Usage);
}

/// What a command line that parsed may still lack: a subcommand, its one
/// PATH, graph flags that go together.
absl::Status checkCommandLine(const Subcommand *Sub, const InspectCommandLine &C,
                              size_t Paths) {
  if (!Sub)
    return absl::InvalidArgumentError(
        "no subcommand given; try 'frost-inspect checkpoint PATH' or 'frost-inspect graph "
        "FILE' (see --help)");
  if (Paths != 1)
    return absl::InvalidArgumentError(absl::StrCat(Sub->Name, " takes one PATH, not ", Paths,
                                                   " (see frost-inspect ", Sub->Name,
                                                   " --help)"));
  if (C.Json + C.Dot + C.Html > 1)
    return absl::InvalidArgumentError("--json, --dot and --html exclude each other");
  if ((!C.Graph.PathsFrom.empty() || !C.Graph.PathsTo.empty()) && !C.Dot && !C.Html)
    return absl::InvalidArgumentError("--inputs and --outputs go with --dot or --html");
  return absl::OkStatus();
}

} // namespace

int frostInspectMain(int Argc, char **Argv) {
  initTool();
  InspectCommandLine C;
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  const Subcommand *Sub = nullptr;
  absl::Status Parsed;
  bool Named = !Args.empty() && !llvm::StringRef(Args.front()).starts_with("-");
  if (Named) {
    std::vector<llvm::StringRef> Names;
    for (const Subcommand &S : Subcommands)
      Names.push_back(S.Name);
    absl::StatusOr<size_t> Found = findSubcommand(Args.front(), Names);
    Parsed = Found.status();
    Sub = Found.ok() ? &Subcommands[*Found] : nullptr;
  }
  std::vector<std::string> Positional;
  if (Parsed.ok())
    Parsed = makeParser(Sub, C).parse(llvm::ArrayRef(Args).drop_front(Named), Positional);
  if (Parsed.ok() && !C.Help && !C.Version)
    Parsed = checkCommandLine(Sub, C, Positional.size());
  if (std::optional<int> Done = answerCommandLine(
          "frost-inspect", Parsed, C.Help, C.Version,
          [Sub](llvm::raw_ostream &OS) { printInspectHelp(Sub, OS); }))
    return *Done;
  C.Path = Positional.front();
  absl::Status S = Sub->Run(C);
  llvm::outs().flush();
  return S.ok() ? 0 : runFailure(S);
}

} // namespace frost
