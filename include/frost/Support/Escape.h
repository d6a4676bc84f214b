//===- Escape.h - Quoting arbitrary bytes -----------------------*- C++ -*-===//
//
// The one escaper behind frost-inspect's JSON strings ("\u00e9") and Python
// bytes reprs (b'\xe9'): any byte survives, so a hostile name or checkpoint
// key prints as what it is.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_ESCAPE_H
#define FROST_SUPPORT_ESCAPE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace frost {

/// How escapeBytes spells a byte that is not printable ASCII.
enum class ByteEscape {
  Unicode, ///< \u00XX: the code point of the same value (JSON).
  Hex,     ///< \xXX (Python, C).
};

/// `Bytes` with `\`, `Quote`, newline, tab and carriage return escaped by a
/// backslash, printable ASCII as is and every other byte as `Other` says.
/// The quotes themselves are not added.
std::string escapeBytes(llvm::StringRef Bytes, char Quote, ByteEscape Other);

} // namespace frost

#endif // FROST_SUPPORT_ESCAPE_H
