//===- Resolve.h - Finding the checkpoint a user means ----------*- C++ -*-===//
//
// Like tf.train.latest_checkpoint, and more forgiving: accepts a prefix, a
// file of the checkpoint (P.index, P.data-..., P.meta), a V1 glob pattern, or a
// directory (its `checkpoint` state file, else the newest checkpoint in it).
// Paths recorded on another machine (absolute, or Windows-style) fall back to
// their basename inside the directory.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_CHECKPOINT_RESOLVE_H
#define FROST_CHECKPOINT_RESOLVE_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tensorflow {
class CheckpointState;
} // namespace tensorflow

namespace frost {

class Context;

struct ResolvedCheckpoint {
  /// What CheckpointReader::open takes.
  std::string Prefix;
  CheckpointFormat Format = CheckpointFormat::V2;
  /// `P.meta` beside the checkpoint, when it exists.
  std::optional<std::string> MetaPath;
  /// The step of `model.ckpt-1234` style names.
  std::optional<int64_t> GlobalStep;
  /// One line each: how the input was interpreted when that was not literal
  /// ("using the newest of 3 checkpoints in dir: dir/model-20").
  std::vector<std::string> Notes;
};

/// Resolves `Path` to a checkpoint prefix. NotFound (naming what was tried)
/// when nothing matches.
absl::StatusOr<ResolvedCheckpoint> resolveCheckpoint(Context &Ctx, llvm::StringRef Path);

/// Parses the text-format `checkpoint` state file at `Path`.
absl::StatusOr<tensorflow::CheckpointState> readCheckpointState(Context &Ctx,
                                                                llvm::StringRef Path);

} // namespace frost

#endif // FROST_CHECKPOINT_RESOLVE_H
