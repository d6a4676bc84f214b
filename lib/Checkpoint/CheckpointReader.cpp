//===- CheckpointReader.cpp - Format detection and shared helpers ---------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "Readers.h"
#include "frost/proto/tensor.pb.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "absl/strings/str_format.h"

#include <algorithm>
#include <glob.h>
#include <map>

namespace frost {

namespace fs = llvm::sys::fs;

llvm::StringRef formatName(CheckpointFormat Format) {
  return Format == CheckpointFormat::V1 ? "V1" : "V2";
}

std::string indexPath(llvm::StringRef Prefix) { return absl::StrCat(Prefix.str(), ".index"); }

std::string dataShardPath(llvm::StringRef Prefix, int Shard, int NumShards) {
  return absl::StrFormat("%s.data-%05d-of-%05d", Prefix.str(), Shard, NumShards);
}

// Any file there counts, so that an index that is a directory or a FIFO is
// reported as what it is when opened.
bool isV2Checkpoint(llvm::StringRef Prefix) { return fs::exists(indexPath(Prefix)); }

static std::vector<std::string> globFiles(const std::string &Pattern) {
  std::vector<std::string> Out;
  glob_t G;
  if (::glob(Pattern.c_str(), 0, nullptr, &G) == 0) {
    for (size_t I = 0; I < G.gl_pathc; ++I)
      if (fs::is_regular_file(G.gl_pathv[I]))
        Out.push_back(G.gl_pathv[I]);
  }
  ::globfree(&G);
  std::sort(Out.begin(), Out.end());
  return Out;
}

/// Splits "P-00001-of-00004" into (P, 1, 4).
static bool splitShardName(llvm::StringRef Name, std::string &Base, int &Index, int &Count) {
  // "-NNNNN-of-MMMMM" is 15 characters.
  if (Name.size() < 15)
    return false;
  llvm::StringRef Tail = Name.take_back(15);
  if (Tail[0] != '-' || Tail.substr(6, 4) != "-of-")
    return false;
  llvm::StringRef A = Tail.substr(1, 5), B = Tail.substr(10, 5);
  if (!llvm::all_of(A, llvm::isDigit) || !llvm::all_of(B, llvm::isDigit))
    return false;
  Index = std::stoi(A.str());
  Count = std::stoi(B.str());
  Base = Name.drop_back(15).str();
  return true;
}

absl::StatusOr<std::vector<std::string>> findV1Files(llvm::StringRef Prefix) {
  std::string P = Prefix.str();
  std::vector<std::string> Files;
  bool IsPattern = Prefix.find_first_of("*?[") != llvm::StringRef::npos;
  if (IsPattern)
    Files = globFiles(P);
  else if (fs::exists(P) && !fs::is_directory(P))
    return std::vector<std::string>{P}; // opening it says what else it is

  else
    Files = globFiles(P + "-[0-9][0-9][0-9][0-9][0-9]-of-[0-9][0-9][0-9][0-9][0-9]");
  if (Files.empty())
    return absl::NotFoundError(absl::StrCat(
        P, ": no checkpoint found: ",
        IsPattern ? "no file matches the pattern"
                  : absl::StrCat("neither ", P, ".index (V2) nor a V1 table ", P, " or ", P,
                                 "-\?\?\?\?\?-of-\?\?\?\?\? exists")));
  // Sharded names must form a complete set.
  std::map<std::pair<std::string, int>, std::vector<int>> Sets;
  for (const std::string &F : Files) {
    std::string Base;
    int Index, Count;
    if (splitShardName(F, Base, Index, Count))
      Sets[{Base, Count}].push_back(Index);
  }
  for (auto &[Key, Indices] : Sets)
    for (int I = 0; I < Key.second; ++I)
      if (!std::count(Indices.begin(), Indices.end(), I))
        return absl::NotFoundError(absl::StrFormat(
            "%s-%05d-of-%05d: missing shard %d of the %d of V1 checkpoint %s", Key.first, I,
            Key.second, I, Key.second, P));
  return Files;
}

CheckpointReader::~CheckpointReader() = default;

absl::StatusOr<std::unique_ptr<CheckpointReader>>
CheckpointReader::open(Context &Ctx, llvm::StringRef Prefix, const CheckpointOptions &Options) {
  std::string P = Prefix.str();
  // Naming the index file itself is a common slip.
  if (Prefix.ends_with(".index") && !isV2Checkpoint(P) && fs::is_regular_file(P))
    P = Prefix.drop_back(6).str();
  if (isV2Checkpoint(P))
    return openBundle(Ctx, P, Options);
  FROST_ASSIGN_OR_RETURN(std::vector<std::string> Files, findV1Files(P));
  return openV1(Ctx, P, std::move(Files), Options);
}

const VariableInfo *CheckpointReader::find(llvm::StringRef Name) const {
  auto It = std::lower_bound(Variables.begin(), Variables.end(), Name,
                             [](const VariableInfo &V, llvm::StringRef N) { return V.Name < N; });
  if (It == Variables.end() || It->Name != Name)
    return nullptr;
  return &*It;
}

void CheckpointReader::sortVariables() {
  std::sort(Variables.begin(), Variables.end(),
            [](const VariableInfo &A, const VariableInfo &B) { return A.Name < B.Name; });
}

absl::Status CheckpointReader::readTensorProto(llvm::StringRef Name,
                                               tensorflow::TensorProto &Proto) const {
  FROST_ASSIGN_OR_RETURN(TensorData Data, read(Name));
  return Data.toTensorProto(Proto);
}

} // namespace frost
