//===- File.h - Mapped input files and atomic output files ------*- C++ -*-===//
#ifndef FROST_SUPPORT_FILE_H
#define FROST_SUPPORT_FILE_H

#include "frost/Support/Status.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace google::protobuf::io {
class ZeroCopyOutputStream;
} // namespace google::protobuf::io

namespace frost {

/// Streams (pipes, FIFOs, character devices and "-" for standard input) are
/// read whole into memory, never beyond this: protobuf's own 2 GiB limit.
inline constexpr uint64_t MaxStreamBytes = (uint64_t(1) << 31) - 1;

/// How MappedFile::open treats an input that is not a regular file.
struct StreamPolicy {
  /// Read streams (up to MaxStreamBytes); when false they are refused, saying
  /// what the path is (checkpoints and vocabularies must be regular files).
  bool Allow = false;
  /// Sees a stream's first bytes (up to 64 KiB) before the rest is read, so a
  /// stream of garbage (/dev/zero) is refused without reading on.
  std::function<absl::Status(llvm::StringRef Head)> CheckHead;
};

/// A whole file mapped read-only into memory (no copy of its bytes); a stream
/// is read into memory instead.
class MappedFile {
public:
  static absl::StatusOr<std::unique_ptr<MappedFile>> open(llvm::StringRef Path,
                                                          const StreamPolicy &Streams = {});
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  llvm::StringRef bytes() const { return {Data, Size}; }
  const std::string &path() const { return Path; }

private:
  MappedFile() = default;
  std::string Path;
  const char *Data = nullptr;
  size_t Size = 0;
  bool IsMapped = false; // else Data points into Owned
  std::string Owned;
};

/// Writes into a ZeroCopyOutputStream.
using OutputProducer =
    std::function<absl::Status(google::protobuf::io::ZeroCopyOutputStream &)>;

/// An output file written in two steps, so that a run writing several files
/// commits them only when all are ready: write() fills a temporary file beside
/// the path, commit() renames it over the path; destroyed uncommitted, the
/// temporary file is removed. "-" (standard output), devices and pipes are
/// written in place by write(). Every step refuses a path that is one of the
/// files read as input.
class OutputFile {
public:
  /// Checks that `Path` can be written, before any work: not a directory, not
  /// an input (same inode, through links), its directory existing.
  static absl::StatusOr<std::unique_ptr<OutputFile>> prepare(llvm::StringRef Path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  absl::Status write(const OutputProducer &Produce);
  absl::Status writeString(llvm::StringRef Contents);
  absl::Status commit();

  const std::string &path() const { return Path; }
  /// Where the bytes written can be read back before commit(); empty when
  /// they went to a stream.
  const std::string &writtenPath() const { return Temp; }

private:
  OutputFile() = default;
  std::string Path;
  std::string Temp;
  bool Committed = false;
};

/// Remembers `Path` as an input (by inode) so no output replaces it.
/// MappedFile::open notes every regular file it opens; tools note their
/// inputs before any work (noteInputFiles).
void noteInputFile(llvm::StringRef Path);

/// Notes what an input argument names: every file under a directory, or a
/// file with its siblings of the same prefix (model.meta, model.index,
/// model.data-00000-of-00001 for "model" or any of them).
void noteInputFiles(llvm::StringRef Path);

/// Refuses `Path` when it is a noted input.
absl::Status checkNotAnInput(llvm::StringRef Path);

/// Writes `Path` through a temporary file in the same directory that is renamed
/// over `Path` only when `Produce` succeeds, so a failure never leaves a partial
/// file. "-" writes to standard output.
absl::Status writeFileAtomically(llvm::StringRef Path, const OutputProducer &Produce);

/// writeFileAtomically for a string.
absl::Status writeStringAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// Size of a file in bytes, or NotFound naming the path.
absl::StatusOr<uint64_t> fileSize(llvm::StringRef Path);

/// "1.5 GiB" style rendering for messages.
std::string formatBytes(uint64_t Bytes);

} // namespace frost

#endif // FROST_SUPPORT_FILE_H
