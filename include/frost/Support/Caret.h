//===- Caret.h - Messages that point into a line of text --------*- C++ -*-===//
#ifndef FROST_SUPPORT_CARET_H
#define FROST_SUPPORT_CARET_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace frost {

/// "BUFFER:LINE:COLUMN: message", then the line of `Text` holding offset `At`
/// indented by two, a caret under `At`, and each note on a line of its own:
/// how pipelines and transform lists report a mistake.
std::string messageWithCaret(llvm::StringRef BufferName, llvm::StringRef Text, size_t At,
                             llvm::StringRef Message, llvm::ArrayRef<std::string> Notes = {});

} // namespace frost

#endif // FROST_SUPPORT_CARET_H
