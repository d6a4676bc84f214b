//===- GraphIO.h - Reading and writing graphs -------------------*- C++ -*-===//
//
// Reads a GraphDef, MetaGraphDef or SavedModel (`saved_model.pb`/`.pbtxt`, or
// its directory) in binary or text form, telling the two apart by content, and
// writes a Model back in the same container. Binary output is deterministic
// (map entries sorted) and streamed node by node; files beyond protobuf's
// 2 GiB limit are refused with their size and biggest nodes before any parse.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IO_GRAPHIO_H
#define FROST_IO_GRAPHIO_H

#include "frost/IR/Model.h"
#include "frost/Support/File.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace frost {

enum class Encoding { Binary, Text };

/// Protobuf refuses messages of 2 GiB or more.
inline constexpr uint64_t ProtobufSizeLimit = 0x7fffffff;

struct ReadOptions {
  /// SavedModel meta graph selection: the meta graph whose tag set equals
  /// these tags. Empty: the only meta graph, if there is exactly one.
  std::vector<std::string> Tags = {"serve"};
  /// Size limit, lowered by tests.
  uint64_t SizeLimit = ProtobufSizeLimit;
};

struct WriteOptions {
  Encoding Enc = Encoding::Binary;
  uint64_t SizeLimit = ProtobufSizeLimit;
  /// Compute the SHA-256 of the bytes as they are written (OutputFile::written()).
  bool Hash = false;
};

/// The file to read for `Path`: itself, or a SavedModel directory's
/// saved_model.pb (or .pbtxt).
absl::StatusOr<std::string> resolveModelFile(llvm::StringRef Path);

/// Opens the model file for `Path` (resolved as above). "-", FIFOs and devices
/// are read as streams, refused after their first bytes when they start as no
/// model can.
absl::StatusOr<std::unique_ptr<MappedFile>> openModelFile(Context &Ctx, llvm::StringRef Path);

/// The name of a model input in messages: "<stdin>" for "-".
std::string modelDisplayName(llvm::StringRef Path);

/// Reads a model file, or a SavedModel directory.
absl::StatusOr<std::unique_ptr<Model>> readModel(Context &Ctx, llvm::StringRef Path,
                                                 const ReadOptions &Options = {});

/// Reads a model from bytes; `DisplayName` names them in messages and hints at
/// the container by its file name (`.meta`, `saved_model.pb`).
absl::StatusOr<std::unique_ptr<Model>> parseModel(llvm::StringRef Bytes,
                                                  llvm::StringRef DisplayName,
                                                  const ReadOptions &Options = {});

/// Writes the model atomically ("-" = standard output), once the checks of
/// the checkpoint bytes it holds (Ctx.background()) passed.
absl::Status writeModel(Context &Ctx, const Model &M, llvm::StringRef Path,
                        const WriteOptions &Options = {});

/// Writes the model into `Out`, to be committed by the caller (the checks of
/// Out's Context waited for).
absl::Status writeModel(const Model &M, OutputFile &Out, const WriteOptions &Options = {});

/// The size of `M` in binary encoding, as writeModel would write it.
uint64_t encodedModelSize(const Model &M);
/// The bytes `N` takes in its GraphDef's encoding, framing included.
uint64_t encodedNodeSize(const Node &N);

/// The model in protobuf text form.
std::string printModelText(const Model &M);

/// The model's bytes as writeModel would write them (binary, or text), once
/// the checks of the checkpoint bytes it holds (Ctx.background()) passed.
absl::StatusOr<std::string> serializeModel(Context &Ctx, const Model &M,
                                           const WriteOptions &Options = {});

/// Text or binary, judged from the first bytes.
Encoding detectEncoding(llvm::StringRef Bytes);

} // namespace frost

#endif // FROST_IO_GRAPHIO_H
