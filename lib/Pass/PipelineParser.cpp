//===- PipelineParser.cpp - Textual pass pipelines ------------------------===//
//
//   pipeline := element (',' element)*
//   element  := name ('{' option (',' option)* '}')?
//   option   := key ('=' value)?          a bare key sets a bool option
//   value    := "quoted \" text" | 'quoted' | text up to ',' or '}'
//
// List options take `a;b;c`. Every error quotes the pipeline with a caret.
//
//===----------------------------------------------------------------------===//
#include "frost/Pass/PassManager.h"
#include "frost/Support/Caret.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

namespace frost {

namespace {

struct OptionText {
  std::string Key;
  size_t KeyPos;
  std::optional<std::string> Value;
  size_t ValuePos;
};

class PipelineParser {
public:
  PipelineParser(llvm::StringRef Text, const PassRegistry &Registry, llvm::StringRef BufferName,
                 unsigned Depth)
      : Text(Text), Registry(Registry), BufferName(BufferName), Depth(Depth) {}

  absl::Status parse(std::vector<std::unique_ptr<Pass>> &Out) {
    skipSpace();
    if (atEnd())
      return absl::OkStatus(); // An empty pipeline runs nothing.
    while (true) {
      FROST_RETURN_IF_ERROR(parseElement(Out));
      skipSpace();
      if (atEnd())
        return absl::OkStatus();
      if (Text[Pos] != ',')
        return error(Pos, "expected ',' between passes");
      ++Pos;
      skipSpace();
    }
  }

private:
  bool atEnd() const { return Pos >= Text.size(); }
  void skipSpace() {
    while (!atEnd() && llvm::isSpace(Text[Pos]))
      ++Pos;
  }
  static bool isNameChar(char C) { return llvm::isAlnum(C) || C == '-' || C == '_' || C == '.'; }

  llvm::StringRef parseName() {
    size_t Start = Pos;
    while (!atEnd() && isNameChar(Text[Pos]))
      ++Pos;
    return Text.slice(Start, Pos);
  }

  /// "<pass-pipeline>:1:7: message" and the text with a caret under `At`.
  absl::Status error(size_t At, llvm::StringRef Message,
                     llvm::ArrayRef<std::string> Notes = {}) const {
    return absl::InvalidArgumentError(messageWithCaret(BufferName, Text, At, Message, Notes));
  }

  /// Where the known names are: the registry has outgrown one line of an
  /// error message (the nearest names are suggested separately).
  std::string knownNames() const {
    return absl::StrCat(Registry.passes().size(), " passes and ", Registry.pipelines().size(),
                        " pipelines are known; frost-opt --list-passes lists them");
  }

  absl::StatusOr<std::string> parseValue() {
    if (atEnd())
      return std::string();
    char Quote = Text[Pos];
    if (Quote == '"' || Quote == '\'') {
      size_t Open = Pos++;
      std::string Value;
      while (!atEnd() && Text[Pos] != Quote) {
        if (Text[Pos] == '\\' && Pos + 1 < Text.size())
          ++Pos;
        Value += Text[Pos++];
      }
      if (atEnd())
        return error(Open, "unterminated quoted value");
      ++Pos;
      return Value;
    }
    size_t Start = Pos;
    while (!atEnd() && Text[Pos] != ',' && Text[Pos] != '}' && Text[Pos] != '{')
      ++Pos;
    if (!atEnd() && Text[Pos] == '{')
      return error(Pos, "'{' in an option value; quote the value");
    return Text.slice(Start, Pos).trim().str();
  }

  absl::Status parseOptions(std::vector<OptionText> &Options) {
    ++Pos; // '{'
    skipSpace();
    if (!atEnd() && Text[Pos] == '}') {
      ++Pos;
      return absl::OkStatus();
    }
    while (true) {
      skipSpace();
      size_t KeyPos = Pos;
      llvm::StringRef Key = parseName();
      if (Key.empty())
        return error(Pos, atEnd() ? "expected an option name and '}'" : "expected an option name");
      OptionText Option{Key.str(), KeyPos, std::nullopt, 0};
      skipSpace();
      if (!atEnd() && Text[Pos] == '=') {
        ++Pos;
        skipSpace();
        Option.ValuePos = Pos;
        FROST_ASSIGN_OR_RETURN(Option.Value, parseValue());
        skipSpace();
      }
      for (const OptionText &Earlier : Options)
        if (Earlier.Key == Option.Key)
          return error(KeyPos, absl::StrCat("option '", Option.Key, "' given twice"));
      Options.push_back(std::move(Option));
      if (atEnd())
        return error(Pos, "expected ',' or '}' after the option");
      if (Text[Pos] == '}') {
        ++Pos;
        return absl::OkStatus();
      }
      if (Text[Pos] != ',')
        return error(Pos, "expected ',' or '}' after the option");
      ++Pos;
    }
  }

