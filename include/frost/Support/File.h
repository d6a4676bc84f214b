//===- File.h - Mapped input files and atomic output files ------*- C++ -*-===//
#ifndef FROST_SUPPORT_FILE_H
#define FROST_SUPPORT_FILE_H

#include "frost/Support/Status.h"
#include "google/protobuf/io/zero_copy_stream.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace frost {

class Context;
class MappingRegistry;

/// Streams (pipes, FIFOs, character devices and "-" for standard input) are
/// read whole into memory, never beyond this: protobuf's own 2 GiB limit.
inline constexpr uint64_t MaxStreamBytes = (uint64_t(1) << 31) - 1;
/// How much of a stream StreamPolicy::CheckHead sees (all of a shorter one).
inline constexpr size_t StreamHeadBytes = 64 << 10;

/// How MappedFile::open treats an input that is not a regular file.
struct StreamPolicy {
  /// Read streams (up to MaxStreamBytes); when false they are refused, saying
  /// what the path is (checkpoints and vocabularies must be regular files).
  bool Allow = false;
  /// Sees a stream's first StreamHeadBytes (64 KiB; all of a shorter one) before the rest is read, so a
  /// stream of garbage (/dev/zero) is refused without reading on.
  std::function<absl::Status(llvm::StringRef Head)> CheckHead;
};

/// A whole file mapped read-only into memory (no copy of its bytes); a stream
/// is read into memory instead. Opening notes a regular file as an input of
/// the run (Context::inputs()) and registers its mapping with the run's
/// MappingRegistry; it must not outlive that Context.
class MappedFile {
public:
  static absl::StatusOr<std::unique_ptr<MappedFile>> open(Context &Ctx, llvm::StringRef Path,
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
  /// Kept open while mapped (large files) for kernel-side copies.
  int Fd = -1;
  std::string Owned;
  /// Where the mapping is registered (null: not mapped).
  MappingRegistry *Registry = nullptr;
};

/// Where some bytes of a mapped input file lie in that file, for the kernel
/// to copy them (copy_file_range, sendfile) without faulting them into the
/// process.
struct FileRegion {
  int Fd = -1;
  uint64_t Offset = 0;
};

/// The live mappings of one run's input files by address, so that an output
/// can tell which file and offset a run of bytes lies in. Owned by the run's
/// Context; each MappedFile registers itself while it lives.
class MappingRegistry {
public:
  MappingRegistry() = default;
  ~MappingRegistry();
  MappingRegistry(const MappingRegistry &) = delete;
  MappingRegistry &operator=(const MappingRegistry &) = delete;

  /// The file region `Bytes` occupy when they lie inside one mapped input
  /// file whose descriptor is still open (files of 1 MiB and more); nullopt
  /// for any other memory.
  std::optional<FileRegion> fileRegion(llvm::StringRef Bytes) const;

  /// Unmaps the pages of `Bytes` (and the rest of the 2 MiB blocks around
  /// them) when they lie in a mapped input file (no-op for other memory):
  /// they stay in the page cache and fault back in if read again. A
  /// checkpoint read once (checksums) stays out of the resident set.
  void releasePages(llvm::StringRef Bytes) const;

  /// Hands `Bytes` to `Consume` a piece at a time. When they lie in a mapped
  /// input file that kept its descriptor, the pieces are read with pread
  /// into a buffer: no page of the mapping is faulted in (nothing to
  /// release, no other thread's TLB to flush), which suits a pass over a
  /// checkpoint that only checks it. Fails naming the file's region if it
  /// cannot be read.
  absl::Status readBytes(llvm::StringRef Bytes,
                         llvm::function_ref<void(llvm::StringRef Piece)> Consume) const;

