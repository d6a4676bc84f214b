//===- FunctionsFuzzer.cpp - libFuzzer target for function libraries ------===//
//
// Input: a model, binary or text (told apart by content, as frost-opt does),
// normally a graph whose FunctionDefLibrary has calls, If/Case/While and
// nested functions. A model that imports and verifies is run through the two
// pipelines that remove functions, each on a fresh import and each parsed by
// the registry as frost-opt parses --pass-pipeline:
//   inline-functions{lower-control-flow=true}   (what freezing TF2 runs)
//   lower-control-flow,inline-functions
// with max-new-nodes lowered to 5000: a legal library whose calls multiply
// (the hostile corpus has one) would otherwise take seconds per input in the
// unoptimized sanitized build, and libFuzzer reports a slow input as a
// finding.
// The pass manager verifies after each pass; a pass that leaves an invalid
// graph from a valid one (an Internal status) is a finding, as is any crash.
// The result is serialized as frost-opt would write it.
//
//===----------------------------------------------------------------------===//
#include "FuzzSupport.h"

#include "frost/IO/GraphIO.h"
#include "frost/Support/Context.h"
#include "frost/IR/Verifier.h"
#include "frost/Pass/PassManager.h"
#include "frost/Transforms/Passes.h"

using namespace frost;

namespace {

void runPipeline(llvm::StringRef Bytes, llvm::StringRef Pipeline) {
  Context Ctx; // outlives the model
  absl::StatusOr<std::unique_ptr<Model>> M = parseModel(Bytes, "graph.pb");
  if (!M.ok() || !verifyGraph((*M)->graph()).ok())
    return; // frost-opt refuses these before any pass
  PassManagerOptions Options;
  Options.Out = &llvm::nulls();
  PassManager PM(Options);
  if (absl::Status S = parsePassPipeline(Pipeline, fuzz::passRegistry(), PM); !S.ok())
    fuzz::invariantBroken("the fuzzer's pipeline does not parse", std::string(S.message()));
  PassContext PassCtx(Ctx);
  absl::Status S = PM.run(**M, PassCtx);
  if (absl::IsInternal(S))
    fuzz::invariantBroken("a pass left an invalid graph", std::string(S.message()));
  if (S.ok())
    (void)serializeModel(Ctx, **M);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::silenceProtobufLogs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Bytes = fuzz::bytes(Data, Size);
  runPipeline(Bytes, "inline-functions{lower-control-flow=true,max-new-nodes=5000}");
  runPipeline(Bytes, "lower-control-flow,inline-functions{max-new-nodes=5000}");
  return 0;
}
