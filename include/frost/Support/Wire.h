//===- Wire.h - Bounds-checked varints and protobuf wire records -*- C++ -*-===//
//
// Decoding helpers over untrusted bytes: every read checks the remaining size.
// Used to look inside protobuf files without parsing them whole (container
// detection, node offsets, the biggest nodes of an oversized file) and by the
// checkpoint table format, which shares protobuf's varints.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_WIRE_H
#define FROST_SUPPORT_WIRE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace google::protobuf {
class MessageLite;
} // namespace google::protobuf

namespace frost {

/// Reads a LEB128 varint of at most 10 bytes from the front of `In`, consuming
/// it. Returns nullopt (leaving `In` alone) on truncation or overlong input.
std::optional<uint64_t> consumeVarint64(llvm::StringRef &In);
/// As above, but the value must fit 32 bits.
std::optional<uint32_t> consumeVarint32(llvm::StringRef &In);

/// Number of bytes the varint encoding of `V` takes.
unsigned varintSize(uint64_t V);

/// Protobuf's deterministic encoding of `Message` (map entries sorted), so
/// equal messages give equal bytes.
std::string deterministicBytes(const google::protobuf::MessageLite &Message);

enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

/// One top-level record of a serialized message.
struct WireRecord {
  uint32_t Field = 0;
  WireType Type = WireType::Varint;
  uint64_t Varint = 0;     // Varint, Fixed32, Fixed64
  llvm::StringRef Payload; // Bytes: the contents after the length
  size_t Offset = 0;       // where the record starts in the message
};

/// Walks the records of one message. Stops (with failed() set) at the first
/// malformed record; groups (wire types 3 and 4) count as malformed.
class WireReader {
public:
  explicit WireReader(llvm::StringRef Message) : All(Message), Rest(Message) {}
  bool next(WireRecord &R);
  bool failed() const { return Failed; }
  /// Offset of the first byte not yet read.
  size_t offset() const { return All.size() - Rest.size(); }

private:
  llvm::StringRef All, Rest;
  bool Failed = false;
};

} // namespace frost

#endif // FROST_SUPPORT_WIRE_H
