//===- GraphTransforms.cpp - TensorFlow's transform_graph on Frost passes --===//
#include "frost/Transforms/GraphTransforms.h"

#include "frost/IO/GraphIO.h"
#include "frost/IR/Model.h"
#include "frost/Support/Caret.h"
#include "frost/Support/Context.h"
#include "frost/Support/Suggest.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Pipelines.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace frost {

namespace {

/// graph_transforms' list grammar, read as its hand-written scanner reads it.
class TransformListParser {
public:
  TransformListParser(llvm::StringRef Text, llvm::StringRef BufferName)
      : Text(Text), BufferName(BufferName) {}

  absl::StatusOr<std::vector<TransformCall>> parse() {
    std::vector<TransformCall> Calls;
    while (true) {
      skipSpace();
      if (atEnd())
        break;
      TransformCall Call;
      Call.NamePos = Pos;
      Call.Name = word().str();
      if (Call.Name.empty())
        return error(Pos, "expected a transform name (letters, digits and '_'); transforms are "
                          "separated by blanks");
      if (!atEnd() && Text[Pos] == '(')
        FROST_RETURN_IF_ERROR(parseParams(Call));
      Calls.push_back(std::move(Call));
    }
    if (Calls.empty())
      return error(Pos, "no transform in the list");
    return Calls;
  }

private:
  bool atEnd() const { return Pos >= Text.size(); }
  // TensorFlow's "space": blank, tab, newline, vertical tab, form feed, CR.
  void skipSpace() {
    while (!atEnd() && llvm::isSpace(Text[Pos]))
      ++Pos;
  }
  llvm::StringRef run(llvm::function_ref<bool(char)> Accept) {
    size_t Start = Pos;
    while (!atEnd() && Accept(Text[Pos]))
      ++Pos;
    return Text.slice(Start, Pos);
  }
  llvm::StringRef word() {
    return run([](char C) { return llvm::isAlnum(C) || C == '_'; });
  }
  absl::Status error(size_t At, llvm::StringRef Message) const {
    return absl::InvalidArgumentError(messageWithCaret(BufferName, Text, At, Message));
  }

  absl::Status parseParams(TransformCall &Call) {
    size_t Open = Pos++;
    while (true) {
      // TensorFlow allows one ',' and then blanks before a name; blanks
      // before ')' or ',' are accepted too.
      skipSpace();
      if (atEnd())
        return error(Open, absl::StrCat("'(' of transform '", Call.Name, "' is never closed"));
      if (Text[Pos] == ')') {
        ++Pos;
        return absl::OkStatus();
      }
      if (Text[Pos] == ',') {
        ++Pos;
        skipSpace();
      }
      TransformCall::Param P;
      P.NamePos = Pos;
      P.Name = word().str();
      if (P.Name.empty())
        return error(Pos, "expected a parameter name (letters, digits and '_')");
      if (atEnd() || Text[Pos] != '=')
        return error(Pos, absl::StrCat("expected '=' after parameter '", P.Name, "'"));
      ++Pos;
      FROST_ASSIGN_OR_RETURN(P.Value, value(P.Name));
      Call.Params.push_back(std::move(P));
    }
  }

  absl::StatusOr<std::string> value(llvm::StringRef Param) {
    std::string Value;
    if (!atEnd() && Text[Pos] == '"') {
      size_t Quote = Pos++;
      size_t Start = Pos;
      // A backslash keeps the next character from closing the value; both
      // stay in it, undecoded, as in TensorFlow.
      while (!atEnd() && Text[Pos] != '"')
        Pos += (Text[Pos] == '\\' && Pos + 1 < Text.size()) ? 2 : 1;
      if (atEnd())
        return error(Quote, absl::StrCat("the quoted value of '", Param.str(), "' is never closed"));
      Value = Text.slice(Start, Pos++).str();
    } else {
      Value = run([](char C) {
                return llvm::isAlnum(C) || C == '_' || C == '-' || C == '.' || C == '/';
              }).str();
      if (Value.empty())
        return error(Pos, absl::StrCat("expected a value for '", Param.str(),
                                        "'; quote values with characters other than letters, "
                                        "digits and _ - . /"));
    }
    // TensorFlow then swallows one stray '"' and one stray '\''.
    if (!atEnd() && Text[Pos] == '"')
      ++Pos;
    if (!atEnd() && Text[Pos] == '\'')
      ++Pos;
    return Value;
  }

