//===- ToolSupport.h - What every Frost tool does alike ---------*- C++ -*-===//
#ifndef FROST_TOOLS_TOOLSUPPORT_H
#define FROST_TOOLS_TOOLSUPPORT_H

#include "frost/Pass/PassManager.h"

#include "absl/status/status.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace frost {

/// Prints a failed status: every line that starts a finding gets "error: ",
/// indented lines (quoted text, carets, notes) are printed as they are.
void printError(const absl::Status &S, llvm::raw_ostream &OS = llvm::errs());

/// The version line shared by the tools' --version.
const char *frostVersion();

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

} // namespace frost

#endif // FROST_TOOLS_TOOLSUPPORT_H
