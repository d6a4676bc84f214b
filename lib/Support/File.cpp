//===- File.cpp - Mapped input files and atomic output files --------------===//
#include "frost/Support/File.h"
#include "frost/Support/Context.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "llvm/Support/Signals.h"

#include <algorithm>
#include <cassert>
#include <filesystem>
#include <map>
#include <mutex>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
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

//===----------------------------------------------------------------------===//
// Inputs never overwritten
//===----------------------------------------------------------------------===//

namespace {

/// Whether the input noted as `Path` is still file `Key`: one deleted since
/// may have left its inode number to a new file, which is no input.
bool stillNames(const std::string &Path, const std::pair<uint64_t, uint64_t> &Key) {
  struct stat St;
  bool Found = Path == "<stdin>" ? ::fstat(STDIN_FILENO, &St) == 0
                                 : ::stat(Path.c_str(), &St) == 0;
  return Found && St.st_dev == Key.first && St.st_ino == Key.second;
}

/// A checkpoint or model path without its file extension: what its sibling
/// files start with.
llvm::StringRef inputPrefix(llvm::StringRef Name) {
  for (llvm::StringRef Ext : {".meta", ".index", ".pbtxt", ".pb"})
    if (Name.ends_with(Ext))
      return Name.drop_back(Ext.size());
  if (size_t Data = Name.rfind(".data-"); Data != llvm::StringRef::npos)
    return Name.take_front(Data);
  return Name;
}

/// Files a freeze reads beside a prefix: the graph, the checkpoint's index
/// and shards (V2 and V1). Earlier outputs beside them (frozen.pb) are not.
bool isCheckpointOrGraphOf(llvm::StringRef Name, llvm::StringRef Prefix) {
  if (!Name.consume_front(Prefix))
    return false;
  return Name.empty() || Name == ".meta" || Name == ".index" || Name.starts_with(".data-") ||
         (Name.size() == 15 && Name.starts_with("-") && Name.substr(6, 4) == "-of-");
}

/// Files a model or checkpoint directory holds that a freeze reads.
bool isReadInDirectory(const std::filesystem::path &Relative) {
  std::string First = Relative.begin()->string();
  if (First == "variables" || First == "assets" || First == "assets.extra")
    return true;
  std::string Name = Relative.filename().string();
  llvm::StringRef N(Name);
  return N == "saved_model.pb" || N == "saved_model.pbtxt" || N == "checkpoint" ||
         N.ends_with(".meta") || N.ends_with(".index") || N.contains(".data-");
}

} // namespace

/// What a path that is not a regular file is, for messages.
static const char *fileKindName(mode_t Mode) {
  if (S_ISDIR(Mode))
    return "a directory";
  if (S_ISFIFO(Mode))
    return "a FIFO";
  if (S_ISCHR(Mode))
    return "a character device";
  if (S_ISBLK(Mode))
    return "a block device";
  if (S_ISSOCK(Mode))
    return "a socket";
  return "not a regular file";
}

