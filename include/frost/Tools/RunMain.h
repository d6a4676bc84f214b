//===- RunMain.h - The frost-run driver -------------------------*- C++ -*-===//
#ifndef FROST_TOOLS_RUNMAIN_H
#define FROST_TOOLS_RUNMAIN_H

namespace frost {

/// frost-run MODEL [inputs] [-o OUT.npz] [--compare-with OTHER]: runs MODEL
/// with Frost's evaluator (docs/run.md). Returns 0 when every output was
/// computed (and matched OTHER), 1 when not or an input cannot be read, 2 for
/// a bad command line.
int frostRunMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_RUNMAIN_H
