//===- V1Reader.cpp - V1 checkpoints (SavedTensorSlices tables) -----------===//
//
// Each table file holds, under the empty key, the list of tensors and slices
// it stores, and each slice's values as a TensorProto under the slice's key.
//
//===----------------------------------------------------------------------===//
#include "Readers.h"
#include "frost/Checkpoint/Table.h"
#include "frost/Checkpoint/TensorSlice.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/proto/checkpoint.pb.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringMap.h"

namespace frost {

namespace {

/// The V1 format version this reader implements.
constexpr int SliceVersion = 1;

std::string quote(llvm::StringRef Key) {
  return absl::StrCat("'", absl::CHexEscape(Key.str()), "'");
}

class V1Reader final : public CheckpointReader {
public:
  V1Reader(Context &Ctx, std::string Prefix, const CheckpointOptions &Options)
      : CheckpointReader(Ctx, std::move(Prefix), Options) {}

  absl::Status init(std::vector<std::string> Files);
  absl::StatusOr<TensorData> read(llvm::StringRef Name) const override;

private:
  struct StoredSliceRef {
    size_t File;
    tensorflow::TensorSliceProto Slice;
    std::vector<SliceExtent> Extents; // full extents filled in for rank > 0
    std::vector<int64_t> Shape;
  };
  struct TensorMeta {
    tensorflow::DataType DType;
    std::vector<int64_t> Shape;
    std::vector<StoredSliceRef> Slices;
  };

  absl::Status addFile(size_t Index);

