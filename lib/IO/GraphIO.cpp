//===- GraphIO.cpp - Reading and writing graphs ---------------------------===//
#include "frost/IO/GraphIO.h"

#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "google/protobuf/wire_format_lite.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

using google::protobuf::io::CodedOutputStream;
using google::protobuf::internal::WireFormatLite;

namespace frost {

static constexpr uint32_t NodeField = 1;       // GraphDef.node
static constexpr uint32_t GraphDefField = 2;   // MetaGraphDef.graph_def
static constexpr uint32_t MetaGraphsField = 2; // SavedModel.meta_graphs

//===----------------------------------------------------------------------===//
// Telling text from binary, and one container from another
//===----------------------------------------------------------------------===//

Encoding detectEncoding(llvm::StringRef Bytes) {
  // Binary protobuf is full of tags and lengths below 0x20; text has none but
  // whitespace.
  for (char C : Bytes.take_front(4096)) {
    auto U = static_cast<unsigned char>(C);
    if ((U < 0x20 && U != '\t' && U != '\n' && U != '\r') || U == 0x7f)
      return Encoding::Binary;
  }
  return Encoding::Text;
}

namespace {

/// The first field name of a text-format message, skipping blanks and comments.
llvm::StringRef firstTextField(llvm::StringRef Text) {
  while (true) {
    Text = Text.ltrim();
    if (!Text.consume_front("#"))
      break;
    Text = Text.drop_until([](char C) { return C == '\n'; });
  }
  return Text.take_while([](char C) { return llvm::isAlnum(C) || C == '_'; });
}

bool isPrintableName(llvm::StringRef S) {
  return !S.empty() && llvm::all_of(S, [](char C) {
    return static_cast<unsigned char>(C) >= 0x20 && C != 0x7f;
  });
}

bool isOpName(llvm::StringRef S) {
  return !S.empty() && llvm::all_of(S, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '>' || C == '.';
  });
}

// Structural sketches of the three containers, enough to tell them apart
// without parsing: which fields exist, with which wire types. Fields beyond
// the known ones are allowed so files from newer TensorFlow versions load.
bool allRecords(llvm::StringRef Msg, llvm::function_ref<bool(const WireRecord &)> Ok) {
  WireReader Reader(Msg);
  WireRecord R;
  while (Reader.next(R))
    if (!Ok(R))
      return false;
  return !Reader.failed();
}

bool looksLikeNodeDef(llvm::StringRef Msg) {
  bool HasName = false, HasOp = false;
  bool Ok = allRecords(Msg, [&](const WireRecord &R) {
    if (R.Field > 7)
      return true; // a field from a newer TensorFlow
    if (R.Type != WireType::Bytes)
      return false;
    if (R.Field == 1)
      HasName = isPrintableName(R.Payload);
    if (R.Field == 2)
      HasOp = isOpName(R.Payload);
    return true;
  });
  return Ok && HasName && HasOp;
}

bool looksLikeOpDef(llvm::StringRef Msg) {
  bool HasName = false;
  bool Ok = allRecords(Msg, [&](const WireRecord &R) {
    if (R.Field == 1)
      HasName = R.Type == WireType::Bytes && isOpName(R.Payload);
    return R.Field > 4 || R.Type == WireType::Bytes;
  });
  return Ok && HasName;
}

bool looksLikeFunctionDef(llvm::StringRef Msg) {
  bool HasSignature = false;
  bool Ok = allRecords(Msg, [&](const WireRecord &R) {
    if (R.Field == 1)
      HasSignature = R.Type == WireType::Bytes && looksLikeOpDef(R.Payload);
    return R.Type == WireType::Bytes && R.Field != 2 && R.Field <= 8;
  });
  return Ok && HasSignature;
}

bool looksLikeGradientDef(llvm::StringRef Msg) {
  return allRecords(Msg, [](const WireRecord &R) {
    return R.Type == WireType::Bytes && R.Field <= 2 && isPrintableName(R.Payload);
  });
}

bool looksLikeLibrary(llvm::StringRef Msg) {
  return allRecords(Msg, [](const WireRecord &R) {
    if (R.Type != WireType::Bytes || R.Field > 3)
      return false;
    if (R.Field == 1)
      return looksLikeFunctionDef(R.Payload);
    return looksLikeGradientDef(R.Payload);
  });
}

bool looksLikeGraphDef(llvm::StringRef Msg) {
  return allRecords(Msg, [](const WireRecord &R) {
    switch (R.Field) {
    case 1:
      return R.Type == WireType::Bytes && looksLikeNodeDef(R.Payload);
    case 2:
      return R.Type == WireType::Bytes && looksLikeLibrary(R.Payload);
    case 3:
      return R.Type == WireType::Varint;
    case 4:
    case 5:
      return R.Type == WireType::Bytes;
    default:
      return R.Field > 5; // a field from a newer TensorFlow
    }
  });
}

bool looksLikeMetaGraphDef(llvm::StringRef Msg) {
  return allRecords(Msg, [](const WireRecord &R) {
    if (R.Field > 7)
      return true; // a field from a newer TensorFlow
    if (R.Type != WireType::Bytes)
      return false;
    return R.Field != 2 || looksLikeGraphDef(R.Payload);
  });
}

bool looksLikeSavedModel(llvm::StringRef Msg) {
  return allRecords(Msg, [](const WireRecord &R) {
    if (R.Field == 1)
      return R.Type == WireType::Varint;
    if (R.Field == 2)
      return R.Type == WireType::Bytes && looksLikeMetaGraphDef(R.Payload);
    return true; // a field from a newer TensorFlow
  });
}

absl::StatusOr<ContainerKind> detectContainer(llvm::StringRef Bytes, Encoding Enc,
                                              llvm::StringRef DisplayName) {
  llvm::StringRef Base = llvm::sys::path::filename(DisplayName);
  if (Enc == Encoding::Text) {
    llvm::StringRef Field = firstTextField(Bytes);
    if (Field.empty() || Field == "node" || Field == "versions" || Field == "library" ||
        Field == "version" || Field == "debug_info")
      return ContainerKind::GraphDef;
    if (Field == "saved_model_schema_version" || Field == "meta_graphs")
      return ContainerKind::SavedModel;
    if (Field == "meta_info_def" || Field == "graph_def" || Field == "saver_def" ||
        Field == "collection_def" || Field == "signature_def" ||
        Field == "asset_file_def" || Field == "object_graph_def")
      return ContainerKind::MetaGraph;
    return absl::InvalidArgumentError(
        absl::StrCat(DisplayName.str(), ":1: text starts with field '", Field.str(),
                     "', which no GraphDef, MetaGraphDef or SavedModel has"));
  }
  if (Base.starts_with("saved_model."))
    return ContainerKind::SavedModel;
  if (Base.ends_with(".meta"))
    return ContainerKind::MetaGraph;
  if (looksLikeGraphDef(Bytes))
    return ContainerKind::GraphDef;
  if (looksLikeMetaGraphDef(Bytes))
    return ContainerKind::MetaGraph;
  if (looksLikeSavedModel(Bytes))
    return ContainerKind::SavedModel;
  WireReader Reader(Bytes);
  WireRecord R;
  while (Reader.next(R)) {
  }
  if (Reader.failed())
    return absl::InvalidArgumentError(
        absl::StrCat(DisplayName.str(), ": not a protobuf file: malformed record at byte ",
                     Reader.offset()));
  return absl::InvalidArgumentError(
      absl::StrCat(DisplayName.str(),
                   ": not a GraphDef, MetaGraphDef or SavedModel (its fields match none)"));
}

//===----------------------------------------------------------------------===//
// Node records inside a binary file: offsets for messages, sizes for limits
//===----------------------------------------------------------------------===//

struct NodeRecord {
  size_t Offset;
  size_t Size;
  llvm::StringRef Name;
  llvm::StringRef Op;
};

void collectGraphNodes(llvm::StringRef Graph, size_t Base, std::vector<NodeRecord> &Out) {
  WireReader Reader(Graph);
  WireRecord R;
  while (Reader.next(R)) {
    if (R.Field != 1 || R.Type != WireType::Bytes)
      continue;
    NodeRecord Rec{Base + R.Offset, R.Payload.size(), {}, {}};
    WireReader Fields(R.Payload);
    WireRecord F;
    while (Fields.next(F)) {
      if (F.Field == 1 && F.Type == WireType::Bytes)
        Rec.Name = F.Payload;
      else if (F.Field == 2 && F.Type == WireType::Bytes)
        Rec.Op = F.Payload;
    }
    Out.push_back(Rec);
  }
}

/// Nodes of the graph a container holds; `MetaIndex` picks a SavedModel's meta
/// graph (-1: all of them).
std::vector<NodeRecord> findNodeRecords(llvm::StringRef Bytes, ContainerKind Kind,
                                        int MetaIndex = -1) {
  std::vector<NodeRecord> Out;
  auto inMeta = [&](llvm::StringRef Meta, size_t Base) {
    WireReader Reader(Meta);
    WireRecord R;
    while (Reader.next(R))
      if (R.Field == 2 && R.Type == WireType::Bytes)
        collectGraphNodes(R.Payload, Base + (R.Payload.data() - Meta.data()), Out);
  };
  switch (Kind) {
  case ContainerKind::GraphDef:
    collectGraphNodes(Bytes, 0, Out);
    break;
  case ContainerKind::MetaGraph:
    inMeta(Bytes, 0);
    break;
  case ContainerKind::SavedModel: {
    WireReader Reader(Bytes);
    WireRecord R;
    int Index = 0;
    while (Reader.next(R))
      if (R.Field == 2 && R.Type == WireType::Bytes && (MetaIndex < 0 || Index++ == MetaIndex))
        inMeta(R.Payload, R.Payload.data() - Bytes.data());
    break;
  }
  }
  return Out;
}

std::string biggestNodesText(std::vector<std::pair<uint64_t, std::string>> Sizes) {
  std::sort(Sizes.begin(), Sizes.end(), [](const auto &A, const auto &B) {
    return A.first != B.first ? A.first > B.first : A.second < B.second;
  });
  std::vector<std::string> Parts;
  for (size_t I = 0; I < Sizes.size() && I < 5; ++I)
    Parts.push_back(absl::StrCat(Sizes[I].second, " ", formatBytes(Sizes[I].first)));
  return Parts.empty() ? std::string("none") : absl::StrJoin(Parts, ", ");
}

absl::Status tooBigToRead(llvm::StringRef Bytes, ContainerKind Kind,
                          llvm::StringRef DisplayName, uint64_t Limit) {
  std::vector<std::pair<uint64_t, std::string>> Sizes;
  for (const NodeRecord &Rec : findNodeRecords(Bytes, Kind))
    Sizes.emplace_back(Rec.Size, absl::StrCat("'", Rec.Name.str(), "' (", Rec.Op.str(), ")"));
  return absl::ResourceExhaustedError(absl::StrCat(
      DisplayName.str(), ": ", containerKindName(Kind).str(), " is ", formatBytes(Bytes.size()),
      " (", Bytes.size(), " bytes), over protobuf's limit of ", Limit,
      " bytes; biggest nodes: ", biggestNodesText(std::move(Sizes))));
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

class TextErrors : public google::protobuf::io::ErrorCollector {
public:
  explicit TextErrors(std::string File) : File(std::move(File)) {}
  void AddError(int Line, int Column, const std::string &Message) override {
    if (First.empty())
      First = absl::StrCat(File, ":", Line + 1, ":", Column + 1, ": ", Message);
  }
  std::string First;

private:
  std::string File;
};

/// Parses text into `Msg`, filling node locations of the graph found at
/// `GraphPath` (field numbers from the root down to the GraphDef; none are
/// recorded when the path does not end at one).
absl::Status parseText(llvm::StringRef Bytes, llvm::StringRef DisplayName,
                       google::protobuf::Message &Msg,
                       const std::vector<std::pair<int, int>> &GraphPath,
                       NodeLocations &Locations) {
  using google::protobuf::TextFormat;
  TextErrors Errors(DisplayName.str());
  TextFormat::Parser Parser;
  Parser.RecordErrorsTo(&Errors);
  TextFormat::ParseInfoTree Tree;
  Parser.WriteLocationsTo(&Tree);
  if (Bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !Parser.ParseFromString(std::string(Bytes), &Msg))
    return absl::InvalidArgumentError(
        Errors.First.empty() ? absl::StrCat(DisplayName.str(), ": cannot parse text")
                             : Errors.First);
  // Walk down to the graph: each step is (field number, index or -1).
  const google::protobuf::Descriptor *Desc = Msg.GetDescriptor();
  TextFormat::ParseInfoTree *At = &Tree;
  for (auto [Number, Index] : GraphPath) {
    const google::protobuf::FieldDescriptor *Field = Desc->FindFieldByNumber(Number);
    At = At ? At->GetTreeForNested(Field, Index) : nullptr;
    Desc = Field->message_type();
  }
  if (!At || Desc != tensorflow::GraphDef::descriptor())
    return absl::OkStatus();
  const google::protobuf::FieldDescriptor *NodeField = Desc->FindFieldByNumber(1);
  std::vector<std::pair<int, int>> Starts;
  for (int I = 0;; ++I) {
    TextFormat::ParseLocationRange Range = At->GetLocationRange(NodeField, I);
    if (Range.start.line < 0)
      break;
    Starts.emplace_back(Range.start.line + 1, Range.start.column + 1);
  }
  Locations.Lookup = [Starts = std::move(Starts)](size_t Index) {
    return Index < Starts.size()
               ? absl::StrCat(Starts[Index].first, ":", Starts[Index].second)
               : std::string();
  };
  return absl::OkStatus();
}

std::string tagSetText(const tensorflow::MetaGraphDef &Meta) {
  return absl::StrCat("{", absl::StrJoin(Meta.meta_info_def().tags(), ","), "}");
}

absl::StatusOr<int> selectMetaGraph(const tensorflow::SavedModel &Saved,
                                    llvm::StringRef DisplayName,
                                    const std::vector<std::string> &Tags) {
  if (Saved.meta_graphs_size() == 0)
    return absl::InvalidArgumentError(
        absl::StrCat(DisplayName.str(), ": SavedModel holds no meta graph"));
  std::set<std::string> Wanted(Tags.begin(), Tags.end());
  if (Wanted.empty() && Saved.meta_graphs_size() == 1)
    return 0;
  std::vector<std::string> Available;
  for (int I = 0; I < Saved.meta_graphs_size(); ++I) {
    const auto &Have = Saved.meta_graphs(I).meta_info_def().tags();
    if (std::set<std::string>(Have.begin(), Have.end()) == Wanted)
      return I;
    Available.push_back(tagSetText(Saved.meta_graphs(I)));
  }
  return absl::NotFoundError(absl::StrCat(
      DisplayName.str(), ": no meta graph with tags {",
      absl::StrJoin(Wanted, ","), "}; available tag sets: ", absl::StrJoin(Available, " ")));
}

} // namespace

namespace {

/// A message's bytes split around one message-typed field: the other records
/// (to parse as the envelope) and the field's payload (merged if repeated).
struct SplitMessage {
  std::string Rest;
  llvm::StringRef Field;      // the payload, when it occurred exactly once
  std::string MergedField;    // the payloads, when it occurred several times
  size_t FieldOffset = 0;     // where the (first) payload starts in the message
  int Occurrences = 0;
  llvm::StringRef field() const { return Occurrences > 1 ? MergedField : Field; }
};

absl::StatusOr<SplitMessage> splitField(llvm::StringRef Msg, uint32_t FieldNumber,
                                        llvm::StringRef DisplayName, ContainerKind Kind) {
  SplitMessage Out;
  WireReader Reader(Msg);
  WireRecord R;
  size_t Start = 0;
  while (Reader.next(R)) {
    if (R.Field == FieldNumber && R.Type == WireType::Bytes) {
      if (++Out.Occurrences == 1) {
        Out.Field = R.Payload;
        Out.FieldOffset = R.Payload.data() - Msg.data();
      } else {
        if (Out.Occurrences == 2)
          Out.MergedField = Out.Field.str();
        Out.MergedField += R.Payload.str();
      }
    } else {
      Out.Rest.append(Msg.data() + Start, Reader.offset() - Start);
    }
    Start = Reader.offset();
  }
  if (Reader.failed())
    return absl::InvalidArgumentError(absl::StrCat(
        DisplayName.str(), ": malformed binary ", containerKindName(Kind).str(),
        ": bad record at byte ", Reader.offset()));
  return Out;
}

/// Streams the nodes of a binary GraphDef into a graph, one NodeDef at a
/// time: no whole GraphDef is ever held. `Base` is the graph's offset in the
/// file, for messages.
absl::StatusOr<std::unique_ptr<Graph>> importBinaryGraph(llvm::StringRef Bytes, size_t Base,
                                                         llvm::StringRef DisplayName) {
  auto Offsets = std::make_shared<std::vector<size_t>>();
  NodeLocations Locations;
  Locations.File = DisplayName.str();
  Locations.Lookup = [Offsets](size_t Index) {
    return Index < Offsets->size() ? absl::StrCat("byte ", (*Offsets)[Index]) : std::string();
  };
  GraphBuilder Builder(&Locations);
  std::string Rest;
  WireReader Reader(Bytes);
  WireRecord R;
  size_t Start = 0;
  while (Reader.next(R)) {
    if (R.Field == NodeField && R.Type == WireType::Bytes) {
      tensorflow::NodeDef ND;
      if (!ND.ParseFromArray(R.Payload.data(), static_cast<int>(R.Payload.size())))
        return absl::InvalidArgumentError(absl::StrCat(DisplayName.str(), ":byte ",
                                                       Base + R.Offset,
                                                       ": malformed NodeDef"));
      Offsets->push_back(Base + R.Offset);
      Builder.addNode(std::move(ND));
    } else {
      Rest.append(Bytes.data() + Start, Reader.offset() - Start);
    }
    Start = Reader.offset();
  }
  if (Reader.failed())
    return absl::InvalidArgumentError(absl::StrCat(
        DisplayName.str(), ": malformed binary GraphDef: bad record at byte ",
        Base + Reader.offset()));
  tensorflow::GraphDef Other;
  if (!Other.ParseFromString(Rest))
    return absl::InvalidArgumentError(
        absl::StrCat(DisplayName.str(), ": malformed binary GraphDef (library or versions)"));
  return Builder.finish(std::move(Other));
}

/// A binary MetaGraphDef: the envelope parsed, the graph streamed.
absl::Status importBinaryMeta(llvm::StringRef Bytes, size_t Base, llvm::StringRef DisplayName,
                              tensorflow::MetaGraphDef &Meta, std::unique_ptr<Graph> &G) {
  FROST_ASSIGN_OR_RETURN(SplitMessage Split,
                         splitField(Bytes, GraphDefField, DisplayName, ContainerKind::MetaGraph));
  if (!Meta.ParseFromString(Split.Rest))
    return absl::InvalidArgumentError(
        absl::StrCat(DisplayName.str(), ": malformed binary MetaGraphDef (", Bytes.size(),
                     " bytes): protobuf could not parse it"));
  FROST_ASSIGN_OR_RETURN(G, importBinaryGraph(Split.field(), Base + Split.FieldOffset,
                                              DisplayName));
  // Remember that the field was present so it is written back.
  if (Split.Occurrences > 0)
    Meta.mutable_graph_def();
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Model>> parseBinaryModel(llvm::StringRef Bytes,
                                                        ContainerKind Kind,
                                                        llvm::StringRef DisplayName,
                                                        const ReadOptions &Options) {
  std::unique_ptr<Graph> G;
  std::unique_ptr<tensorflow::MetaGraphDef> Meta;
  std::unique_ptr<tensorflow::SavedModel> Saved;
  int MetaIndex = -1;
  switch (Kind) {
  case ContainerKind::GraphDef: {
    FROST_ASSIGN_OR_RETURN(G, importBinaryGraph(Bytes, 0, DisplayName));
    break;
  }
  case ContainerKind::MetaGraph:
    Meta = std::make_unique<tensorflow::MetaGraphDef>();
    FROST_RETURN_IF_ERROR(importBinaryMeta(Bytes, 0, DisplayName, *Meta, G));
    break;
  case ContainerKind::SavedModel: {
    // Choose the meta graph by its tags, parsing every meta graph but its
    // graph; the siblings are then parsed whole and kept as they are.
    std::vector<WireRecord> MetaRecords;
    Saved = std::make_unique<tensorflow::SavedModel>();
    std::string Rest;
    WireReader Reader(Bytes);
    WireRecord R;
    size_t Start = 0;
    while (Reader.next(R)) {
      if (R.Field == MetaGraphsField && R.Type == WireType::Bytes)
        MetaRecords.push_back(R);
      else
        Rest.append(Bytes.data() + Start, Reader.offset() - Start);
      Start = Reader.offset();
    }
    if (Reader.failed() || !Saved->ParseFromString(Rest))
      return absl::InvalidArgumentError(absl::StrCat(
          DisplayName.str(), ": malformed binary SavedModel: bad record at byte ",
          Reader.offset()));
    tensorflow::SavedModel Tags;
    for (const WireRecord &Rec : MetaRecords) {
      FROST_ASSIGN_OR_RETURN(SplitMessage Split, splitField(Rec.Payload, GraphDefField,
                                                            DisplayName, Kind));
      if (!Tags.add_meta_graphs()->ParseFromString(Split.Rest))
        return absl::InvalidArgumentError(absl::StrCat(
            DisplayName.str(), ":byte ", Rec.Offset, ": malformed MetaGraphDef"));
    }
    FROST_ASSIGN_OR_RETURN(MetaIndex, selectMetaGraph(Tags, DisplayName, Options.Tags));
    for (int I = 0; I < static_cast<int>(MetaRecords.size()); ++I) {
      tensorflow::MetaGraphDef *Entry = Saved->add_meta_graphs();
      if (I != MetaIndex &&
          !Entry->ParseFromArray(MetaRecords[I].Payload.data(),
                                 static_cast<int>(MetaRecords[I].Payload.size())))
        return absl::InvalidArgumentError(absl::StrCat(
            DisplayName.str(), ":byte ", MetaRecords[I].Offset, ": malformed MetaGraphDef"));
    }
    Meta = std::make_unique<tensorflow::MetaGraphDef>();
    const WireRecord &Chosen = MetaRecords[MetaIndex];
    FROST_RETURN_IF_ERROR(importBinaryMeta(Chosen.Payload, Chosen.Payload.data() - Bytes.data(),
                                           DisplayName, *Meta, G));
    break;
  }
  }
  auto M = std::make_unique<Model>(std::move(G));
  M->setSourcePath(DisplayName.str());
  M->setContainer(std::move(Meta), std::move(Saved), MetaIndex);
  return M;
}

absl::StatusOr<std::unique_ptr<Model>> parseTextModel(llvm::StringRef Bytes, ContainerKind Kind,
                                                      llvm::StringRef DisplayName,
                                                      const ReadOptions &Options) {
  NodeLocations Locations;
  Locations.File = DisplayName.str();
  tensorflow::GraphDef GraphDef;
  std::unique_ptr<tensorflow::MetaGraphDef> Meta;
  std::unique_ptr<tensorflow::SavedModel> Saved;
  int MetaIndex = -1;
  switch (Kind) {
  case ContainerKind::GraphDef:
    FROST_RETURN_IF_ERROR(parseText(Bytes, DisplayName, GraphDef, {}, Locations));
    break;
  case ContainerKind::MetaGraph:
    Meta = std::make_unique<tensorflow::MetaGraphDef>();
    FROST_RETURN_IF_ERROR(parseText(Bytes, DisplayName, *Meta, {{2, -1}}, Locations));
    break;
  case ContainerKind::SavedModel: {
    // Node locations need the chosen index, known only after a first parse.
    tensorflow::SavedModel Probe;
    NodeLocations Ignored;
    FROST_RETURN_IF_ERROR(parseText(Bytes, DisplayName, Probe, {}, Ignored));
    FROST_ASSIGN_OR_RETURN(MetaIndex, selectMetaGraph(Probe, DisplayName, Options.Tags));
    Saved = std::make_unique<tensorflow::SavedModel>();
    FROST_RETURN_IF_ERROR(
        parseText(Bytes, DisplayName, *Saved, {{2, MetaIndex}, {2, -1}}, Locations));
    Meta = std::make_unique<tensorflow::MetaGraphDef>();
    Meta->Swap(Saved->mutable_meta_graphs(MetaIndex));
    break;
  }
  }
  if (Meta) {
    bool HadGraph = Meta->has_graph_def();
    GraphDef.Swap(Meta->mutable_graph_def());
    Meta->clear_graph_def();
    if (HadGraph)
      Meta->mutable_graph_def();
  }
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Graph> G,
                         Graph::fromGraphDef(std::move(GraphDef), &Locations));
  auto M = std::make_unique<Model>(std::move(G));
  M->setSourcePath(DisplayName.str());
  M->setContainer(std::move(Meta), std::move(Saved), MetaIndex);
  return M;
}

} // namespace

absl::StatusOr<std::unique_ptr<Model>> parseModel(llvm::StringRef Bytes,
                                                  llvm::StringRef DisplayName,
                                                  const ReadOptions &Options) {
  Encoding Enc = detectEncoding(Bytes);
  FROST_ASSIGN_OR_RETURN(ContainerKind Kind, detectContainer(Bytes, Enc, DisplayName));
  if (Enc == Encoding::Text)
    return parseTextModel(Bytes, Kind, DisplayName, Options);
  // Text has no such limit of its own; its binary size is checked on writing.
  if (Bytes.size() > Options.SizeLimit)
    return tooBigToRead(Bytes, Kind, DisplayName, Options.SizeLimit);
  return parseBinaryModel(Bytes, Kind, DisplayName, Options);
}

absl::StatusOr<std::string> resolveModelFile(llvm::StringRef Path) {
  std::string File = Path.str();
  if (Path == "-" || !llvm::sys::fs::is_directory(File))
    return File;
  for (const char *Name : {"/saved_model.pb", "/saved_model.pbtxt"}) {
    std::string Candidate = absl::StrCat(File, Name);
    if (llvm::sys::fs::exists(Candidate))
      return Candidate;
  }
  return absl::NotFoundError(
      absl::StrCat(File, ": directory has no saved_model.pb or saved_model.pbtxt"));
}

absl::StatusOr<std::unique_ptr<Model>> readModel(llvm::StringRef Path,
                                                 const ReadOptions &Options) {
  FROST_ASSIGN_OR_RETURN(std::string File, resolveModelFile(Path));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> Mapped, MappedFile::open(File));
  return parseModel(Mapped->bytes(), File == "-" ? "<stdin>" : File, Options);
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

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

