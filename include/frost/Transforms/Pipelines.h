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

/// Which parts of optimize_for_inference's sequence run.
struct OptimizeSequence {
  /// Placeholders bound to constants first (its placeholder_to_const step,
  /// `keras_learning_phase` by default); the driver finds them.
  bool BindPlaceholders = false;
  /// strip_unused: the inputs become Placeholders, what the outputs do not
  /// need goes. freeze-graph has pruned already.
  bool StripUnused = true;
  /// Only the rewrites TensorFlow Lite's converter understands: no fused
  /// pad/resize convolutions.
  bool TocoCompatible = false;
  /// Half and bfloat16 computed in float32 (compute-in-float32), so
  /// mixed-precision models fold and load where Cast or half cannot.
  bool ComputeInFloat32 = false;
  /// The nodes nothing needs are removed at the end (needs outputs).
  bool Prune = true;
};

/// optimize_for_inference's passes in its order (placeholders, strip_unused,
/// remove_training_nodes, fuse_decomposed_batch_norm, fold_batch_norms,
/// fuse_resize_and_conv), with Frost's: constants folded after the
/// decomposed batch norms are fused (so parameters computed from constants
/// count), scales and shifts folded into weights, and a final prune.
std::vector<llvm::StringRef> optimizePasses(const OptimizeSequence &Sequence);

/// The same as pipeline text, for the registry's named pipeline (without
/// the steps that need inputs and outputs) and transform-graph.
std::string optimizePipelineText(const OptimizeSequence &Sequence);

} // namespace frost

#endif // FROST_TRANSFORMS_PIPELINES_H
