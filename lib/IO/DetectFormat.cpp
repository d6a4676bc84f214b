//===- DetectFormat.cpp - Text or binary, and which container -------------===//
#include "GraphIOInternal.h"

#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace frost {

Encoding detectEncoding(llvm::StringRef Bytes) {
  // Binary protobuf is full of tags and lengths below 0x20; text has none but
  // whitespace.
  for (char C : Bytes.take_front(4096)) {
    auto U = static_cast<unsigned char>(C);
    if ((U < 0x20 && U != '\t' && U != '\n' && U != '\r') || U == 0x7f)
      return Encoding::Binary;
  }
  // Text starts with a field name or number (an unknown field prints as
  // "8: 118"), a comment or an extension; a tiny binary message may be all
  // printable ("@v": field 8 = 118).
  llvm::StringRef Start = Bytes.ltrim();
  if (!Start.empty() && !llvm::isAlnum(Start[0]) && Start[0] != '_' && Start[0] != '#' &&
      Start[0] != '[')
    return Encoding::Binary;
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

/// Strict: an op name TensorFlow registers ([A-Za-z0-9_>.]); lenient: any
/// printable op, or none (the verifier then names the node and the fault).
bool looksLikeNodeDef(llvm::StringRef Msg, bool Strict) {
  bool HasName = false, HasOp = !Strict;
  bool Ok = allRecords(Msg, [&](const WireRecord &R) {
    if (R.Field > 7)
      return true; // a field from a newer TensorFlow
    if (R.Type != WireType::Bytes)
      return false;
    if (R.Field == 1)
      HasName = isPrintableName(R.Payload);
    if (R.Field == 2)
      HasOp = Strict ? isOpName(R.Payload) : R.Payload.empty() || isPrintableName(R.Payload);
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

bool looksLikeGraphDef(llvm::StringRef Msg, bool Strict = true) {
  return allRecords(Msg, [Strict](const WireRecord &R) {
    switch (R.Field) {
    case 1:
      return R.Type == WireType::Bytes && looksLikeNodeDef(R.Payload, Strict);
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

/// Files users hand a freezer that hold no TensorFlow graph, and what to do
/// instead; empty for anything else.
std::string foreignFormatAdvice(llvm::StringRef Bytes, llvm::StringRef Base) {
  const std::string MakeSavedModel =
      "make a SavedModel with model.export(DIR) (or tf.saved_model.save(model, DIR)) and "
      "freeze DIR";
  if (Bytes.starts_with("\x89HDF\r\n\x1a\n"))
    return absl::StrCat("a Keras HDF5 file (model.save('x.h5')), not a TensorFlow graph: load "
                        "it with keras.models.load_model, then ",
                        MakeSavedModel);
  if (Bytes.starts_with("PK\x03\x04")) {
    if (Base.ends_with(".keras") || Bytes.contains("config.json"))
      return absl::StrCat("a Keras model file (model.save('x.keras')), not a TensorFlow graph: "
                          "load it with keras.models.load_model, then ",
                          MakeSavedModel);
    return "a zip archive, not a TensorFlow graph: unpack it and freeze what it holds";
  }
  // "TFL3" at offset 4 is weak evidence: a file named as a graph keeps its name.
  if (Bytes.size() >= 8 && Bytes.substr(4, 4) == "TFL3" && !Base.ends_with(".meta") &&
      !Base.starts_with("saved_model."))
    return "a TensorFlow Lite model, which is converted already: there is nothing to freeze";
  return "";
}

} // namespace

namespace {

/// A record a GraphDef, MetaGraphDef or SavedModel may hold at its top
/// level: their fields 1 to 7 are messages, but SavedModel's schema version
/// (1) and GraphDef's deprecated version (3), which are numbers.
bool isTopLevelRecord(const WireRecord &R) {
  if (R.Type == WireType::Varint)
    return R.Field == 1 || R.Field == 3;
  return R.Type == WireType::Bytes && R.Field >= 1 && R.Field <= 7;
}

/// Whether `Bytes`, the first bytes of a longer message, can start one: the
/// records it holds whole parse (at the top level: are a model's fields, and
/// their payloads parse), and the record its end cuts is one the rest of the
/// stream may complete, its own start checked so too, `Depth` levels down
/// (one: below a model's fields, a cut payload may be bytes, not a message).
bool canStartMessage(llvm::StringRef Bytes, bool TopLevel, int Depth) {
  WireReader Reader(Bytes);
  WireRecord R;
  while (Reader.next(R)) {
    if (!TopLevel)
      continue;
    if (!isTopLevelRecord(R))
      return false;
    if (R.Type == WireType::Bytes) {
      WireReader Inner(R.Payload);
      WireRecord Field;
      while (Inner.next(Field)) {
      }
      if (Inner.failed())
        return false;
    }
  }
  if (!Reader.failed())
    return true;
  llvm::StringRef Cut = Bytes.drop_front(Reader.offset());
  std::optional<uint64_t> Tag = consumeVarint64(Cut);
  if (!Tag)
    return Cut.size() < 10; // the tag itself is cut
  uint64_t Field = *Tag >> 3, Type = *Tag & 7;
  if (Field == 0 || Type == 3 || Type == 4 || Type > 5)
    return false;
  if (TopLevel && !(Type == 2 ? Field <= 7 : Type == 0 && (Field == 1 || Field == 3)))
    return false;
  if (Type != 2)
    return true; // a number cut short
  std::optional<uint64_t> Length = consumeVarint64(Cut);
  if (!Length)
    return Cut.size() < 10;
  if (*Length <= Cut.size() || *Length > MaxStreamBytes)
    return false;
  return Depth == 0 || canStartMessage(Cut, false, Depth - 1);
}

} // namespace

absl::Status checkModelHead(llvm::StringRef Head, llvm::StringRef DisplayName) {
  if (std::string Advice = foreignFormatAdvice(Head, llvm::sys::path::filename(DisplayName));
      !Advice.empty())
    return absl::InvalidArgumentError(absl::StrCat(DisplayName.str(), ": ", Advice));
  if (Head.empty())
    return absl::OkStatus();
  if (detectEncoding(Head) == Encoding::Text)
    // Text must start with a field of a model (or be blank and comments).
    return detectContainer(Head, Encoding::Text, DisplayName).status();
  // A message starts with a tag: a field number above 0 and a known wire type.
  llvm::StringRef Rest = Head;
  std::optional<uint32_t> Tag = consumeVarint32(Rest);
  uint32_t Type = Tag ? *Tag & 7 : 7;
  if (!Tag || (*Tag >> 3) == 0 || !(Type <= 2 || Type == 5))
    return absl::InvalidArgumentError(absl::StrCat(
        DisplayName.str(), ": not a protobuf file: malformed record at byte 0"));
  // A stream is read whole before it is parsed: one whose first bytes
  // cannot start a model (/dev/urandom, garbage without end) is refused now,
  // not after gigabytes.
  if (Head.size() >= StreamHeadBytes && !canStartMessage(Head, /*TopLevel=*/true, /*Depth=*/1))
    return absl::InvalidArgumentError(absl::StrCat(
        DisplayName.str(), ": its first ", Head.size(),
        " bytes cannot start a GraphDef, MetaGraphDef or SavedModel; stopped reading there"));
  return absl::OkStatus();
}

absl::StatusOr<ContainerKind> detectContainer(llvm::StringRef Bytes, Encoding Enc,
                                              llvm::StringRef DisplayName) {
  llvm::StringRef Base = llvm::sys::path::filename(DisplayName);
  // Another format's magic bytes, unless the bytes are a graph after all (a
  // MetaGraphDef may hold "TFL3" at offset 4).
  if (std::string Advice = foreignFormatAdvice(Bytes, Base);
      !Advice.empty() && !(Enc == Encoding::Binary &&
                           (looksLikeGraphDef(Bytes) || looksLikeMetaGraphDef(Bytes) ||
                            looksLikeSavedModel(Bytes))))
    return absl::InvalidArgumentError(absl::StrCat(DisplayName.str(), ": ", Advice));
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
  // Nodes with odd ops ("a<b", none) are still nodes: the verifier names
  // them, as it does in text, rather than a MetaGraphDef failing to parse.
  if (looksLikeGraphDef(Bytes, /*Strict=*/false))
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

} // namespace frost
