//===- Table.cpp - Immutable sorted string tables --------------------------===//
#include "frost/Checkpoint/Table.h"
#include "Readers.h"
#include "frost/Checkpoint/Crc32c.h"
#include "frost/Support/File.h"
#include "frost/Support/Wire.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "snappy.h"

namespace frost {

static uint32_t decodeFixed32(const char *P) {
  const auto *U = reinterpret_cast<const uint8_t *>(P);
  return static_cast<uint32_t>(U[0]) | (static_cast<uint32_t>(U[1]) << 8) |
         (static_cast<uint32_t>(U[2]) << 16) | (static_cast<uint32_t>(U[3]) << 24);
}

static uint64_t decodeFixed64(const char *P) {
  return static_cast<uint64_t>(decodeFixed32(P)) |
         (static_cast<uint64_t>(decodeFixed32(P + 4)) << 32);
}

bool consumeBlockHandle(llvm::StringRef &In, BlockHandle &Handle) {
  llvm::StringRef Copy = In;
  std::optional<uint64_t> Offset = consumeVarint64(Copy);
  if (!Offset)
    return false;
  std::optional<uint64_t> Size = consumeVarint64(Copy);
  if (!Size)
    return false;
  Handle = {*Offset, *Size};
  In = Copy;
  return true;
}

//===----------------------------------------------------------------------===//
// Block
//===----------------------------------------------------------------------===//

absl::StatusOr<Block> Block::create(llvm::StringRef Contents, std::string Where,
                                    std::shared_ptr<const std::string> Owner) {
  if (Contents.size() < 4)
    return absl::DataLossError(
        absl::StrCat(Where, ": block too small (", Contents.size(), " bytes, need at least 4)"));
  if (Contents.size() > UINT32_MAX)
    return absl::DataLossError(
        absl::StrCat(Where, ": block too large (", Contents.size(), " bytes)"));
  uint32_t NumRestarts = decodeFixed32(Contents.data() + Contents.size() - 4);
  uint64_t MaxRestarts = (Contents.size() - 4) / 4;
  if (NumRestarts > MaxRestarts)
    return absl::DataLossError(absl::StrCat(Where, ": restart count ", NumRestarts,
                                            " does not fit in a block of ", Contents.size(),
                                            " bytes"));
  uint32_t RestartsOffset = static_cast<uint32_t>(Contents.size() - 4 - 4ull * NumRestarts);
  if (NumRestarts == 0 && RestartsOffset != 0)
    return absl::DataLossError(
        absl::StrCat(Where, ": block has entries but no restart points"));
  for (uint32_t I = 0; I < NumRestarts; ++I) {
    uint32_t R = decodeFixed32(Contents.data() + RestartsOffset + 4ull * I);
    // == RestartsOffset happens in an empty block, which has one restart.
    if (R > RestartsOffset)
      return absl::DataLossError(absl::StrCat(Where, ": restart point ", I, " (offset ", R,
                                              ") is past the entries, which end at offset ",
                                              RestartsOffset));
  }
  Block B;
  B.Contents = Contents;
  B.RestartsOffset = RestartsOffset;
  B.NumRestarts = NumRestarts;
  B.Where = std::make_shared<const std::string>(std::move(Where));
  B.Owner = std::move(Owner);
  return B;
}

Block::Iterator::Iterator(const Block &B) : B(&B) {}

uint32_t Block::Iterator::restartOffset(uint32_t Index) const {
  assert(Index < B->NumRestarts);
  return decodeFixed32(B->Contents.data() + B->RestartsOffset + 4ull * Index);
}

void Block::Iterator::fail(uint32_t Offset, const std::string &Message) {
  Valid = false;
  if (Status.ok())
    Status = absl::DataLossError(
        absl::StrCat(*B->Where, ": entry at offset ", Offset, ": ", Message));
}

bool Block::Iterator::parseEntryAt(uint32_t Offset) {
  Current = Offset;
  if (Offset >= B->RestartsOffset) {
    Valid = false;
    return false;
  }
  llvm::StringRef In = B->Contents.slice(Offset, B->RestartsOffset);
  std::optional<uint32_t> Shared = consumeVarint32(In);
  std::optional<uint32_t> NonShared = Shared ? consumeVarint32(In) : std::nullopt;
  std::optional<uint32_t> ValueLen = NonShared ? consumeVarint32(In) : std::nullopt;
  if (!ValueLen) {
    fail(Offset, "truncated entry header");
    return false;
  }
  if (*Shared > Key.size()) {
    fail(Offset, absl::StrCat("shares ", *Shared, " key bytes but the previous key has ",
                              Key.size()));
    return false;
  }
  if (static_cast<uint64_t>(*NonShared) + *ValueLen > In.size()) {
    fail(Offset, absl::StrCat("key delta (", *NonShared, " bytes) and value (", *ValueLen,
                              " bytes) run past the entries, which end at offset ",
                              B->RestartsOffset));
    return false;
  }
  Key.resize(*Shared);
  Key.append(In.data(), *NonShared);
  Value = In.substr(*NonShared, *ValueLen);
  NextOffset = static_cast<uint32_t>(Value.end() - B->Contents.begin());
  Valid = true;
  return true;
}

void Block::Iterator::seekToRestart(uint32_t Index) {
  Key.clear();
  parseEntryAt(restartOffset(Index));
}

void Block::Iterator::seekToFirst() {
  Key.clear();
  if (!Status.ok())
    return;
  if (B->NumRestarts == 0) {
    Valid = false;
    return;
  }
  seekToRestart(0);
}

void Block::Iterator::next() {
  if (!Valid)
    return;
  parseEntryAt(NextOffset);
}

void Block::Iterator::seek(llvm::StringRef Target) {
  Valid = false;
  if (!Status.ok() || B->NumRestarts == 0)
    return;
  // Binary search for the last restart point whose key is < Target.
  uint32_t Left = 0, Right = B->NumRestarts - 1;
  while (Left < Right) {
    uint32_t Mid = Left + (Right - Left + 1) / 2;
    seekToRestart(Mid);
    if (!Valid)
      return;
    if (llvm::StringRef(Key).compare(Target) < 0)
      Left = Mid;
    else
      Right = Mid - 1;
  }
  seekToRestart(Left);
  while (Valid && llvm::StringRef(Key).compare(Target) < 0)
    next();
}

//===----------------------------------------------------------------------===//
// Table
//===----------------------------------------------------------------------===//

absl::StatusOr<std::unique_ptr<Table>> Table::open(Context &Ctx, llvm::StringRef Path) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> File, MappedFile::open(Ctx, Path));
  return open(std::shared_ptr<const MappedFile>(std::move(File)));
}

