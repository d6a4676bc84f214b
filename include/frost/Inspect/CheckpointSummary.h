//===- CheckpointSummary.h - A checkpoint's variables and values -*- C++ -*-===//
//
// Lists what TensorFlow's NewCheckpointReader lists (variables sorted by name,
// slice entries hidden, partitioned variables once with their full shape),
// prints values numpy-style or exactly as JSON, and verifies whole
// checkpoints. All reading goes through the Checkpoint library.
//
//   FROST_ASSIGN_OR_RETURN(OpenedCheckpoint C, openCheckpoint(Ctx, Path));
//   printCheckpointListing(C, llvm::outs());
//
//===----------------------------------------------------------------------===//
#ifndef FROST_INSPECT_CHECKPOINTSUMMARY_H
#define FROST_INSPECT_CHECKPOINTSUMMARY_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace frost::inspect {

/// A checkpoint found from a user's path (prefix, file or directory), and
/// how it was found: the header shows the notes and the global step.
struct OpenedCheckpoint {
  ResolvedCheckpoint Where;
  std::unique_ptr<CheckpointReader> Reader;
};

absl::StatusOr<OpenedCheckpoint> openCheckpoint(Context &Ctx, llvm::StringRef Path,
                                                bool VerifyChecksums = true);

/// The listing entries of `Names`, in the order given, or of every variable
/// when `Names` is empty; NotFound with suggestions for names `R` lacks.
absl::StatusOr<std::vector<const VariableInfo *>>
selectVariables(const CheckpointReader &R, llvm::ArrayRef<std::string> Names);

/// The header and a table of every variable: dtype, shape, bytes, shard.
void printCheckpointListing(const OpenedCheckpoint &C, llvm::raw_ostream &OS);

/// One variable's values, numpy-style. Without `All`, tensors of more than
/// SummarizeThreshold elements are summarised and long strings are cut.
absl::Status printVariableValues(const CheckpointReader &R, const VariableInfo &V, bool All,
                                 llvm::raw_ostream &OS);

/// The JSON document of frost-inspect checkpoint --json (schema in
/// docs/inspect.md) over `Vars`, with their exact values if `WithValues`. A
/// value that cannot be read is written as null and its error returned after
/// the document is complete.
absl::Status printCheckpointJson(const OpenedCheckpoint &C,
                                 llvm::ArrayRef<const VariableInfo *> Vars, bool WithValues,
                                 llvm::raw_ostream &OS);

/// What reading a whole checkpoint found.
struct CheckpointVerification {
  uint64_t Tensors = 0;
  /// Tensor bytes (string tensors: the bytes of their elements).
  uint64_t Bytes = 0;
  int Shards = 0;
  bool ChecksumsVerified = true;
};

/// Reads every tensor of `R`, which checks sizes, and checksums when `R` was
/// opened to verify them (say so in `ChecksumsVerified`). DataLoss listing
/// each distinct error when some tensors fail.
absl::StatusOr<CheckpointVerification> verifyCheckpoint(const CheckpointReader &R,
                                                        bool ChecksumsVerified);
/// "verified 5 tensors (20 bytes) in 1 shard; checksums ok".
void printVerification(const CheckpointVerification &V, llvm::raw_ostream &OS);

/// What to show of a checkpoint (frost-inspect checkpoint's flags).
struct CheckpointQuery {
  /// Variables whose values to print; empty = none (unless All).
  std::vector<std::string> Tensors;
  /// Every value: of Tensors, or of every variable when Tensors is empty.
  bool All = false;
  bool Json = false;
  /// Read every tensor (checking sizes and checksums) and print a one-line
  /// report instead.
  bool Verify = false;
  bool VerifyChecksums = true;
};

/// Opens the checkpoint at `Path` and prints what `Q` asks for: the
/// listing, values, JSON or the verification's report.
absl::Status printCheckpoint(Context &Ctx, llvm::StringRef Path, const CheckpointQuery &Q,
                             llvm::raw_ostream &OS);

} // namespace frost::inspect

#endif // FROST_INSPECT_CHECKPOINTSUMMARY_H
