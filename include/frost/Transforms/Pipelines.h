//===- Pipelines.h - Pass sequences defined once ----------------*- C++ -*-===//
//
// The order of the passes that freeze a graph, defined here only, by a typed
// builder: freeze-graph (lib/Freeze) builds its pipeline with the choices
// and values its flags make, and frost-opt's named `freeze` pipeline is the
// same sequence with the default choices. docs/freeze-graph.md explains the
// order.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_PIPELINES_H
#define FROST_TRANSFORMS_PIPELINES_H

#include "frost/Pass/PassManager.h"

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
  /// If/Case on constants become their taken branch (the graph has some).
  bool FoldConstantBranches = false;
  bool StripTrainingOps = false;
  /// Ops writing frozen variables become NoOps (else freezing refuses them).
  bool DropVariableWrites = false;
  bool ClearDevices = true;
};

/// What the freeze sequence's passes are told.
struct FreezePipelineOptions {
  FreezeSequence Sequence;
  /// Nodes to keep: outputs, initializer nodes, table initializers.
  std::vector<std::string> Keep;
  /// A TF2 signature's inputs, kept even when unused (as TensorFlow does).
  std::vector<std::string> SignatureInputs;
  /// Keep in the function's output order (the signature's key order), for
  /// the layout: the same outputs give the same graph, however named.
  std::vector<std::string> FunctionOutputs;
  /// Empty: none (a graph with nothing to freeze).
  std::string Checkpoint;
  std::vector<std::string> Rename, Bind, Only, Except;
  std::string Ema;
  /// If/Case/While lowered to Switch/Merge as they are inlined.
  bool LowerControlFlow = true;
};

/// Which passes of the sequence a builder adds: those before
/// convert-variables-to-constants (freeze-graph --verify keeps the graph
/// they leave), those from it on, or all.
enum class FreezeStage { BeforeConversion, FromConversion, All };

/// The freeze sequence: each pass made from its typed options
/// (frost/Transforms/PassOptions.h), in the order docs/freeze-graph.md
/// explains. The one definition of that order.
void buildFreezePipeline(PassManager &PM, const FreezePipelineOptions &Options,
                         FreezeStage Stage = FreezeStage::All);

/// frost-opt's named pipeline `freeze`: the sequence with its default
/// choices, registered as this builder (Passes.def); the values come as the
/// pipeline's options (`freeze{checkpoint=...,outputs=...}`).
void buildDefaultFreezePipeline(PassManager &PM);

struct SetInputShapesOptions; // PassOptions.h

/// Fixed input shapes (issue #30): set-input-shapes, then fold-constants
/// (the Shape, Size, Rank, StridedSlice, Reshape and Fill chains that became
/// constant) and prune to `Outputs`. Adds nothing when `Shapes` sets no
/// shape; `Shapes` passed validateInputShapes.
void buildInputShapesPipeline(PassManager &PM, const SetInputShapesOptions &Shapes,
                              const std::vector<std::string> &Outputs);
/// The options' mistakes (a malformed NAME:D,D,... item), found before
/// anything is read.
absl::Status validateInputShapes(const SetInputShapesOptions &Shapes);

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

/// frost-opt's named pipeline `optimize-for-inference`: optimize_for_inference's
/// rewrites (buildOptimizePipeline, OptimizeForInference.h) without the steps
/// that need the graph's inputs and outputs.
void buildOptimizeRewritesPipeline(PassManager &PM);

/// The pass names (`a,b,c`) buildOptimizePipeline adds for `Sequence`: what
/// transform-graph's optimize_for_inference runs.
std::string optimizePipelineText(const OptimizeSequence &Sequence);

} // namespace frost

#endif // FROST_TRANSFORMS_PIPELINES_H
