//===- InspectJobs.cpp - frost-diff's and frost-inspect graph's jobs ------===//
#include "frost/Jobs/Jobs.h"

#include "JobsInternal.h"

#include "frost/Inspect/GraphPicture.h"
#include "frost/Inspect/GraphSummary.h"
#include "frost/Support/File.h"

namespace frost {

absl::StatusOr<inspect::GraphDiff> diffGraphs(Context &Ctx, const DiffGraphsOptions &O) {
  ReadOptions Read;
  Read.Tags = O.Tags;
  std::unique_ptr<Model> Models[2];
  const GraphSource *Sources[2] = {&O.A, &O.B};
  for (const GraphSource *Source : Sources)
    noteInputs(Ctx, *Source);
  for (int I = 0; I < 2; ++I) {
    Stopwatch Timer(O.Timing, I ? "read B" : "read A");
    FROST_ASSIGN_OR_RETURN(Models[I], readGraphSource(Ctx, *Sources[I], Read));
  }
  absl::StatusOr<inspect::GraphDiff> D = [&] {
    Stopwatch Timer(O.Timing, "diff");
    return inspect::diffModels(*Models[0], *Models[1], O.Diff);
  }();
  if (!D.ok() || O.HtmlPath.empty())
    return D;
  Stopwatch Timer(O.Timing, "html");
  FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(O.HtmlPath));
  FROST_RETURN_IF_ERROR(
      writeStringAtomically(Ctx, O.HtmlPath, inspect::graphDiffHtml(*D, *Models[0], *Models[1])));
  return D;
}

absl::StatusOr<std::string> inspectGraph(Context &Ctx, const InspectGraphOptions &O) {
  using Form = InspectGraphOptions::Form;
  noteInputs(Ctx, O.Input);
  std::unique_ptr<OutputFile> Out;
  if (!O.Output.empty()) {
    FROST_ASSIGN_OR_RETURN(Out, OutputFile::prepare(Ctx, O.Output));
  }
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Model> M, readGraphSource(Ctx, O.Input, O.Read));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  const std::string &Name = O.Input.name();
  if (O.As == Form::Summary || O.As == Form::Json) {
    inspect::GraphSummary S = inspect::summarizeGraph(*M, Name);
    if (O.As == Form::Json)
      inspect::printGraphSummaryJson(S, OS);
    else
      inspect::printGraphSummary(S, OS);
  } else {
    inspect::GraphPanel P;
    P.Title = Name;
    P.G = &M->graph();
    FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.PathsFrom, "--inputs"));
    FROST_RETURN_IF_ERROR(checkNamesExist(M->graph(), O.PathsTo, "--outputs"));
    P.Inputs = O.PathsFrom;
    P.Outputs = O.PathsTo;
    Text = O.As == Form::Dot ? inspect::graphDot(P) : inspect::graphHtml({P}, Name);
  }
  if (!Out)
    return Text;
  FROST_RETURN_IF_ERROR(Out->writeString(Text));
  FROST_RETURN_IF_ERROR(Out->commit());
  return std::string();
}

} // namespace frost
