//===- Table.h - Immutable sorted string tables (.index files) --*- C++ -*-===//
//
// Reader for the LevelDB table dialect that TensorFlow uses for V2 `.index`
// files and V1 checkpoints: data blocks of prefix-compressed keys, an index
// block, a 48-byte footer. Every block's masked CRC32C is verified; blocks may
// be Snappy-compressed. All sizes and offsets are checked before use, and
// errors name the file and the byte offset.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_CHECKPOINT_TABLE_H
#define FROST_CHECKPOINT_TABLE_H

#include "frost/Support/Status.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace frost {

class Context;

class MappedFile;

/// Where a block lives in the file; Size excludes the 5-byte trailer.
struct BlockHandle {
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

namespace table {
constexpr uint64_t Magic = 0xdb4775248b80fb57ull;
constexpr size_t FooterSize = 48;
constexpr size_t BlockTrailerSize = 5;
enum CompressionType : uint8_t { NoCompression = 0, SnappyCompression = 1 };
} // namespace table

/// The decoded contents of one block (a view into the file, or a buffer it
/// shares ownership of when the block was compressed). Cheap to copy.
class Block {
public:
  /// Validates the restart array of `Contents`. `Where` prefixes error
  /// messages ("model.index: block at offset 12"). `Owner` keeps `Contents`
  /// alive when it does not point into the file.
  static absl::StatusOr<Block> create(llvm::StringRef Contents, std::string Where,
                                      std::shared_ptr<const std::string> Owner = nullptr);

  llvm::StringRef contents() const { return Contents; }
  const std::string &where() const { return *Where; }
  uint32_t numRestarts() const { return NumRestarts; }

  /// Walks the entries of a block in key order.
  class Iterator {
  public:
    explicit Iterator(const Block &B);
    void seekToFirst();
    /// Positions at the first key >= Target (invalid if none).
    void seek(llvm::StringRef Target);
    void next();
    bool valid() const { return Valid; }
    llvm::StringRef key() const { return Key; }
    llvm::StringRef value() const { return Value; }
    /// Non-OK once a malformed entry was met; valid() is then false.
    const absl::Status &status() const { return Status; }

  private:
    bool parseEntryAt(uint32_t Offset);
    void seekToRestart(uint32_t Index);
    uint32_t restartOffset(uint32_t Index) const;
    void fail(uint32_t Offset, const std::string &Message);

    const Block *B;
    uint32_t Current = 0; // offset of the current entry
    uint32_t NextOffset = 0;
    std::string Key;
    llvm::StringRef Value;
    bool Valid = false;
    absl::Status Status;
  };

private:
  llvm::StringRef Contents;
  uint32_t RestartsOffset = 0;
  uint32_t NumRestarts = 0;
  std::shared_ptr<const std::string> Where;
  std::shared_ptr<const std::string> Owner;
};

/// An opened table. Thread-compatible: concurrent const use is safe.
class Table {
public:
  /// Maps `Path` and reads its footer and index block.
  static absl::StatusOr<std::unique_ptr<Table>> open(Context &Ctx, llvm::StringRef Path);
  /// As above over an already mapped file (shared with the caller).
  static absl::StatusOr<std::unique_ptr<Table>> open(std::shared_ptr<const MappedFile> File);
  /// Over bytes the caller keeps alive; `Name` is used in messages.
  static absl::StatusOr<std::unique_ptr<Table>> fromBytes(std::string Name, llvm::StringRef Bytes);

  /// The file name used in messages.
  const std::string &name() const { return Name; }
  llvm::StringRef bytes() const { return Bytes; }

  /// Reads, verifies and if needed decompresses the block at `Handle`.
  absl::StatusOr<Block> readBlock(const BlockHandle &Handle) const;

  /// A two-level iterator: index block entries, then each data block's.
  class Iterator {
  public:
    explicit Iterator(const Table &T);
    // The data-block iterator points into this object.
    Iterator(const Iterator &) = delete;
    Iterator &operator=(const Iterator &) = delete;
    void seekToFirst();
    /// Positions at the first key >= Target.
    void seek(llvm::StringRef Target);
    void next();
    bool valid() const;
    llvm::StringRef key() const;
    llvm::StringRef value() const;
    /// The first error met; once set, valid() is false.
    const absl::Status &status() const { return Status; }

  private:
    void loadDataBlock();
    void skipEmptyBlocks();
    const Table &T;
    Block::Iterator IndexIt;
    std::optional<Block> Data;
    std::optional<Block::Iterator> DataIt;
    absl::Status Status;
  };

  /// The value stored under exactly `Key`, or NotFound.
  absl::StatusOr<std::string> get(llvm::StringRef Key) const;

  /// Calls `F` on every entry in key order; stops at the first error.
  absl::Status forEach(
      llvm::function_ref<absl::Status(llvm::StringRef Key, llvm::StringRef Value)> F) const;

private:
  Table() = default;
  absl::Status init();

  std::string Name;
  llvm::StringRef Bytes;
  std::shared_ptr<const MappedFile> File; // may be null (fromBytes)
  std::optional<Block> Index;
};

/// Decodes a BlockHandle (two varint64) from the front of `In`.
bool consumeBlockHandle(llvm::StringRef &In, BlockHandle &Handle);

} // namespace frost

#endif // FROST_CHECKPOINT_TABLE_H