  llvm::StringRef Text;
  llvm::StringRef BufferName;
  size_t Pos = 0;
};

/// Passes.def's FROST_TRANSFORM lines, their pass lists made once.
struct TransformTable {
  std::vector<std::string> PassLists;
  std::vector<GraphTransformInfo> Infos;
  TransformTable() {
#define FROST_TRANSFORM(NAME, PASSES, DIFFERENCES)                                            \
  PassLists.push_back(PASSES);                                                                \
  Infos.push_back({NAME, "", DIFFERENCES});
#include "frost/Transforms/Passes.def"
    for (size_t I = 0; I < Infos.size(); ++I)
      Infos[I].Passes = PassLists[I].c_str();
  }
};

/// Parameters whose Frost option is not their kebab-case spelling.
struct ParamRename {
  const char *Param;
  const char *Option;
};
const ParamRename ParamRenames[] = {{"max_constant_size_in_bytes", "max-constant-size"}};

std::string optionNameFor(llvm::StringRef Param) {
  for (const ParamRename &R : ParamRenames)
    if (Param == R.Param)
      return R.Option;
  std::string Name = Param.str();
  std::replace(Name.begin(), Name.end(), '_', '-');
  return Name;
}

std::string paramNameFor(llvm::StringRef Option) {
  for (const ParamRename &R : ParamRenames)
    if (Option == R.Option)
      return R.Param;
  std::string Name = Option.str();
  std::replace(Name.begin(), Name.end(), '-', '_');
  return Name;
}

/// Whether `Option` is one the tool gives every transform (--inputs,
/// --outputs), not a parameter.
bool isGraphEnd(Pass &P, const OptionBase *Option) {
  Pass::GraphEnds Ends = P.graphEnds();
  return Option && (Option == Ends.Inputs || Option == Ends.Outputs);
}

class TransformPreparer {
public:
  TransformPreparer(const TransformContext &Context, const PassRegistry &Registry,
                    llvm::StringRef Text)
      : Context(Context), Registry(Registry), Text(Text) {}

  absl::StatusOr<PreparedTransform> prepare(const TransformCall &Call) const;

private:
  absl::Status error(size_t At, llvm::StringRef Message,
                     llvm::ArrayRef<std::string> Notes = {}) const {
    return absl::InvalidArgumentError(
        messageWithCaret("--transforms", Text, At, Message, Notes));
  }
  absl::Status setParam(const TransformCall &Call, const TransformCall::Param &P, Pass &First,
                        llvm::StringSet<> &Seen) const;

