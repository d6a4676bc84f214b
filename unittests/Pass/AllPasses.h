//===- AllPasses.h - The registry the pass tests parse with -----*- C++ -*-===//
#ifndef FROST_UNITTESTS_PASS_ALLPASSES_H
#define FROST_UNITTESTS_PASS_ALLPASSES_H

#include "frost/Pass/PassRegistry.h"
#include "frost/Transforms/Passes.h"

namespace frost {

/// Every registered pass and pipeline, filled once for the test binary.
inline const PassRegistry &allPassesRegistry() {
  static const PassRegistry *R = [] {
    auto *Registry = new PassRegistry;
    registerAllPasses(*Registry);
    return Registry;
  }();
  return *R;
}

} // namespace frost

#endif // FROST_UNITTESTS_PASS_ALLPASSES_H
