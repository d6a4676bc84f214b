//===- GraphSummary.cpp - What a graph holds, as text or JSON -------------===//
//
// The summary is built once and printed by either printer, so the text and
// the JSON cannot disagree.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphSummary.h"

#include "frost/Inspect/ValueFormat.h"

#include "frost/IR/CandidateOutputs.h"
#include "frost/IR/Graph.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"

#include <algorithm>

namespace frost::inspect {

namespace {

/// Number of elements of a fully known shape, or nullopt.
std::optional<uint64_t> knownNumElements(const tensorflow::TensorShapeProto &Shape) {
  if (Shape.unknown_rank())
    return std::nullopt;
  uint64_t N = 1;
  for (const auto &D : Shape.dim()) {
    if (D.size() < 0)
      return std::nullopt;
    if (__builtin_mul_overflow(N, static_cast<uint64_t>(D.size()), &N))
      return std::nullopt;
  }
  return N;
}

const char *collectionKind(const tensorflow::CollectionDef &C, int &Size) {
  switch (C.kind_case()) {
  case tensorflow::CollectionDef::kNodeList:
    Size = C.node_list().value_size();
    return "node_list";
  case tensorflow::CollectionDef::kBytesList:
    Size = C.bytes_list().value_size();
    return "bytes_list";
  case tensorflow::CollectionDef::kInt64List:
    Size = C.int64_list().value_size();
    return "int64_list";
  case tensorflow::CollectionDef::kFloatList:
    Size = C.float_list().value_size();
    return "float_list";
  case tensorflow::CollectionDef::kAnyList:
    Size = C.any_list().value_size();
    return "any_list";
  default:
    Size = 0;
    return "empty";
  }
}

template <typename MapT>
std::vector<TensorSummary> signatureTensors(const MapT &Map) {
  std::vector<TensorSummary> Out;
  for (const auto &[Key, Info] : Map)
    Out.push_back({Key, tensorInfoName(Info), Info.dtype(), Info.tensor_shape(), ""});
  llvm::sort(Out, [](const TensorSummary &A, const TensorSummary &B) { return A.Key < B.Key; });
  return Out;
}

const char *saverVersionName(int Version) {
  switch (Version) {
  case tensorflow::SaverDef::LEGACY:
    return "LEGACY";
  case tensorflow::SaverDef::V1:
    return "V1";
  case tensorflow::SaverDef::V2:
    return "V2";
  default:
    return "unknown";
  }
}

std::string joinTags(llvm::ArrayRef<std::string> Tags) {
  std::string Out;
  for (const std::string &T : Tags)
    Out += (Out.empty() ? "" : ",") + T;
  return Out.empty() ? "<none>" : Out;
}

} // namespace

std::string tensorInfoName(const tensorflow::TensorInfo &Info) {
  switch (Info.encoding_case()) {
  case tensorflow::TensorInfo::kName:
    return Info.name();
  case tensorflow::TensorInfo::kCooSparse:
    return "<sparse values=" + Info.coo_sparse().values_tensor_name() +
           " indices=" + Info.coo_sparse().indices_tensor_name() +
           " dense_shape=" + Info.coo_sparse().dense_shape_tensor_name() + ">";
  case tensorflow::TensorInfo::kCompositeTensor:
    return "<composite of " + std::to_string(Info.composite_tensor().components_size()) +
           " tensors>";
  default:
    return "<none>";
  }
}

GraphSummary summarizeGraph(const Model &M, llvm::StringRef File) {
  GraphSummary S;
  S.File = File.str();
  S.Kind = M.kind();
  const Graph &G = M.graph();
  S.NumNodes = G.size();
  S.NumFunctions = G.library().function_size();

  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (Meta && Meta->has_saver_def())
    S.Saver = Meta->saver_def();
  llvm::StringSet<> SaverNodes = saverDefNodes(M);

  llvm::StringMap<size_t> OpCounts;
  for (const Node &N : G) {
    ++OpCounts[N.op()];
    // The saver's filename placeholder is no model input.
    if (isPlaceholderOp(N.op()) &&
        !isSaverScope(N.name()) && !SaverNodes.contains(N.name())) {
      TensorSummary T;
      T.Name = N.name().str();
      T.Op = N.op().str();
      if (const tensorflow::AttrValue *A = N.findAttr("dtype"))
        T.DType = A->type();
      if (const tensorflow::AttrValue *A = N.findAttr("shape"))
        T.Shape = A->shape();
      else
        T.Shape.set_unknown_rank(true);
      S.Inputs.push_back(std::move(T));
    }
    if (isVariableOp(N.op())) {
      VariableSummary V;
      V.Name = N.name().str();
      V.Op = N.op().str();
      if (const tensorflow::AttrValue *A = N.findAttr("dtype"))
        V.DType = A->type();
      if (const tensorflow::AttrValue *A = N.findAttr("shape"))
        V.Shape = A->shape();
      else
        V.Shape.set_unknown_rank(true);
      if (std::optional<uint64_t> Count = knownNumElements(V.Shape))
        S.VariableParams += *Count;
      else
        ++S.UnknownVariableShapes;
      S.Variables.push_back(std::move(V));
    }
    if (N.op() == "Const") {
      ++S.NumConsts;
      if (const tensorflow::AttrValue *A = N.findAttr("value"))
        S.ConstParams += knownNumElements(A->tensor().tensor_shape()).value_or(0);
    }
  }
  for (const Node *N : candidateOutputNodes(M))
    S.Outputs.emplace_back(N->name().str(), N->op().str());
  for (const auto &Entry : OpCounts)
    S.Ops.emplace_back(Entry.getKey().str(), Entry.getValue());
  llvm::sort(S.Ops, [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  });

  if (!Meta)
    return S;
  const auto &Info = Meta->meta_info_def();
  S.Tags.assign(Info.tags().begin(), Info.tags().end());
  S.TFVersion = Info.tensorflow_version();
  if (const tensorflow::SavedModel *Saved = M.savedModel()) {
    for (int I = 0; I < Saved->meta_graphs_size(); ++I) {
      const auto &Tags = I == M.metaGraphIndex() ? Info.tags()
                                                 : Saved->meta_graphs(I).meta_info_def().tags();
      S.MetaGraphTags.emplace_back(Tags.begin(), Tags.end());
    }
  }
  for (const auto &[Name, C] : Meta->collection_def()) {
    int Size = 0;
    const char *Kind = collectionKind(C, Size);
    S.Collections.push_back({Name, Kind, Size});
  }
  llvm::sort(S.Collections, [](const auto &A, const auto &B) { return A.Name < B.Name; });
  for (const auto &[Key, Sig] : Meta->signature_def())
    S.Signatures.push_back(
        {Key, Sig.method_name(), signatureTensors(Sig.inputs()), signatureTensors(Sig.outputs())});
  llvm::sort(S.Signatures, [](const auto &A, const auto &B) { return A.Key < B.Key; });
  return S;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

void printGraphSummary(const GraphSummary &S, llvm::raw_ostream &OS) {
  OS << "graph: " << S.File << "\n";
  OS << "container: " << containerKindName(S.Kind);
  if (S.Kind == ContainerKind::SavedModel)
    OS << " (tags: " << joinTags(S.Tags) << ")";
  OS << "\n";
  if (!S.MetaGraphTags.empty()) {
    OS << "meta graphs:";
    for (const auto &Tags : S.MetaGraphTags)
      OS << " [" << joinTags(Tags) << "]";
    OS << "\n";
  }
  if (!S.TFVersion.empty())
    OS << "tensorflow version: " << S.TFVersion << "\n";
  OS << "nodes: " << S.NumNodes << "\n";
  OS << "functions: " << S.NumFunctions << "\n";

  OS << "inputs (" << S.Inputs.size() << "):\n";
  for (const TensorSummary &T : S.Inputs)
    OS << "  " << T.Name << ": " << dataTypePythonName(T.DType) << " "
       << formatPartialShape(T.Shape) << (T.Op == "Placeholder" ? "" : " (" + T.Op + ")") << "\n";
  OS << "outputs (" << S.Outputs.size() << "):\n";
  for (const auto &[Name, Op] : S.Outputs)
    OS << "  " << Name << ": " << Op << "\n";

  OS << "variables (" << S.Variables.size() << ", " << plural(S.VariableParams, "parameter");
  if (S.UnknownVariableShapes)
    OS << ", " << S.UnknownVariableShapes << " of unknown shape";
  OS << "):\n";
  for (const VariableSummary &V : S.Variables)
    OS << "  " << V.Name << ": " << dataTypePythonName(V.DType) << " "
       << formatPartialShape(V.Shape) << " (" << V.Op << ")\n";
  OS << "constants: " << S.NumConsts << " (" << plural(S.ConstParams, "parameter") << ")\n";

  size_t Width = 0;
  for (const auto &Entry : S.Ops)
    Width = std::max(Width, std::to_string(Entry.second).size());
  OS << "ops (" << plural(S.Ops.size(), "kind") << "):\n";
  for (const auto &[Op, Count] : S.Ops)
    OS << "  " << llvm::right_justify(std::to_string(Count), static_cast<unsigned>(Width)) << " "
       << Op << "\n";

  if (S.Kind == ContainerKind::GraphDef)
    return;
  OS << "collections (" << S.Collections.size() << "):\n";
  for (const CollectionSummary &C : S.Collections)
    OS << "  " << C.Name << ": " << C.Size << " (" << C.Kind << ")\n";
  OS << "signatures (" << S.Signatures.size() << "):\n";
  for (const SignatureSummary &Sig : S.Signatures) {
    OS << "  " << Sig.Key;
    if (!Sig.MethodName.empty())
      OS << " (" << Sig.MethodName << ")";
    OS << ":\n";
    for (const auto *Group : {&Sig.Inputs, &Sig.Outputs}) {
      OS << (Group == &Sig.Inputs ? "    inputs:\n" : "    outputs:\n");
      for (const TensorSummary &T : *Group)
        OS << "      " << T.Key << ": " << T.Name << " " << dataTypePythonName(T.DType) << " "
           << formatPartialShape(T.Shape) << "\n";
    }
  }
  if (!S.Saver) {
    OS << "saver: none\n";
    return;
  }
  const tensorflow::SaverDef &Sv = *S.Saver;
  OS << "saver: " << saverVersionName(Sv.version()) << (Sv.sharded() ? ", sharded" : "") << "\n"
     << "  filename tensor: " << Sv.filename_tensor_name() << "\n"
     << "  save tensor: " << Sv.save_tensor_name() << "\n"
     << "  restore op: " << Sv.restore_op_name() << "\n"
     << "  max to keep: " << Sv.max_to_keep() << "\n"
     << "  keep every n hours: "
     << formatFloat(Sv.keep_checkpoint_every_n_hours(), Style::Text) << "\n";
}

//===----------------------------------------------------------------------===//
// JSON (schema also in docs/inspect.md)
//
//   {"file", "container", "tags": [string], "meta_graphs": [[string]],
//    "tensorflow_version", "nodes", "functions",
//    "inputs": [{"name", "op", "dtype", "shape"}], "outputs": [{"name", "op"}],
//    "variables": [{"name", "op", "dtype", "shape"}], "variable_parameters",
//    "variables_of_unknown_shape", "constants", "constant_parameters",
//    "ops": [{"op", "count"}], "collections": [{"name", "kind", "size"}],
//    "signatures": [{"key", "method_name", "inputs": [{"key", "name", "dtype",
//                    "shape"}], "outputs": [...]}],
//    "saver": {"version", "sharded", "filename_tensor_name", "save_tensor_name",
//              "restore_op_name", "max_to_keep",
//              "keep_checkpoint_every_n_hours"} | null}
//
// A shape is [int] with -1 for unknown dimensions, or null for unknown rank.
//===----------------------------------------------------------------------===//

namespace {

void writeShape(JsonWriter &J, const tensorflow::TensorShapeProto &Shape) {
  if (Shape.unknown_rank()) {
    J.null();
    return;
  }
  std::vector<int64_t> Dims;
  for (const auto &D : Shape.dim())
    Dims.push_back(D.size());
  J.inlineArray(Dims);
}

void writeTensor(JsonWriter &J, const TensorSummary &T) {
  J.objectBegin();
  if (!T.Key.empty())
    J.member("key", T.Key);
  J.member("name", T.Name);
  if (!T.Op.empty())
    J.member("op", T.Op);
  J.member("dtype", dataTypePythonName(T.DType));
  J.key("shape");
  writeShape(J, T.Shape);
  J.objectEnd();
}

} // namespace

void printGraphSummaryJson(const GraphSummary &S, llvm::raw_ostream &OS) {
  JsonWriter J(OS);
  J.objectBegin();
  J.member("file", S.File);
  J.member("container", containerKindName(S.Kind));
  J.key("tags");
  J.inlineArray(S.Tags);
  J.key("meta_graphs");
  J.arrayBegin();
  for (const auto &Tags : S.MetaGraphTags)
    J.inlineArray(Tags);
  J.arrayEnd();
  J.member("tensorflow_version", S.TFVersion);
  J.member("nodes", static_cast<uint64_t>(S.NumNodes));
  J.member("functions", S.NumFunctions);

  J.key("inputs");
  J.arrayBegin();
  for (const TensorSummary &T : S.Inputs)
    writeTensor(J, T);
  J.arrayEnd();

  J.key("outputs");
  J.arrayBegin();
  for (const auto &[Name, Op] : S.Outputs) {
    J.objectBegin();
    J.member("name", Name);
    J.member("op", Op);
    J.objectEnd();
  }
  J.arrayEnd();

  J.key("variables");
  J.arrayBegin();
  for (const VariableSummary &V : S.Variables) {
    J.objectBegin();
    J.member("name", V.Name);
    J.member("op", V.Op);
    J.member("dtype", dataTypePythonName(V.DType));
    J.key("shape");
    writeShape(J, V.Shape);
    J.objectEnd();
  }
  J.arrayEnd();
  J.member("variable_parameters", S.VariableParams);
  J.member("variables_of_unknown_shape", S.UnknownVariableShapes);
  J.member("constants", static_cast<uint64_t>(S.NumConsts));
  J.member("constant_parameters", S.ConstParams);

  J.key("ops");
  J.arrayBegin();
  for (const auto &[Op, Count] : S.Ops) {
    J.objectBegin();
    J.member("op", Op);
    J.member("count", static_cast<uint64_t>(Count));
    J.objectEnd();
  }
  J.arrayEnd();

  J.key("collections");
  J.arrayBegin();
  for (const CollectionSummary &C : S.Collections) {
    J.objectBegin();
    J.member("name", C.Name);
    J.member("kind", C.Kind);
    J.member("size", C.Size);
    J.objectEnd();
  }
  J.arrayEnd();

  J.key("signatures");
  J.arrayBegin();
  for (const SignatureSummary &Sig : S.Signatures) {
    J.objectBegin();
    J.member("key", Sig.Key);
    J.member("method_name", Sig.MethodName);
    for (const auto *Group : {&Sig.Inputs, &Sig.Outputs}) {
      J.key(Group == &Sig.Inputs ? "inputs" : "outputs");
      J.arrayBegin();
      for (const TensorSummary &T : *Group)
        writeTensor(J, T);
      J.arrayEnd();
    }
    J.objectEnd();
  }
  J.arrayEnd();

  J.key("saver");
  if (!S.Saver) {
    J.null();
  } else {
    const tensorflow::SaverDef &Sv = *S.Saver;
    J.objectBegin();
    J.member("version", saverVersionName(Sv.version()));
    J.member("sharded", Sv.sharded());
    J.member("filename_tensor_name", Sv.filename_tensor_name());
    J.member("save_tensor_name", Sv.save_tensor_name());
    J.member("restore_op_name", Sv.restore_op_name());
    J.member("max_to_keep", Sv.max_to_keep());
    J.key("keep_checkpoint_every_n_hours");
    J.raw(formatFloat(Sv.keep_checkpoint_every_n_hours(), Style::Json));
    J.objectEnd();
  }
  J.objectEnd();
}

} // namespace frost::inspect
