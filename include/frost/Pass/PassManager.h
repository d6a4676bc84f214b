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

#include <chrono>
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

/// Adds the wall time of its scope to a TimingReport row (none when null).
class Stopwatch {
public:
  Stopwatch(TimingReport *Report, llvm::StringRef Name) : Report(Report), Name(Name) {}
  ~Stopwatch() {
    if (Report)
      Report->add(Name, std::chrono::duration<double>(Clock::now() - Start).count());
  }

private:
  using Clock = std::chrono::steady_clock;
  TimingReport *Report;
  llvm::StringRef Name;
  Clock::time_point Start = Clock::now();
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

/// Checks what the options name: every --print-ir-after pass is registered.
absl::Status checkPassManagerOptions(const PassManagerOptions &Options,
                                     const PassRegistry &Registry);

/// What one pass changed: its nonzero statistics, for summaries and reports.
struct PassChanges {
  std::string Pass;
  std::vector<std::pair<std::string, uint64_t>> Counts;
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions Options = {}) : Options(std::move(Options)) {}

  void addPass(std::unique_ptr<Pass> P) { Passes.push_back(std::move(P)); }
  /// Adds the passes of `Other` (not yet run) after these.
  void append(PassManager &&Other);
  llvm::ArrayRef<std::unique_ptr<Pass>> passes() const { return Passes; }
  /// The passes' names, comma separated ("prune,clear-devices").
  std::string passList() const;
  /// Hands the passes (not yet run) over, leaving this empty.
  std::vector<std::unique_ptr<Pass>> takePasses();
  bool empty() const { return Passes.empty(); }

  /// Runs, in order, every pass added since the last run (so a driver may
  /// add passes whose options depend on what earlier ones did); stops at the
  /// first error, which names the pass. Prints the statistics of every pass
  /// run so far when asked to.
  absl::Status run(Model &M, PassContext &Ctx);

  /// Makes every pass pending again, with its statistics at zero: the next
  /// run() runs the whole pipeline on another model and reports that
  /// model's counts alone. The same pass instances run model after model
  /// (MLIR's way), so a pass keeps nothing from one run to the next but its
  /// options.
  void rewind();

  const PassManagerOptions &options() const { return Options; }

  /// The nonzero statistics of each pass from the `First`th on (passes that
  /// changed nothing are left out).
  std::vector<PassChanges> changes(size_t First = 0) const;

  /// The statistics of the passes run so far, and of the shared analyses.
  void printStatistics(llvm::raw_ostream &OS, const PassContext &Ctx) const;

  /// The pipeline as text that parses back to the same passes and options.
  std::string printPipeline() const;
  /// --dump-pass-pipeline: "Pass Manager with N passes:" and the pipeline.
  void dumpPipeline(llvm::raw_ostream &OS) const;

private:
  PassManagerOptions Options;
  std::vector<std::unique_ptr<Pass>> Passes;
  size_t NumRun = 0;
};

/// Parses `a,b{opt=v,list=x;y},c` (named pipelines expanded) into `PM`.
/// Errors quote the text with a caret under the offending spot and list what
/// is known; `BufferName` names the text in them.
absl::Status parsePassPipeline(llvm::StringRef Text, const PassRegistry &Registry,
                               PassManager &PM,
                               llvm::StringRef BufferName = "<pass-pipeline>");

} // namespace frost

#endif // FROST_PASS_PASSMANAGER_H
