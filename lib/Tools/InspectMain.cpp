//===- InspectMain.cpp - The frost-inspect driver -------------------------===//
//
// Flags -> one subcommand -> output on stdout (graph: or -o FILE, written
// atomically), errors through printError.
// What the subcommands print is built by lib/Inspect (GraphSummary,
// CheckpointSummary); here only which of its calls a flag set asks for.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/InspectMain.h"

#include "frost/IO/GraphIO.h"
#include "frost/Inspect/CheckpointSummary.h"
#include "frost/Inspect/GraphPicture.h"
#include "frost/Inspect/GraphSummary.h"
#include "frost/Support/Context.h"
#include "frost/Tools/ToolSupport.h"

#include "llvm/Support/CommandLine.h"

namespace frost {

namespace {

struct GraphCommand {
  std::string Path;
  std::vector<std::string> Tags;
  enum class Format { Summary, Json, Dot, Html } Show = Format::Summary;
  /// Where the output goes ("-": standard output), written atomically.
  std::string Output = "-";
  /// The ends of the highlighted paths (--dot, --html); empty = guessed.
  std::vector<std::string> Inputs, Outputs;
};

struct CheckpointCommand {
  std::string Path;
  /// Variables whose values to print; empty = none (unless All).
  std::vector<std::string> Tensors;
  /// Print every value: of Tensors, or of every variable when Tensors is empty.
  bool All = false;
  bool Json = false;
  /// Read every tensor (checking sizes and CRCs) and print a one-line report.
  bool Verify = false;
  bool VerifyCrc = true;
};

absl::Status runGraph(const GraphCommand &Cmd) {
  Context Ctx;
  Ctx.inputs().noteWithSiblings(Cmd.Path);
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> Out, OutputFile::prepare(Ctx, Cmd.Output));
  ReadOptions Read;
  Read.Tags = Cmd.Tags;
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> M, readUserModel(Ctx, Cmd.Path, Read));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  using Format = GraphCommand::Format;
  if (Cmd.Show == Format::Summary || Cmd.Show == Format::Json) {
    inspect::GraphSummary S = inspect::summarizeGraph(*M, Cmd.Path);
    if (Cmd.Show == Format::Json)
      inspect::printGraphSummaryJson(S, OS);
    else
      inspect::printGraphSummary(S, OS);
  } else {
    inspect::GraphPanel P;
    P.Title = Cmd.Path;
    P.G = &M->graph();
    P.Inputs = Cmd.Inputs;
    P.Outputs = Cmd.Outputs;
    Text = Cmd.Show == Format::Dot ? inspect::graphDot(P) : inspect::graphHtml({P}, Cmd.Path);
  }
  FROST_RETURN_IF_ERROR(Out->writeString(Text));
  return Out->commit();
}

absl::Status runCheckpoint(const CheckpointCommand &Cmd, llvm::raw_ostream &OS) {
  Context Ctx;
  FROST_ASSIGN_OR_RETURN(inspect::OpenedCheckpoint C,
                         inspect::openCheckpoint(Ctx, Cmd.Path, Cmd.VerifyCrc));
  if (Cmd.Verify) {
    FROST_ASSIGN_OR_RETURN(inspect::CheckpointVerification V,
                           inspect::verifyCheckpoint(*C.Reader, Cmd.VerifyCrc));
    inspect::printVerification(V, OS);
    return absl::OkStatus();
  }
  FROST_ASSIGN_OR_RETURN(std::vector<const VariableInfo *> Vars,
                         inspect::selectVariables(*C.Reader, Cmd.Tensors));
  bool WithValues = Cmd.All || !Cmd.Tensors.empty();
  if (Cmd.Json)
    return inspect::printCheckpointJson(C, Vars, WithValues, OS);
  if (!WithValues) {
    inspect::printCheckpointListing(C, OS);
    return absl::OkStatus();
  }
  for (size_t I = 0; I < Vars.size(); ++I) {
    if (I)
      OS << "\n";
    FROST_RETURN_IF_ERROR(inspect::printVariableValues(*C.Reader, *Vars[I], Cmd.All, OS));
  }
  return absl::OkStatus();
}

} // namespace

