//===- WriteModel.cpp - Writing a Model back in its container -------------===//
#include "GraphIOInternal.h"

#include "frost/Support/Context.h"
#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstring>

using google::protobuf::io::CodedOutputStream;
using google::protobuf::internal::WireFormatLite;

namespace frost {

namespace {

size_t lengthDelimitedSize(int Field, size_t Len) {
  return CodedOutputStream::VarintSize32(static_cast<uint32_t>(Field) << 3) +
         varintSize(Len) + Len;
}

/// The encoding of one node, byte for byte what protobuf's deterministic
/// serializer writes for the NodeDef it stands for, without building it.
class NodeEncoder {
public:
  explicit NodeEncoder(const Node &N) : N(N) {
    for (const Input &In : N.inputs())
      InputText.push_back(Node::formatInput(In.Src->name(), In.Port, In.ExplicitPort));
    for (const auto &[Key, Value] : N.attrs()) {
      const ExternalContent *Ext = N.externalContent(Key);
      AttrSize Size;
      Size.Value = Value.ByteSizeLong();
      if (Ext) {
        // AttrValue{tensor: TensorProto{dtype, shape, tensor_content}}.
        Size.Tensor = Value.tensor().ByteSizeLong() + lengthDelimitedSize(4, Ext->Bytes.size());
        Size.Value = lengthDelimitedSize(8, Size.Tensor);
      }
      Size.Entry = lengthDelimitedSize(1, Key.size()) + lengthDelimitedSize(2, Size.Value);
      AttrSizes.push_back(Size);
    }
  }

  size_t size() const {
    size_t Size = 0;
    if (!N.name().empty())
      Size += lengthDelimitedSize(1, N.name().size());
    if (!N.op().empty())
      Size += lengthDelimitedSize(2, N.op().size());
    for (const std::string &S : InputText)
      Size += lengthDelimitedSize(3, S.size());
    if (!N.device().empty())
      Size += lengthDelimitedSize(4, N.device().size());
    for (const AttrSize &A : AttrSizes)
      Size += lengthDelimitedSize(5, A.Entry);
    if (const tensorflow::NodeDef *Extra = N.extraFields())
      Size += Extra->ByteSizeLong();
    return Size;
  }

