//===- GraphSummary.h - What a graph holds, as text or JSON -----*- C++ -*-===//
//
// A summary in the spirit of summarize_graph and `saved_model_cli show`:
// inputs (placeholders, with or without default), candidate outputs, op
// histogram, variables and parameter counts, and the MetaGraph's collections,
// signatures and saver. Everything is listed in graph order or sorted, never
// in hash-map order, so the text and JSON are stable.
//
//   GraphSummary S = summarizeGraph(*M, Path);
//   printGraphSummary(S, llvm::outs());
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_GRAPHSUMMARY_H
#define FROST_INSPECT_GRAPHSUMMARY_H

#include "frost/IR/Model.h"
#include "frost/proto/meta_graph.pb.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frost::inspect {

/// A graph input (a placeholder) or a tensor of a signature.
struct TensorSummary {
  std::string Key; // signature key; empty for graph inputs
  std::string Name;
  tensorflow::DataType DType = tensorflow::DT_INVALID;
  tensorflow::TensorShapeProto Shape;
  std::string Op; // graph inputs only
};

struct VariableSummary {
  std::string Name;
  std::string Op;
  tensorflow::DataType DType = tensorflow::DT_INVALID;
  tensorflow::TensorShapeProto Shape;
};

struct SignatureSummary {
  std::string Key;
  std::string MethodName;
  std::vector<TensorSummary> Inputs, Outputs;
};

struct CollectionSummary {
  std::string Name;
  const char *Kind; // "node_list", "bytes_list", ..., "empty"
  int Size;
};

struct GraphSummary {
  std::string File;
  ContainerKind Kind = ContainerKind::GraphDef;
  std::vector<std::string> Tags;
  std::vector<std::vector<std::string>> MetaGraphTags;
  std::string TFVersion;
  size_t NumNodes = 0;
  int NumFunctions = 0;
  std::vector<TensorSummary> Inputs;
  std::vector<std::pair<std::string, std::string>> Outputs; // name, op
  std::vector<std::pair<std::string, size_t>> Ops;          // by count, then name
  std::vector<VariableSummary> Variables;
  uint64_t VariableParams = 0;
  unsigned UnknownVariableShapes = 0;
  size_t NumConsts = 0;
  uint64_t ConstParams = 0;
  std::vector<CollectionSummary> Collections;
  std::vector<SignatureSummary> Signatures;
  std::optional<tensorflow::SaverDef> Saver;
};

/// How a signature names its tensor: "x:0", or a sparse/composite tensor
/// spelled by its parts ("<sparse values=... indices=... dense_shape=...>").
std::string tensorInfoName(const tensorflow::TensorInfo &Info);

/// Summarises `M`; `File` is the path it was read from, only echoed.
GraphSummary summarizeGraph(const Model &M, llvm::StringRef File);

/// The text frost-inspect graph prints.
void printGraphSummary(const GraphSummary &S, llvm::raw_ostream &OS);
/// The JSON frost-inspect graph --json prints (schema in docs/inspect.md).
void printGraphSummaryJson(const GraphSummary &S, llvm::raw_ostream &OS);

} // namespace frost::inspect

#endif // FROST_INSPECT_GRAPHSUMMARY_H
