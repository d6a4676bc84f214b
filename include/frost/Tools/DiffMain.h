//===- DiffMain.h - The frost-diff driver -----------------------*- C++ -*-===//
#ifndef FROST_TOOLS_DIFFMAIN_H
#define FROST_TOOLS_DIFFMAIN_H

namespace frost {

/// frost-diff: compare two graphs (GraphDef, MetaGraphDef or SavedModel)
/// node by node and print the differences, as text or JSON. Returns the
/// exit code: 0 when they are the same, 1 when they differ, 2 for a bad
/// command line or an input that cannot be read.
int frostDiffMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_DIFFMAIN_H
