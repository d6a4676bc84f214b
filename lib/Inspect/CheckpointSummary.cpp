//===- CheckpointSummary.cpp - A checkpoint's variables and values --------===//
#include "frost/Inspect/CheckpointSummary.h"

#include "frost/Inspect/ValueFormat.h"
#include "frost/IO/GraphIO.h"
#include "frost/IR/Model.h"

#include "frost/Support/File.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Shape.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace frost::inspect {

namespace {

/// Without --all, longer strings are cut to this many bytes.
constexpr size_t SummaryStringBytes = 64;

uint64_t numElementsOf(const VariableInfo &V) {
  uint64_t N = 1;
  for (int64_t D : V.Shape)
    N *= static_cast<uint64_t>(std::max<int64_t>(D, 0));
  return N;
}

std::string shardText(const VariableInfo &V) {
  return V.ShardId < 0 ? std::string("*") : std::to_string(V.ShardId);
}

} // namespace

/// `Failed` (Path read as a checkpoint), or, when Path is a model file (a
/// frozen graph given to the wrong subcommand), what it is and the command
/// that summarises it.
absl::Status notACheckpoint(Context &Ctx, llvm::StringRef Path, const absl::Status &Failed) {
  llvm::StringRef Name = llvm::sys::path::filename(Path);
  if (!llvm::sys::fs::is_regular_file(Path) || Name.ends_with(".index") ||
      Name.contains(".data-"))
    return Failed;
  absl::StatusOr<std::unique_ptr<Model>> M = readModel(Ctx, Path);
  if (!M.ok() || (*M)->graph().size() == 0)
    return Failed;
  return absl::InvalidArgumentError(
      absl::StrCat(Path.str(), ": is a ", containerKindName((*M)->kind()).str(),
                   ", not a checkpoint; 'frost-inspect graph ", Path.str(), "' summarises it"));
}

absl::StatusOr<OpenedCheckpoint> openCheckpoint(Context &Ctx, llvm::StringRef Path,
                                                bool VerifyChecksums) {
  OpenedCheckpoint C;
  absl::StatusOr<ResolvedCheckpoint> Where = resolveCheckpoint(Ctx, Path);
  if (!Where.ok())
    return notACheckpoint(Ctx, Path, Where.status());
  C.Where = *std::move(Where);
  frost::CheckpointOptions Options;
  Options.VerifyChecksums = VerifyChecksums;
  absl::StatusOr<std::unique_ptr<CheckpointReader>> Reader =
      CheckpointReader::open(Ctx, C.Where.Prefix, Options);
  if (!Reader.ok())
    return notACheckpoint(Ctx, Path, Reader.status());
  C.Reader = *std::move(Reader);
  return C;
}

absl::StatusOr<std::vector<const VariableInfo *>>
selectVariables(const CheckpointReader &R, llvm::ArrayRef<std::string> Names) {
  std::vector<const VariableInfo *> Out;
  if (Names.empty()) {
    for (const VariableInfo &V : R.variables())
      Out.push_back(&V);
    return Out;
  }
  std::vector<std::string> Missing;
  std::vector<llvm::StringRef> Known;
  for (const VariableInfo &V : R.variables())
    Known.push_back(V.Name);
  for (const std::string &Name : Names) {
    if (const VariableInfo *V = R.find(Name)) {
      Out.push_back(V);
      continue;
    }
    std::string Line = absl::StrCat("checkpoint ", R.prefix(), " has no variable '", Name, "'");
    // Suggestions only for the lines shown.
    if (Missing.size() < 10)
      if (std::vector<std::string> Close = closestNames(Name, Known); !Close.empty())
        absl::StrAppend(&Line, "; did you mean ", quotedAlternatives(Close), "?");
    Missing.push_back(std::move(Line));
  }
  if (!Missing.empty())
    return absl::NotFoundError(joinFindings(Missing));
  return Out;
}

//===----------------------------------------------------------------------===//
// Listing
//===----------------------------------------------------------------------===//

namespace {

void printHeader(const OpenedCheckpoint &C, llvm::raw_ostream &OS) {
  const CheckpointHeader &H = C.Reader->header();
  OS << "checkpoint: " << C.Reader->prefix() << "\n";
  for (const std::string &Note : C.Where.Notes)
    OS << "note: " << Note << "\n";
  OS << "format: " << formatName(H.Format) << ", " << plural(H.NumShards, "shard")
     << (H.BigEndian ? ", big-endian" : "") << "\n";
  if (C.Where.GlobalStep)
    OS << "global step: " << *C.Where.GlobalStep << "\n";
}

} // namespace

