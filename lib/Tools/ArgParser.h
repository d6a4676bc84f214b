//===- ArgParser.h - Python argparse-compatible long options ----*- C++ -*-===//
//
// The one argument parser of every Frost tool. freeze-graph must accept the
// command lines CI scripts already pass to TensorFlow's freeze_graph.py, which
// parses them with argparse: long options in `--name=value` or `--name value`
// form, any unambiguous prefix of a name (`--input_bin`, `--output_node`),
// booleans as a bare flag or with a value (`--input_binary`,
// `--clear_devices=False`, `--input_binary true`). Names match with `_` and
// `-` alike, so `--keep_devices` and `--output-node-names` work too. LLVM's
// cl library has no prefix matching, and its options register process-wide,
// so a second tool run in one process (python -m frost) would clash with the
// first; an ArgParser is a local value, made for one parse.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_TOOLS_ARGPARSER_H
#define FROST_LIB_TOOLS_ARGPARSER_H

#include "frost/Eval/Eval.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace frost {

class ArgParser {
public:
  enum class Kind {
    /// true when given bare; `=VALUE` or a following true/false sets it.
    Bool,
    /// Needs a value: `--name=VALUE` or `--name VALUE`.
    Value,
    /// Takes a value only as `--name=VALUE`; bare, the setter gets "".
    OptionalValue,
  };

  struct Option {
    /// Spellings without dashes; the first is shown in help. A one-letter
    /// name is a short option (`-o FILE`).
    std::vector<std::string> Names;
    Kind TheKind;
    /// Shown after the name in help (`FILE`); empty for Bool.
    std::string ValueName;
    std::string Help;
    /// Receives the value ("true"/"false" for Bool); an error names the value
    /// and the parser adds the option.
    std::function<absl::Status(llvm::StringRef Value)> Set;
    /// Listed in help under this heading.
    std::string Group;
    bool Hidden = false;
    /// The value may span lines (a pipeline, a transform list): blanks of
    /// any kind are allowed, other control bytes still refused.
    bool Multiline = false;
  };

  void add(Option O) { Options.push_back(std::move(O)); }

  using Setter = std::function<absl::Status(llvm::StringRef Value)>;
  /// Setters for the common options: the value as it is; a Bool's value
  /// (or its opposite, for `--keep-x` meaning "not x").
  static Setter storeString(std::string &Field);
  static Setter storeFlag(bool &Field, bool Invert = false);
  /// TensorFlow's comma lists: "a, b,,c" -> {"a", "b", "c"} (items trimmed,
  /// empty ones dropped), replacing what Field held.
  static Setter storeCommaList(std::vector<std::string> &Field);
  /// Repeatable options: each value appended, as it is or as a comma list
  /// (`--tags a,b --tags c` is {"a", "b", "c"}). The first value replaces
  /// what Field held, a default.
  static Setter appendString(std::vector<std::string> &Field);
  static Setter appendCommaList(std::vector<std::string> &Field);

  /// Parses `Args` (without the program name). Arguments that are not
  /// options, and everything after `--`, go to `Positional`. The first error
  /// is returned as one line naming the argument.
  absl::Status parse(llvm::ArrayRef<const char *> Args, std::vector<std::string> &Positional);

  void printHelp(llvm::raw_ostream &OS, llvm::StringRef Usage) const;
  /// One entry of help: `Head` ("  --name VALUE"), then `Help` from column
  /// 34; for a tool's own lists (subcommands) to line up with its options.
  static void printHelpEntry(llvm::raw_ostream &OS, llvm::StringRef Head, llvm::StringRef Help);

  /// "true"/"false" for argparse-style boolean text (any case, also 1/0/yes/no).
  static absl::StatusOr<bool> parseBool(llvm::StringRef Text);

private:
  /// The option `Name` (dashes stripped) means: an exact name, else the only
  /// option that has a name starting with it.
  absl::StatusOr<const Option *> lookup(llvm::StringRef Spelled, llvm::StringRef Name) const;

  std::vector<Option> Options;
};

struct PassManagerOptions;

/// What every argparse-style tool does once its arguments are parsed: a bad
/// command line is "TOOL: error: ..." and exit 2; --help and --version are
/// answered with exit 0. Returns the exit code when the tool is done, or
/// nothing to go on.
std::optional<int> answerCommandLine(llvm::StringRef Tool, const absl::Status &Parsed,
                                     bool Help, bool Version,
                                     const std::function<void(llvm::raw_ostream &)> &PrintHelp);

/// argparse's subcommands (`frost-inspect graph PATH ...`): the first word
/// names one, whose own parser reads the rest. The index of `Word` in
/// `Names`, or an error naming it with the closest names.
absl::StatusOr<size_t> findSubcommand(llvm::StringRef Word,
                                      llvm::ArrayRef<llvm::StringRef> Names);

/// --help (-h) and --version, listed in help under `Group`.
void addHelpFlags(ArgParser &P, bool &Help, bool &Version, const std::string &Group);

/// The pass manager's debugging flags, alike in every tool: --timing,
/// --pass-statistics, --print-ir-after-all, --print-ir-after, --verify-each,
/// and --dump-pass-pipeline for a tool that prints its pipeline (given
/// `DumpPipeline`), listed in help under `Group`.
void addPassManagerFlags(ArgParser &P, PassManagerOptions &PM, bool &Timing,
                         const std::string &Group, bool *DumpPipeline = nullptr);

/// --protobuf-size-limit BYTES (hidden): tests lower the largest file a tool
/// reads or writes.
void addSizeLimitFlag(ArgParser &P, uint64_t &Limit, const std::string &Group);

/// --eval-budget N and --eval-max-bytes BYTES: what running a graph to check
/// it may spend (eval::EvalBudget), alike in frost-verify and freeze-graph.
void addEvalBudgetFlags(ArgParser &P, eval::EvalBudget &Budget, const std::string &Group);

} // namespace frost

#endif // FROST_LIB_TOOLS_ARGPARSER_H
