//===- BundleReader.cpp - V2 checkpoints (tensor bundles) -----------------===//
//
// The whole index is read and validated when the bundle is opened; data shards
// are mapped on first use and shared with the tensors that point into them.
//
//===----------------------------------------------------------------------===//
#include "Readers.h"
#include "frost/Checkpoint/Crc32c.h"
#include "frost/Checkpoint/Table.h"
#include "frost/Checkpoint/TensorSlice.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Support/Context.h"
#include "frost/Support/File.h"
#include "frost/Support/Wire.h"
#include "frost/proto/checkpoint.pb.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "llvm/ADT/StringMap.h"

#include <bit>
#include <map>
#include <mutex>

namespace frost {

namespace {

/// The bundle format version this reader implements.
constexpr int BundleVersion = 1;

// Byte swapping below assumes a little-endian host, like the rest of Frost.
static_assert(std::endian::native == std::endian::little);

std::string quote(llvm::StringRef Key) {
  return absl::StrCat("'", absl::CHexEscape(Key.str()), "'");
}

uint32_t loadLE32(const char *P) {
  uint32_t V;
  std::memcpy(&V, P, 4);
  return V;
}

class BundleReader final : public CheckpointReader {
public:
  BundleReader(Context &Ctx, std::string Prefix, const CheckpointOptions &Options)
      : CheckpointReader(Ctx, std::move(Prefix), Options) {}

  absl::Status init();
  absl::StatusOr<TensorData> read(llvm::StringRef Name) const override;

private:
  struct Entry {
    tensorflow::BundleEntryProto Proto;
    std::vector<int64_t> Shape;
  };

  absl::Status addEntry(llvm::StringRef Key, llvm::StringRef Value);
  absl::StatusOr<std::shared_ptr<const MappedFile>> shard(int Id) const;
  /// Reads one stored (unsliced) entry.
  absl::StatusOr<TensorData> readStored(llvm::StringRef Key, const Entry &E) const;
  absl::StatusOr<TensorData> readStrings(const Entry &E, llvm::StringRef Data,
                                         const std::string &Where) const;
  absl::StatusOr<TensorData> readVariants(const Entry &E, llvm::StringRef Data,
                                          const std::string &Where) const;
  absl::StatusOr<TensorData> readPartitioned(llvm::StringRef Name, const Entry &E) const;
  static absl::Status checkCrc(uint32_t Stored, uint32_t Computed, const std::string &Where);

  std::string IndexPath;
  llvm::StringMap<Entry> Entries; // every key but the header, slices included
  bool Swap = false;
  mutable std::mutex ShardMutex;
  mutable std::map<int, std::shared_ptr<const MappedFile>> Shards;
};

absl::Status BundleReader::init() {
  IndexPath = indexPath(Prefix);
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<Table> Index, Table::open(Ctx, IndexPath));
  Header.Format = CheckpointFormat::V2;
  Header.IndexFiles = {IndexPath};

  bool SawHeader = false;
  std::string PrevKey;
  FROST_RETURN_IF_ERROR(Index->forEach([&](llvm::StringRef Key, llvm::StringRef Value) {
    if (!SawHeader) {
      if (!Key.empty())
        return absl::DataLossError(absl::StrCat(IndexPath, ": the first key is ", quote(Key),
                                                ", not the empty header key"));
      SawHeader = true;
      tensorflow::BundleHeaderProto H;
      if (!H.ParseFromArray(Value.data(), static_cast<int>(Value.size())))
        return absl::DataLossError(
            absl::StrCat(IndexPath, ": header entry: not a BundleHeaderProto"));
      const tensorflow::VersionDef &V = H.version();
      if (V.min_consumer() > BundleVersion)
        return absl::InvalidArgumentError(absl::StrCat(
            IndexPath, ": header entry: the checkpoint needs a reader of version ",
            V.min_consumer(), " or newer; this reader implements version ", BundleVersion));
      for (int Bad : V.bad_consumers())
        if (Bad == BundleVersion)
          return absl::InvalidArgumentError(absl::StrCat(
              IndexPath, ": header entry: the checkpoint disallows reader version ", Bad));
      if (V.producer() < 0)
        return absl::InvalidArgumentError(absl::StrCat(
            IndexPath, ": header entry: invalid producer version ", V.producer()));
      if (H.num_shards() < 0 || H.num_shards() > 1000000)
        return absl::DataLossError(absl::StrCat(IndexPath, ": header entry: invalid num_shards ",
                                                H.num_shards()));
      if (H.endianness() != tensorflow::BundleHeaderProto::LITTLE &&
          H.endianness() != tensorflow::BundleHeaderProto::BIG)
        return absl::DataLossError(absl::StrCat(IndexPath, ": header entry: unknown endianness ",
                                                static_cast<int>(H.endianness())));
      Header.NumShards = H.num_shards();
      Header.BigEndian = H.endianness() == tensorflow::BundleHeaderProto::BIG;
      Header.Producer = V.producer();
      Header.MinConsumer = V.min_consumer();
      Swap = Header.BigEndian;
      PrevKey.clear();
      return absl::OkStatus();
    }
    if (Key.compare(PrevKey) <= 0)
      return absl::DataLossError(absl::StrCat(IndexPath, ": key ", quote(Key),
                                              " is out of order (after ", quote(PrevKey), ")"));
    PrevKey = Key.str();
    return addEntry(Key, Value);
  }));
  if (!SawHeader)
    return absl::DataLossError(absl::StrCat(IndexPath, ": empty table: no header entry"));

