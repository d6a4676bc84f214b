//===- GraphTransforms.h - TensorFlow's transform_graph on Frost passes -*- C++ -*-===//
//
// TensorFlow's graph_transforms name their transforms in snake case and take
// them as a list: `fold_constants(ignore_errors=true) strip_unused_nodes(
// type=float, shape="1,224,224,3")`. Each transform runs as one or more
// Frost passes, its parameters becoming their options (`exclude_op` ->
// `exclude-op`), and the tool's --inputs/--outputs going to every pass that
// takes the graph's ends (Pass::graphEnds).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_GRAPHTRANSFORMS_H
#define FROST_TRANSFORMS_GRAPHTRANSFORMS_H

#include "frost/Pass/PassManager.h"
#include "frost/Pass/PassRegistry.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace frost {

class Model;

/// One transform of a list, as written: `name(param=value, ...)`.
struct TransformCall {
  struct Param {
    std::string Name;
    /// Quotes removed; backslash escapes kept as written (as TensorFlow does).
    std::string Value;
    size_t NamePos = 0;
  };
  std::string Name;
  size_t NamePos = 0;
  /// In the order written; a repeated name is kept each time.
  std::vector<Param> Params;
};

/// Parses a transform list with graph_transforms' grammar: transforms
/// separated by blanks; parameters `name=value` separated by `,` or blanks;
/// a value quoted ("...") or a run of [A-Za-z0-9_./-]. Two of TensorFlow's
/// silences are errors here: a list ending inside `name(...` (TensorFlow
/// drops that transform) and nothing but blanks. Errors point at the spot
/// with a caret, naming the text `BufferName`.
absl::StatusOr<std::vector<TransformCall>>
parseTransformList(llvm::StringRef Text, llvm::StringRef BufferName = "--transforms");

/// What every transform hears besides its parameters.
struct TransformContext {
  std::vector<std::string> Inputs;
  std::vector<std::string> Outputs;
};

/// A transform of TensorFlow's and how Frost runs it (a FROST_TRANSFORM line
/// of Passes.def).
struct GraphTransformInfo {
  const char *Name;
  /// The Frost passes, comma-separated; parameters go to the first. Empty for
  /// a transform Frost does not have.
  const char *Passes;
  /// How it differs from TensorFlow's (Markdown), or why it is missing.
  const char *Differences;
};

/// Every transform TensorFlow registers, in name order.
llvm::ArrayRef<GraphTransformInfo> graphTransforms();

/// docs/transforms.md's table of the transforms, generated from
/// graphTransforms() (transform-graph --print-transform-docs).
void printTransformTable(llvm::raw_ostream &OS);

/// A transform made ready to run: its passes with their options set.
struct PreparedTransform {
  const GraphTransformInfo *Info = nullptr;
  bool IgnoreErrors = false;
  std::vector<std::unique_ptr<Pass>> Passes;
};

/// Maps `Calls` to passes, checking every transform name and parameter
/// before anything runs: unknown ones are errors naming the closest (where
/// TensorFlow ignores unknown parameters). `Text` is the list the calls were
/// parsed from, for carets.
absl::StatusOr<std::vector<PreparedTransform>>
prepareGraphTransforms(llvm::ArrayRef<TransformCall> Calls, const TransformContext &Context,
                       const PassRegistry &Registry, llvm::StringRef Text);

/// Runs the transforms in order over `M`, each on a pass manager built with
/// `Options`. A transform with `ignore_errors=true` that fails leaves the
/// model as it was before it (a warning of the job says why), as TensorFlow's
/// transform_graph does. `Changes`, if given, hears what each pass changed.
absl::Status runGraphTransforms(Context &Ctx, std::unique_ptr<Model> &M,
                                std::vector<PreparedTransform> Transforms,
                                const PassManagerOptions &Options,
                                std::vector<PassChanges> *Changes = nullptr);

} // namespace frost

#endif // FROST_TRANSFORMS_GRAPHTRANSFORMS_H
