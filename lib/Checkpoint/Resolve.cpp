//===- Resolve.cpp - Finding the checkpoint a user means ------------------===//
#include "frost/Checkpoint/Resolve.h"
#include "Readers.h"
#include "frost/Checkpoint/Table.h"
#include "frost/Support/File.h"
#include "frost/proto/checkpoint.pb.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/text_format.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace frost {

namespace {

class CollectFirstError : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int Line, google::protobuf::io::ColumnNumber Column,
                const std::string &Message) override {
    if (First.empty())
      First = absl::StrCat(Line + 1, ":", Column + 1, ": ", Message);
  }
  std::string First;
};

bool isCheckpointPrefix(const std::string &P) {
  return isV2Checkpoint(P) || findV1Files(P).ok();
}

std::string joinPath(llvm::StringRef Dir, llvm::StringRef Name) {
  if (Dir.empty() || Dir == ".")
    return Name.str();
  if (Dir.ends_with("/"))
    return absl::StrCat(Dir.str(), Name.str());
  return absl::StrCat(Dir.str(), "/", Name.str());
}

/// The last component of a path written on any system.
llvm::StringRef baseName(llvm::StringRef Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == llvm::StringRef::npos ? Path : Path.substr(Slash + 1);
}

bool isWindowsAbsolute(llvm::StringRef Path) {
  return (Path.size() >= 3 && llvm::isAlpha(Path[0]) && Path[1] == ':' &&
          (Path[2] == '\\' || Path[2] == '/')) ||
         Path.starts_with("\\\\");
}

/// "P-?????-of-00004" or "P-00001-of-00004" -> "P".
llvm::StringRef stripShardSuffix(llvm::StringRef Prefix) {
  if (Prefix.size() < 15)
    return Prefix;
  llvm::StringRef Tail = Prefix.take_back(15);
  auto IsField = [](llvm::StringRef F) {
    return llvm::all_of(F, [](char C) { return llvm::isDigit(C) || C == '?'; });
  };
  if (Tail[0] == '-' && Tail.substr(6, 4) == "-of-" && IsField(Tail.substr(1, 5)) &&
      IsField(Tail.substr(10, 5)))
    return Prefix.drop_back(15);
  return Prefix;
}

std::optional<int64_t> globalStep(llvm::StringRef Prefix) {
  llvm::StringRef Base = baseName(stripShardSuffix(Prefix));
  size_t Dash = Base.find_last_of('-');
  if (Dash == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Digits = Base.substr(Dash + 1);
  if (Digits.empty() || !llvm::all_of(Digits, llvm::isDigit))
    return std::nullopt;
  int64_t Step = 0;
  auto [Ptr, Err] = std::from_chars(Digits.begin(), Digits.end(), Step);
  if (Err != std::errc() || Ptr != Digits.end())
    return std::nullopt;
  return Step;
}

ResolvedCheckpoint finish(std::string Prefix, std::vector<std::string> Notes) {
  ResolvedCheckpoint R;
  R.Format = isV2Checkpoint(Prefix) ? CheckpointFormat::V2 : CheckpointFormat::V1;
  std::string Meta = absl::StrCat(stripShardSuffix(Prefix).str(), ".meta");
  if (llvm::sys::fs::is_regular_file(Meta))
    R.MetaPath = Meta;
  R.GlobalStep = globalStep(Prefix);
  R.Prefix = std::move(Prefix);
  R.Notes = std::move(Notes);
  return R;
}

/// The checkpoint a state file in `Dir` records as `Recorded`.
absl::StatusOr<std::string> resolveRecorded(const std::string &Dir, const std::string &StatePath,
                                            llvm::StringRef Recorded,
                                            std::vector<std::string> &Notes) {
  bool PosixAbsolute = Recorded.starts_with("/");
  std::string Direct = PosixAbsolute ? Recorded.str() : joinPath(Dir, Recorded);
  if (!isWindowsAbsolute(Recorded) && isCheckpointPrefix(Direct))
    return Direct;
  // Written on another machine (or relative to another working directory):
  // the checkpoint usually sits beside the state file.
  std::string Beside = joinPath(Dir, baseName(Recorded));
  if (isCheckpointPrefix(Beside)) {
    Notes.push_back(absl::StrCat(StatePath, " records '", Recorded.str(),
                                 "', which does not exist here; using ", Beside));
    return Beside;
  }
  return absl::NotFoundError(absl::StrCat(StatePath, ": records checkpoint '", Recorded.str(),
                                          "', but neither it nor ", Beside, " exists"));
}

struct Candidate {
  std::string Prefix;
  fs::file_time_type Time;
  std::optional<int64_t> Step;
};

bool hasTableMagic(const std::string &Path) {
  std::FILE *F = std::fopen(Path.c_str(), "rb");
  if (!F)
    return false;
  unsigned char Buf[8];
  bool Ok = std::fseek(F, -8, SEEK_END) == 0 && std::fread(Buf, 1, 8, F) == 8;
  std::fclose(F);
  if (!Ok)
    return false;
  uint64_t V = 0;
  for (int I = 7; I >= 0; --I)
    V = (V << 8) | Buf[I];
  return V == table::Magic;
}

/// Every checkpoint in `Dir`: V2 prefixes (from .index files) and V1 tables.
std::vector<Candidate> scanDirectory(const std::string &Dir) {
  std::vector<Candidate> Out;
  std::error_code EC;
  for (const fs::directory_entry &E : fs::directory_iterator(Dir, EC)) {
    if (!E.is_regular_file(EC))
      continue;
    std::string Name = E.path().filename().string();
    llvm::StringRef N(Name);
    std::string Prefix;
    if (N.ends_with(".index")) {
      Prefix = joinPath(Dir, N.drop_back(6));
    } else if (N.ends_with(".meta") || N.contains(".data-") || N == "checkpoint" ||
               N.ends_with(".pb") || N.ends_with(".pbtxt") || N.contains(".tempstate") ||
               N.contains(".tmp")) {
      continue;
    } else if (hasTableMagic(E.path().string())) {
      llvm::StringRef Base = stripShardSuffix(N);
      if (Base.size() != N.size()) {
        // Count each sharded V1 checkpoint once, by its first shard.
        if (!N.take_back(15).starts_with("-00000-"))
          continue;
        Prefix = joinPath(Dir, Base);
      } else {
        Prefix = joinPath(Dir, N);
      }
    } else {
      continue;
    }
    Out.push_back({Prefix, E.last_write_time(EC), globalStep(Prefix)});
  }
  return Out;
}

} // namespace

