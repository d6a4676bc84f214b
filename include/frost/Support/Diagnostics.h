//===- Diagnostics.h - What a job tells its user besides its result -*- C++ -*-===//
//
// A job's notes (how an input path was understood, a graph already frozen)
// and warnings (an ignored transform error, a py_func kept), owned by its
// Context. Each is kept, in order, for callers that show them later (Python
// raises the warnings as FrostWarnings), and printed as it arises to the
// stream a tool chose: "note: ..." and "warning: ..." lines on stderr, the
// warnings alone for a quiet run. A library call never prints unasked.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_DIAGNOSTICS_H
#define FROST_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>
#include <vector>

namespace frost {

/// Detail: a note about what the output does not keep (a MetaGraph's
/// collections cleaned before a GraphDef is written), shown when asked (-v).
enum class Severity { Detail, Note, Warning };

struct Diagnostic {
  Severity Level;
  /// Without its "note: " or "warning: " prefix.
  std::string Message;
};

class Diagnostics {
public:
  /// All: notes and warnings; Verbose: details too.
  enum class Shown { Nothing, WarningsOnly, All, Verbose };
  /// Prints what arises from now on to `OS` ("note: " / "warning: " lines).
  void printTo(llvm::raw_ostream &OS, Shown What = Shown::All);

  void note(llvm::StringRef Message) { report(Severity::Note, Message); }
  void warning(llvm::StringRef Message) { report(Severity::Warning, Message); }
  void detail(llvm::StringRef Message) { report(Severity::Detail, Message); }
  void report(Severity Level, llvm::StringRef Message);

  /// Everything reported so far, in order.
  std::vector<Diagnostic> all() const;
  std::vector<std::string> warnings() const;

private:
  mutable std::mutex Lock;
  std::vector<Diagnostic> Kept;
  llvm::raw_ostream *Out = nullptr;
  Shown What = Shown::Nothing;
};

} // namespace frost

#endif // FROST_SUPPORT_DIAGNOSTICS_H
