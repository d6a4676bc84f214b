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

/// The first `Max` findings on one line, then how many more: "a; b; c; and 12
/// more". A hostile input with 15,000 faults gets one readable error line.
std::string listFindings(const std::vector<std::string> &Findings, size_t Max = 3);

/// One line: the only finding, or "N errors: " and listFindings.
std::string joinFindings(const std::vector<std::string> &Findings, size_t Max = 3);

} // namespace frost

#endif // FROST_SUPPORT_SUGGEST_H
