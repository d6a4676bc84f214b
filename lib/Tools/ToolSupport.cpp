//===- ToolSupport.cpp - What every Frost tool does alike -----------------===//
#include "frost/Tools/ToolSupport.h"

#include "llvm/ADT/StringRef.h"

namespace frost {

void printError(const absl::Status &S, llvm::raw_ostream &OS) {
  llvm::StringRef Rest(S.message().data(), S.message().size());
  if (Rest.empty())
    Rest = "unknown error";
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    if (Line.starts_with(" "))
      OS << Line << "\n";
    else
      OS << "error: " << Line << "\n";
    Rest = Tail;
  }
  OS.flush();
}

} // namespace frost
