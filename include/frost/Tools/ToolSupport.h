//===- ToolSupport.h - What every Frost tool does alike ---------*- C++ -*-===//
#ifndef FROST_TOOLS_TOOLSUPPORT_H
#define FROST_TOOLS_TOOLSUPPORT_H

#include "frost/Pass/PassManager.h"
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

/// What every tool does first: protobuf's own log lines (invalid UTF-8, a
/// message too deep) become one-line "warning: protobuf: ..." diagnostics.
void initTool();

/// llvm::cl's ParseCommandLineOptions, its complaints made one
/// "TOOL: error: ..." line each. Returns 0 when the command line is good, else
/// the exit code for a usage error (2).
int parseToolCommandLine(int Argc, char **Argv, llvm::StringRef Overview);

} // namespace frost

#endif // FROST_TOOLS_TOOLSUPPORT_H