  const TransformContext &Context;
  const PassRegistry &Registry;
  llvm::StringRef Text;
};

absl::Status TransformPreparer::setParam(const TransformCall &Call,
                                         const TransformCall::Param &P, Pass &First,
                                         llvm::StringSet<> &Seen) const {
  OptionBase *O = First.findOption(optionNameFor(P.Name));
  if (!O || isGraphEnd(First, O)) {
    std::vector<std::string> Known{"ignore_errors"};
    for (const OptionBase *Each : First.options())
      if (!isGraphEnd(First, Each))
        Known.push_back(paramNameFor(Each->name()));
    std::vector<llvm::StringRef> Candidates(Known.begin(), Known.end());
    std::vector<std::string> Notes;
    if (std::vector<std::string> Close = closestNames(P.Name, Candidates); !Close.empty())
      Notes.push_back(absl::StrCat("did you mean ", quotedAlternatives(Close), "?"));
    Notes.push_back(absl::StrCat("its parameters: ", absl::StrJoin(Known, ", "),
                                 P.Name == "inputs" || P.Name == "outputs"
                                     ? " (inputs and outputs come from --inputs and --outputs)"
                                     : " (TensorFlow ignores unknown parameters; Frost refuses "
                                       "them)"));
    return error(P.NamePos,
                 absl::StrCat("transform '", Call.Name, "' has no parameter '", P.Name, "'"),
                 Notes);
  }
  auto bad = [&](llvm::StringRef Why) {
    return error(P.NamePos, absl::StrCat("parameter '", P.Name, "' of '", Call.Name, "': ", Why.str()));
  };
  if (auto *List = dynamic_cast<ListOption<std::string> *>(O)) {
    List->append(P.Value);
    return absl::OkStatus();
  }
  if (!Seen.insert(P.Name).second)
    return bad("given twice; it takes one value");
  if (auto *Bool = dynamic_cast<Option<bool> *>(O)) {
    // TensorFlow's GetParamAsBool accepts exactly these.
    if (P.Value != "true" && P.Value != "1" && P.Value != "false" && P.Value != "0")
      return bad(absl::StrCat("'", P.Value, "' is not true, false, 1 or 0"));
    Bool->set(P.Value == "true" || P.Value == "1");
    return absl::OkStatus();
  }
  if (auto *Int = dynamic_cast<Option<int64_t> *>(O)) {
    int64_t V;
    if (llvm::StringRef(P.Value).getAsInteger(10, V))
      return bad(absl::StrCat("'", P.Value, "' is not an integer"));
    Int->set(V);
    return absl::OkStatus();
  }
  // Every value given is set() (assignment does the same), so that a pass
  // tells it from its default by isSet() (strip_unused_nodes' shape was lost so).
  if (auto *String = dynamic_cast<Option<std::string> *>(O)) {
    String->set(P.Value);
    return absl::OkStatus();
  }
  if (absl::Status S = O->parse(P.Value); !S.ok())
    return bad(std::string(S.message()));
  return absl::OkStatus();
}

absl::StatusOr<PreparedTransform> TransformPreparer::prepare(const TransformCall &Call) const {
  const GraphTransformInfo *Info = llvm::find_if(
      graphTransforms(), [&](const GraphTransformInfo &T) { return Call.Name == T.Name; });
  if (Info == graphTransforms().end()) {
    std::vector<llvm::StringRef> Names;
    for (const GraphTransformInfo &T : graphTransforms())
      Names.push_back(T.Name);
    std::vector<std::string> Notes;
    if (std::vector<std::string> Close = closestNames(Call.Name, Names); !Close.empty())
      Notes.push_back(absl::StrCat("did you mean ", quotedAlternatives(Close), "?"));
    Notes.push_back("transform-graph --help lists the transforms");
    return error(Call.NamePos, absl::StrCat("unknown transform '", Call.Name, "'"), Notes);
  }
  if (llvm::StringRef(Info->Passes).empty())
    return error(Call.NamePos, absl::StrCat("transform '", Call.Name,
                                            "' is TensorFlow's, but ", Info->Differences));
  PreparedTransform Out;
  Out.Info = Info;
  llvm::SmallVector<llvm::StringRef, 2> PassNames;
  llvm::StringRef(Info->Passes).split(PassNames, ',');
  for (auto [I, Name] : llvm::enumerate(PassNames)) {
    std::unique_ptr<Pass> P = Registry.create(Name);
    if (!P)
      return absl::InternalError(absl::StrCat("transform '", Call.Name, "' runs pass '",
                                              Name.str(), "', which is not registered"));
    // A pass after the first that works towards the outputs (fold_constants'
    // prune) has nothing to do without them.
    Pass::GraphEnds Ends = P->graphEnds();
    if (I > 0 && Ends.Outputs && Context.Outputs.empty())
      continue;
    if (Ends.Outputs)
      *Ends.Outputs = Context.Outputs;
    if (Ends.Inputs)
      *Ends.Inputs = Context.Inputs;
    Out.Passes.push_back(std::move(P));
  }
  llvm::StringSet<> Seen;
  for (const TransformCall::Param &P : Call.Params) {
    if (P.Name == "ignore_errors") {
      // As TensorFlow: the first value counts, in any case.
      if (!Seen.insert(P.Name).second)
        continue;
      std::string Lower = llvm::StringRef(P.Value).lower();
      if (Lower != "true" && Lower != "false")
        return error(P.NamePos, absl::StrCat("ignore_errors should be true or false, not '",
                                             P.Value, "'"));
      Out.IgnoreErrors = Lower == "true";
      continue;
    }
    FROST_RETURN_IF_ERROR(setParam(Call, P, *Out.Passes.front(), Seen));
  }
  for (const std::unique_ptr<Pass> &P : Out.Passes)
    if (absl::Status S = P->validateOptions(); !S.ok()) {
      // The pass names its options (first-n); the user wrote the transform's
      // parameters (first_n).
      std::vector<std::pair<std::string, std::string>> Spellings;
      for (const OptionBase *O : P->options())
        if (std::string Param = paramNameFor(O->name()); Param != O->name())
          Spellings.emplace_back(O->name().str(), std::move(Param));
      return error(Call.NamePos, absl::StrCat("transform '", Call.Name, "': ",
                                              absl::StrReplaceAll(S.message(), Spellings)));
    }
  return Out;
}

} // namespace

