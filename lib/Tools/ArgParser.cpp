//===- ArgParser.cpp - Python argparse-compatible long options ------------===//
#include "ArgParser.h"

#include "frost/Pass/PassManager.h"
#include "frost/Support/Escape.h"
#include "frost/Support/Suggest.h"
#include "frost/Support/Version.h"
#include "frost/Tools/ToolSupport.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

#include <set>
#include <utility>

namespace frost {

namespace {

/// `_` and `-` are the same letter in option names.
std::string normalize(llvm::StringRef Name) {
  std::string Out = Name.str();
  std::replace(Out.begin(), Out.end(), '_', '-');
  return Out;
}

/// Where `Text` has a control byte (tab and newline allowed when
/// `Multiline`), or npos.
size_t controlByteAt(llvm::StringRef Text, bool Multiline) {
  for (size_t I = 0; I < Text.size(); ++I) {
    auto C = static_cast<unsigned char>(Text[I]);
    if ((C < 0x20 || C == 0x7f) && !(Multiline && llvm::isSpace(C)))
      return I;
  }
  return llvm::StringRef::npos;
}

std::string spell(llvm::StringRef Name) {
  return absl::StrCat(Name.size() == 1 ? "-" : "--", Name.str());
}

} // namespace

absl::StatusOr<bool> ArgParser::parseBool(llvm::StringRef Text) {
  std::string Lower = Text.lower();
  if (Lower == "true" || Lower == "1" || Lower == "yes")
    return true;
  if (Lower == "false" || Lower == "0" || Lower == "no")
    return false;
  return absl::InvalidArgumentError(
      absl::StrCat("expected true or false, not '", Text.str(), "'"));
}

absl::StatusOr<const ArgParser::Option *> ArgParser::lookup(llvm::StringRef Spelled,
                                                            llvm::StringRef Name) const {
  std::string Wanted = normalize(Name);
  // As in argparse, "--o" is a long spelling: never the short option -o.
  bool Long = Spelled.starts_with("--");
  for (const Option &O : Options)
    for (const std::string &N : O.Names)
      if (normalize(N) == Wanted && (N.size() > 1) == Long)
        return &O;
  // argparse: an unambiguous prefix of a long option names it.
  std::vector<const Option *> Matches;
  std::vector<std::string> MatchNames;
  if (Long)
    for (const Option &O : Options)
      for (const std::string &N : O.Names)
        if (N.size() > 1 && llvm::StringRef(normalize(N)).starts_with(Wanted)) {
          if (!llvm::is_contained(Matches, &O))
            Matches.push_back(&O);
          MatchNames.push_back(spell(N));
        }
  if (Matches.size() == 1)
    return Matches.front();
  if (Matches.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat("ambiguous option '", Spelled.str(),
                                                   "' could be ",
                                                   absl::StrJoin(MatchNames, ", ")));
  std::vector<llvm::StringRef> Candidates;
  for (const Option &O : Options)
    if (!O.Hidden)
      for (const std::string &N : O.Names)
        Candidates.push_back(N);
  std::vector<std::string> Close = closestNames(Name, Candidates);
  for (std::string &C : Close)
    C = spell(C);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown option '", Spelled.str(), "'",
      Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
      " (see --help)"));
}

