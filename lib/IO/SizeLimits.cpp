//===- SizeLimits.cpp - The biggest nodes of a graph too big --------------===//
#include "GraphIOInternal.h"

#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <algorithm>

namespace frost {

namespace {

/// A node's record inside a binary file: its offset and size.
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

} // namespace

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

} // namespace frost
