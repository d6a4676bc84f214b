//===- OutputSink.cpp - Writing an output file, weights file to file ------===//
//
// The stream output files are written through (File.h): buffered writes,
// large runs of a mapped input file copied by the kernel or staged, SHA-256
// while writing.
//
//===----------------------------------------------------------------------===//
#include "frost/Support/File.h"

#include "llvm/ADT/StringExtras.h"
#include "openssl/evp.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <sys/sendfile.h>
#include <unistd.h>

namespace frost {

namespace {
constexpr size_t SinkBufferBytes = size_t(256) << 10;
/// Runs from this size on bypass the buffer: copied by the kernel or staged.
constexpr size_t LargeRunFrom = size_t(64) << 10;
constexpr size_t PageBytes = 4096;
/// Staged runs go through a buffer of this size, their input pages released
/// behind.
constexpr size_t StageBytes = size_t(2) << 20;
} // namespace

/// OpenSSL's SHA-256: uses the CPU's SHA instructions, and is right past
/// 512 MiB (LLVM 19's llvm::SHA256 counts bits in 32 bits and is not).
struct Sha256Hasher {
  Sha256Hasher() : Context(EVP_MD_CTX_new()) {
    if (!Context || EVP_DigestInit_ex(Context, EVP_sha256(), nullptr) != 1)
      Failed = true;
  }
  ~Sha256Hasher() { EVP_MD_CTX_free(Context); }
  void update(llvm::StringRef Bytes) {
    Failed |= !Failed && EVP_DigestUpdate(Context, Bytes.data(), Bytes.size()) != 1;
  }
  /// Lower-case hex, or empty if OpenSSL failed.
  std::string final() {
    unsigned char Digest[EVP_MAX_MD_SIZE];
    unsigned int Size = 0;
    if (Failed || EVP_DigestFinal_ex(Context, Digest, &Size) != 1)
      return "";
    return llvm::toHex(llvm::ArrayRef<uint8_t>(Digest, Size), /*LowerCase=*/true);
  }
  EVP_MD_CTX *Context;
  bool Failed = false;
};

std::string sha256Hex(llvm::StringRef Bytes) {
  Sha256Hasher Hasher;
  Hasher.update(Bytes);
  return Hasher.final();
}

OutputSink::OutputSink(int Fd, bool Hash, const MappingRegistry &Mappings)
    : Fd(Fd), Mappings(Mappings), Buffer(new char[SinkBufferBytes]),
      Hasher(Hash ? std::make_unique<Sha256Hasher>() : nullptr) {}

OutputSink::~OutputSink() = default;

bool OutputSink::Next(void **Data, int *Size) {
  if (Used == SinkBufferBytes && !flush())
    return false;
  if (Errno)
    return false;
  *Data = Buffer.get() + Used;
  *Size = static_cast<int>(SinkBufferBytes - Used);
  Used = SinkBufferBytes;
  return true;
}

void OutputSink::BackUp(int Count) { Used -= static_cast<size_t>(Count); }

void OutputSink::hash(llvm::StringRef Bytes) {
  if (Hasher)
    Hasher->update(Bytes);
}

bool OutputSink::writeAll(const char *Data, size_t Size) {
  while (Size > 0 && !Errno) {
    ssize_t N = ::write(Fd, Data, std::min<size_t>(Size, size_t(1) << 30));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      Errno = N < 0 ? errno : EIO;
      break;
    }
    Data += N;
    Size -= static_cast<size_t>(N);
    Written += static_cast<uint64_t>(N);
  }
  return !Errno;
}

bool OutputSink::flush() {
  if (Errno)
    return false;
  hash({Buffer.get(), Used});
  size_t Size = Used;
  Used = 0;
  return writeAll(Buffer.get(), Size);
}

bool OutputSink::writeBytes(llvm::StringRef Bytes) {
  if (Bytes.size() < LargeRunFrom) {
    if (Errno || (Bytes.size() > SinkBufferBytes - Used && !flush()))
      return false;
    std::memcpy(Buffer.get() + Used, Bytes.data(), Bytes.size());
    Used += Bytes.size();
    // Even a scalar of a mapped checkpoint may have mapped a 2 MiB folio.
    Mappings.releasePages(Bytes);
    return true;
  }
  if (!flush())
    return false;
  // The kernel copies file to file fast only when input and output offsets
  // sit alike in their pages (else it copies every page in two misaligned
  // pieces, twice as slow as staging here, measured: docs/performance.md).
  std::optional<FileRegion> From = Mappings.fileRegion(Bytes);
  if (From && !Hasher && From->Offset % PageBytes == Written % PageBytes)
    return copyFromFile(*From, Bytes);
  return writeStaged(Bytes);
}

bool OutputSink::writeStaged(llvm::StringRef Bytes) {
  // The staging buffer starts each piece where the output offset sits in its
  // page: the one misaligned copy is the process's memcpy (unaligned loads
  // cost little), the kernel's copy into the page cache is aligned.
  if (!Stage)
    Stage.reset(static_cast<char *>(std::aligned_alloc(PageBytes, StageBytes + PageBytes)));
  if (!Stage) {
    Errno = ENOMEM;
    return false;
  }
  for (size_t Done = 0; Done < Bytes.size() && !Errno;) {
    size_t Offset = Written % PageBytes;
    llvm::StringRef Piece = Bytes.substr(Done, StageBytes - Offset);
    std::memcpy(Stage.get() + Offset, Piece.data(), Piece.size());
    Mappings.releasePages(Piece);
    hash({Stage.get() + Offset, Piece.size()});
    writeAll(Stage.get() + Offset, Piece.size());
    Done += Piece.size();
  }
  return !Errno;
}

bool OutputSink::copyFromFile(FileRegion From, llvm::StringRef Bytes) {
  // copy_file_range needs two regular files (same file system type); sendfile
  // takes any output (pipes, devices); the last resort stages the mapping.
  enum { CopyFileRange, SendFile, Write };
  int &Method = CopyMethod;
  off_t In = static_cast<off_t>(From.Offset);
  size_t Done = 0;
  while (Done < Bytes.size() && !Errno) {
    size_t Want = std::min<size_t>(Bytes.size() - Done, size_t(1) << 30);
    ssize_t N;
    if (Method == CopyFileRange)
      N = ::copy_file_range(From.Fd, &In, Fd, nullptr, Want, 0);
    else if (Method == SendFile)
      N = ::sendfile(Fd, From.Fd, &In, Want);
    else
      return writeStaged(Bytes.substr(Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0 && Done == 0 &&
        (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP ||
         errno == EBADF)) {
      // This output (or kernel) does not take this method; the next one is
      // tried, and this output tries it first from now on.
      ++Method;
      continue;
    }
    if (N <= 0) { // 0: the input file ends early (truncated while mapped)
      Errno = N < 0 ? errno : EIO;
      return false;
    }
    Done += static_cast<size_t>(N);
    Written += static_cast<uint64_t>(N);
  }
  return !Errno;
}

std::string OutputSink::sha256() {
  if (!Hasher)
    return "";
  if (Digest.empty() && flush())
    Digest = Hasher->final();
  return Digest;
}

} // namespace frost