  /// Asks the kernel to start reading the pages of `Bytes` from disk when
  /// they lie in a mapped input file (no-op otherwise, and when they are
  /// cached): a cold checkpoint is then read in large requests while the run
  /// goes on.
  void prefetchPages(llvm::StringRef Bytes) const;

private:
  friend class MappedFile;
  struct Mapping {
    size_t Size;
    int Fd; // -1: none kept
  };
  /// The mapping holding all of `Bytes`, and its start; call with the lock held.
  std::optional<std::pair<uintptr_t, Mapping>> find(llvm::StringRef Bytes) const;

  mutable std::mutex Lock;
  std::map<uintptr_t, Mapping> ByStart;
  int KeptDescriptors = 0;
};

/// The stream an output file is written through: buffered writes to a file
/// descriptor, and writeBytes() that has the kernel move a run of a mapped
/// input file straight into the output, so frozen weights never pass through
/// the process. Counts and, when asked, hashes (SHA-256) what it writes.
class OutputSink : public google::protobuf::io::ZeroCopyOutputStream {
public:
  /// `Mappings`: where the bytes handed to writeBytes may lie mapped.
  OutputSink(int Fd, bool Hash, const MappingRegistry &Mappings);
  ~OutputSink() override;
  OutputSink(const OutputSink &) = delete;
  OutputSink &operator=(const OutputSink &) = delete;

  bool Next(void **Data, int *Size) override;
  void BackUp(int Count) override;
  int64_t ByteCount() const override { return static_cast<int64_t>(Written + Used); }

  /// Appends `Bytes`: large runs of a mapped file through the kernel (or
  /// staged, releasing their pages behind), else through the buffer. False
  /// after a failed write.
  bool writeBytes(llvm::StringRef Bytes);
  /// Writes the buffer out. False after a failed write.
  bool flush();
  /// errno of the first failed write, or 0.
  int error() const { return Errno; }
  /// Lower-case hex SHA-256 of everything written (flushes first); empty
  /// unless hashing was asked for.
  std::string sha256();

private:
  bool writeAll(const char *Data, size_t Size);
  bool copyFromFile(FileRegion From, llvm::StringRef Bytes);
  bool writeStaged(llvm::StringRef Bytes);
  void hash(llvm::StringRef Bytes);

  int Fd;
  const MappingRegistry &Mappings;
  std::unique_ptr<char[]> Buffer;
  size_t Used = 0;
  struct FreeStage {
    void operator()(char *P) const { std::free(P); }
  };
  /// Page-aligned, allocated on first use.
  std::unique_ptr<char, FreeStage> Stage;
  uint64_t Written = 0;
  int Errno = 0;
  /// How copyFromFile moves bytes (copy_file_range, sendfile, write): the
  /// first this output takes.
  int CopyMethod = 0;
  /// Null when not hashing.
  std::unique_ptr<struct Sha256Hasher> Hasher;
  std::string Digest;
};

/// Lower-case hex SHA-256 of `Bytes` (empty if OpenSSL failed), as an
/// OutputSink hashes what it writes.
std::string sha256Hex(llvm::StringRef Bytes);

/// Writes into an output file.
using OutputProducer = std::function<absl::Status(OutputSink &)>;

/// What was written into an output file.
struct WrittenBytes {
  uint64_t Bytes = 0;
  /// Lower-case hex; empty unless hashing was asked for.
  std::string Sha256;
};

/// An output file written in two steps, so that a run writing several files
/// commits them only when all are ready: write() fills a temporary file beside
/// the path, commit() renames it over the path; destroyed uncommitted, the
/// temporary file is removed. "-" (standard output), devices and pipes are
/// written in place by write(). Every step refuses a path that is one of the
/// files read as input.
class OutputFile {
public:
  /// Checks that `Path` can be written, before any work: not a directory, not
  /// an input of the run (same inode, through links), its directory existing.
  static absl::StatusOr<std::unique_ptr<OutputFile>> prepare(Context &Ctx, llvm::StringRef Path);
  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  /// `Hash`: compute the SHA-256 of the bytes while they are written.
  absl::Status write(const OutputProducer &Produce, bool Hash = false);
  absl::Status writeString(llvm::StringRef Contents, bool Hash = false);
  absl::Status commit();