  absl::Status applyOption(Pass &P, OptionBase &O, const OptionText &Given) {
    absl::Status S = Given.Value ? O.parse(*Given.Value) : O.parseFlag();
    if (S.ok())
      return S;
    return error(Given.Value ? Given.ValuePos : Given.KeyPos,
                 absl::StrCat("option '", Given.Key, "' of pass '", P.name().str(),
                              "': ", S.message()));
  }

  std::string optionList(const Pass &P) const {
    std::vector<std::string> Names;
    for (const OptionBase *O : P.options())
      Names.push_back(absl::StrCat(O->name().str(), " (", O->typeName().str(), ")"));
    return Names.empty() ? absl::StrCat("pass '", P.name().str(), "' has no options")
                         : absl::StrCat("options of '", P.name().str(),
                                        "': ", absl::StrJoin(Names, ", "));
  }

  absl::Status parseElement(std::vector<std::unique_ptr<Pass>> &Out) {
    size_t NamePos = Pos;
    llvm::StringRef Name = parseName();
    if (Name.empty())
      return error(Pos, "expected a pass name", {knownNames()});
    skipSpace();
    std::vector<OptionText> Options;
    if (!atEnd() && Text[Pos] == '{')
      FROST_RETURN_IF_ERROR(parseOptions(Options));

    if (std::unique_ptr<Pass> P = Registry.create(Name)) {
      for (const OptionText &Given : Options) {
        OptionBase *O = P->findOption(Given.Key);
        if (!O)
          return error(Given.KeyPos,
                       absl::StrCat("unknown option '", Given.Key, "' for pass '", Name.str(),
                                    "'"),
                       {optionList(*P)});
        FROST_RETURN_IF_ERROR(applyOption(*P, *O, Given));
      }
      Out.push_back(std::move(P));
      return absl::OkStatus();
    }

    if (const PipelineInfo *Named = Registry.findPipeline(Name)) {
      if (Depth > 8)
        return error(NamePos, absl::StrCat("pipeline '", Name.str(), "' nests too deeply"));
      std::vector<std::unique_ptr<Pass>> Expanded;
      if (Named->Build) {
        PassManager Built;
        Named->Build(Built);
        Expanded = Built.takePasses();
      } else {
        PipelineParser Inner(Named->Passes, Registry,
                             absl::StrCat("<pipeline ", Named->Name, ">"), Depth + 1);
        FROST_RETURN_IF_ERROR(Inner.parse(Expanded));
      }
      for (const OptionText &Given : Options) {
        bool Taken = false;
        for (auto &P : Expanded)
          if (OptionBase *O = P->findOption(Given.Key)) {
            FROST_RETURN_IF_ERROR(applyOption(*P, *O, Given));
            Taken = true;
          }
        if (!Taken)
          return error(Given.KeyPos,
                       absl::StrCat("no pass of pipeline '", Name.str(), "' (", Named->Passes,
                                    ") has an option '", Given.Key, "'"));
      }
      for (auto &P : Expanded)
        Out.push_back(std::move(P));
      return absl::OkStatus();
    }

    std::vector<std::string> Notes;
    std::vector<std::string> Close = Registry.suggest(Name);
    std::string Message = absl::StrCat("unknown pass '", Name.str(), "'");
    if (!Close.empty())
      absl::StrAppend(&Message, "; did you mean '", Close.front(), "'?");
    Notes.push_back(knownNames());
    return error(NamePos, Message, Notes);
  }

  llvm::StringRef Text;
  const PassRegistry &Registry;
  std::string BufferName;
  unsigned Depth;
  size_t Pos = 0;
};

} // namespace

absl::Status parsePassPipeline(llvm::StringRef Text, const PassRegistry &Registry,
                               PassManager &PM, llvm::StringRef BufferName) {
  std::vector<std::unique_ptr<Pass>> Passes;
  PipelineParser Parser(Text, Registry, BufferName, 0);
  FROST_RETURN_IF_ERROR(Parser.parse(Passes));
  for (auto &P : Passes)
    PM.addPass(std::move(P));
  return absl::OkStatus();
}

} // namespace frost