/// Reads `Fd` to its end into `Out`, refusing more than MaxStreamBytes.
static absl::Status readStream(int Fd, llvm::StringRef Path, const StreamPolicy &Streams,
                               std::string &Out) {
  constexpr size_t HeadBytes = StreamHeadBytes;
  bool HeadChecked = !Streams.CheckHead;
  char Buffer[HeadBytes];
  while (true) {
    ssize_t N = ::read(Fd, Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      return errnoStatus(Path, "cannot read");
    if (N == 0)
      break;
    if (Out.size() + static_cast<size_t>(N) > MaxStreamBytes)
      return absl::ResourceExhaustedError(absl::StrCat(
          Path.str(), ": stream is longer than ", MaxStreamBytes,
          " bytes (protobuf's limit); stopped reading there"));
    Out.append(Buffer, static_cast<size_t>(N));
    if (!HeadChecked && Out.size() >= HeadBytes) {
      HeadChecked = true;
      FROST_RETURN_IF_ERROR(Streams.CheckHead(Out));
    }
  }
  if (!HeadChecked)
    FROST_RETURN_IF_ERROR(Streams.CheckHead(Out));
  return absl::OkStatus();
}

//===----------------------------------------------------------------------===//
// Mapped files and the regions of them that outputs copy
//===----------------------------------------------------------------------===//

namespace {

/// Files smaller than this keep no descriptor: their bytes are copied
/// through the process, which is cheaper than a system call per run.
constexpr size_t KeepDescriptorFrom = size_t(1) << 20;
/// At most this many descriptors are kept, well under the usual limit of
/// 1024 open files; mappings past it are copied through the process.
constexpr int MaxKeptDescriptors = 256;

} // namespace

MappingRegistry::~MappingRegistry() {
  assert(ByStart.empty() && "a mapped file outlived its Context");
}

std::optional<std::pair<uintptr_t, MappingRegistry::Mapping>>
MappingRegistry::find(llvm::StringRef Bytes) const {
  auto Begin = reinterpret_cast<uintptr_t>(Bytes.data());
  auto It = ByStart.upper_bound(Begin);
  if (It == ByStart.begin())
    return std::nullopt;
  --It;
  if (Begin - It->first > It->second.Size || Bytes.size() > It->second.Size - (Begin - It->first))
    return std::nullopt;
  return *It;
}

std::optional<FileRegion> MappingRegistry::fileRegion(llvm::StringRef Bytes) const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::optional<std::pair<uintptr_t, Mapping>> M = find(Bytes);
  if (!M || M->second.Fd < 0)
    return std::nullopt;
  return FileRegion{M->second.Fd, reinterpret_cast<uintptr_t>(Bytes.data()) - M->first};
}

void MappingRegistry::releasePages(llvm::StringRef Bytes) const {
  std::optional<std::pair<uintptr_t, Mapping>> M;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    M = find(Bytes);
  }
  if (!M)
    return; // anonymous memory would lose its contents to MADV_DONTNEED
  // Outwards to whole 2 MiB blocks, within the mapping: a huge page-cache
  // folio is mapped whole by one fault, so the block around a tensor's first
  // byte maps the end of the tensor before it again, and only releasing the
  // whole block unmaps that. A neighbour still being read just faults back.
  constexpr uintptr_t Block = uintptr_t(2) << 20;
  auto Begin = reinterpret_cast<uintptr_t>(Bytes.data()) & ~(Block - 1);
  uintptr_t End = (reinterpret_cast<uintptr_t>(Bytes.data()) + Bytes.size() + Block - 1) &
                  ~(Block - 1);
  const uintptr_t Page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  Begin = std::max(Begin, M->first);
  End = std::min(End, (M->first + M->second.Size + Page - 1) & ~(Page - 1));
  if (Begin < End)
    ::madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_DONTNEED);
}

absl::Status
MappingRegistry::readBytes(llvm::StringRef Bytes,
                           llvm::function_ref<void(llvm::StringRef Piece)> Consume) const {
  std::optional<FileRegion> Region = fileRegion(Bytes);
  if (!Region) {
    Consume(Bytes);
    return absl::OkStatus();
  }
  constexpr size_t PieceBytes = size_t(1) << 20;
  std::unique_ptr<char[]> Buffer(new char[std::min(PieceBytes, Bytes.size())]);
  for (size_t Done = 0; Done < Bytes.size();) {
    size_t Want = std::min(PieceBytes, Bytes.size() - Done);
    ssize_t N = ::pread(Region->Fd, Buffer.get(), Want,
                        static_cast<off_t>(Region->Offset + Done));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return absl::DataLossError(absl::StrCat(
          "cannot read bytes ", Region->Offset + Done, " to ", Region->Offset + Bytes.size(),
          " of a mapped file: ", N < 0 ? std::strerror(errno) : "it ends early"));
    Consume({Buffer.get(), static_cast<size_t>(N)});
    Done += static_cast<size_t>(N);
  }
  return absl::OkStatus();
}

