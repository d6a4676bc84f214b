//===- WarningLines.h - Only the warnings of a diagnostics stream -*- C++ -*-===//
#ifndef FROST_SUPPORT_WARNINGLINES_H
#define FROST_SUPPORT_WARNINGLINES_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace frost {

/// Passes on to `Out` only the whole lines that are warnings ("warning: ...")
/// of what the library writes as notes: what a quiet run prints
/// (freeze-graph -q) and what Python raises as FrostWarnings.
class WarningLines : public llvm::raw_ostream {
public:
  explicit WarningLines(llvm::raw_ostream &Out) : Out(Out) { SetUnbuffered(); }
  /// A last line without its newline is judged too.
  ~WarningLines() override;

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Written; }
  void endLine();

  llvm::raw_ostream &Out;
  std::string Line;
  uint64_t Written = 0;
};

} // namespace frost

#endif // FROST_SUPPORT_WARNINGLINES_H