absl::Status ArgParser::parse(llvm::ArrayRef<const char *> Args,
                              std::vector<std::string> &Positional) {
  for (size_t I = 0; I < Args.size(); ++I) {
    llvm::StringRef Arg = Args[I];
    if (Arg == "--") {
      for (++I; I < Args.size(); ++I)
        Positional.push_back(Args[I]);
      break;
    }
    if (!Arg.starts_with("-") || Arg == "-") {
      if (size_t At = controlByteAt(Arg, false); At != llvm::StringRef::npos)
        return absl::InvalidArgumentError(absl::StrFormat(
            "argument %d: byte 0x%02x at offset %d is a control character, which no path has",
            I + 1, static_cast<unsigned char>(Arg[At]), At));
      Positional.push_back(Arg.str());
      continue;
    }
    // "--name=value", "--name", "-o value", "-ovalue".
    llvm::StringRef Name, Value;
    bool HasValue = false;
    if (Arg.starts_with("--")) {
      std::tie(Name, Value) = Arg.drop_front(2).split('=');
      HasValue = Arg.contains('=');
    } else {
      Name = Arg.substr(1, 1);
      Value = Arg.drop_front(2);
      HasValue = !Value.empty();
      if (Value.consume_front("="))
        HasValue = true;
    }
    llvm::StringRef Spelled = HasValue ? Arg.take_front(Arg.size() - Value.size()) : Arg;
    Spelled.consume_back("=");
    FROST_ASSIGN_OR_RETURN(const Option *O, lookup(Spelled, Name));
    std::string Display = spell(O->Names.front());
    auto apply = [&](llvm::StringRef V) -> absl::Status {
      // Names and paths never hold control bytes; echoed in messages they
      // would forge lines.
      if (size_t At = controlByteAt(V, O->Multiline); At != llvm::StringRef::npos)
        return absl::InvalidArgumentError(absl::StrFormat(
            "%s: byte 0x%02x at offset %d is a control character, which no name or path has",
            Display, static_cast<unsigned char>(V[At]), At));
      if (absl::Status S = O->Set(V); !S.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(Display, "=", V.str(), ": ", S.message()));
      return absl::OkStatus();
    };
    switch (O->TheKind) {
    case Kind::Bool: {
      if (!HasValue && I + 1 < Args.size() && parseBool(Args[I + 1]).ok()) {
        // argparse's nargs='?': `--input_binary true`.
        Value = Args[++I];
        HasValue = true;
      }
      if (!HasValue) {
        FROST_RETURN_IF_ERROR(apply("true"));
        break;
      }
      absl::StatusOr<bool> B = parseBool(Value);
      if (!B.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(Display, "=", Value.str(), ": ", B.status().message()));
      FROST_RETURN_IF_ERROR(apply(*B ? "true" : "false"));
      break;
    }
    case Kind::Value:
      if (!HasValue) {
        if (I + 1 >= Args.size())
          return absl::InvalidArgumentError(
              absl::StrCat(Display, " needs a value (", O->ValueName, ")"));
        Value = Args[++I];
      }
      FROST_RETURN_IF_ERROR(apply(Value));
      break;
    case Kind::OptionalValue:
      FROST_RETURN_IF_ERROR(apply(HasValue ? Value : ""));
      break;
    }
  }
  return absl::OkStatus();
}

void ArgParser::printHelp(llvm::raw_ostream &OS, llvm::StringRef Usage) const {
  OS << Usage;
  std::vector<std::string> Groups;
  for (const Option &O : Options)
    if (!O.Hidden && !llvm::is_contained(Groups, O.Group))
      Groups.push_back(O.Group);
  for (const std::string &Group : Groups) {
    OS << "\n" << Group << ":\n";
    for (const Option &O : Options) {
      if (O.Hidden || O.Group != Group)
        continue;
      std::vector<std::string> Spellings;
      for (const std::string &N : O.Names)
        Spellings.push_back(spell(N));
      std::string Head = absl::StrCat("  ", absl::StrJoin(Spellings, ", "));
      if (O.TheKind == Kind::Value)
        absl::StrAppend(&Head, " ", O.ValueName);
      else if (O.TheKind == Kind::OptionalValue)
        absl::StrAppend(&Head, "[=", O.ValueName, "]");
      printHelpEntry(OS, Head, O.Help);
    }
  }
}

void ArgParser::printHelpEntry(llvm::raw_ostream &OS, llvm::StringRef Head,
                               llvm::StringRef Help) {
  OS << Head;
  // Help text starts in column 34, or on the next line.
  if (Head.size() < 32)
    OS.indent(34 - Head.size());
  else
    OS << "\n" << std::string(34, ' ');
  while (!Help.empty()) {
    auto [Line, Tail] = Help.split('\n');
    OS << Line << "\n";
    Help = Tail;
    if (!Help.empty())
      OS.indent(34);
  }
}

ArgParser::Setter ArgParser::storeString(std::string &Field) {
  return [&Field](llvm::StringRef V) {
    Field = V.str();
    return absl::OkStatus();
  };
}

namespace {

/// `V`'s comma-separated items, trimmed, appended to Field.
void appendItems(llvm::StringRef V, std::vector<std::string> &Field) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  V.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts)
    if (!Part.trim().empty())
      Field.push_back(Part.trim().str());
}

} // namespace

ArgParser::Setter ArgParser::storeCommaList(std::vector<std::string> &Field) {
  return [&Field](llvm::StringRef V) {
    Field.clear();
    appendItems(V, Field);
    return absl::OkStatus();
  };
}

// The setters below keep whether they were called: a parser is made for
// one parse.
ArgParser::Setter ArgParser::appendString(std::vector<std::string> &Field) {
  return [&Field, First = true](llvm::StringRef V) mutable {
    if (std::exchange(First, false))
      Field.clear();
    Field.push_back(V.str());
    return absl::OkStatus();
  };
}

