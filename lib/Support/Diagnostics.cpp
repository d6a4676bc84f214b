//===- Diagnostics.cpp - What a job tells its user besides its result -----===//
#include "frost/Support/Diagnostics.h"

namespace frost {

void Diagnostics::printTo(llvm::raw_ostream &OS, Shown Shown) {
  std::lock_guard<std::mutex> Guard(Lock);
  Out = &OS;
  What = Shown;
}

void Diagnostics::report(Severity Level, llvm::StringRef Message) {
  std::lock_guard<std::mutex> Guard(Lock);
  Kept.push_back({Level, Message.str()});
  bool Show = What == Shown::Verbose || (What == Shown::All && Level != Severity::Detail) ||
              (What == Shown::WarningsOnly && Level == Severity::Warning);
  if (Out && Show)
    *Out << (Level == Severity::Warning ? "warning: " : "note: ") << Message << "\n";
}

std::vector<Diagnostic> Diagnostics::all() const {
  std::lock_guard<std::mutex> Guard(Lock);
  return Kept;
}

std::vector<std::string> Diagnostics::warnings() const {
  std::lock_guard<std::mutex> Guard(Lock);
  std::vector<std::string> Out;
  for (const Diagnostic &D : Kept)
    if (D.Level == Severity::Warning)
      Out.push_back(D.Message);
  return Out;
}

} // namespace frost
