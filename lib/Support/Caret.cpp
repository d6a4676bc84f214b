//===- Caret.cpp - Messages that point into a line of text ----------------===//
#include "frost/Support/Caret.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {
/// Characters of the text quoted on each side of the spot.
constexpr size_t MaxQuotedContext = 60;
} // namespace

std::string messageWithCaret(llvm::StringRef BufferName, llvm::StringRef Text, size_t At,
                             llvm::StringRef Message, llvm::ArrayRef<std::string> Notes) {
  At = std::min(At, Text.size());
  size_t LineStart = At == 0 ? llvm::StringRef::npos : Text.rfind('\n', At - 1);
  LineStart = LineStart == llvm::StringRef::npos ? 0 : LineStart + 1;
  size_t LineEnd = Text.find('\n', At);
  unsigned Line = 1 + Text.take_front(LineStart).count('\n');
  size_t Column = At - LineStart;
  // A long line is quoted around the spot only: a message stays readable
  // (and short) whatever the text.
  llvm::StringRef Quoted = Text.slice(LineStart, LineEnd);
  std::string Before, After;
  if (Column > MaxQuotedContext) {
    Quoted = Quoted.drop_front(Column - MaxQuotedContext);
    Column = MaxQuotedContext + 3;
    Before = "...";
  }
  if (Quoted.size() > Column - Before.size() + MaxQuotedContext) {
    Quoted = Quoted.take_front(Column - Before.size() + MaxQuotedContext);
    After = "...";
  }
  std::string Out = absl::StrCat(BufferName.str(), ":", Line, ":", At - LineStart + 1, ": ",
                                 Message.str(), "\n  ", Before, Quoted.str(), After, "\n  ",
                                 std::string(Column, ' '), "^");
  for (const std::string &Note : Notes)
    absl::StrAppend(&Out, "\n  ", Note);
  return Out;
}

} // namespace frost
