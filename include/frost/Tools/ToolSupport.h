//===- ToolSupport.h - What every Frost tool does alike ---------*- C++ -*-===//
#ifndef FROST_TOOLS_TOOLSUPPORT_H
#define FROST_TOOLS_TOOLSUPPORT_H

#include "frost/Pass/PassManager.h"
#include "frost/Support/Version.h"

#include "absl/status/status.h"
#include "llvm/Support/raw_ostream.h"

namespace frost {

/// Prints a failed status: every line that starts a finding gets "error: ",
/// indented lines (quoted text, carets, notes) are printed as they are.
void printError(const absl::Status &S, llvm::raw_ostream &OS = llvm::errs());

} // namespace frost

#endif // FROST_TOOLS_TOOLSUPPORT_H