absl::StatusOr<std::unique_ptr<Table>> Table::open(std::shared_ptr<const MappedFile> File) {
  std::unique_ptr<Table> T(new Table());
  T->Name = File->path();
  T->Bytes = File->bytes();
  T->File = std::move(File);
  FROST_RETURN_IF_ERROR(T->init());
  return T;
}

absl::StatusOr<std::unique_ptr<Table>> Table::fromBytes(std::string Name, llvm::StringRef Bytes) {
  std::unique_ptr<Table> T(new Table());
  T->Name = std::move(Name);
  T->Bytes = Bytes;
  FROST_RETURN_IF_ERROR(T->init());
  return T;
}

absl::Status Table::init() {
  using namespace table;
  if (Bytes.size() < FooterSize)
    return absl::InvalidArgumentError(absl::StrCat(Name, ": not a checkpoint table: file is ",
                                                   Bytes.size(),
                                                   " bytes, shorter than the 48-byte footer"));
  size_t FooterOffset = Bytes.size() - FooterSize;
  uint64_t FileMagic = decodeFixed64(Bytes.data() + Bytes.size() - 8);
  if (FileMagic != Magic)
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: not a checkpoint table: bad magic number 0x%016x at offset %u "
                        "(expected 0x%016x)",
                        Name, FileMagic, Bytes.size() - 8, Magic));
  llvm::StringRef Footer = Bytes.substr(FooterOffset, FooterSize - 8);
  BlockHandle MetaIndex, IndexHandle;
  if (!consumeBlockHandle(Footer, MetaIndex) || !consumeBlockHandle(Footer, IndexHandle))
    return absl::DataLossError(
        absl::StrCat(Name, ": footer at offset ", FooterOffset, ": malformed block handles"));
  (void)MetaIndex; // always empty; nothing to read from it
  FROST_ASSIGN_OR_RETURN(Block B, readBlock(IndexHandle));
  Index = std::move(B);
  return absl::OkStatus();
}