  std::vector<std::unique_ptr<Table>> Tables;
  llvm::StringMap<TensorMeta> Tensors;
};

absl::Status V1Reader::init(std::vector<std::string> Files) {
  Header.Format = CheckpointFormat::V1;
  Header.NumShards = static_cast<int>(Files.size());
  Header.IndexFiles = Files;
  for (size_t I = 0; I < Files.size(); ++I) {
    FROST_ASSIGN_OR_RETURN(std::unique_ptr<Table> T, Table::open(Ctx, Files[I]));
    Tables.push_back(std::move(T));
    FROST_RETURN_IF_ERROR(addFile(I));
  }
  for (const auto &KV : Tensors) {
    const TensorMeta &T = KV.getValue();
    VariableInfo Info;
    Info.Name = KV.getKey().str();
    Info.DType = T.DType;
    Info.Shape = T.Shape;
    int64_t N = 1;
    for (int64_t D : T.Shape)
      N *= D;
    Info.ByteSize = static_cast<uint64_t>(N) * dataTypeSize(T.DType);
    Info.NumSlices = static_cast<unsigned>(T.Slices.size());
    Info.IsPartitioned = T.Slices.size() != 1 || T.Slices[0].Shape != T.Shape;
    Info.ShardId = T.Slices.empty() ? -1 : static_cast<int>(T.Slices[0].File);
    for (const StoredSliceRef &S : T.Slices)
      if (static_cast<int>(S.File) != Info.ShardId)
        Info.ShardId = -1;
    Variables.push_back(std::move(Info));
  }
  sortVariables();
  return absl::OkStatus();
}

absl::Status V1Reader::addFile(size_t Index) {
  const Table &T = *Tables[Index];
  absl::StatusOr<std::string> Value = T.get("");
  if (absl::IsNotFound(Value.status()))
    return absl::DataLossError(
        absl::StrCat(T.name(), ": not a V1 checkpoint: no metadata under the empty key"));
  FROST_RETURN_IF_ERROR(Value.status());
  tensorflow::SavedTensorSlices Record;
  if (!Record.ParseFromString(*Value) || !Record.has_meta())
    return absl::DataLossError(absl::StrCat(
        T.name(), ": not a V1 checkpoint: no SavedTensorSliceMeta under the empty key"));
  const tensorflow::SavedTensorSliceMeta &Meta = Record.meta();
  if (Meta.versions().min_consumer() > SliceVersion)
    return absl::InvalidArgumentError(
        absl::StrCat(T.name(), ": the checkpoint needs a reader of version ",
                     Meta.versions().min_consumer(), " or newer; this reader implements version ",
                     SliceVersion));
  for (int Bad : Meta.versions().bad_consumers())
    if (Bad == SliceVersion)
      return absl::InvalidArgumentError(
          absl::StrCat(T.name(), ": the checkpoint disallows reader version ", Bad));

  for (const tensorflow::SavedSliceMeta &M : Meta.tensor()) {
    std::string Where = absl::StrCat(T.name(), ": tensor ", quote(M.name()));
    absl::StatusOr<std::vector<int64_t>> Shape = shapeFromProto(M.shape());
    if (!Shape.ok())
      return absl::DataLossError(absl::StrCat(Where, ": ", Shape.status().message()));
    auto [It, Inserted] = Tensors.try_emplace(M.name(), TensorMeta{M.type(), *Shape, {}});
    TensorMeta &Tensor = It->getValue();
    if (!Inserted && (Tensor.DType != M.type() || Tensor.Shape != *Shape))
      return absl::DataLossError(absl::StrCat(
          Where, ": ", dataTypeName(M.type()), formatShape(*Shape),
          " conflicts with an earlier file's ", dataTypeName(Tensor.DType),
          formatShape(Tensor.Shape)));
    for (const tensorflow::TensorSliceProto &S : M.slice()) {
      StoredSliceRef Ref{Index, S, sliceExtents(S), {}};
      // An empty slice proto stands for the whole tensor.
      if (Ref.Extents.empty())
        Ref.Extents.assign(Shape->size(), SliceExtent{});
      absl::StatusOr<std::vector<int64_t>> SliceShape = sliceShape(*Shape, Ref.Extents);
      if (!SliceShape.ok())
        return absl::DataLossError(
            absl::StrCat(Where, ": bad slice: ", SliceShape.status().message()));
      Ref.Shape = *std::move(SliceShape);
      Tensor.Slices.push_back(std::move(Ref));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorData> V1Reader::read(llvm::StringRef Name) const {
  auto It = Tensors.find(Name);
  if (It == Tensors.end())
    return absl::NotFoundError(
        absl::StrCat(Prefix, ": no variable ", quote(Name), " in the checkpoint"));
  const TensorMeta &Tensor = It->getValue();
  std::vector<StoredSlice> Slices;
  for (const StoredSliceRef &S : Tensor.Slices) {
    const Table &T = *Tables[S.File];
    std::string Key = encodeTensorNameSlice(Name, S.Slice);
    std::string Where = absl::StrCat(T.name(), ": tensor ", quote(Name), " slice key ", quote(Key));
    absl::StatusOr<std::string> Value = T.get(Key);
    if (absl::IsNotFound(Value.status()))
      return absl::DataLossError(absl::StrCat(Where, ": missing"));
    FROST_RETURN_IF_ERROR(Value.status());
    tensorflow::SavedTensorSlices Record;
    if (!Record.ParseFromString(*Value) || !Record.has_data())
      return absl::DataLossError(absl::StrCat(Where, ": not a SavedSlice record"));
    if (Record.data().name() != Name)
      return absl::DataLossError(
          absl::StrCat(Where, ": record names tensor ", quote(Record.data().name())));
    FROST_ASSIGN_OR_RETURN(TensorData Data, decodeTensorValues(Tensor.DType, S.Shape,
                                                               Record.data().data(), Where,
                                                               /*Exact=*/true));
    if (Tensor.Slices.size() == 1 && S.Shape == Tensor.Shape)
      return Data;
    Slices.emplace_back(S.Extents, std::move(Data));
  }
  return assembleSlices(Tensor.DType, Tensor.Shape, Slices,
                        absl::StrCat(Prefix, ": tensor ", quote(Name)));
}

} // namespace

absl::StatusOr<std::unique_ptr<CheckpointReader>> openV1(Context &Ctx, llvm::StringRef Prefix,
                                                         std::vector<std::string> Files,
                                                         const CheckpointOptions &Options) {
  auto Reader = std::make_unique<V1Reader>(Ctx, Prefix.str(), Options);
  FROST_RETURN_IF_ERROR(Reader->init(std::move(Files)));
  return std::unique_ptr<CheckpointReader>(std::move(Reader));
}

} // namespace frost
