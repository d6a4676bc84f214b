//===- ToolSupport.cpp - What every Frost tool does alike -----------------===//
#include "frost/Tools/ToolSupport.h"

#include "frost/Jobs/Jobs.h"
#include "frost/IR/Verifier.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/stubs/logging.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace frost {

std::string cutLongWords(llvm::StringRef Text) {
  std::string Out;
  while (!Text.empty()) {
    size_t End = Text.find(' ');
    llvm::StringRef Word = Text.substr(0, End);
    // Quotes and punctuation around a name stay outside what is counted.
    llvm::StringRef Core = Word.trim("'\"(),;:");
    if (Core.size() > MaxEchoedWord) {
      size_t Lead = Word.size() - Word.ltrim("'\"(),;:").size();
      absl::StrAppend(&Out, Word.take_front(Lead).str(), Core.take_front(MaxEchoedWord).str(),
                      "...(", Core.size(), " characters)",
                      Word.drop_front(Lead + Core.size()).str());
    } else {
      Out.append(Word.data(), Word.size());
    }
    if (End == llvm::StringRef::npos)
      break;
    Out += ' ';
    Text = Text.drop_front(End + 1);
  }
  return Out;
}

void printError(const absl::Status &S, llvm::raw_ostream &OS) {
  llvm::StringRef Rest(S.message().data(), S.message().size());
  if (Rest.empty())
    Rest = "unknown error";
  while (!Rest.empty()) {
    auto [Line, Tail] = Rest.split('\n');
    if (Line.starts_with(" "))
      OS << cutLongWords(Line) << "\n";
    else
      OS << "error: " << cutLongWords(Line) << "\n";
    Rest = Tail;
  }
  OS.flush();
}

void printGraphJobSummary(llvm::StringRef Tool, const GraphJobResult &R, llvm::StringRef Output,
                          llvm::raw_ostream &OS) {
  std::vector<std::string> Passes;
  for (const PassChanges &P : R.Changes) {
    std::vector<std::string> Counts;
    for (const auto &[Name, Count] : P.Counts)
      Counts.push_back(absl::StrCat(Count, " ", Name));
    Passes.push_back(absl::StrCat(P.Pass, ": ", absl::StrJoin(Counts, ", ")));
  }
  OS << Tool << ": " << R.NodesBefore << " -> " << R.NodesAfter << " nodes"
     << (Passes.empty() ? "" : absl::StrCat(" (", absl::StrJoin(Passes, "; "), ")"))
     << "; wrote " << (Output == "-" ? llvm::StringRef("<stdout>") : Output) << " ("
     << formatBytes(R.BytesWritten) << ") in " << llvm::formatv("{0:f3} s", R.Seconds) << "\n";
}

void initTool() {
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel Level, const char *,
                                     int, const std::string &Message) {
    // FATAL aborts right after the handler: say so as an error at least.
    const char *Kind = Level == google::protobuf::LOGLEVEL_FATAL ? "error" : "warning";
    std::string OneLine = Message;
    std::replace(OneLine.begin(), OneLine.end(), '\n', ' ');
    llvm::errs() << Kind << ": protobuf: " << cutLongWords(llvm::StringRef(OneLine).trim())
                 << "\n";
  });
}

std::vector<std::string> splitInputFile(llvm::StringRef All) {
  std::vector<std::string> Chunks;
  std::string Current;
  unsigned Line = 0;
  while (!All.empty()) {
    auto [Text, Rest] = All.split('\n');
    All = Rest;
    ++Line;
    if (Text.rtrim().starts_with("# -----") && !Text.contains("//")) {
      Chunks.push_back(std::move(Current));
      Current.assign(Line, '\n');
      continue;
    }
    Current.append(Text.data(), Text.size());
    Current += '\n';
  }
  Chunks.push_back(std::move(Current));
  return Chunks;
}

int runFailure(const absl::Status &S) {
  printError(S);
  return 1;
}

int usageFailure(const absl::Status &S) {
  printError(S);
  return 2;
}

int jobFailure(const absl::Status &S) { return isUsageError(S) ? usageFailure(S) : runFailure(S); }

} // namespace frost