ArgParser::Setter ArgParser::appendCommaList(std::vector<std::string> &Field) {
  return [&Field, First = true](llvm::StringRef V) mutable {
    if (std::exchange(First, false))
      Field.clear();
    appendItems(V, Field);
    return absl::OkStatus();
  };
}

ArgParser::Setter ArgParser::storeFlag(bool &Field, bool Invert) {
  return [&Field, Invert](llvm::StringRef V) {
    Field = (V == "true") != Invert;
    return absl::OkStatus();
  };
}

absl::StatusOr<size_t> findSubcommand(llvm::StringRef Word,
                                      llvm::ArrayRef<llvm::StringRef> Names) {
  for (size_t I = 0; I < Names.size(); ++I)
    if (Word == Names[I])
      return I;
  std::vector<std::string> Close = closestNames(Word, Names);
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown subcommand '", escapeBytes(Word, '\'', ByteEscape::Hex), "'",
      Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
      " (see --help)"));
}

std::optional<int> answerCommandLine(llvm::StringRef Tool, const absl::Status &Parsed,
                                     bool Help, bool Version,
                                     const std::function<void(llvm::raw_ostream &)> &PrintHelp) {
  if (!Parsed.ok()) {
    llvm::errs() << Tool << ": error: " << cutLongWords(std::string(Parsed.message())) << "\n";
    return 2;
  }
  if (Help) {
    PrintHelp(llvm::outs());
    return 0;
  }
  if (Version) {
    llvm::outs() << frostVersion() << "\n";
    return 0;
  }
  return std::nullopt;
}

void addHelpFlags(ArgParser &P, bool &Help, bool &Version, const std::string &Group) {
  P.add({{"help", "h"}, ArgParser::Kind::Bool, "", "Show this help", ArgParser::storeFlag(Help),
         Group});
  P.add({{"version"}, ArgParser::Kind::Bool, "", "Show the version",
         ArgParser::storeFlag(Version), Group});
}

void addPassManagerFlags(ArgParser &P, PassManagerOptions &PM, bool &Timing,
                         const std::string &Group, bool *DumpPipeline) {
  using K = ArgParser::Kind;
  auto flag = [](bool &Field) { return ArgParser::storeFlag(Field); };
  P.add({{"timing"}, K::Bool, "", "Print wall time per phase and pass", flag(Timing), Group});
  P.add({{"pass-statistics"}, K::Bool, "", "Print the statistics of each pass",
         flag(PM.Statistics), Group});
  P.add({{"print-ir-after-all"}, K::Bool, "", "Print the graph after each pass",
         flag(PM.PrintIRAfterAll), Group});
  P.add({{"print-ir-after"}, K::Value, "PASS,...", "Print the graph after the named passes",
         ArgParser::appendCommaList(PM.PrintIRAfter), Group});
  P.add({{"verify-each"}, K::Bool, "", "Verify the graph after each pass (default true)",
         flag(PM.VerifyEach), Group});
  if (DumpPipeline)
    P.add({{"dump-pass-pipeline"}, K::Bool, "", "Print the pipeline before running it",
           flag(*DumpPipeline), Group});
}

void addSizeLimitFlag(ArgParser &P, uint64_t &Limit, const std::string &Group) {
  P.add({{"protobuf-size-limit"}, ArgParser::Kind::Value, "BYTES",
         "Largest file to read or write",
         [&Limit](llvm::StringRef V) {
           if (V.getAsInteger(10, Limit))
             return absl::InvalidArgumentError("expected a number of bytes");
           return absl::OkStatus();
         },
         Group, /*Hidden=*/true});
}

void addEvalBudgetFlags(ArgParser &P, eval::EvalBudget &Budget, const std::string &Group) {
  auto positive = [](uint64_t &Field) {
    return [&Field](llvm::StringRef V) {
      if (V.getAsInteger(10, Field) || Field == 0)
        return absl::InvalidArgumentError("expected a number above 0");
      return absl::OkStatus();
    };
  };
  P.add({{"eval-budget"}, ArgParser::Kind::Value, "N",
         absl::StrCat("Work units (elements and multiply-adds) running a graph\n"
                      "may spend (default ",
                      eval::EvalBudget::DefaultWork, ")"),
         positive(Budget.WorkLeft), Group});
  P.add({{"eval-max-bytes"}, ArgParser::Kind::Value, "BYTES",
         absl::StrCat("Largest tensor running a graph may compute or expand\n(default ",
                      eval::EvalBudget::DefaultMaxTensorBytes, ")"),
         positive(Budget.MaxTensorBytes), Group});
}

} // namespace frost
