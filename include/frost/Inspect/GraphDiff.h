//===- GraphDiff.h - A structural diff of two graphs ------------*- C++ -*-===//
//
// What frost-diff shows: every node of graph A and of graph B paired with its
// counterpart, or not, and what differs between the two of a pair. Nodes pair
// up by name first; the rest by structure (same op, attributes and already
// paired data inputs; a Const by its dtype, shape and value), in topological
// order, so chains renamed by TensorFlow's inlining
// (`StatefulPartitionedCall/model/dense/MatMul` -> `model/dense/MatMul`) or
// Grappler (`Func/...`) still pair. Inputs are compared through the pairing:
// a renamed producer is no rewiring. Function libraries are compared by
// name, and the MetaGraph's signatures key by key.
//
//   GraphDiff D = diffModels(A, B, {});
//   printGraphDiff(D, {}, llvm::outs());
//   return D.identical() ? 0 : 1;
//
// Everything is listed in a fixed order, so the text and JSON are stable.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_GRAPHDIFF_H
#define FROST_INSPECT_GRAPHDIFF_H

#include "frost/IR/Model.h"
#include "frost/Inspect/GraphPicture.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace frost::inspect {

struct DiffOptions {
  /// Attributes neither compared nor used to pair nodes ("_output_shapes").
  std::vector<std::string> IgnoreAttrs;
  /// Devices not compared (they never pair nodes).
  bool IgnoreDevices = false;
  /// Tensor elements whose absolute difference is at most this are equal.
  double Atol = 0;
  /// Pair nodes whose names differ by their structure.
  bool MatchStructure = true;
  /// Compare only this signature (an error when neither model has it);
  /// empty: every signature of the two models.
  std::string Signature;
};

/// What became of a node. Renamed: paired by structure under another name
/// (with Changes when it changed too: pairing by neighbours pairs a renamed
/// constant whose value changed). Changed: the same name, with Changes.
enum class NodeStatus { Same, Added, Removed, Renamed, Changed };

/// "same", "added", "removed", "renamed", "changed".
llvm::StringRef nodeStatusName(NodeStatus S);

/// How the values of a tensor attribute (a Const's "value") differ.
struct ValueDiff {
  /// "float32 [2,3]" in A and in B.
  std::string TypeA, TypeB;
  /// Elements compared (when the dtypes and shapes agree) and how many
  /// differ by more than the tolerance.
  uint64_t Elements = 0, Differing = 0;
  /// The largest absolute difference (NaN when a NaN meets a number); none
  /// for dtypes whose elements are no numbers (strings, ...).
  std::optional<double> MaxAbsDiff;
  /// The values, when both tensors are small enough to show ("[1, 2]").
  std::string ValuesA, ValuesB;
  /// The bytes differ though no element does (signed zeros, NaN payloads).
  bool OnlyBits = false;
};

/// One difference of a pair of nodes.
struct NodeChange {
  enum Kind { Op, Device, Attr, Value, Input, ControlInputs };
  Kind TheKind;
  /// Attr/Value: the attribute's name; Input: the input's number.
  std::string Name;
  /// Compact spellings in A and B; nullopt when absent there. For inputs
  /// the producer as each graph names it ("x", "x:1").
  std::optional<std::string> Old, New;
  /// Value: how the tensors differ.
  ValueDiff Values;
  /// ControlInputs: producers only B's node waits for (B's names) and only
  /// A's node waits for (A's names), sorted.
  std::vector<std::string> AddedControls, RemovedControls;
};

/// A node of A, of B, or a pair.
struct NodeDiff {
  NodeStatus Status = NodeStatus::Same;
  /// Empty on the side that lacks the node.
  std::string NameA, NameB, OpA, OpB;
  std::vector<NodeChange> Changes;

  /// B's name, or A's for a removed node.
  const std::string &name() const { return NameB.empty() ? NameA : NameB; }
  const std::string &op() const { return OpB.empty() ? OpA : OpB; }
};

/// A function of either library, or a difference of a signature or of the
/// graph's other fields.
struct EntryDiff {
  /// Functions: Added, Removed or Changed; else Changed.
  NodeStatus Status = NodeStatus::Changed;
  /// A function's name; a signature's key; a graph field ("versions").
  std::string Name;
  /// What of it differs: for a function "nodes", "signature", "body"
  /// (else); for a signature "method_name", "input KEY", "output KEY",
  /// "signature" (added or removed whole); for the graph "versions".
  std::string What;
  std::optional<std::string> Old, New;
};

/// One model as the diff saw it.
struct DiffSide {
  std::string File;
  ContainerKind Kind = ContainerKind::GraphDef;
  size_t Nodes = 0;
  int Functions = 0;
};

struct GraphDiff {
  DiffSide A, B;
  /// Every node of A and B once: pairs and removed nodes in A's order, then
  /// added nodes in B's order.
  std::vector<NodeDiff> Nodes;
  std::vector<EntryDiff> Functions, Signatures, GraphFields;

  size_t count(NodeStatus S) const;
  /// Pairs with differences: Changed nodes and Renamed ones with Changes.
  size_t changedNodes() const;
  /// No node added, removed, renamed or changed, and no other difference.
  bool identical() const;
  /// The entry of A's node `Name` or of B's, or null.
  const NodeDiff *findA(llvm::StringRef Name) const;
  const NodeDiff *findB(llvm::StringRef Name) const;

  /// Indices into Nodes by name, filled by diffModels.
  llvm::StringMap<size_t> IndexA, IndexB;
};

/// Compares A with B. The models are only read. InvalidArgument when
/// Options.Signature names a signature neither model has.
absl::StatusOr<GraphDiff> diffModels(const Model &A, const Model &B,
                                     const DiffOptions &Options = {});

struct DiffPrintOptions {
  /// Findings printed (0 = all); the rest are counted.
  size_t MaxFindings = 0;
};

/// The text frost-diff prints: a header naming the files, a summary line
/// ("1 added, 0 removed, 2 renamed, 3 changed": renamed nodes with changes
/// count as both), then one line per finding.
void printGraphDiff(const GraphDiff &D, const DiffPrintOptions &P, llvm::raw_ostream &OS);
/// The JSON frost-diff --json prints (schema in docs/verify.md).
void printGraphDiffJson(const GraphDiff &D, const DiffPrintOptions &P, llvm::raw_ostream &OS);

/// The page `frost-diff --html` writes: A and B side by side, A's removed
/// and changed nodes outlined, B's added and changed ones (a renamed node
/// that also changed counts as changed).
std::string graphDiffHtml(const GraphDiff &D, const Model &A, const Model &B);

} // namespace frost::inspect

#endif // FROST_INSPECT_GRAPHDIFF_H
