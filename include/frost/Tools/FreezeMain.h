//===- FreezeMain.h - The freeze-graph driver -------------------*- C++ -*-===//
#ifndef FROST_TOOLS_FREEZEMAIN_H
#define FROST_TOOLS_FREEZEMAIN_H

#include "frost/Eval/Eval.h"
#include "frost/Freeze/Freeze.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace frost {

/// What freeze-graph's flags say: the freeze itself, and what to do with its
/// result.
struct FreezeCommandLine {
  FreezeOptions O;
  std::string Output;
  std::string Emit;
  std::string ReportPath;
  bool Quiet = false, Verbose = false, Timing = false;
  /// Check the frozen graph as frost-verify does before writing it.
  bool Verify = false;
  /// --allow-unchecked: --verify passes what it checked when an output
  /// could not be computed.
  bool AllowUnchecked = false;
  /// What --verify's runs may spend.
  eval::EvalBudget Budget;
  bool Help = false, Version = false;
};

/// Parses freeze-graph's arguments (without the program name) into `C`,
/// touching no file; the first bad argument is the error. Separate from
/// frostFreezeMain so the parser can be tested and fuzzed on its own.
absl::Status parseFreezeCommandLine(llvm::ArrayRef<const char *> Args, FreezeCommandLine &C);

/// freeze-graph --help.
void printFreezeHelp(llvm::raw_ostream &OS);

/// freeze-graph: read a graph (checkpoint prefix or directory with its .meta,
/// .meta, GraphDef or SavedModel) and its checkpoint, freeze it for the given
/// outputs and write the frozen GraphDef. Accepts TensorFlow freeze_graph.py's
/// flags too. Returns the process exit code: 0 on success, 1 when freezing
/// fails, 2 for a bad command line.
int frostFreezeMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_FREEZEMAIN_H
