//===- Suggest.h - "Did you mean" candidates --------------------*- C++ -*-===//
#ifndef FROST_SUPPORT_SUGGEST_H
#define FROST_SUPPORT_SUGGEST_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace frost {

/// Names from `Candidates` close to `Name`: small edit distance, same text
/// ignoring case, or the same last `/` component. Best first, at most 3.
std::vector<std::string> closestNames(llvm::StringRef Name,
                                      const std::vector<llvm::StringRef> &Candidates);

/// "'a', 'b' or 'c'".
std::string quotedAlternatives(const std::vector<std::string> &Names);

/// Findings one per line, the first `Max` of them and then "(and N more)":
/// a hostile input with 15,000 faults gets a readable message.
std::string joinFindings(const std::vector<std::string> &Findings, size_t Max = 10);

} // namespace frost

#endif // FROST_SUPPORT_SUGGEST_H