void MappingRegistry::prefetchPages(llvm::StringRef Bytes) const {
  if (Bytes.empty())
    return; // a length of 0 would mean "to the end of the file"
  // Through the descriptor: madvise(MADV_WILLNEED) would also map the pages
  // into the process, and they would count as resident.
  if (std::optional<FileRegion> Region = fileRegion(Bytes))
    ::posix_fadvise(Region->Fd, static_cast<off_t>(Region->Offset),
                    static_cast<off_t>(Bytes.size()), POSIX_FADV_WILLNEED);
}

absl::StatusOr<std::unique_ptr<MappedFile>> MappedFile::open(Context &Ctx, llvm::StringRef Path,
                                                             const StreamPolicy &Streams) {
  std::unique_ptr<MappedFile> File(new MappedFile());
  File->Path = Path.str();
  auto readStreamInto = [&](int Fd, llvm::StringRef Name) -> absl::Status {
    FROST_RETURN_IF_ERROR(readStream(Fd, Name, Streams, File->Owned));
    File->Data = File->Owned.data();
    File->Size = File->Owned.size();
    return absl::OkStatus();
  };
  if (Path == "-") {
    if (!Streams.Allow)
      return absl::InvalidArgumentError("standard input ('-') cannot be read here: name a file");
    // `tool - -o model.pb < model.pb` must not replace what it reads.
    if (struct stat In; ::fstat(STDIN_FILENO, &In) == 0 && S_ISREG(In.st_mode))
      Ctx.inputs().noteInode({In.st_dev, In.st_ino}, "<stdin>");
    FROST_RETURN_IF_ERROR(readStreamInto(STDIN_FILENO, "<stdin>"));
    return File;
  }
  // stat before open: opening a FIFO that is refused would wait for a writer.
  struct stat St;
  if (::stat(File->Path.c_str(), &St) != 0)
    return errnoStatus(Path, "cannot open");
  if (S_ISDIR(St.st_mode))
    return absl::InvalidArgumentError(absl::StrCat(Path.str(), ": is a directory, not a file"));
  bool IsStream = !S_ISREG(St.st_mode);
  if (IsStream && !Streams.Allow)
    return absl::InvalidArgumentError(
        absl::StrCat(Path.str(), ": is ", fileKindName(St.st_mode), ", not a regular file"));
  int Fd = ::open(File->Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return errnoStatus(Path, "cannot open");
  absl::Status S = absl::OkStatus();
  if (IsStream) {
    S = readStreamInto(Fd, Path);
  } else if (::fstat(Fd, &St) != 0) {
    S = errnoStatus(Path, "cannot stat");
  } else if (Ctx.inputs().noteInode({St.st_dev, St.st_ino}, Path); St.st_size > 0) {
    File->Size = static_cast<size_t>(St.st_size);
    void *Addr = ::mmap(nullptr, File->Size, PROT_READ, MAP_PRIVATE, Fd, 0);
    if (Addr == MAP_FAILED) {
      S = errnoStatus(Path, "cannot map");
    } else {
      File->Data = static_cast<const char *>(Addr);
      File->IsMapped = true;
      MappingRegistry &R = Ctx.mappings();
      std::lock_guard<std::mutex> Guard(R.Lock);
      if (File->Size >= KeepDescriptorFrom && R.KeptDescriptors < MaxKeptDescriptors) {
        ++R.KeptDescriptors;
        std::swap(File->Fd, Fd);
      }
      R.ByStart[reinterpret_cast<uintptr_t>(Addr)] = {File->Size, File->Fd};
      File->Registry = &R;
    }
  }
  if (Fd >= 0)
    ::close(Fd);
  if (!S.ok())
    return S;
  return File;
}

MappedFile::~MappedFile() {
  if (!IsMapped)
    return;
  {
    std::lock_guard<std::mutex> Guard(Registry->Lock);
    Registry->ByStart.erase(reinterpret_cast<uintptr_t>(Data));
    if (Fd >= 0)
      --Registry->KeptDescriptors;
  }
  if (Fd >= 0)
    ::close(Fd);
  ::munmap(const_cast<char *>(Data), Size);
}

void InputFiles::noteInode(Inode Key, llvm::StringRef Path) {
  std::lock_guard<std::mutex> Guard(Lock);
  Files[Key] = Path.str(); // the latest name wins
}

void InputFiles::note(llvm::StringRef Path) {
  struct stat St;
  if (::stat(std::string(Path).c_str(), &St) == 0 && S_ISREG(St.st_mode))
    noteInode({St.st_dev, St.st_ino}, Path);
}

void InputFiles::noteWithSiblings(llvm::StringRef Path) {
  namespace fs = std::filesystem;
  // Bounded: a huge directory given as input is not walked for ever.
  constexpr int MaxEntries = 100000;
  int Seen = 0;
  std::error_code EC;
  std::string P = Path.str();
  if (fs::is_directory(P, EC)) {
    for (fs::recursive_directory_iterator It(P, fs::directory_options::skip_permission_denied,
                                             EC),
         End;
         !EC && It != End && Seen++ < MaxEntries; It.increment(EC))
      if (isReadInDirectory(It->path().lexically_relative(P)))
        note(It->path().string());
    return;
  }
  note(Path);
  fs::path Parent = fs::path(P).parent_path();
  std::string Prefix = inputPrefix(fs::path(P).filename().string()).str();
  if (Prefix.empty())
    return;
  for (fs::directory_iterator It(Parent.empty() ? fs::path(".") : Parent, EC), End;
       !EC && It != End && Seen++ < MaxEntries; It.increment(EC))
    if (isCheckpointOrGraphOf(It->path().filename().string(), Prefix))
      note(It->path().string());
}

absl::Status InputFiles::checkNotAnInput(llvm::StringRef Path) const {
  struct stat St;
  if (Path == "-" || ::stat(std::string(Path).c_str(), &St) != 0)
    return absl::OkStatus();
  std::lock_guard<std::mutex> Guard(Lock);
  auto It = Files.find({St.st_dev, St.st_ino});
  if (It == Files.end())
    return absl::OkStatus();
  const std::string &Input = It->second;
  if (!stillNames(Input, It->first)) {
    Files.erase(It); // deleted since: its inode number went to a new file
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat(Path.str(), ": is ", Input == Path ? "an input" : "the same file as the input ",
                   Input == Path ? "" : Input, "; write the output elsewhere"));
}

//===----------------------------------------------------------------------===//
// Output files
//===----------------------------------------------------------------------===//

/// Names of an already open stream (/dev/stdout when standard output is a
/// file): renaming a file onto them would replace the link, not write.
static bool isStreamAlias(llvm::StringRef Path) {
  return Path.starts_with("/dev/std") || Path.starts_with("/dev/fd/") ||
         Path.starts_with("/proc/self/fd/");
}

/// The directory `Path` (`Shown` in messages) is written in exists and can be
/// written.
static absl::Status checkParentWritable(llvm::StringRef Shown, const std::string &Path) {
  std::filesystem::path Parent = std::filesystem::path(Path).parent_path();
  const std::string Dir = Parent.empty() ? std::string(".") : Parent.string();
  struct stat St;
  if (::stat(Dir.c_str(), &St) != 0 || !S_ISDIR(St.st_mode))
    return absl::NotFoundError(absl::StrCat(Shown.str(), ": cannot write there: '", Dir,
                                            "' is not an existing directory"));
  if (::access(Dir.c_str(), W_OK) != 0)
    return errnoStatus(Shown, absl::StrCat("cannot write in '", Dir, "'"));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<OutputFile>> OutputFile::prepare(Context &Ctx,
                                                                llvm::StringRef Path) {
  std::unique_ptr<OutputFile> Out(new OutputFile(Ctx));
  Out->Path = Path.str();
  Out->InPlace = Path == "-" || isStreamAlias(Path);
  if (Path == "-")
    return Out;
  if (Path.empty())
    return absl::InvalidArgumentError("an output file name is empty");
  struct stat St;
  if (::stat(Out->Path.c_str(), &St) == 0) {
    if (S_ISDIR(St.st_mode))
      return absl::InvalidArgumentError(
          absl::StrCat(Path.str(), ": is a directory; give a file name to write"));
    FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(Path));
    if (!S_ISREG(St.st_mode)) {
      Out->InPlace = true; // a device or pipe
      return Out;
    }
  }
  FROST_RETURN_IF_ERROR(checkParentWritable(Path, Out->Path));
  return Out;
}

OutputFile::~OutputFile() {
  if (!Temp.empty() && !Committed) {
    ::unlink(Temp.c_str());
    llvm::sys::DontRemoveFileOnSignal(Temp);
  }
}

absl::Status OutputFile::write(const OutputProducer &Produce, bool Hash) {
  Written = {};
  auto produceInto = [&](int Fd, llvm::StringRef Name) {
    OutputSink Out(Fd, Hash, Ctx.mappings());
    absl::Status S = Produce(Out);
    std::string Digest = Out.sha256();
    if (!Out.flush() && S.ok())
      S = absl::InternalError(
          absl::StrCat(Name.str(), ": write failed: ", std::strerror(Out.error())));
    Written = {static_cast<uint64_t>(Out.ByteCount()), Digest};
    return S;
  };
  if (Path == "-")
    return produceInto(STDOUT_FILENO, "standard output");
  FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(Path));
  auto produceAndClose = [&](int Fd) {
    absl::Status S = produceInto(Fd, Path);
    if (::close(Fd) != 0 && S.ok())
      S = errnoStatus(Path, "write failed");
    return S;
  };
  // A device or pipe (-o /dev/null, /dev/stdout) is written in place:
  // renaming a file onto it would replace the device itself.
  // prepare() decided, once (writeModel relies on the same answer).
  if (InPlace) {
    int Fd = ::open(Path.c_str(), O_WRONLY | O_CLOEXEC);
    if (Fd < 0)
      return errnoStatus(Path, "cannot open");
    return produceAndClose(Fd);
  }
  std::string Pattern = absl::StrCat(Path, ".tmp.XXXXXX");
  int Fd = ::mkstemp(Pattern.data());
  if (Fd < 0)
    return errnoStatus(Path, "cannot create a temporary file beside");
  Temp = Pattern;
  // Ctrl-C during a long write leaves no temporary file.
  llvm::sys::RemoveFileOnSignal(Temp);
  ::fchmod(Fd, 0644);
  absl::Status S = produceAndClose(Fd);
  if (!S.ok()) {
    ::unlink(Temp.c_str());
    llvm::sys::DontRemoveFileOnSignal(Temp);
    Temp.clear();
  }
  return S;
}