  const std::string &path() const { return Path; }
  /// The run it belongs to.
  Context &context() const { return Ctx; }
  /// True when write() fills a temporary file that commit() renames: what
  /// it wrote can still be taken back. False for standard output, devices
  /// and pipes, written in place.
  bool commitsAtomically() const { return !InPlace; }
  /// Size (and hash) of what the last write() wrote, streams included.
  const WrittenBytes &written() const { return Written; }

private:
  explicit OutputFile(Context &Ctx) : Ctx(Ctx) {}
  Context &Ctx;
  std::string Path;
  std::string Temp;
  bool Committed = false;
  bool InPlace = false;
  WrittenBytes Written;
};

/// An output directory (a SavedModel's) written as OutputFile writes a file:
/// prepare() checks the path before any work, files go into a temporary
/// directory beside it (path()/"name" via file()), and commit() renames that
/// onto the path, replacing a SavedModel that was there; destroyed
/// uncommitted, the temporary directory is removed.
class OutputDirectory {
public:
  /// `Path` must be absent, an empty directory, or a SavedModel directory
  /// (saved_model.pb or .pbtxt in it) none of whose files is an input of the
  /// run; its parent must be an existing directory.
  static absl::StatusOr<std::unique_ptr<OutputDirectory>> prepare(Context &Ctx,
                                                                  llvm::StringRef Path);
  ~OutputDirectory();
  OutputDirectory(const OutputDirectory &) = delete;
  OutputDirectory &operator=(const OutputDirectory &) = delete;

  /// The path of `Relative` in the temporary directory (made on first use,
  /// with `Relative`'s parent directories).
  absl::StatusOr<std::string> file(llvm::StringRef Relative);
  /// Makes the directory `Relative` in it.
  absl::Status makeDirectory(llvm::StringRef Relative);
  absl::Status commit();

  const std::string &path() const { return Path; }

private:
  explicit OutputDirectory(Context &Ctx) : Ctx(Ctx) {}
  absl::Status checkNoInputInside() const;
  Context &Ctx;
  std::string Path;
  std::string Temp;
  bool Committed = false;
};

/// The files one run reads, by inode, so that no output of the run replaces
/// one (through hard and symbolic links). MappedFile::open notes every
/// regular file it opens; a job notes its input arguments before any work
/// (noteWithSiblings). Owned by the run's Context: a later run may write
/// what an earlier one read.
class InputFiles {
public:
  /// Remembers `Path` (a regular file; anything else is ignored).
  void note(llvm::StringRef Path);
  /// Notes what an input argument names: every file under a directory, or a
  /// file with its siblings of the same prefix (model.meta, model.index,
  /// model.data-00000-of-00001 for "model" or any of them).
  void noteWithSiblings(llvm::StringRef Path);
  /// Refuses `Path` when it is a noted input.
  absl::Status checkNotAnInput(llvm::StringRef Path) const;

private:
  friend class MappedFile;
  using Inode = std::pair<uint64_t, uint64_t>; // device, inode number
  void noteInode(Inode Key, llvm::StringRef Path);

  mutable std::mutex Lock;
  /// The path each was noted as (the latest).
  mutable std::map<Inode, std::string> Files;
};

/// Writes `Path` through a temporary file in the same directory that is renamed
/// over `Path` only when `Produce` succeeds, so a failure never leaves a partial
/// file. "-" writes to standard output.
absl::Status writeFileAtomically(Context &Ctx, llvm::StringRef Path,
                                 const OutputProducer &Produce);

/// writeFileAtomically for a string.
absl::Status writeStringAtomically(Context &Ctx, llvm::StringRef Path, llvm::StringRef Contents);

/// "1.5 GiB" style rendering for messages.
std::string formatBytes(uint64_t Bytes);

} // namespace frost

#endif // FROST_SUPPORT_FILE_H
