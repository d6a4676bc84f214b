//===- ToolSupport.h - What every Frost tool does alike ---------*- C++ -*-===//
#ifndef FROST_TOOLS_TOOLSUPPORT_H
#define FROST_TOOLS_TOOLSUPPORT_H

#include "frost/IO/GraphIO.h"
#include "frost/Jobs/Jobs.h"
#include "frost/IR/Model.h"
#include "frost/Pass/PassManager.h"
#include "frost/Support/File.h"
#include "frost/Support/Version.h"

#include "absl/status/status.h"
#include "llvm/Support/raw_ostream.h"

namespace frost {

/// Prints a failed status: every line that starts a finding gets "error: ",
/// indented lines (quoted text, carets, notes) are printed as they are. A
/// word longer than MaxEchoedWord (a hostile name or path) is cut, saying its
/// length.
void printError(const absl::Status &S, llvm::raw_ostream &OS = llvm::errs());

/// Longest name or path echoed whole in a message.
inline constexpr size_t MaxEchoedWord = 200;

/// `Text` with each blank-separated word beyond MaxEchoedWord characters cut
/// to its start and "...(N characters)".
std::string cutLongWords(llvm::StringRef Text);

/// Prints S and returns 1, the exit code of a run that failed.
int runFailure(const absl::Status &S);
/// Prints S and returns 2, the exit code of a bad command line (argparse's).
int usageFailure(const absl::Status &S);
/// A failed job: usageFailure for a usageError() (the options' mistake),
/// else runFailure.
int jobFailure(const absl::Status &S);

/// What every tool does first: protobuf's own log lines (invalid UTF-8, a
/// message too deep) become one-line "warning: protobuf: ..." diagnostics.
void initTool();

/// A graph job's one-line summary, as freeze-graph's: "TOOL: 29 -> 5 nodes
/// (fold-constants: 3 nodes-folded; ...); wrote OUTPUT (448 bytes) in 0.012 s".
void printGraphJobSummary(llvm::StringRef Tool, const GraphJobResult &R, llvm::StringRef Output,
                          llvm::raw_ostream &OS = llvm::errs());

/// The chunks of a `--split-input-file` input (MLIR's): the parts between
/// `# -----` lines, each padded with newlines so line numbers in messages
/// match the whole file.
std::vector<std::string> splitInputFile(llvm::StringRef All);

} // namespace frost

#endif // FROST_TOOLS_TOOLSUPPORT_H