  void write(CodedOutputStream &Out) const {
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
        bytes(4, Ext->Bytes);
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

/// Serialized GraphDef fields other than the nodes.
std::string serializeDeterministic(const google::protobuf::Message &Msg) {
  std::string Out;
  google::protobuf::io::StringOutputStream Stream(&Out);
  CodedOutputStream Coded(&Stream);
  Coded.SetSerializationDeterministic(true);
  Msg.SerializeToCodedStream(&Coded);
  Coded.Trim();
  return Out;
}

/// Everything needed to stream a model: the parts around the graph are small
/// and serialized up front; the graph is sized first, then written.
class ModelEncoder {
public:
  explicit ModelEncoder(const Model &M) : M(M) {
    GraphTail = serializeDeterministic(M.graph().otherFields());
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
        MetaHead = serializeDeterministic(Head);
      }
      tensorflow::MetaGraphDef Tail(*Meta);
      Tail.clear_meta_info_def();
      Tail.clear_graph_def();
      MetaTail = serializeDeterministic(Tail);
      WriteGraphField = Meta->has_graph_def() || !M.graph().empty();
      MetaSize = MetaHead.size() + MetaTail.size() +
                 (WriteGraphField ? lengthDelimitedSize(GraphDefField, GraphSize) : 0);
    }
    if (const tensorflow::SavedModel *Saved = M.savedModel()) {
      tensorflow::SavedModel Head;
      Head.set_saved_model_schema_version(Saved->saved_model_schema_version());
      SavedHead = serializeDeterministic(Head);
      for (int I = 0; I < Saved->meta_graphs_size(); ++I)
        Siblings.push_back(I == M.metaGraphIndex()
                               ? std::string()
                               : serializeDeterministic(Saved->meta_graphs(I)));
      tensorflow::SavedModel Tail(*Saved);
      Tail.clear_saved_model_schema_version();
      Tail.clear_meta_graphs();
      SavedTail = serializeDeterministic(Tail);
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

  void write(CodedOutputStream &Out) const {
    switch (M.kind()) {
    case ContainerKind::GraphDef:
      writeGraph(Out);
      return;
    case ContainerKind::MetaGraph:
      writeMeta(Out);
      return;
    case ContainerKind::SavedModel:
      Out.WriteString(SavedHead);
      for (int I = 0; I < static_cast<int>(Siblings.size()); ++I) {
        WireFormatLite::WriteTag(MetaGraphsField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED,
                                 &Out);
        if (I == M.metaGraphIndex()) {
          Out.WriteVarint64(MetaSize);
          writeMeta(Out);
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
  void writeGraph(CodedOutputStream &Out) const {
    for (auto [Size, N] : NodeSizes) {
      WireFormatLite::WriteTag(NodeField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(Size);
      NodeEncoder(*N).write(Out);
    }
    Out.WriteString(GraphTail);
  }

  void writeMeta(CodedOutputStream &Out) const {
    Out.WriteString(MetaHead);
    if (WriteGraphField) {
      WireFormatLite::WriteTag(GraphDefField, WireFormatLite::WIRETYPE_LENGTH_DELIMITED, &Out);
      Out.WriteVarint64(GraphSize);
      writeGraph(Out);
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

absl::StatusOr<std::string> serializeModel(const Model &M, const WriteOptions &Options) {
  ModelEncoder Encoder(M);
  FROST_RETURN_IF_ERROR(checkWriteSize(Encoder, M, "<memory>", Options.SizeLimit));
  std::string Out;
  {
    google::protobuf::io::StringOutputStream Stream(&Out);
    CodedOutputStream Coded(&Stream);
    Coded.SetSerializationDeterministic(true);
    Encoder.write(Coded);
  }
  return Out;
}

absl::Status writeModel(const Model &M, llvm::StringRef Path, const WriteOptions &Options) {
  if (Options.Enc == Encoding::Text) {
    return writeStringAtomically(Path, printModelText(M));
  }
  ModelEncoder Encoder(M);
  FROST_RETURN_IF_ERROR(checkWriteSize(Encoder, M, Path, Options.SizeLimit));
  return writeFileAtomically(Path, [&](google::protobuf::io::ZeroCopyOutputStream &Stream) {
    CodedOutputStream Coded(&Stream);
    Coded.SetSerializationDeterministic(true);
    Encoder.write(Coded);
    return Coded.HadError() ? absl::InternalError(absl::StrCat(Path.str(), ": write failed"))
                            : absl::OkStatus();
  });
}

} // namespace frost