int frostInspectMain(int Argc, char **Argv) {
  initTool();
  namespace cl = llvm::cl;
  cl::OptionCategory CheckpointCat("checkpoint options");
  cl::OptionCategory GraphCat("graph options");
  cl::SubCommand CheckpointCmd("checkpoint",
                               "List a checkpoint's variables, or print their values");
  cl::SubCommand GraphCmd("graph",
                          "Summarise or draw a GraphDef, MetaGraphDef or SavedModel");

  // checkpoint
  cl::opt<std::string> CheckpointPath(
      cl::Positional, cl::Required,
      cl::desc("<checkpoint prefix, one of its files, or a directory>"), cl::sub(CheckpointCmd),
      cl::cat(CheckpointCat));
  cl::list<std::string> Tensors(
      "tensor", cl::desc("Print the values of this variable (repeatable)"),
      cl::value_desc("name"), cl::sub(CheckpointCmd), cl::cat(CheckpointCat));
  cl::opt<bool> All("all",
                    cl::desc("Print every value: of the --tensor variables, or of all "
                             "variables without --tensor"),
                    cl::sub(CheckpointCmd), cl::cat(CheckpointCat));
  cl::opt<bool> Verify("verify",
                       cl::desc("Read every tensor, checking sizes and checksums, and "
                                "report the totals"),
                       cl::sub(CheckpointCmd), cl::cat(CheckpointCat));
  cl::opt<bool> NoVerifyCrc("no-verify-crc",
                            cl::desc("Do not verify tensor checksums (table block "
                                     "checksums are always verified)"),
                            cl::sub(CheckpointCmd), cl::cat(CheckpointCat));

  // graph
  cl::opt<std::string> GraphPath(
      cl::Positional, cl::Required,
      cl::desc("<GraphDef, MetaGraphDef or SavedModel (file or directory)>"),
      cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::list<std::string> Tags("tags",
                             cl::desc("SavedModel meta graph tags (default: serve)"),
                             cl::CommaSeparated, cl::value_desc("tag,..."), cl::sub(GraphCmd),
                             cl::cat(GraphCat));

  // The same flag in each subcommand keeps each --help to its own section.
  cl::opt<bool> CheckpointJson("json", cl::desc("Print JSON (schema in docs/inspect.md)"),
                               cl::sub(CheckpointCmd), cl::cat(CheckpointCat));
  cl::opt<bool> GraphJson("json", cl::desc("Print JSON (schema in docs/inspect.md)"),
                          cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::opt<bool> Dot("dot", cl::desc("Draw the graph as Graphviz DOT (render with dot -Tsvg)"),
                    cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::opt<bool> Html("html",
                     cl::desc("Draw the graph as one self-contained HTML page (zoom, pan, "
                              "node details)"),
                     cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::list<std::string> PathInputs(
      "inputs",
      cl::desc("With --dot/--html: highlight the paths from these nodes (default: the "
               "placeholders)"),
      cl::CommaSeparated, cl::value_desc("name,..."), cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::list<std::string> PathOutputs(
      "outputs",
      cl::desc("With --dot/--html: highlight the paths to these nodes (default: the candidate "
               "outputs)"),
      cl::CommaSeparated, cl::value_desc("name,..."), cl::sub(GraphCmd), cl::cat(GraphCat));
  cl::opt<std::string> GraphOutput("o",
                                   cl::desc("Write to this file (atomically) instead of "
                                            "standard output"),
                                   cl::value_desc("file"), cl::init("-"), cl::sub(GraphCmd),
                                   cl::cat(GraphCat));

  cl::HideUnrelatedOptions(CheckpointCat, cl::SubCommand::getTopLevel());
  cl::HideUnrelatedOptions(CheckpointCat, CheckpointCmd);
  cl::HideUnrelatedOptions(GraphCat, GraphCmd);
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) { OS << frostVersion() << "\n"; });
  if (int Usage = parseToolCommandLine(
          Argc, Argv, "frost-inspect: look inside TensorFlow checkpoints and graphs\n"))
    return Usage;

  absl::Status S;
  if (CheckpointCmd) {
    CheckpointCommand Cmd;
    Cmd.Path = CheckpointPath;
    Cmd.Tensors.assign(Tensors.begin(), Tensors.end());
    Cmd.All = All;
    Cmd.Json = CheckpointJson;
    Cmd.Verify = Verify;
    Cmd.VerifyCrc = !NoVerifyCrc;
    S = runCheckpoint(Cmd, llvm::outs());
  } else if (GraphCmd) {
    GraphCommand Cmd;
    Cmd.Path = GraphPath;
    Cmd.Tags.assign(Tags.begin(), Tags.end());
    if (Tags.getNumOccurrences() == 0)
      Cmd.Tags = {"serve"};
    if (GraphJson + Dot + Html > 1) {
      return usageFailure(absl::InvalidArgumentError("--json, --dot and --html exclude each other"));
    }
    if ((PathInputs.getNumOccurrences() || PathOutputs.getNumOccurrences()) && !Dot && !Html) {
      return usageFailure(
          absl::InvalidArgumentError("--inputs and --outputs go with --dot or --html"));
    }
    using Format = GraphCommand::Format;
    Cmd.Show = GraphJson ? Format::Json : Dot ? Format::Dot : Html ? Format::Html : Format::Summary;
    Cmd.Output = GraphOutput;
    Cmd.Inputs.assign(PathInputs.begin(), PathInputs.end());
    Cmd.Outputs.assign(PathOutputs.begin(), PathOutputs.end());
    S = runGraph(Cmd);
  } else {
    printError(absl::InvalidArgumentError(
        "no subcommand given; try 'frost-inspect checkpoint PATH' or 'frost-inspect graph "
        "FILE' (see --help)"));
    return 2;
  }
  llvm::outs().flush();
  if (!S.ok()) {
    printError(S);
    return 1;
  }
  return 0;
}

} // namespace frost
