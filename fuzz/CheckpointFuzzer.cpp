//===- CheckpointFuzzer.cpp - libFuzzer target for the checkpoint readers -===//
//
// Input layout: byte 0 = flags (bit 0: V1 table instead of a V2 bundle; bit 1:
// skip data checksums), bytes 1-2 = little-endian length L of the table, then
// L bytes of table (P.index, or P for V1) and the rest as the data shard
// P.data-00000-of-00001. The target opens the checkpoint, lists it, reads
// every variable into a TensorProto, and walks the raw table.
//
//===----------------------------------------------------------------------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Checkpoint/Table.h"
#include "frost/Support/Context.h"
#include "frost/proto/tensor.pb.h"

#include "google/protobuf/stubs/logging.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

const std::string &workDir() {
  static const std::string Dir = [] {
    const char *Base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::string Pattern = std::string(Base) + "/frost-fuzz-XXXXXX";
    if (!::mkdtemp(Pattern.data()))
      std::abort();
    return Pattern;
  }();
  static const bool CleanupRegistered = [] {
    std::atexit([] {
      std::error_code EC;
      std::filesystem::remove_all(workDir(), EC);
    });
    return true;
  }();
  (void)CleanupRegistered;
  return Dir;
}

void writeFile(const std::string &Path, const uint8_t *Data, size_t Size) {
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    std::abort();
  if (Size)
    std::fwrite(Data, 1, Size, F);
  std::fclose(F);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // Mutated names are often invalid UTF-8, which protobuf logs on every parse.
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 3)
    return 0;
  bool V1 = Data[0] & 1;
  frost::CheckpointOptions Options;
  Options.VerifyChecksums = !(Data[0] & 2);
  size_t TableSize = std::min<size_t>(Data[1] | (size_t(Data[2]) << 8), Size - 3);
  const uint8_t *Table = Data + 3;
  const uint8_t *Shard = Table + TableSize;
  size_t ShardSize = Size - 3 - TableSize;

  const std::string Prefix = workDir() + "/ckpt";
  const std::string IndexPath = Prefix + ".index";
  std::remove(V1 ? IndexPath.c_str() : Prefix.c_str());
  writeFile(V1 ? Prefix : IndexPath, Table, TableSize);
  writeFile(Prefix + ".data-00000-of-00001", Shard, ShardSize);

  // The raw table: full scan plus point lookups of what the scan saw.
  llvm::StringRef TableBytes(reinterpret_cast<const char *>(Table), TableSize);
  if (auto T = frost::Table::fromBytes("fuzz", TableBytes); T.ok()) {
    std::vector<std::string> Keys;
    (void)(*T)->forEach([&](llvm::StringRef K, llvm::StringRef) {
      if (Keys.size() < 64)
        Keys.push_back(K.str());
      return absl::OkStatus();
    });
    for (const std::string &K : Keys)
      (void)(*T)->get(K);
    (void)(*T)->get("\xff");
  }

  frost::Context Ctx;
  auto Reader = frost::CheckpointReader::open(Ctx, Prefix, Options);
  if (!Reader.ok())
    return 0;
  tensorflow::TensorProto Proto;
  for (const frost::VariableInfo &V : (*Reader)->variables()) {
    auto Tensor = (*Reader)->read(V.Name);
    if (!Tensor.ok())
      continue;
    // The listing and the value must agree.
    if (Tensor->dtype() != V.DType || Tensor->shape() != llvm::ArrayRef<int64_t>(V.Shape))
      std::abort();
    if (Tensor->isFixedSize() &&
        Tensor->bytes().size() !=
            static_cast<uint64_t>(Tensor->numElements()) * frost::dataTypeSize(Tensor->dtype()))
      std::abort();
    (void)Tensor->toTensorProto(Proto);
  }
  (void)frost::resolveCheckpoint(Ctx, workDir());
  return 0;
}