absl::StatusOr<Block> Table::readBlock(const BlockHandle &Handle) const {
  using namespace table;
  uint64_t DataEnd = Bytes.size() - FooterSize;
  std::string Where = absl::StrCat(Name, ": block at offset ", Handle.Offset);
  if (Handle.Offset > DataEnd || Handle.Size > DataEnd - Handle.Offset ||
      DataEnd - Handle.Offset - Handle.Size < BlockTrailerSize)
    return absl::DataLossError(absl::StrCat(Where, ": block of ", Handle.Size,
                                            " bytes plus trailer runs past the footer at offset ",
                                            DataEnd));
  llvm::StringRef Contents = Bytes.substr(Handle.Offset, Handle.Size);
  const char *Trailer = Contents.end();
  uint8_t Type = static_cast<uint8_t>(Trailer[0]);
  uint32_t Stored = decodeFixed32(Trailer + 1);
  uint32_t Computed = crc32c::extend(crc32c::value(Contents), Trailer, 1);
  if (crc32c::unmask(Stored) != Computed && !ChecksumsAreAdvisory)
    return absl::DataLossError(absl::StrFormat(
        "%s: checksum mismatch (stored 0x%08x, computed 0x%08x)", Where, Stored,
        crc32c::mask(Computed)));
  switch (Type) {
  case NoCompression:
    return Block::create(Contents, std::move(Where));
  case SnappyCompression: {
    size_t Length = 0;
    if (!snappy::GetUncompressedLength(Contents.data(), Contents.size(), &Length))
      return absl::DataLossError(
          absl::StrCat(Where, ": corrupt Snappy block: bad uncompressed-length header"));
    // Snappy expands at most ~21x; anything beyond is a corrupt header that
    // must not drive a huge allocation.
    if (Length > 32 * static_cast<uint64_t>(Contents.size()) + 1024)
      return absl::DataLossError(absl::StrCat(Where, ": corrupt Snappy block: declares ", Length,
                                              " uncompressed bytes for ", Contents.size(),
                                              " compressed"));
    auto Buffer = std::make_shared<std::string>(Length, '\0');
    if (!snappy::RawUncompress(Contents.data(), Contents.size(), Buffer->data()))
      return absl::DataLossError(absl::StrCat(Where, ": corrupt Snappy block"));
    llvm::StringRef View = *Buffer;
    return Block::create(View, absl::StrCat(Where, " (uncompressed)"), std::move(Buffer));
  }
  default:
    return absl::DataLossError(absl::StrCat(Where, ": unknown compression type ", Type));
  }
}

Table::Iterator::Iterator(const Table &T) : T(T), IndexIt(*T.Index) {}

void Table::Iterator::loadDataBlock() {
  DataIt.reset();
  Data.reset();
  if (!IndexIt.valid()) {
    if (!IndexIt.status().ok() && Status.ok())
      Status = IndexIt.status();
    return;
  }
  llvm::StringRef Value = IndexIt.value();
  BlockHandle Handle;
  if (!consumeBlockHandle(Value, Handle)) {
    Status = absl::DataLossError(absl::StrCat(T.Index->where(), ": index entry '",
                                              absl::CHexEscape(IndexIt.key().str()),
                                              "': malformed block handle"));
    return;
  }
  absl::StatusOr<Block> B = T.readBlock(Handle);
  if (!B.ok()) {
    Status = B.status();
    return;
  }
  Data.emplace(*std::move(B));
  DataIt.emplace(*Data);
}

void Table::Iterator::skipEmptyBlocks() {
  while (Status.ok() && DataIt && !DataIt->valid()) {
    if (!DataIt->status().ok()) {
      Status = DataIt->status();
      break;
    }
    IndexIt.next();
    loadDataBlock();
    if (DataIt)
      DataIt->seekToFirst();
  }
  if (!Status.ok()) {
    DataIt.reset();
    Data.reset();
  }
}

void Table::Iterator::seekToFirst() {
  if (!Status.ok())
    return;
  IndexIt.seekToFirst();
  loadDataBlock();
  if (DataIt)
    DataIt->seekToFirst();
  skipEmptyBlocks();
}

void Table::Iterator::seek(llvm::StringRef Target) {
  if (!Status.ok())
    return;
  IndexIt.seek(Target);
  loadDataBlock();
  if (DataIt)
    DataIt->seek(Target);
  skipEmptyBlocks();
}

void Table::Iterator::next() {
  if (!valid())
    return;
  DataIt->next();
  skipEmptyBlocks();
}

bool Table::Iterator::valid() const { return Status.ok() && DataIt && DataIt->valid(); }
llvm::StringRef Table::Iterator::key() const { return DataIt->key(); }
llvm::StringRef Table::Iterator::value() const { return DataIt->value(); }

absl::StatusOr<std::string> Table::get(llvm::StringRef Key) const {
  Iterator It(*this);
  It.seek(Key);
  if (!It.status().ok())
    return It.status();
  if (!It.valid() || It.key() != Key)
    return absl::NotFoundError(
        absl::StrCat(Name, ": no key '", absl::CHexEscape(Key.str()), "'"));
  return It.value().str();
}

absl::Status Table::forEach(
    llvm::function_ref<absl::Status(llvm::StringRef Key, llvm::StringRef Value)> F) const {
  Iterator It(*this);
  for (It.seekToFirst(); It.valid(); It.next())
    FROST_RETURN_IF_ERROR(F(It.key(), It.value()));
  return It.status();
}

} // namespace frost
