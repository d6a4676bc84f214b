//===- Model.h - A graph with the container it came in ----------*- C++ -*-===//
//
// Passes work on a Model: the Graph plus whatever file wrapped it (a bare
// GraphDef, a MetaGraphDef with its collections, signatures and saver, or one
// meta graph of a SavedModel with its siblings). Writing a Model back produces
// the same kind of file with only the graph changed.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_MODEL_H
#define FROST_IR_MODEL_H

#include "frost/IR/Graph.h"
#include "frost/proto/meta_graph.pb.h"

#include "llvm/ADT/StringSet.h"

#include <cassert>
#include <map>
#include <memory>
#include <string>

namespace frost {

enum class ContainerKind { GraphDef, MetaGraph, SavedModel };

/// Where the value of one graph variable comes from when it is frozen: a
/// checkpoint key, and a slice of that tensor for a part of a partitioned
/// variable. Chosen by passes (rename-variables, ema-remap); read by
/// convert-variables-to-constants, whose default for a variable without an
/// entry is the key the graph's own Saver restores it from.
struct VariableSource {
  std::string Key;
  /// A RestoreV2 `shape_and_slices` spec ("10 5 0,5:-"); empty: the whole tensor.
  std::string Slice;
  /// What chose it, for messages and reports ("rename-variables", "ema-remap").
  std::string Origin;
  /// Use Key only if the checkpoint has it, else the default key (ema-remap
  /// when the graph does not say which variables are averaged).
  bool IfPresent = false;
};

/// Graph variable node name -> its source, ordered by name.
using VariableSourceMap = std::map<std::string, VariableSource, std::less<>>;

/// "GraphDef", "MetaGraphDef", "SavedModel".
llvm::StringRef containerKindName(ContainerKind Kind);

class Model {
public:
  explicit Model(std::unique_ptr<Graph> G) : TheGraph(std::move(G)) {}

  Graph &graph() { return *TheGraph; }
  const Graph &graph() const { return *TheGraph; }
  void setGraph(std::unique_ptr<Graph> G) { TheGraph = std::move(G); }

  ContainerKind kind() const { return Kind; }

  /// The MetaGraphDef around the graph (graph_def left empty); only for
  /// MetaGraph and SavedModel containers.
  tensorflow::MetaGraphDef *metaGraph() { return Meta.get(); }
  const tensorflow::MetaGraphDef *metaGraph() const { return Meta.get(); }

  /// The SavedModel whose meta graph number metaGraphIndex() is this model
  /// (that entry is left empty); only for SavedModel containers.
  const tensorflow::SavedModel *savedModel() const { return Saved.get(); }
  int metaGraphIndex() const { return MetaIndex; }

  /// Where the model was read from, for messages and relative paths.
  const std::string &sourcePath() const { return SourcePath; }
  void setSourcePath(std::string Path) { SourcePath = std::move(Path); }

  /// Sets the container: a MetaGraphDef alone, or meta graph number `Index`
  /// of a SavedModel (whose entry there is left empty).
  void setContainer(std::unique_ptr<tensorflow::MetaGraphDef> NewMeta,
                    std::unique_ptr<tensorflow::SavedModel> NewSaved = nullptr,
                    int Index = -1) {
    assert((!NewSaved || NewMeta) && "a SavedModel container needs its meta graph");
    Meta = std::move(NewMeta);
    Saved = std::move(NewSaved);
    MetaIndex = Saved ? Index : -1;
    Kind = Saved ? ContainerKind::SavedModel
                 : Meta ? ContainerKind::MetaGraph : ContainerKind::GraphDef;
  }
  /// A deep copy: graph, container, variable sources and captured inputs.
  std::unique_ptr<Model> clone() const;

  /// Forgets the container: the model is written as a bare GraphDef.
  void dropContainer() { setContainer(nullptr); }

  /// Checkpoint keys chosen for variables (see VariableSource); after
  /// convert-variables-to-constants, the key (and slice) each frozen variable
  /// was read from and why. Not written with the model.
  VariableSourceMap &variableSources() { return Sources; }
  const VariableSourceMap &variableSources() const { return Sources; }

  /// The nodes instantiate-signature made for a TF2 signature's captured
  /// inputs (VarHandleOps, Consts, a table's handle), by name. TensorFlow's
  /// loaded function has a Placeholder for each of them until it freezes
  /// them, so rules that single out Placeholders (Grappler's strict input
  /// semantics) treat these alike. Not written with the model.
  llvm::StringSet<> &capturedInputs() { return Captured; }
  const llvm::StringSet<> &capturedInputs() const { return Captured; }

private:
  std::unique_ptr<Graph> TheGraph;
  ContainerKind Kind = ContainerKind::GraphDef;
  std::unique_ptr<tensorflow::MetaGraphDef> Meta;
  std::unique_ptr<tensorflow::SavedModel> Saved;
  int MetaIndex = -1;
  std::string SourcePath;
  VariableSourceMap Sources;
  llvm::StringSet<> Captured;
};

} // namespace frost

#endif // FROST_IR_MODEL_H