absl::StatusOr<std::vector<TransformCall>> parseTransformList(llvm::StringRef Text,
                                                              llvm::StringRef BufferName) {
  return TransformListParser(Text, BufferName).parse();
}

llvm::ArrayRef<GraphTransformInfo> graphTransforms() {
  // Built once, never changed: facts about TensorFlow's transforms.
  static const TransformTable Table;
  return Table.Infos;
}

void printTransformTable(llvm::raw_ostream &OS) {
  OS << "| TensorFlow transform | Frost passes | differences from TensorFlow |\n"
     << "|---|---|---|\n";
  for (const GraphTransformInfo &T : graphTransforms()) {
    llvm::SmallVector<llvm::StringRef, 4> Passes;
    llvm::StringRef(T.Passes).split(Passes, ',', -1, /*KeepEmpty=*/false);
    std::vector<std::string> Quoted;
    for (llvm::StringRef P : Passes)
      Quoted.push_back(absl::StrCat("`", P.str(), "`"));
    OS << "| `" << T.Name << "` | "
       << (Quoted.empty() ? std::string("not in Frost") : absl::StrJoin(Quoted, ", ")) << " | "
       << T.Differences << " |\n";
  }
}

absl::StatusOr<std::vector<PreparedTransform>>
prepareGraphTransforms(llvm::ArrayRef<TransformCall> Calls, const TransformContext &Context,
                       const PassRegistry &Registry, llvm::StringRef Text) {
  TransformPreparer Preparer(Context, Registry, Text);
  std::vector<PreparedTransform> Prepared;
  for (const TransformCall &Call : Calls) {
    FROST_ASSIGN_OR_RETURN(PreparedTransform P, Preparer.prepare(Call));
    Prepared.push_back(std::move(P));
  }
  return Prepared;
}

absl::Status runGraphTransforms(Context &Ctx, std::unique_ptr<Model> &M,
                                std::vector<PreparedTransform> Prepared,
                                const PassManagerOptions &Options,
                                std::vector<PassChanges> *Changes) {
  for (PreparedTransform &T : Prepared) {
    std::string Before;
    if (T.IgnoreErrors) {
      FROST_ASSIGN_OR_RETURN(Before, serializeModel(Ctx, *M));
    }
    PassManager PM(Options);
    for (std::unique_ptr<Pass> &P : T.Passes)
      PM.addPass(std::move(P));
    PassContext PassCtx(Ctx);
    absl::Status S = PM.run(*M, PassCtx);
    if (S.ok() && Changes)
      for (PassChanges &C : PM.changes())
        Changes->push_back(std::move(C));
    if (S.ok())
      continue;
    if (!T.IgnoreErrors)
      return absl::Status(S.code(), absl::StrCat(T.Info->Name, ": ", S.message()));
    Ctx.diagnostics().warning(absl::StrCat(T.Info->Name, ": error ignored (ignore_errors=true), ",
                                           "the graph is left as it was: ", S.message()));
    FROST_ASSIGN_OR_RETURN(M, parseModel(Before, "<graph before the transform>"));
  }
  return absl::OkStatus();
}

} // namespace frost
