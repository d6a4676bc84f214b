//===- DiffGraphs.cpp - frost-diff's job ----------------------------------===//
#include "frost/Jobs/Jobs.h"

#include "frost/Support/File.h"

namespace frost {

absl::StatusOr<inspect::GraphDiff> diffGraphs(Context &Ctx, const DiffGraphsOptions &O) {
  ReadOptions Read;
  Read.Tags = O.Tags;
  std::unique_ptr<Model> Models[2];
  const GraphSource *Sources[2] = {&O.A, &O.B};
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

} // namespace frost
