//===- PassRegistry.h - Names to pass factories -----------------*- C++ -*-===//
//
// The tools build one registry and fill it explicitly (registerAllPasses), so
// nothing depends on static initializers the linker might drop. Each lookup
// creates a fresh pass instance.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_PASS_PASSREGISTRY_H
#define FROST_PASS_PASSREGISTRY_H

#include "frost/Pass/Pass.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace frost {

using PassFactory = std::function<std::unique_ptr<Pass>()>;

class PassManager;
/// Adds a named pipeline's passes, each made from its typed options: the
/// sequence's typed builder with its default choices (frost/Transforms/
/// Pipelines.h), as MLIR's PassPipelineRegistration.
using PipelineBuilder = std::function<void(PassManager &)>;

struct PassInfo {
  std::string Name;
  std::string Summary;
  PassFactory Create;
};

/// A named pipeline: passes under one name, made by a builder or written as
/// a list; options given to it go to every pass in it that declares an
/// option of that name.
struct PipelineInfo {
  std::string Name;
  std::string Summary;
  /// The passes' names, comma separated: the list, or what Build adds.
  std::string Passes;
  /// Null for a pipeline written as a list.
  PipelineBuilder Build;
};

class PassRegistry {
public:
  void registerPass(llvm::StringRef Name, llvm::StringRef Summary, PassFactory Create);
  void registerPipeline(llvm::StringRef Name, llvm::StringRef Summary,
                        llvm::StringRef Passes);
  void registerPipeline(llvm::StringRef Name, llvm::StringRef Summary, PipelineBuilder Build);

  const PassInfo *findPass(llvm::StringRef Name) const;
  const PipelineInfo *findPipeline(llvm::StringRef Name) const;
  /// A fresh instance named after its registry entry, or null.
  std::unique_ptr<Pass> create(llvm::StringRef Name) const;

  /// Sorted by name.
  std::vector<const PassInfo *> passes() const;
  std::vector<const PipelineInfo *> pipelines() const;

  /// Registered names closest to `Name` (edit distance), best first.
  std::vector<std::string> suggest(llvm::StringRef Name) const;

private:
  std::vector<PassInfo> Passes;
  std::vector<PipelineInfo> Pipelines;
};

/// Every pass with its summary and options, then the named pipelines: a
/// plain list (frost-opt --list-passes), or the Markdown reference
/// docs/passes.md is generated from (--print-pass-docs).
void printPassReference(const PassRegistry &Registry, llvm::raw_ostream &OS, bool Markdown);

} // namespace frost

#endif // FROST_PASS_PASSREGISTRY_H