absl::Status OutputFile::writeString(llvm::StringRef Contents, bool Hash) {
  // A failed write is reported by write() with its errno.
  return write(
      [&](OutputSink &Out) {
        Out.writeBytes(Contents);
        return absl::OkStatus();
      },
      Hash);
}

absl::Status OutputFile::commit() {
  if (Temp.empty() || Committed)
    return absl::OkStatus();
  FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(Path));
  if (::rename(Temp.c_str(), Path.c_str()) != 0)
    return errnoStatus(Path, "cannot rename the temporary file onto");
  llvm::sys::DontRemoveFileOnSignal(Temp);
  Committed = true;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<OutputDirectory>> OutputDirectory::prepare(Context &Ctx,
                                                                          llvm::StringRef Path) {
  if (Path.empty() || Path == "-")
    return absl::InvalidArgumentError(
        absl::StrCat("'", Path.str(), "': a SavedModel is a directory: give its path"));
  std::unique_ptr<OutputDirectory> Out(new OutputDirectory(Ctx));
  llvm::StringRef Trimmed = Path.rtrim('/');
  Out->Path = (Trimmed.empty() ? Path.take_front(1) : Trimmed).str();
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::file_status Status = fs::status(Out->Path, EC);
  if (fs::exists(Status)) {
    if (!fs::is_directory(Status))
      return absl::InvalidArgumentError(absl::StrCat(
          Path.str(), ": exists and is not a directory; a SavedModel is written as one"));
    bool Empty = fs::is_empty(Out->Path, EC);
    bool Saved = fs::exists(fs::path(Out->Path) / "saved_model.pb", EC) ||
                 fs::exists(fs::path(Out->Path) / "saved_model.pbtxt", EC);
    if (!Empty && !Saved)
      return absl::InvalidArgumentError(absl::StrCat(
          Path.str(), ": is a directory holding no SavedModel; not replacing it (give a new "
                      "or empty directory)"));
    FROST_RETURN_IF_ERROR(Out->checkNoInputInside());
  }
  FROST_RETURN_IF_ERROR(checkParentWritable(Path, Out->Path));
  return Out;
}

