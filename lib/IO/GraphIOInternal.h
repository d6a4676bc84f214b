//===- GraphIOInternal.h - Shared by the readers and the writer -*- C++ -*-===//
//
// Private to lib/IO: field numbers of the containers, format detection and the
// size-limit diagnostics that reading and writing both report.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_IO_GRAPHIOINTERNAL_H
#define FROST_LIB_IO_GRAPHIOINTERNAL_H

#include "frost/IO/GraphIO.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace frost {

inline constexpr uint32_t NodeField = 1;       // GraphDef.node
inline constexpr uint32_t GraphDefField = 2;   // MetaGraphDef.graph_def
inline constexpr uint32_t MetaGraphsField = 2; // SavedModel.meta_graphs

/// Which container `Bytes` hold: by the first text field, or by the file name
/// (`saved_model.pb`, `.meta`) and the shape of the binary records.
absl::StatusOr<ContainerKind> detectContainer(llvm::StringRef Bytes, Encoding Enc,
                                              llvm::StringRef DisplayName);

/// How deeply messages may nest in text input, as protobuf allows in binary.
inline constexpr int MaxMessageDepth = 100;

/// Refuses the first bytes of a stream that no model starts with (garbage from
/// /dev/zero, a Keras file), so the rest is never read.
absl::Status checkModelHead(llvm::StringRef Head, llvm::StringRef DisplayName);

/// "'name' (Op) 1.5 GiB, ..." for the five biggest of (size, description).
std::string biggestNodesText(std::vector<std::pair<uint64_t, std::string>> Sizes);

/// The error for a binary file over `Limit`, naming its biggest nodes.
absl::Status tooBigToRead(llvm::StringRef Bytes, ContainerKind Kind,
                          llvm::StringRef DisplayName, uint64_t Limit);

} // namespace frost

#endif // FROST_LIB_IO_GRAPHIOINTERNAL_H
