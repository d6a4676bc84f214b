//===- ReadModel.cpp - Reading a Model from its container -----------------===//
#include "GraphIOInternal.h"

#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace frost {

namespace {

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
  // Deeper text would overflow the parser's stack; binary input has the same
  // limit from protobuf's CodedInputStream.
  Parser.SetRecursionLimit(MaxMessageDepth);
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
  // A hostile file may hold thousands: name a few.
  constexpr size_t MaxListed = 10;
  size_t Total = Available.size();
  if (Total > MaxListed) {
    Available.resize(MaxListed);
    Available.push_back(absl::StrCat("(and ", Total - MaxListed, " more)"));
  }
  return absl::NotFoundError(absl::StrCat(
      DisplayName.str(), ": no meta graph with tags {",
      absl::StrJoin(Wanted, ","), "}; available tag sets: ", absl::StrJoin(Available, " ")));
}

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
  if (llvm::StringRef(Bytes).trim().empty())
    return absl::InvalidArgumentError(absl::StrCat(
        DisplayName.str(), ": is empty", Bytes.empty() ? "" : " (only blanks)",
        ", not a GraphDef, MetaGraphDef or SavedModel"));
  auto asBinary = [&]() -> absl::StatusOr<std::unique_ptr<Model>> {
    FROST_ASSIGN_OR_RETURN(ContainerKind Kind,
                           detectContainer(Bytes, Encoding::Binary, DisplayName));
    // Text has no such limit of its own; its binary size is checked on writing.
    if (Bytes.size() > Options.SizeLimit)
      return tooBigToRead(Bytes, Kind, DisplayName, Options.SizeLimit);
    return parseBinaryModel(Bytes, Kind, DisplayName, Options);
  };
  if (detectEncoding(Bytes) == Encoding::Binary)
    return asBinary();
  absl::StatusOr<std::unique_ptr<Model>> Text = [&]() -> absl::StatusOr<std::unique_ptr<Model>> {
    FROST_ASSIGN_OR_RETURN(ContainerKind Kind,
                           detectContainer(Bytes, Encoding::Text, DisplayName));
    return parseTextModel(Bytes, Kind, DisplayName, Options);
  }();
  // A binary message can start with printable bytes. Where the text does not
  // parse and text is unlikely (a binary file name, bytes that are not UTF-8),
  // binary is tried; its failure keeps the text error.
  llvm::StringRef Name = llvm::sys::path::filename(DisplayName);
  bool BinaryName = Name.ends_with(".pb") || Name.ends_with(".meta");
  if (Text.ok() || !(BinaryName || !llvm::json::isUTF8(Bytes.take_front(4096))))
    return Text;
  absl::StatusOr<std::unique_ptr<Model>> Binary = asBinary();
  return Binary.ok() ? std::move(Binary) : std::move(Text);
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

std::string modelDisplayName(llvm::StringRef Path) {
  return Path == "-" ? "<stdin>" : Path.str();
}

absl::StatusOr<std::unique_ptr<MappedFile>> openModelFile(Context &Ctx, llvm::StringRef Path) {
  FROST_ASSIGN_OR_RETURN(std::string File, resolveModelFile(Path));
  StreamPolicy Streams;
  Streams.Allow = true;
  Streams.CheckHead = [Name = modelDisplayName(File)](llvm::StringRef Head) {
    return checkModelHead(Head, Name);
  };
  return MappedFile::open(Ctx, File, Streams);
}

absl::StatusOr<std::unique_ptr<Model>> readModel(Context &Ctx, llvm::StringRef Path,
                                                 const ReadOptions &Options) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> Mapped, openModelFile(Ctx, Path));
  return parseModel(Mapped->bytes(), modelDisplayName(Mapped->path()), Options);
}


} // namespace frost