absl::Status OutputDirectory::checkNoInputInside() const {
  std::error_code EC;
  for (const auto &Entry : std::filesystem::recursive_directory_iterator(Path, EC))
    if (Entry.is_regular_file())
      FROST_RETURN_IF_ERROR(Ctx.inputs().checkNotAnInput(Entry.path().string()));
  return absl::OkStatus();
}

OutputDirectory::~OutputDirectory() {
  if (!Temp.empty() && !Committed) {
    std::error_code EC;
    std::filesystem::remove_all(Temp, EC);
  }
}

absl::StatusOr<std::string> OutputDirectory::file(llvm::StringRef Relative) {
  if (Temp.empty()) {
    std::string Pattern = absl::StrCat(Path, ".tmp.XXXXXX");
    if (!::mkdtemp(Pattern.data()))
      return errnoStatus(Path, "cannot create a temporary directory beside");
    ::chmod(Pattern.c_str(), 0755);
    Temp = Pattern;
  }
  std::filesystem::path Full = std::filesystem::path(Temp) / Relative.str();
  std::error_code EC;
  std::filesystem::create_directories(Full.parent_path(), EC);
  if (EC)
    return absl::InternalError(absl::StrCat(Full.parent_path().string(),
                                            ": cannot create the directory: ", EC.message()));
  return Full.string();
}

