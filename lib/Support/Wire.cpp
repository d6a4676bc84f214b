//===- Wire.cpp - Bounds-checked varints and protobuf wire records --------===//
#include "frost/Support/Wire.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message_lite.h>

namespace frost {

std::optional<uint64_t> consumeVarint64(llvm::StringRef &In) {
  uint64_t Value = 0;
  for (unsigned I = 0; I < 10 && I < In.size(); ++I) {
    uint8_t Byte = static_cast<uint8_t>(In[I]);
    // The tenth byte may only carry the top bit of a 64-bit value.
    if (I == 9 && Byte > 1)
      return std::nullopt;
    Value |= static_cast<uint64_t>(Byte & 0x7f) << (7 * I);
    if (!(Byte & 0x80)) {
      In = In.drop_front(I + 1);
      return Value;
    }
  }
  return std::nullopt;
}

std::optional<uint32_t> consumeVarint32(llvm::StringRef &In) {
  llvm::StringRef Copy = In;
  std::optional<uint64_t> V = consumeVarint64(Copy);
  if (!V || *V > UINT32_MAX)
    return std::nullopt;
  In = Copy;
  return static_cast<uint32_t>(*V);
}

unsigned varintSize(uint64_t V) {
  unsigned N = 1;
  while (V >= 0x80) {
    V >>= 7;
    ++N;
  }
  return N;
}

std::string deterministicBytes(const google::protobuf::MessageLite &Message) {
  std::string Bytes;
  {
    google::protobuf::io::StringOutputStream Stream(&Bytes);
    google::protobuf::io::CodedOutputStream Coded(&Stream);
    Coded.SetSerializationDeterministic(true);
    (void)Message.SerializeToCodedStream(&Coded);
  }
  return Bytes;
}

bool WireReader::next(WireRecord &R) {
  if (Failed || Rest.empty())
    return false;
  R.Offset = offset();
  llvm::StringRef In = Rest;
  std::optional<uint64_t> Tag = consumeVarint64(In);
  if (!Tag || (*Tag >> 3) == 0 || (*Tag >> 3) > 0x1fffffff) {
    Failed = true;
    return false;
  }
  R.Field = static_cast<uint32_t>(*Tag >> 3);
  R.Payload = {};
  R.Varint = 0;
  switch (*Tag & 7) {
  case 0: {
    std::optional<uint64_t> V = consumeVarint64(In);
    if (!V) {
      Failed = true;
      return false;
    }
    R.Type = WireType::Varint;
    R.Varint = *V;
    break;
  }
  case 1:
  case 5: {
    unsigned Width = (*Tag & 7) == 1 ? 8 : 4;
    if (In.size() < Width) {
      Failed = true;
      return false;
    }
    R.Type = Width == 8 ? WireType::Fixed64 : WireType::Fixed32;
    for (unsigned I = 0; I < Width; ++I)
      R.Varint |= static_cast<uint64_t>(static_cast<uint8_t>(In[I])) << (8 * I);
    In = In.drop_front(Width);
    break;
  }
  case 2: {
    std::optional<uint64_t> Len = consumeVarint64(In);
    if (!Len || *Len > In.size()) {
      Failed = true;
      return false;
    }
    R.Type = WireType::Bytes;
    R.Payload = In.take_front(*Len);
    In = In.drop_front(*Len);
    break;
  }
  default:
    Failed = true;
    return false;
  }
  Rest = In;
  return true;
}

} // namespace frost