  /// `Sink`, when given, is what `Out` writes into: external elements go
  /// to it directly, so those in a mapped checkpoint are copied by the kernel.
  void write(CodedOutputStream &Out, OutputSink *Sink) const {
    auto bytes = [&](int Field, llvm::StringRef S) {
      WireFormatLite::WriteTag(Field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(S.size());
      // WriteRaw takes an int: feed huge payloads in pieces.
      for (size_t Done = 0; Done < S.size();) {
        size_t Piece = std::min<size_t>(S.size() - Done, 1u << 30);
        Out.WriteRaw(S.data() + Done, static_cast<int>(Piece));
        Done += Piece;
      }
    };
    auto external = [&](llvm::StringRef S) {
      if (!Sink)
        return bytes(4, S);
      WireFormatLite::WriteTag(4, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(S.size());
      Out.Trim(); // hands what `Out` buffered to the sink, in order
      Sink->writeBytes(S);
    };
    if (!N.name().empty())
      bytes(1, N.name());
    if (!N.op().empty())
      bytes(2, N.op());
    for (const std::string &S : InputText)
      bytes(3, S);
    if (!N.device().empty())
      bytes(4, N.device());
    size_t I = 0;
    for (const auto &[Key, Value] : N.attrs()) {
      const AttrSize &Size = AttrSizes[I++];
      WireFormatLite::WriteTag(5, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(Size.Entry);
      bytes(1, Key);
      WireFormatLite::WriteTag(2, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(Size.Value);
      if (const ExternalContent *Ext = N.externalContent(Key)) {
        WireFormatLite::WriteTag(8, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
        Out.WriteVarint64(Size.Tensor);
        Value.tensor().ByteSizeLong();
        Value.tensor().SerializeWithCachedSizes(&Out);
        external(Ext->Bytes);
      } else {
        Value.SerializeWithCachedSizes(&Out);
      }
    }
    if (const tensorflow::NodeDef *Extra = N.extraFields()) {
      Extra->ByteSizeLong();
      Extra->SerializeWithCachedSizes(&Out);
    }
  }

private:
  /// Encoded sizes of one attribute: its AttrValue, the map entry around it
  /// and, for external elements, the TensorProto inside.
  struct AttrSize {
    size_t Value = 0, Entry = 0, Tensor = 0;
  };
  const Node &N;
  std::vector<std::string> InputText;
  std::vector<AttrSize> AttrSizes;
};

/// Everything needed to stream a model: the parts around the graph are small
/// and serialized up front; the graph is sized first, then written.
class ModelEncoder {
public:
  explicit ModelEncoder(const Model &M) : M(M) {
    GraphTail = deterministicBytes(M.graph().otherFields());
    GraphSize = GraphTail.size();
    for (const Node &N : M.graph()) {
      size_t Size = NodeEncoder(N).size();
      NodeSizes.push_back({Size, &N});
      GraphSize += lengthDelimitedSize(NodeField, Size);
    }
    if (const tensorflow::MetaGraphDef *Meta = M.metaGraph()) {
      if (Meta->has_meta_info_def()) {
        tensorflow::MetaGraphDef Head;
        *Head.mutable_meta_info_def() = Meta->meta_info_def();
        MetaHead = deterministicBytes(Head);
      }
      tensorflow::MetaGraphDef Tail(*Meta);
      Tail.clear_meta_info_def();
      Tail.clear_graph_def();
      MetaTail = deterministicBytes(Tail);
      WriteGraphField = Meta->has_graph_def() || !M.graph().empty();
      MetaSize = MetaHead.size() + MetaTail.size() +
                 (WriteGraphField ? lengthDelimitedSize(GraphDefField, GraphSize) : 0);
    }
    if (const tensorflow::SavedModel *Saved = M.savedModel()) {
      tensorflow::SavedModel Head;
      Head.set_saved_model_schema_version(Saved->saved_model_schema_version());
      SavedHead = deterministicBytes(Head);
      for (int I = 0; I < Saved->meta_graphs_size(); ++I)
        Siblings.push_back(I == M.metaGraphIndex()
                               ? std::string()
                               : deterministicBytes(Saved->meta_graphs(I)));
      tensorflow::SavedModel Tail(*Saved);
      Tail.clear_saved_model_schema_version();
      Tail.clear_meta_graphs();
      SavedTail = deterministicBytes(Tail);
    }
  }

  uint64_t totalSize() const {
    switch (M.kind()) {
    case ContainerKind::GraphDef:
      return GraphSize;
    case ContainerKind::MetaGraph:
      return MetaSize;
    case ContainerKind::SavedModel: {
      uint64_t Size = SavedHead.size() + SavedTail.size();
      for (int I = 0; I < static_cast<int>(Siblings.size()); ++I)
        Size += lengthDelimitedSize(MetaGraphsField,
                                    I == M.metaGraphIndex() ? MetaSize : Siblings[I].size());
      return Size;
    }
    }
    return 0;
  }

  /// The nodes by encoded size, biggest first, for size-limit messages.
  std::string biggestNodes() const {
    std::vector<std::pair<uint64_t, std::string>> Sizes;
    for (auto [Size, N] : NodeSizes)
      Sizes.emplace_back(Size, absl::StrCat("'", N->name().str(), "' (", N->op().str(), ")"));
    return biggestNodesText(std::move(Sizes));
  }

  void write(CodedOutputStream &Out, OutputSink *Sink) const {
    switch (M.kind()) {
    case ContainerKind::GraphDef:
      writeGraph(Out, Sink);
      return;
    case ContainerKind::MetaGraph:
      writeMeta(Out, Sink);
      return;
    case ContainerKind::SavedModel:
      Out.WriteString(SavedHead);
      for (int I = 0; I < static_cast<int>(Siblings.size()); ++I) {
        WireFormatLite::WriteTag(MetaGraphsField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED,
                                 &Out);
        if (I == M.metaGraphIndex()) {
          Out.WriteVarint64(MetaSize);
          writeMeta(Out, Sink);
        } else {
          Out.WriteVarint64(Siblings[I].size());
          Out.WriteString(Siblings[I]);
        }
      }
      Out.WriteString(SavedTail);
      return;
    }
  }

private:
  void writeGraph(CodedOutputStream &Out, OutputSink *Sink) const {
    for (auto [Size, N] : NodeSizes) {
      WireFormatLite::WriteTag(NodeField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(Size);
      NodeEncoder(*N).write(Out, Sink);
    }
    Out.WriteString(GraphTail);
  }

  void writeMeta(CodedOutputStream &Out, OutputSink *Sink) const {
    Out.WriteString(MetaHead);
    if (WriteGraphField) {
      WireFormatLite::WriteTag(GraphDefField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(GraphSize);
      writeGraph(Out, Sink);
    }
    Out.WriteString(MetaTail);
  }

  const Model &M;
  std::vector<std::pair<size_t, const Node *>> NodeSizes;
  std::string GraphTail;
  uint64_t GraphSize = 0;
  std::string MetaHead, MetaTail;
  bool WriteGraphField = false;
  uint64_t MetaSize = 0;
  std::string SavedHead, SavedTail;
  std::vector<std::string> Siblings;
};

absl::Status checkWriteSize(const ModelEncoder &Encoder, const Model &M,
                            llvm::StringRef Path, uint64_t Limit) {
  uint64_t Size = Encoder.totalSize();
  if (Size <= Limit)
    return absl::OkStatus();
  return absl::ResourceExhaustedError(absl::StrCat(
      Path.str(), ": the ", containerKindName(M.kind()).str(), " would be ", formatBytes(Size),
      " (", Size, " bytes), over protobuf's limit of ", Limit,
      " bytes, so TensorFlow could not load it; biggest nodes: ", Encoder.biggestNodes()));
}

} // namespace

std::string printModelText(const Model &M) {
  tensorflow::GraphDef Def;
  M.graph().toGraphDef(Def);
  google::protobuf::TextFormat::Printer Printer;
  std::string Out;
  switch (M.kind()) {
  case ContainerKind::GraphDef:
    Printer.PrintToString(Def, &Out);
    break;
  case ContainerKind::MetaGraph: {
    tensorflow::MetaGraphDef Meta(*M.metaGraph());
    if (Meta.has_graph_def() || Def.ByteSizeLong() != 0)
      Meta.mutable_graph_def()->Swap(&Def);
    Printer.PrintToString(Meta, &Out);
    break;
  }
  case ContainerKind::SavedModel: {
    tensorflow::SavedModel Saved(*M.savedModel());
    tensorflow::MetaGraphDef &Meta = *Saved.mutable_meta_graphs(M.metaGraphIndex());
    Meta = *M.metaGraph();
    if (Meta.has_graph_def() || Def.ByteSizeLong() != 0)
      Meta.mutable_graph_def()->Swap(&Def);
    Printer.PrintToString(Saved, &Out);
    break;
  }
  }
  return Out;
}

uint64_t encodedModelSize(const Model &M) { return ModelEncoder(M).totalSize(); }

uint64_t encodedNodeSize(const Node &N) {
  return lengthDelimitedSize(NodeField, NodeEncoder(N).size());
}

absl::StatusOr<std::string> serializeModel(Context &Ctx, const Model &M,
                                           const WriteOptions &Options) {
  FROST_RETURN_IF_ERROR(Ctx.background().wait());
  if (Options.Enc == Encoding::Text)
    return printModelText(M);
  ModelEncoder Encoder(M);
  FROST_RETURN_IF_ERROR(checkWriteSize(Encoder, M, "<memory>", Options.SizeLimit));
  std::string Out;
  {
    google::protobuf::io::StringOutputStream Stream(&Out);
    CodedOutputStream Coded(&Stream);
    Coded.SetSerializationDeterministic(true);
    Encoder.write(Coded, /*Sink=*/nullptr);
  }
  return Out;
}

absl::Status writeModel(const Model &M, OutputFile &Out, const WriteOptions &Options) {
  // The checksums of the checkpoint bytes it holds are checked before a
  // stream gets any byte, and for a file while it is written (the caller
  // commits only on success).
  BackgroundWork &Checks = Out.context().background();
  if (Options.Enc == Encoding::Text || !Out.commitsAtomically())
    FROST_RETURN_IF_ERROR(Checks.wait());
  if (Options.Enc == Encoding::Text)
    return Out.writeString(printModelText(M), Options.Hash);
  ModelEncoder Encoder(M);
  FROST_RETURN_IF_ERROR(checkWriteSize(Encoder, M, Out.path(), Options.SizeLimit));
  FROST_RETURN_IF_ERROR(Out.write(
      [&](OutputSink &Sink) {
        CodedOutputStream Coded(&Sink);
        Coded.SetSerializationDeterministic(true);
        Encoder.write(Coded, &Sink);
        Coded.Trim();
        if (Sink.error())
          return absl::InternalError(
              absl::StrCat(Out.path(), ": write failed: ", std::strerror(Sink.error())));
        return Coded.HadError() ? absl::InternalError(absl::StrCat(Out.path(), ": write failed"))
                                : absl::OkStatus();
      },
      Options.Hash));
  return Checks.wait();
}

absl::Status writeModel(Context &Ctx, const Model &M, llvm::StringRef Path,
                        const WriteOptions &Options) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> Out, OutputFile::prepare(Ctx, Path));
  FROST_RETURN_IF_ERROR(writeModel(M, *Out, Options));
  return Out->commit();
}

} // namespace frost
