//===- FreezeMain.h - The freeze-graph driver -------------------*- C++ -*-===//
#ifndef FROST_TOOLS_FREEZEMAIN_H
#define FROST_TOOLS_FREEZEMAIN_H

namespace frost {

/// freeze-graph: read a graph (checkpoint prefix or directory with its .meta,
/// .meta, GraphDef or SavedModel) and its checkpoint, freeze it for the given
/// outputs and write the frozen GraphDef. Accepts TensorFlow freeze_graph.py's
/// flags too. Returns the process exit code: 0 on success, 1 when freezing
/// fails, 2 for a bad command line.
int frostFreezeMain(int Argc, char **Argv);

} // namespace frost

#endif // FROST_TOOLS_FREEZEMAIN_H
