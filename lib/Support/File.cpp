//===- File.cpp - Mapped input files and atomic output files --------------===//
#include "frost/Support/File.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "google/protobuf/io/zero_copy_stream_impl.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <iterator>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace frost {

static absl::Status errnoStatus(llvm::StringRef Path, llvm::StringRef What) {
  int Err = errno;
  std::string Message = absl::StrCat(Path.str(), ": ", What.str(), ": ", std::strerror(Err));
  if (Err == ENOENT)
    return absl::NotFoundError(Message);
  return absl::InvalidArgumentError(Message);
}

absl::StatusOr<std::unique_ptr<MappedFile>> MappedFile::open(llvm::StringRef Path) {
  std::unique_ptr<MappedFile> File(new MappedFile());
  File->Path = Path.str();
  if (Path == "-") {
    File->Owned.assign(std::istreambuf_iterator<char>(std::cin), {});
    File->Data = File->Owned.data();
    File->Size = File->Owned.size();
    return File;
  }
  int Fd = ::open(File->Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return errnoStatus(Path, "cannot open");
  struct stat St;
  if (::fstat(Fd, &St) != 0) {
    absl::Status S = errnoStatus(Path, "cannot stat");
    ::close(Fd);
    return S;
  }
  if (S_ISDIR(St.st_mode)) {
    ::close(Fd);
    return absl::InvalidArgumentError(absl::StrCat(Path.str(), ": is a directory, not a file"));
  }
  File->Size = static_cast<size_t>(St.st_size);
  if (File->Size > 0) {
    void *Addr = ::mmap(nullptr, File->Size, PROT_READ, MAP_PRIVATE, Fd, 0);
    if (Addr == MAP_FAILED) {
      absl::Status S = errnoStatus(Path, "cannot map");
      ::close(Fd);
      return S;
    }
    File->Data = static_cast<const char *>(Addr);
    File->IsMapped = true;
  }
  ::close(Fd);
  return File;
}

MappedFile::~MappedFile() {
  if (IsMapped)
    ::munmap(const_cast<char *>(Data), Size);
}

absl::Status writeFileAtomically(
    llvm::StringRef Path,
    const std::function<absl::Status(google::protobuf::io::ZeroCopyOutputStream &)>
        &Produce) {
  using google::protobuf::io::FileOutputStream;
  if (Path == "-") {
    FileOutputStream Out(STDOUT_FILENO);
    absl::Status S = Produce(Out);
    if (!Out.Flush() && S.ok())
      return absl::InternalError("cannot write to standard output");
    return S;
  }
  auto produceInto = [&](int Fd) {
    FileOutputStream Out(Fd);
    absl::Status S = Produce(Out);
    if (!Out.Close() && S.ok())
      S = absl::InternalError(absl::StrCat(Path.str(), ": write failed: ",
                                           std::strerror(Out.GetErrno())));
    return S;
  };
  // A device or pipe (-o /dev/null) is written in place: renaming a file
  // onto it would replace the device itself.
  if (struct stat St; ::stat(std::string(Path).c_str(), &St) == 0 &&
                      (S_ISCHR(St.st_mode) || S_ISFIFO(St.st_mode))) {
    int Fd = ::open(std::string(Path).c_str(), O_WRONLY | O_CLOEXEC);
    if (Fd < 0)
      return errnoStatus(Path, "cannot open");
    return produceInto(Fd);
  }
  std::string Temp = absl::StrCat(Path.str(), ".tmp.XXXXXX");
  int Fd = ::mkstemp(Temp.data());
  if (Fd < 0)
    return errnoStatus(Path, "cannot create a temporary file beside");
  ::fchmod(Fd, 0644);
  absl::Status S = produceInto(Fd);
  if (S.ok() && ::rename(Temp.c_str(), std::string(Path).c_str()) != 0)
    S = errnoStatus(Path, "cannot rename the temporary file onto");
  if (!S.ok())
    ::unlink(Temp.c_str());
  return S;
}

absl::Status writeStringAtomically(llvm::StringRef Path, llvm::StringRef Contents) {
  return writeFileAtomically(Path, [&](google::protobuf::io::ZeroCopyOutputStream &Out) {
    size_t Done = 0;
    while (Done < Contents.size()) {
      void *Buffer;
      int Size;
      if (!Out.Next(&Buffer, &Size))
        return absl::InternalError(absl::StrCat(Path.str(), ": write failed"));
      size_t N = std::min<size_t>(static_cast<size_t>(Size), Contents.size() - Done);
      std::memcpy(Buffer, Contents.data() + Done, N);
      Done += N;
      if (N < static_cast<size_t>(Size))
        Out.BackUp(static_cast<int>(static_cast<size_t>(Size) - N));
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<uint64_t> fileSize(llvm::StringRef Path) {
  struct stat St;
  if (::stat(std::string(Path).c_str(), &St) != 0)
    return errnoStatus(Path, "cannot stat");
  return static_cast<uint64_t>(St.st_size);
}

std::string formatBytes(uint64_t Bytes) {
  static const char *const Units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  if (Bytes < 1024)
    return absl::StrCat(Bytes, " bytes");
  double Value = static_cast<double>(Bytes);
  int Unit = 0;
  while (Value >= 1024 && Unit < 4) {
    Value /= 1024;
    ++Unit;
  }
  return absl::StrFormat("%.1f %s", Value, Units[Unit]);
}

} // namespace frost
