//===- Suggest.cpp - "Did you mean" candidates ----------------------------===//
#include "frost/Support/Suggest.h"

#include "absl/strings/str_cat.h"

#include <algorithm>

namespace frost {

/// Edit distances cost length squared: hostile names beyond this get no
/// letter-by-letter suggestions.
constexpr size_t MaxEditedLength = 256;

std::vector<std::string> closestNames(llvm::StringRef Name,
                                      const std::vector<llvm::StringRef> &Candidates) {
  // Allow roughly one typo per three characters, at least two.
  unsigned MaxDistance = std::max<unsigned>(2, Name.size() / 3);
  llvm::StringRef LastPart = Name.rsplit('/').second.empty() ? Name : Name.rsplit('/').second;
  std::vector<std::pair<unsigned, llvm::StringRef>> Scored;
  for (llvm::StringRef C : Candidates) {
    unsigned Score;
    if (C.equals_insensitive(Name))
      Score = 0;
    else if (C.rsplit('/').second == LastPart || C.rsplit('/').first == Name)
      Score = 1;
    else if (Name.size() >= 3 && C.starts_with(Name))
      Score = MaxDistance + 1; // "serving" for "serving_default"
    else if (Name.size() > MaxEditedLength ||
             std::max(Name.size(), C.size()) - std::min(Name.size(), C.size()) > MaxDistance)
      continue; // too far apart, or too long to compare letter by letter
    else
      Score = 1 + Name.edit_distance(C, /*AllowReplacements=*/true, MaxDistance + 1);
    if (Score <= MaxDistance + 1)
      Scored.push_back({Score, C});
  }
  std::sort(Scored.begin(), Scored.end());
  std::vector<std::string> Out;
  for (size_t I = 0; I < Scored.size() && I < 3; ++I)
    Out.push_back(Scored[I].second.str());
  return Out;
}

std::string quotedAlternatives(const std::vector<std::string> &Names) {
  std::string Out;
  for (size_t I = 0; I < Names.size(); ++I) {
    if (I > 0)
      Out += I + 1 == Names.size() ? " or " : ", ";
    absl::StrAppend(&Out, "'", Names[I], "'");
  }
  return Out;
}

std::string listFindings(const std::vector<std::string> &Findings, size_t Max) {
  std::string Out;
  for (size_t I = 0; I < Findings.size() && I < Max; ++I)
    absl::StrAppend(&Out, I ? "; " : "", Findings[I]);
  if (Findings.size() > Max)
    absl::StrAppend(&Out, "; and ", Findings.size() - Max, " more");
  return Out;
}

std::string joinFindings(const std::vector<std::string> &Findings, size_t Max) {
  if (Findings.size() == 1)
    return Findings.front();
  return absl::StrCat(Findings.size(), " errors: ", listFindings(Findings, Max));
}

} // namespace frost
