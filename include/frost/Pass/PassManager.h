//===- PassManager.h - Running pipelines, with instrumentation --*- C++ -*-===//
//
// The pass manager owns every debugging aid so passes need none of their own:
// verification after each pass, IR dumps, timing and statistics.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_PASS_PASSMANAGER_H
#define FROST_PASS_PASSMANAGER_H

#include "frost/Pass/Pass.h"
#include "frost/Pass/PassRegistry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace frost {

/// Wall time of named phases, printed as a table by `--timing`.
class TimingReport {
public:
  void add(llvm::StringRef Name, double Seconds);
  void print(llvm::raw_ostream &OS) const;
  /// (name, seconds) in the order phases first ran; repeats are summed.
  llvm::ArrayRef<std::pair<std::string, double>> rows() const { return Rows; }

private:
  std::vector<std::pair<std::string, double>> Rows;
};

struct PassManagerOptions {
  /// Verify the graph after each pass (on by default: a pass that breaks the
  /// graph is caught where it happens).
  bool VerifyEach = true;
  bool PrintIRAfterAll = false;
  /// Pass names after which to dump the IR.
  std::vector<std::string> PrintIRAfter;
  bool Statistics = false;
  /// Where dumps and statistics go.
  llvm::raw_ostream *Out = &llvm::errs();
  /// Filled with per-pass wall time when set.
  TimingReport *Timing = nullptr;
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions Options = {}) : Options(std::move(Options)) {}

  void addPass(std::unique_ptr<Pass> P) { Passes.push_back(std::move(P)); }
  llvm::ArrayRef<std::unique_ptr<Pass>> passes() const { return Passes; }
  bool empty() const { return Passes.empty(); }

  /// Runs every pass in order; stops at the first error, which names the pass.
  absl::Status run(Model &M, PassContext &Ctx);

  /// The pipeline as text that parses back to the same passes and options.
  std::string printPipeline() const;

private:
  PassManagerOptions Options;
  std::vector<std::unique_ptr<Pass>> Passes;
};

/// Parses `a,b{opt=v,list=x;y},c` (named pipelines expanded) into `PM`.
/// Errors quote the text with a caret under the offending spot and list what
/// is known; `BufferName` names the text in them.
absl::Status parsePassPipeline(llvm::StringRef Text, const PassRegistry &Registry,
                               PassManager &PM,
                               llvm::StringRef BufferName = "<pass-pipeline>");

} // namespace frost

#endif // FROST_PASS_PASSMANAGER_H
