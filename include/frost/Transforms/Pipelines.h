//===- Pipelines.h - Pass sequences defined once ----------------*- C++ -*-===//
//
// The order of the passes that freeze a graph, defined here only: frost-opt's
// named `freeze` pipeline is this sequence with the default choices, and
// freeze-graph (lib/Freeze) builds its pipeline from it with the choices its
// flags make. docs/freeze-graph.md explains the order.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_PIPELINES_H
#define FROST_TRANSFORMS_PIPELINES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace frost {

/// Which of the optional freezing passes run. The defaults are the plain
/// TF1 freeze of freeze_graph.py.
struct FreezeSequence {
  /// A TF2 signature's function (convert_variables_to_constants_v2): its
  /// calls inlined as Grappler does, constants spelled Grappler's way, no
  /// Saver to strip, laid out as TensorFlow's final re-import.
  bool FunctionGraph = false;
  /// Lookup tables initialized from text files (vocabulary assets), read
  /// into the graph.
  bool TableFiles = false;
  bool RenameVariables = false;
  bool EmaRemap = false;
  bool BindPlaceholders = false;
  bool StripTrainingOps = false;
  /// Ops writing frozen variables become NoOps (else freezing refuses them).
  bool DropVariableWrites = false;
  bool ClearDevices = true;
};

/// The registered pass names, in the order they run.
std::vector<llvm::StringRef> freezePasses(const FreezeSequence &Sequence = {});

/// The same as pipeline text ("a,b,c"), for the registry's named pipeline.
std::string freezePipelineText(const FreezeSequence &Sequence = {});

} // namespace frost

#endif // FROST_TRANSFORMS_PIPELINES_H