void printCheckpointListing(const OpenedCheckpoint &C, llvm::raw_ostream &OS) {
  printHeader(C, OS);
  const std::vector<VariableInfo> &Vars = C.Reader->variables();
  uint64_t Params = 0, Bytes = 0;
  std::vector<std::array<std::string, 6>> Rows;
  Rows.push_back({"name", "dtype", "shape", "bytes", "shard", ""});
  for (const VariableInfo &V : Vars) {
    Params += numElementsOf(V);
    Bytes += V.ByteSize;
    Rows.push_back({V.Name, dataTypePythonName(V.DType), formatShape(V.Shape),
                    std::to_string(V.ByteSize), shardText(V),
                    V.IsPartitioned ? absl::StrCat("partitioned, ", V.NumSlices, " slices")
                                    : std::string()});
  }
  OS << "variables: " << Vars.size() << " (" << plural(Params, "parameter") << ", "
     << plural(Bytes, "byte") << ")\n";
  std::array<size_t, 6> Width{};
  for (const auto &Row : Rows)
    for (size_t C = 0; C < Row.size(); ++C)
      Width[C] = std::max(Width[C], Row[C].size());
  for (const auto &Row : Rows) {
    std::string Line = "  ";
    for (size_t C = 0; C < Row.size(); ++C) {
      if (C == 3) // bytes: right-aligned
        Line += std::string(Width[C] - Row[C].size(), ' ') + Row[C];
      else
        Line += Row[C] + std::string(Width[C] - Row[C].size(), ' ');
      Line += "  ";
    }
    OS << llvm::StringRef(Line).rtrim() << "\n";
  }
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

absl::Status printVariableValues(const CheckpointReader &R, const VariableInfo &V, bool All,
                                 llvm::raw_ostream &OS) {
  FROST_ASSIGN_OR_RETURN(TensorData T, R.read(V.Name));
  OS << "tensor: " << V.Name << "\n"
     << "dtype: " << dataTypePythonName(T.dtype()) << "\n"
     << "shape: " << formatShape(T.shape()) << "\n";
  ElementFormatter Format(T.dtype(), T.bytes(), T.elements(), Style::Text);
  if (!Format.supported()) {
    OS << "<" << T.numElements() << " " << dataTypePythonName(T.dtype())
       << " elements; values not shown>\n";
    return absl::OkStatus();
  }
  bool Summarize = !All && static_cast<uint64_t>(T.numElements()) > SummarizeThreshold;
  if (!All)
    Format.truncateStrings(SummaryStringBytes);
  printArray(OS, T.shape(), Format, Format.padded(), Summarize);
  return absl::OkStatus();
}

//===----------------------------------------------------------------------===//
// JSON (schema also in docs/inspect.md)
//
//   {"checkpoint": prefix, "format": "V1"|"V2", "shards": int,
//    "big_endian": bool, "global_step": int|null, "notes": [string],
//    "variables": [{"name": string, "dtype": string, "shape": [int],
//                   "bytes": int, "shard": int|null, "partitioned": bool,
//                   "slices": int, "values": nested arrays (--tensor/--all)}]}
//
// Strings are byte strings (JsonWriter); values are exact (formatFloat).
//===----------------------------------------------------------------------===//

namespace {

absl::Status writeVariable(JsonWriter &J, const CheckpointReader &R, const VariableInfo &V,
                           bool WithValues) {
  J.objectBegin();
  J.member("name", V.Name);
  J.member("dtype", dataTypePythonName(V.DType));
  J.key("shape");
  J.inlineArray(V.Shape);
  J.member("bytes", V.ByteSize);
  J.key("shard");
  if (V.ShardId < 0)
    J.null();
  else
    J.number(V.ShardId);
  J.member("partitioned", V.IsPartitioned);
  J.member("slices", V.NumSlices);
  absl::Status S;
  if (WithValues) {
    J.key("values");
    absl::StatusOr<TensorData> T = R.read(V.Name);
    if (!T.ok()) {
      // Keep the document well formed; the error is reported afterwards.
      J.null();
      S = T.status();
    } else {
      ElementFormatter Format(T->dtype(), T->bytes(), T->elements(), Style::Json);
      if (Format.supported())
        writeJsonArray(J, T->shape(), Format);
      else
        J.null();
    }
  }
  J.objectEnd();
  return S;
}

} // namespace

absl::Status printCheckpointJson(const OpenedCheckpoint &C,
                                 llvm::ArrayRef<const VariableInfo *> Vars, bool WithValues,
                                 llvm::raw_ostream &OS) {
  const CheckpointReader &R = *C.Reader;
  const CheckpointHeader &H = R.header();
  absl::Status First;
  {
    JsonWriter J(OS);
    J.objectBegin();
    J.member("checkpoint", R.prefix());
    J.member("format", formatName(H.Format));
    J.member("shards", H.NumShards);
    J.member("big_endian", H.BigEndian);
    J.key("global_step");
    if (C.Where.GlobalStep)
      J.number(*C.Where.GlobalStep);
    else
      J.null();
    J.key("notes");
    J.arrayBegin();
    for (const std::string &Note : C.Where.Notes)
      J.string(Note);
    J.arrayEnd();
    J.key("variables");
    J.arrayBegin();
    for (const VariableInfo *V : Vars) {
      absl::Status S = writeVariable(J, R, *V, WithValues);
      if (First.ok())
        First = S;
    }
    J.arrayEnd();
    J.objectEnd();
  }
  return First;
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

namespace {

/// Reads every byte of `Bytes`. Without checksums nothing else would touch
/// the (memory-mapped) data, and "verified" would mean only "indexed".
uint64_t foldBytes(llvm::StringRef Bytes) {
  uint64_t Fold = 0;
  size_t I = 0;
  for (; I + 8 <= Bytes.size(); I += 8) {
    uint64_t Word;
    std::memcpy(&Word, Bytes.data() + I, 8);
    Fold ^= Word;
  }
  for (; I < Bytes.size(); ++I)
    Fold ^= static_cast<unsigned char>(Bytes[I]);
  return Fold;
}

} // namespace

absl::StatusOr<CheckpointVerification> verifyCheckpoint(const CheckpointReader &R,
                                                        bool ChecksumsVerified) {
  CheckpointVerification Result;
  Result.Shards = R.header().NumShards;
  Result.ChecksumsVerified = ChecksumsVerified;
  volatile uint64_t Fold = 0;
  std::string Errors;
  unsigned NumErrors = 0;
  // Tensors in a missing shard all fail alike; say so once.
  llvm::StringSet<> Seen;
  for (const VariableInfo &V : R.variables()) {
    absl::StatusOr<TensorData> T = R.read(V.Name);
    if (!T.ok()) {
      llvm::StringRef Message(T.status().message().data(), T.status().message().size());
      if (Seen.insert(Message).second)
        absl::StrAppend(&Errors, Errors.empty() ? "" : "\n", T.status().message());
      ++NumErrors;
      continue;
    }
    ++Result.Tensors;
    if (T->isFixedSize()) {
      Result.Bytes += T->bytes().size();
      if (!ChecksumsVerified)
        Fold = Fold ^ foldBytes(T->bytes());
    } else {
      for (const std::string &E : T->elements())
        Result.Bytes += E.size();
    }
  }
  if (NumErrors)
    return absl::DataLossError(absl::StrCat(Errors, "\n", NumErrors, " of ",
                                            R.variables().size(), " tensors failed to verify"));
  return Result;
}

void printVerification(const CheckpointVerification &V, llvm::raw_ostream &OS) {
  OS << "verified " << plural(V.Tensors, "tensor") << " (" << formatBytes(V.Bytes) << ") in "
     << plural(V.Shards, "shard")
     << (V.ChecksumsVerified ? "; checksums ok" : "; checksums not checked") << "\n";
}

absl::Status printCheckpoint(Context &Ctx, llvm::StringRef Path, const CheckpointQuery &Q,
                             llvm::raw_ostream &OS) {
  FROST_ASSIGN_OR_RETURN(OpenedCheckpoint C, openCheckpoint(Ctx, Path, Q.VerifyChecksums));
  if (Q.Verify) {
    FROST_ASSIGN_OR_RETURN(CheckpointVerification V,
                           verifyCheckpoint(*C.Reader, Q.VerifyChecksums));
    printVerification(V, OS);
    return absl::OkStatus();
  }
  FROST_ASSIGN_OR_RETURN(std::vector<const VariableInfo *> Vars,
                         selectVariables(*C.Reader, Q.Tensors));
  bool WithValues = Q.All || !Q.Tensors.empty();
  if (Q.Json)
    return printCheckpointJson(C, Vars, WithValues, OS);
  if (!WithValues) {
    printCheckpointListing(C, OS);
    return absl::OkStatus();
  }
  for (size_t I = 0; I < Vars.size(); ++I) {
    if (I)
      OS << "\n";
    FROST_RETURN_IF_ERROR(printVariableValues(*C.Reader, *Vars[I], Q.All, OS));
  }
  return absl::OkStatus();
}

} // namespace frost::inspect
