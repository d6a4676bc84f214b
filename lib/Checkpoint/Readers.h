//===- Readers.h - The two checkpoint reader implementations ----*- C++ -*-===//
//
// Private to lib/Checkpoint: how the V1 and V2 readers are opened, and what
// they share (checksum policy, slice assembly).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_CHECKPOINT_READERS_H
#define FROST_LIB_CHECKPOINT_READERS_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/TensorSlice.h"

#include <utility>

namespace frost {

/// Fuzzing builds (fuzz/CMakeLists.txt) compute every checksum but do not
/// fail on a mismatch, so that mutated inputs reach the parsers behind them.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr bool ChecksumsAreAdvisory = true;
#else
constexpr bool ChecksumsAreAdvisory = false;
#endif

/// A V2 tensor bundle: `Prefix.index` and its data shards.
absl::StatusOr<std::unique_ptr<CheckpointReader>> openBundle(Context &Ctx, llvm::StringRef Prefix,
                                                             const CheckpointOptions &Options);
/// A V1 checkpoint: `Files` are its table files (one, or every shard).
absl::StatusOr<std::unique_ptr<CheckpointReader>> openV1(Context &Ctx, llvm::StringRef Prefix,
                                                         std::vector<std::string> Files,
                                                         const CheckpointOptions &Options);
/// The table files of V1 checkpoint `Prefix` (the file itself, its
/// `-NNNNN-of-MMMMM` shards, or the files matching a glob pattern); NotFound
/// when there are none, or a shard is missing.
absl::StatusOr<std::vector<std::string>> findV1Files(llvm::StringRef Prefix);

/// One stored slice: its extents within the full tensor and its values.
using StoredSlice = std::pair<std::vector<SliceExtent>, TensorData>;

/// Builds the full tensor from slices whose shapes the caller checked against
/// their extents. The slices must tile the tensor: no overlaps, no gaps.
absl::StatusOr<TensorData> assembleSlices(tensorflow::DataType DType,
                                          const std::vector<int64_t> &Shape,
                                          llvm::ArrayRef<StoredSlice> Slices,
                                          llvm::StringRef Where);

} // namespace frost

#endif // FROST_LIB_CHECKPOINT_READERS_H
