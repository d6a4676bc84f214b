//===- Escape.cpp - Quoting arbitrary bytes -------------------------------===//
#include "frost/Support/Escape.h"

#include <cstdio>

namespace frost {

std::string escapeBytes(llvm::StringRef Bytes, char Quote, ByteEscape Other) {
  std::string Out;
  Out.reserve(Bytes.size());
  for (unsigned char C : Bytes) {
    switch (C) {
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    case '\r':
      Out += "\\r";
      break;
    default:
      if (C == static_cast<unsigned char>(Quote)) {
        Out += '\\';
        Out += Quote;
      } else if (C >= 0x20 && C < 0x7f) {
        Out += static_cast<char>(C);
      } else {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), Other == ByteEscape::Unicode ? "\\u%04x" : "\\x%02x", C);
        Out += Buf;
      }
    }
  }
  return Out;
}

} // namespace frost