absl::Status OutputDirectory::makeDirectory(llvm::StringRef Relative) {
  FROST_ASSIGN_OR_RETURN(std::string Dir, file(Relative));
  std::error_code EC;
  std::filesystem::create_directory(Dir, EC);
  if (EC)
    return absl::InternalError(
        absl::StrCat(Dir, ": cannot create the directory: ", EC.message()));
  return absl::OkStatus();
}

absl::Status OutputDirectory::commit() {
  if (Committed)
    return absl::OkStatus();
  if (Temp.empty())
    FROST_RETURN_IF_ERROR(file("").status());
  namespace fs = std::filesystem;
  std::error_code EC;
  // An earlier SavedModel (or an empty directory) there is moved aside, the
  // new one renamed in, then the old one removed: never half of either.
  std::string Old;
  if (fs::exists(Path, EC)) {
    FROST_RETURN_IF_ERROR(checkNoInputInside());
    std::string Pattern = absl::StrCat(Path, ".old.XXXXXX");
    if (!::mkdtemp(Pattern.data()))
      return errnoStatus(Path, "cannot create a temporary directory beside");
    Old = Pattern;
    if (::rename(Path.c_str(), Old.c_str()) != 0) {
      absl::Status S = errnoStatus(Path, "cannot move the old directory aside");
      ::rmdir(Old.c_str());
      return S;
    }
  }
  if (::rename(Temp.c_str(), Path.c_str()) != 0) {
    absl::Status S = errnoStatus(Path, "cannot rename the temporary directory onto");
    if (!Old.empty())
      ::rename(Old.c_str(), Path.c_str());
    return S;
  }
  Committed = true;
  if (!Old.empty())
    fs::remove_all(Old, EC);
  return absl::OkStatus();
}

absl::Status writeFileAtomically(Context &Ctx, llvm::StringRef Path,
                                 const OutputProducer &Produce) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> Out, OutputFile::prepare(Ctx, Path));
  FROST_RETURN_IF_ERROR(Out->write(Produce));
  return Out->commit();
}

absl::Status writeStringAtomically(Context &Ctx, llvm::StringRef Path, llvm::StringRef Contents) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> Out, OutputFile::prepare(Ctx, Path));
  FROST_RETURN_IF_ERROR(Out->writeString(Contents));
  return Out->commit();
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
