//===- WarningLines.cpp - Only the warnings of a diagnostics stream -------===//
#include "frost/Support/WarningLines.h"

#include "llvm/ADT/StringRef.h"

namespace frost {

WarningLines::~WarningLines() {
  if (!Line.empty())
    endLine();
}

void WarningLines::write_impl(const char *Ptr, size_t Size) {
  Written += Size;
  for (char C : llvm::StringRef(Ptr, Size)) {
    Line += C;
    if (C == '\n')
      endLine();
  }
}

void WarningLines::endLine() {
  if (llvm::StringRef(Line).starts_with("warning: "))
    Out << Line;
  Line.clear();
}

} // namespace frost
