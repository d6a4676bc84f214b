//===- Readers.h - The two checkpoint reader implementations ----*- C++ -*-===//
#ifndef FROST_LIB_CHECKPOINT_READERS_H
#define FROST_LIB_CHECKPOINT_READERS_H

#include "frost/Checkpoint/CheckpointReader.h"

namespace frost {

/// A V2 tensor bundle: `Prefix.index` and its data shards.
absl::StatusOr<std::unique_ptr<CheckpointReader>> openBundle(llvm::StringRef Prefix,
                                                             const CheckpointOptions &Options);
/// A V1 checkpoint: `Files` are its table files (one, or every shard).
absl::StatusOr<std::unique_ptr<CheckpointReader>> openV1(llvm::StringRef Prefix,
                                                         std::vector<std::string> Files,
                                                         const CheckpointOptions &Options);
/// The table files of V1 checkpoint `Prefix` (the file itself, its
/// `-NNNNN-of-MMMMM` shards, or the files matching a glob pattern); NotFound
/// when there are none, or a shard is missing.
absl::StatusOr<std::vector<std::string>> findV1Files(llvm::StringRef Prefix);

} // namespace frost

#endif // FROST_LIB_CHECKPOINT_READERS_H
