//===- Registry.cpp - Registering every pass of Passes.def ----------------===//
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Pipelines.h"

namespace frost {

void registerAllPasses(PassRegistry &Registry) {
#define FROST_PASS(NAME, FACTORY, SUMMARY) Registry.registerPass(NAME, SUMMARY, FACTORY);
#define FROST_PIPELINE(NAME, PASSES, SUMMARY) Registry.registerPipeline(NAME, SUMMARY, PASSES);
#include "frost/Transforms/Passes.def"
}

} // namespace frost
