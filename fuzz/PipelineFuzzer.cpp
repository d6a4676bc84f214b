//===- PipelineFuzzer.cpp - libFuzzer target for --pass-pipeline text -----===//
//
// Input: pipeline text as frost-opt --pass-pipeline and freeze-graph
// --pass-pipeline take it (`prune{outputs=a;b},inline-functions`, named
// pipelines, quoted values). Parsed against the registry the tools fill; a
// pipeline that parses must print as text that parses back to the same
// printed pipeline, and its options are validated as before a run. The same
// text is also read as a transform-graph --transforms list, and what parses
// is mapped to passes, as transform-graph does before reading the graph.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "frost/Pass/PassManager.h"
#include "frost/Transforms/GraphTransforms.h"
#include "frost/Transforms/Passes.h"

using namespace frost;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::silenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text = fuzz::bytes(Data, Size);
  if (absl::StatusOr<std::vector<TransformCall>> Calls = parseTransformList(Text); Calls.ok())
    (void)prepareGraphTransforms(*Calls, {{"x"}, {"y"}}, fuzz::passRegistry(), Text);
  PassManager PM;
  if (!parsePassPipeline(Text, fuzz::passRegistry(), PM).ok())
    return 0;
  for (const std::unique_ptr<Pass> &P : PM.passes())
    (void)P->validateOptions();
  std::string Printed = PM.printPipeline();
  PassManager Again;
  if (absl::Status S = parsePassPipeline(Printed, fuzz::passRegistry(), Again); !S.ok())
    fuzz::invariantBroken("a printed pipeline does not parse back",
                          Printed + "\n" + std::string(S.message()));
  if (Again.printPipeline() != Printed)
    fuzz::invariantBroken("a printed pipeline parses back to another pipeline",
                          Printed + "\n" + Again.printPipeline());
  return 0;
}