absl::StatusOr<tensorflow::CheckpointState> readCheckpointState(Context &Ctx,
                                                                llvm::StringRef Path) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> File, MappedFile::open(Ctx, Path));
  tensorflow::CheckpointState State;
  google::protobuf::TextFormat::Parser Parser;
  CollectFirstError Errors;
  Parser.RecordErrorsTo(&Errors);
  if (!Parser.ParseFromString(File->bytes().str(), &State))
    return absl::InvalidArgumentError(absl::StrCat(Path.str(), ":", Errors.First));
  return State;
}

absl::StatusOr<ResolvedCheckpoint> resolveCheckpoint(Context &Ctx, llvm::StringRef Path) {
  std::string P = Path.str();
  while (P.size() > 1 && P.back() == '/')
    P.pop_back();
  std::vector<std::string> Notes;

  if (llvm::sys::fs::is_directory(P)) {
    std::string StatePath = joinPath(P, "checkpoint");
    if (llvm::sys::fs::is_regular_file(StatePath)) {
      FROST_ASSIGN_OR_RETURN(tensorflow::CheckpointState State, readCheckpointState(Ctx, StatePath));
      if (!State.model_checkpoint_path().empty()) {
        FROST_ASSIGN_OR_RETURN(std::string Prefix,
                               resolveRecorded(P, StatePath, State.model_checkpoint_path(), Notes));
        Notes.insert(Notes.begin(),
                     absl::StrCat(P, " is a directory; its checkpoint state file names ", Prefix));
        return finish(std::move(Prefix), std::move(Notes));
      }
      Notes.push_back(absl::StrCat(StatePath, " names no checkpoint; searching the directory"));
    }
    std::vector<Candidate> Found = scanDirectory(P);
    if (Found.empty())
      return absl::NotFoundError(
          absl::StrCat(P, ": no checkpoint state file and no checkpoint in the directory"));
    // Newest first; equal times fall back to the higher step, then the name.
    auto Newer = [](const Candidate &A, const Candidate &B) {
      if (A.Time != B.Time)
        return A.Time > B.Time;
      if (A.Step.value_or(-1) != B.Step.value_or(-1))
        return A.Step.value_or(-1) > B.Step.value_or(-1);
      return A.Prefix > B.Prefix;
    };
    std::sort(Found.begin(), Found.end(), Newer);
    if (Found.size() == 1)
      Notes.push_back(absl::StrCat(P, " has no checkpoint state file; using its only checkpoint ",
                                   Found[0].Prefix));
    else
      Notes.push_back(absl::StrCat(P, " has no checkpoint state file; using the newest of its ",
                                   Found.size(), " checkpoints, ", Found[0].Prefix));
    return finish(Found[0].Prefix, std::move(Notes));
  }

  // A file of a checkpoint instead of its prefix. (Checked first: any
  // existing file would pass for a V1 checkpoint.)
  llvm::StringRef Ref(P);
  std::string Stripped;
  if (Ref.ends_with(".index") || Ref.ends_with(".meta"))
    Stripped = Ref.substr(0, Ref.rfind('.')).str();
  else if (size_t Data = Ref.rfind(".data-"); Data != llvm::StringRef::npos)
    Stripped = Ref.substr(0, Data).str();
  if (!Stripped.empty() && isCheckpointPrefix(Stripped)) {
    Notes.push_back(absl::StrCat(P, " is a file of checkpoint ", Stripped, "; using that prefix"));
    return finish(std::move(Stripped), std::move(Notes));
  }
  if (isCheckpointPrefix(P))
    return finish(P, std::move(Notes));
  return findV1Files(P).status();
}

} // namespace frost
