//===- CheckpointReader.h - V1 and V2 TensorFlow checkpoints ----*- C++ -*-===//
//
// One interface over both checkpoint formats:
//   V2 (tensor bundle): P.index + P.data-NNNNN-of-MMMMM shards, memory-mapped
//      lazily; fixed-size tensors are returned without a copy when no byte
//      swap or slice assembly is needed.
//   V1 (SavedTensorSlices): a table file P or shards P-NNNNN-of-MMMMM.
// Partitioned variables are listed once under their full name and read as the
// assembled full tensor. Safe to use from several threads.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_CHECKPOINT_CHECKPOINTREADER_H
#define FROST_CHECKPOINT_CHECKPOINTREADER_H

#include "frost/Tensor/Tensor.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tensorflow {
class TensorProto;
} // namespace tensorflow

namespace frost {

class Context;

enum class CheckpointFormat { V1, V2 };
llvm::StringRef formatName(CheckpointFormat Format); // "V1" / "V2"

struct CheckpointOptions {
  /// Verify each tensor's stored CRC32C when reading it (V2). Table block
  /// checksums are always verified.
  bool VerifyChecksums = true;
  /// Verify the checksums of fixed-size tensors in the background (the
  /// Context's BackgroundWork): a read returns at once, and a mismatch comes
  /// out of its wait(), which every model writer calls before it succeeds.
  /// For runs whose reads all end in a written model.
  bool ChecksumsInBackground = false;
};

/// What a listing shows about one variable.
struct VariableInfo {
  std::string Name;
  tensorflow::DataType DType = tensorflow::DT_INVALID;
  std::vector<int64_t> Shape;
  /// Bytes stored in the checkpoint (V2: entry sizes, summed over slices; V1:
  /// the decoded element bytes, or 0 for strings).
  uint64_t ByteSize = 0;
  /// V2 data shard or V1 table file index; -1 when slices are spread over
  /// several.
  int ShardId = 0;
  bool IsPartitioned = false;
  /// Number of stored slices (1 when not partitioned).
  unsigned NumSlices = 1;
};

/// Facts about the checkpoint as a whole.
struct CheckpointHeader {
  CheckpointFormat Format = CheckpointFormat::V2;
  /// V2: number of data shards; V1: number of table files.
  int NumShards = 0;
  /// V2: the producer wrote big-endian data.
  bool BigEndian = false;
  int Producer = 0;
  int MinConsumer = 0;
  /// The index (V2) or table (V1) files.
  std::vector<std::string> IndexFiles;
};

class CheckpointReader {
public:
  /// Opens the checkpoint with prefix `Prefix`: V2 if `Prefix.index` exists,
  /// else V1 (`Prefix` itself, `Prefix-?????-of-NNNNN`, or a glob pattern).
  /// Reads and validates the whole index; data shards are mapped on first use.
  /// The reader must not outlive `Ctx`, which owns its mapped shards'
  /// registration and its background checks.
  static absl::StatusOr<std::unique_ptr<CheckpointReader>>
  open(Context &Ctx, llvm::StringRef Prefix, const CheckpointOptions &Options = {});

  virtual ~CheckpointReader();
  CheckpointReader(const CheckpointReader &) = delete;
  CheckpointReader &operator=(const CheckpointReader &) = delete;

  CheckpointFormat format() const { return Header.Format; }
  const CheckpointHeader &header() const { return Header; }
  const std::string &prefix() const { return Prefix; }

  /// Every variable sorted by name (slice entries hidden; the V2 header entry
  /// is not a variable).
  const std::vector<VariableInfo> &variables() const { return Variables; }
  /// The listing entry for `Name`, or null.
  const VariableInfo *find(llvm::StringRef Name) const;
  bool contains(llvm::StringRef Name) const { return find(Name) != nullptr; }

  /// Reads variable `Name` (NotFound, naming the checkpoint, if absent).
  /// Validates offsets, sizes and (by default) checksums.
  virtual absl::StatusOr<TensorData> read(llvm::StringRef Name) const = 0;

  /// read() into a TensorProto (dtype, tensor_shape, tensor_content or
  /// string_val/variant_val), as the freezer stores it in a Const.
  absl::Status readTensorProto(llvm::StringRef Name, tensorflow::TensorProto &Proto) const;

protected:
  CheckpointReader(Context &Ctx, std::string Prefix, CheckpointOptions Options)
      : Ctx(Ctx), Prefix(std::move(Prefix)), Options(Options) {}
  /// Sorts Variables by name; called once by subclasses after filling them.
  void sortVariables();

  Context &Ctx;
  std::string Prefix;
  CheckpointOptions Options;
  CheckpointHeader Header;
  std::vector<VariableInfo> Variables;
};

/// `Prefix.index`.
std::string indexPath(llvm::StringRef Prefix);
/// `Prefix.data-00003-of-00008` for Shard 3 of 8.
std::string dataShardPath(llvm::StringRef Prefix, int Shard, int NumShards);
/// True when `Prefix.index` exists.
bool isV2Checkpoint(llvm::StringRef Prefix);

} // namespace frost

#endif // FROST_CHECKPOINT_CHECKPOINTREADER_H
