//===- ToolSupport.cpp - What every Frost tool does alike -----------------===//
#include "frost/Tools/ToolSupport.h"

#include "frost/Jobs/Jobs.h"
#include "frost/IR/Verifier.h"
#include "frost/Support/Suggest.h"

#include "absl/strings/str_cat.h"
#include "google/protobuf/stubs/logging.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <unistd.h>

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

int parseToolCommandLine(int Argc, char **Argv, llvm::StringRef Overview) {
  std::string Tool = llvm::sys::path::filename(Argc > 0 ? Argv[0] : "frost").str();
  // llvm::cl expands @FILE arguments; one naming a device or FIFO would be
  // read without end.
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef Arg(Argv[I]);
    if (Arg.starts_with("@") && !llvm::sys::fs::is_regular_file(Arg.drop_front())) {
      llvm::errs() << Tool << ": error: " << cutLongWords(Arg)
                   << ": an @ argument names a file of arguments, and this is none (see --help)\n";
      return 2;
    }
  }
  // Option parsers report bad values on llvm::errs() itself, not on the stream
  // given: catch standard error while parsing (--help goes to stdout).
  std::string Complaints;
  bool Parsed;
  {
    std::FILE *Caught = std::tmpfile();
    int Saved = Caught ? ::dup(STDERR_FILENO) : -1;
    if (Saved >= 0)
      ::dup2(::fileno(Caught), STDERR_FILENO);
    llvm::raw_string_ostream Errs(Complaints);
    Parsed = llvm::cl::ParseCommandLineOptions(Argc, Argv, Overview, &Errs);
    llvm::errs().flush();
    if (Saved >= 0) {
      ::dup2(Saved, STDERR_FILENO);
      ::close(Saved);
      std::rewind(Caught);
      char Buffer[4096];
      while (size_t N = std::fread(Buffer, 1, sizeof(Buffer), Caught))
        Complaints.append(Buffer, N);
    }
    if (Caught)
      std::fclose(Caught);
  }
  if (Parsed)
    return 0;
  // LLVM words it "TOOL: Unknown command line argument '--x'.  Try: 'TOOL
  // --help'" and "TOOL: Did you mean '--y'?" on lines of their own.
  std::string Line;
  std::vector<std::string> Findings;
  auto flush = [&] {
    if (!Line.empty())
      Findings.push_back(absl::StrCat(Tool, ": error: ", cutLongWords(Line), " (see --help)"));
    Line.clear();
  };
  llvm::StringRef Rest(Complaints);
  while (!Rest.empty()) {
    auto [Text, Tail] = Rest.split('\n');
    Rest = Tail;
    Text.consume_front(Tool);
    Text.consume_front(":");
    Text = Text.trim();
    Text = Text.substr(0, Text.find("  Try: "));
    Text = Text.substr(0, Text.find(": See: "));
    Text = Text.rtrim(".!");
    if (Text.empty())
      continue;
    if (Text.consume_front("Did you mean ")) {
      absl::StrAppend(&Line, "; did you mean ", Text.str());
      continue;
    }
    flush();
    Line = Text.str();
    Line[0] = llvm::toLower(Line[0]);
  }
  flush();
  if (Findings.empty())
    Findings.push_back(absl::StrCat(Tool, ": error: the command line is not valid (see --help)"));
  llvm::errs() << joinFindings(Findings) << "\n";
  llvm::errs().flush();
  return 2;
}

int runFailure(const absl::Status &S) {
  printError(S);
  return 1;
}

int usageFailure(const absl::Status &S) {
  printError(S);
  return 2;
}

absl::StatusOr<std::unique_ptr<Model>> readUserModel(Context &Ctx, llvm::StringRef Path,
                                                     const ReadOptions &Read) {
  Ctx.diagnostics().printTo(llvm::errs());
  return readGraphSource(Ctx, GraphSource{Path.str(), std::nullopt, ""}, Read);
}

} // namespace frost