  // Listing: every entry but slices, with partitioned sizes summed.
  for (const auto &KV : Entries) {
    llvm::StringRef Key = KV.getKey();
    if (isSliceKey(Key))
      continue;
    const Entry &E = KV.getValue();
    VariableInfo Info;
    Info.Name = Key.str();
    Info.DType = E.Proto.dtype();
    Info.Shape = E.Shape;
    if (E.Proto.slices().empty()) {
      Info.ByteSize = static_cast<uint64_t>(E.Proto.size());
      Info.ShardId = E.Proto.shard_id();
    } else {
      Info.IsPartitioned = true;
      Info.NumSlices = static_cast<unsigned>(E.Proto.slices_size());
      std::optional<int> Shard;
      for (const auto &S : E.Proto.slices()) {
        auto It = Entries.find(encodeTensorNameSlice(Key, S));
        if (It == Entries.end())
          continue;
        Info.ByteSize += static_cast<uint64_t>(It->getValue().Proto.size());
        int Id = It->getValue().Proto.shard_id();
        Shard = !Shard || *Shard == Id ? Id : -1;
      }
      Info.ShardId = Shard.value_or(-1);
    }
    Variables.push_back(std::move(Info));
  }
  sortVariables();
  return absl::OkStatus();
}

absl::Status BundleReader::addEntry(llvm::StringRef Key, llvm::StringRef Value) {
  Entry E;
  if (!E.Proto.ParseFromArray(Value.data(), static_cast<int>(Value.size())))
    return absl::DataLossError(
        absl::StrCat(IndexPath, ": entry ", quote(Key), ": not a BundleEntryProto"));
  absl::StatusOr<std::vector<int64_t>> Shape = shapeFromProto(E.Proto.shape());
  if (!Shape.ok())
    return absl::DataLossError(absl::StrCat(IndexPath, ": entry ", quote(Key), ": ",
                                            Shape.status().message()));
  E.Shape = *std::move(Shape);
  if (E.Proto.size() < 0 || E.Proto.offset() < 0)
    return absl::DataLossError(absl::StrCat(IndexPath, ": entry ", quote(Key),
                                            ": negative offset ", E.Proto.offset(), " or size ",
                                            E.Proto.size()));
  for (const auto &S : E.Proto.slices()) {
    absl::StatusOr<std::vector<int64_t>> SliceShape = sliceShape(E.Shape, sliceExtents(S));
    if (!SliceShape.ok())
      return absl::DataLossError(absl::StrCat(IndexPath, ": entry ", quote(Key), ": bad slice: ",
                                              SliceShape.status().message()));
  }
  Entries.try_emplace(Key, std::move(E));
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const MappedFile>> BundleReader::shard(int Id) const {
  std::lock_guard<std::mutex> Lock(ShardMutex);
  std::shared_ptr<const MappedFile> &Slot = Shards[Id];
  if (!Slot) {
    FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> File,
                           MappedFile::open(Ctx, dataShardPath(Prefix, Id, Header.NumShards)));
    Slot = std::move(File);
  }
  return Slot;
}

absl::Status BundleReader::checkCrc(uint32_t Stored, uint32_t Computed,
                                    const std::string &Where) {
  if (crc32c::unmask(Stored) == Computed || ChecksumsAreAdvisory)
    return absl::OkStatus();
  return absl::DataLossError(
      absl::StrFormat("%s: checksum mismatch (stored 0x%08x, computed 0x%08x)", Where, Stored,
                      crc32c::mask(Computed)));
}

absl::StatusOr<TensorData> BundleReader::read(llvm::StringRef Name) const {
  auto It = Entries.find(Name);
  if (It == Entries.end() || isSliceKey(Name))
    return absl::NotFoundError(
        absl::StrCat(Prefix, ": no variable ", quote(Name), " in the checkpoint"));
  const Entry &E = It->getValue();
  if (!E.Proto.slices().empty())
    return readPartitioned(Name, E);
  return readStored(Name, E);
}

absl::StatusOr<TensorData> BundleReader::readStored(llvm::StringRef Key, const Entry &E) const {
  const tensorflow::BundleEntryProto &P = E.Proto;
  if (P.shard_id() < 0 || P.shard_id() >= Header.NumShards)
    return absl::DataLossError(absl::StrCat(IndexPath, ": entry ", quote(Key), ": shard_id ",
                                            P.shard_id(), " out of range (the bundle has ",
                                            Header.NumShards, " shards)"));
  FROST_ASSIGN_OR_RETURN(std::shared_ptr<const MappedFile> File, shard(P.shard_id()));
  llvm::StringRef Bytes = File->bytes();
  std::string Where =
      absl::StrCat(File->path(), ": tensor ", quote(Key), " at offset ", P.offset());
  uint64_t Offset = static_cast<uint64_t>(P.offset()), Size = static_cast<uint64_t>(P.size());
  if (Offset > Bytes.size() || Size > Bytes.size() - Offset)
    return absl::DataLossError(absl::StrCat(Where, ": ", Size,
                                            " bytes run past the end of the file (",
                                            Bytes.size(), " bytes)"));
  llvm::StringRef Data = Bytes.substr(Offset, Size);
  int64_t N = 1;
  for (int64_t D : E.Shape)
    N *= D; // validated when the index was read

  tensorflow::DataType DType = P.dtype();
  if (DType == tensorflow::DT_STRING)
    return readStrings(E, Data, Where);
  if (DType == tensorflow::DT_VARIANT)
    return readVariants(E, Data, Where);
  size_t Width = dataTypeSize(DType);
  if (Width == 0 || baseDataType(DType) != DType)
    return absl::UnimplementedError(
        absl::StrCat(Where, ": cannot read a tensor of dtype ", dataTypeName(DType)));
  uint64_t Expected;
  if (__builtin_mul_overflow(static_cast<uint64_t>(N), Width, &Expected) || Expected != Size)
    return absl::DataLossError(absl::StrCat(Where, ": stored size ", Size, " bytes, expected ", N,
                                            " elements of ", Width, " bytes"));
  if (Options.VerifyChecksums) {
    auto check = [File, Data, Stored = P.crc32c(), Where,
                  &Mappings = Ctx.mappings()]() -> absl::Status {
      // Read, not faulted in: checking a large checkpoint leaves none of it
      // resident (writers copy it file to file).
      uint32_t Crc = 0;
      if (absl::Status S = Mappings.readBytes(
              Data, [&](llvm::StringRef Piece) {
                Crc = crc32c::extend(Crc, Piece.data(), Piece.size());
              });
          !S.ok())
        return absl::DataLossError(absl::StrCat(Where, ": ", S.message()));
      return checkCrc(Stored, Crc, Where);
    };
    if (Options.ChecksumsInBackground) {
      // Even small tensors: a cold one read here would wait for the disk.
      Ctx.mappings().prefetchPages(Data);
      Ctx.background().run(std::move(check));
    }
    else
      FROST_RETURN_IF_ERROR(check());
  }
  if (Swap && Width > 1) {
    std::string Copy = Data.str();
    byteSwapElements(DType, Copy.data(), Copy.size());
    return TensorData::owned(DType, E.Shape, std::move(Copy));
  }
  return TensorData::borrowed(DType, E.Shape, Data, File);
}

// Layout: N varint64 lengths, masked CRC of the lengths, the bytes. The running
// CRC covers each length as a 4-byte (8 if >= 2^32) image in the producer's
// byte order, the stored length CRC, then the string bytes.
absl::StatusOr<TensorData> BundleReader::readStrings(const Entry &E, llvm::StringRef Data,
                                                     const std::string &Where) const {
  int64_t N = 1;
  for (int64_t D : E.Shape)
    N *= D;
  if (Data.empty() && N == 0)
    return TensorData::strings(tensorflow::DT_STRING, E.Shape, {});
  // Each element takes at least one length byte.
  if (static_cast<uint64_t>(N) > Data.size())
    return absl::DataLossError(absl::StrCat(Where, ": ", N, " strings cannot fit in ",
                                            Data.size(), " bytes"));
  // First pass over the lengths: validate and checksum them without
  // allocating anything, so corrupt counts cannot drive allocations.
  llvm::StringRef In = Data;
  uint32_t Crc = 0;
  uint64_t Total = 0;
  bool Overflow = false;
  for (int64_t I = 0; I < N; ++I) {
    std::optional<uint64_t> L = consumeVarint64(In);
    if (!L)
      return absl::DataLossError(absl::StrCat(Where, ": string length ", I, " at offset ",
                                              Data.size() - In.size(),
                                              " of the entry is truncated or malformed"));
    Overflow |= __builtin_add_overflow(Total, *L, &Total);
    if (*L <= UINT32_MAX) {
      uint32_t V = static_cast<uint32_t>(*L);
      if (Swap)
        V = __builtin_bswap32(V);
      Crc = crc32c::extend(Crc, reinterpret_cast<const char *>(&V), 4);
    } else {
      uint64_t V = Swap ? __builtin_bswap64(*L) : *L;
      Crc = crc32c::extend(Crc, reinterpret_cast<const char *>(&V), 8);
    }
  }
  llvm::StringRef LengthBytes = Data.take_front(Data.size() - In.size());
  if (In.size() < 4)
    return absl::DataLossError(
        absl::StrCat(Where, ": string lengths run into the end of the entry"));
  uint32_t Stored = loadLE32(In.data());
  if (Swap)
    Stored = __builtin_bswap32(Stored);
  if (crc32c::unmask(Stored) != Crc && !ChecksumsAreAdvisory)
    return absl::DataLossError(absl::StrFormat(
        "%s: string length checksum mismatch (stored 0x%08x, computed 0x%08x)", Where, Stored,
        crc32c::mask(Crc)));
  Crc = crc32c::extend(Crc, In.data(), 4);
  llvm::StringRef StringBytes = In.drop_front(4);
  if (Overflow || Total != StringBytes.size()) {
    // Name the first string that does not fit, or the bytes left over.
    llvm::StringRef Lengths = LengthBytes;
    uint64_t Left = StringBytes.size();
    for (int64_t I = 0; I < N; ++I) {
      uint64_t L = *consumeVarint64(Lengths);
      if (L > Left)
        return absl::DataLossError(absl::StrCat(Where, ": string ", I, " of ", L,
                                                " bytes overflows the entry (", Left,
                                                " bytes left)"));
      Left -= L;
    }
    return absl::DataLossError(
        absl::StrCat(Where, ": ", Left, " unused bytes after the strings"));
  }
  std::vector<std::string> Strings;
  Strings.reserve(static_cast<size_t>(N));
  llvm::StringRef Lengths = LengthBytes, Rest = StringBytes;
  for (int64_t I = 0; I < N; ++I) {
    uint64_t L = *consumeVarint64(Lengths);
    Strings.emplace_back(Rest.data(), L);
    Rest = Rest.drop_front(L);
  }
  if (Options.VerifyChecksums) {
    // The string bytes are contiguous: one pass over all of them.
    Crc = crc32c::extend(Crc, StringBytes.data(), StringBytes.size());
    FROST_RETURN_IF_ERROR(checkCrc(E.Proto.crc32c(), Crc, Where));
  }
  return TensorData::strings(tensorflow::DT_STRING, E.Shape, std::move(Strings));
}

// Layout per element: varint64 length L, L bytes of VariantTensorDataProto,
// masked running CRC (over L as 8 bytes, the bytes, and previous checksums).
absl::StatusOr<TensorData> BundleReader::readVariants(const Entry &E, llvm::StringRef Data,
                                                      const std::string &Where) const {
  if (Swap)
    return absl::UnimplementedError(
        absl::StrCat(Where, ": variant tensors from big-endian producers are not supported"));
  int64_t N = 1;
  for (int64_t D : E.Shape)
    N *= D;
  if (Data.empty() && N == 0)
    return TensorData::strings(tensorflow::DT_VARIANT, E.Shape, {});
  // Each element takes at least 5 bytes (length and checksum).
  if (static_cast<uint64_t>(N) > Data.size() / 5)
    return absl::DataLossError(absl::StrCat(Where, ": ", N, " variant elements cannot fit in ",
                                            Data.size(), " bytes"));
  std::vector<std::string> Elements;
  Elements.reserve(static_cast<size_t>(N));
  llvm::StringRef In = Data;
  uint32_t Crc = 0;
  for (int64_t I = 0; I < N; ++I) {
    size_t At = Data.size() - In.size();
    std::optional<uint64_t> L = consumeVarint64(In);
    if (!L || *L > In.size() || In.size() - *L < 4)
      return absl::DataLossError(absl::StrCat(Where, ": variant element ", I, " at offset ", At,
                                              " of the entry overflows the entry"));
    uint64_t Length = *L;
    Crc = crc32c::extend(Crc, reinterpret_cast<const char *>(&Length), 8);
    Crc = crc32c::extend(Crc, In.data(), Length);
    Elements.emplace_back(In.data(), Length);
    In = In.drop_front(Length);
    uint32_t Stored = loadLE32(In.data());
    if (crc32c::unmask(Stored) != Crc && !ChecksumsAreAdvisory)
      return absl::DataLossError(absl::StrFormat(
          "%s: variant element %d checksum mismatch (stored 0x%08x, computed 0x%08x)", Where, I,
          Stored, crc32c::mask(Crc)));
    Crc = crc32c::extend(Crc, In.data(), 4);
    In = In.drop_front(4);
  }
  if (!In.empty())
    return absl::DataLossError(
        absl::StrCat(Where, ": ", In.size(), " unused bytes after the variant elements"));
  if (Options.VerifyChecksums)
    FROST_RETURN_IF_ERROR(checkCrc(E.Proto.crc32c(), Crc, Where));
  return TensorData::strings(tensorflow::DT_VARIANT, E.Shape, std::move(Elements));
}

absl::StatusOr<TensorData> BundleReader::readPartitioned(llvm::StringRef Name,
                                                         const Entry &E) const {
  std::string Where = absl::StrCat(IndexPath, ": partitioned tensor ", quote(Name));
  tensorflow::DataType DType = E.Proto.dtype();
  std::vector<StoredSlice> Slices;
  Slices.reserve(E.Proto.slices_size());
  for (const auto &S : E.Proto.slices()) {
    std::vector<SliceExtent> Extents = sliceExtents(S);
    std::string Key = encodeTensorNameSlice(Name, Extents);
    auto It = Entries.find(Key);
    if (It == Entries.end())
      return absl::DataLossError(
          absl::StrCat(Where, ": no entry for its slice under key ", quote(Key)));
    const Entry &SliceEntry = It->getValue();
    if (!SliceEntry.Proto.slices().empty())
      return absl::DataLossError(
          absl::StrCat(IndexPath, ": slice entry ", quote(Key), " is itself partitioned"));
    // Checked against the full shape when the index was read.
    std::vector<int64_t> Expected = *sliceShape(E.Shape, Extents);
    if (SliceEntry.Proto.dtype() != DType || SliceEntry.Shape != Expected)
      return absl::DataLossError(absl::StrCat(
          IndexPath, ": slice entry ", quote(Key), " is ", dataTypeName(SliceEntry.Proto.dtype()),
          formatShape(SliceEntry.Shape), ", expected ", dataTypeName(DType),
          formatShape(Expected)));
    FROST_ASSIGN_OR_RETURN(TensorData Data, readStored(Key, SliceEntry));
    Slices.emplace_back(std::move(Extents), std::move(Data));
  }
  return assembleSlices(DType, E.Shape, Slices, Where);
}

} // namespace

absl::StatusOr<std::unique_ptr<CheckpointReader>> openBundle(Context &Ctx, llvm::StringRef Prefix,
                                                             const CheckpointOptions &Options) {
  auto Reader = std::make_unique<BundleReader>(Ctx, Prefix.str(), Options);
  FROST_RETURN_IF_ERROR(Reader->init());
  return std::unique_ptr<CheckpointReader>(std::move(Reader));
}

} // namespace frost
