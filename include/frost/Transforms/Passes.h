//===- Passes.h - Factories of every pass -----------------------*- C++ -*-===//
#ifndef FROST_TRANSFORMS_PASSES_H
#define FROST_TRANSFORMS_PASSES_H

#include "frost/Pass/Pass.h"
#include "frost/Pass/PassRegistry.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace frost {

#define FROST_PASS(NAME, FACTORY, SUMMARY) std::unique_ptr<Pass> FACTORY();
#include "frost/Transforms/Passes.def"

/// Each pass's registered name, by its factory (PassName::createPrunePass is
/// "prune"): for the typed factories of PassOptions.h, which name their pass
/// as the registry would.
struct PassName {
#define FROST_PASS(NAME, FACTORY, SUMMARY) static constexpr llvm::StringLiteral FACTORY{NAME};
#include "frost/Transforms/Passes.def"
};

/// `P` (from an untyped factory) named as the registry names it:
/// named(createPrunePass(), PassName::createPrunePass).
std::unique_ptr<Pass> named(std::unique_ptr<Pass> P, llvm::StringRef Name);

/// Adds every pass and named pipeline of Passes.def to `Registry`.
void registerAllPasses(PassRegistry &Registry);

} // namespace frost

#endif // FROST_TRANSFORMS_PASSES_H
