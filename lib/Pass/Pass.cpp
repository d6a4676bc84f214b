//===- Pass.cpp - Pass options, statistics and context --------------------===//
#include "frost/Pass/Pass.h"

#include "frost/Support/Context.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>

namespace frost {

OptionBase::OptionBase(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description)
    : Name(Name), Description(Description) {
  Owner.Options.push_back(this);
}

absl::Status OptionBase::parse(llvm::StringRef Value) {
  FROST_RETURN_IF_ERROR(parseValue(Value));
  WasSet = true;
  return absl::OkStatus();
}

absl::Status OptionBase::parseFlag() {
  if (!isBool())
    return absl::InvalidArgumentError(
        absl::StrCat("option '", Name.str(), "' needs a value (", typeName().str(), ")"));
  return parse("true");
}

Statistic::Statistic(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description)
    : Name(Name), Description(Description) {
  Owner.Statistics.push_back(this);
}

void PassContext::note(llvm::StringRef PassName, llvm::StringRef Message) {
  Ctx.diagnostics().note((PassName + ": " + Message).str());
}

void PassContext::detail(llvm::StringRef PassName, llvm::StringRef Message) {
  Ctx.diagnostics().detail((PassName + ": " + Message).str());
}

void PassContext::warning(llvm::StringRef PassName, llvm::StringRef Message) {
  Ctx.diagnostics().warning((PassName + ": " + Message).str());
}

OptionBase *Pass::findOption(llvm::StringRef OptionName) const {
  for (OptionBase *O : Options)
    if (O->name() == OptionName)
      return O;
  return nullptr;
}

std::string Pass::printAsPipelineElement() const {
  std::vector<std::string> Set;
  for (const OptionBase *O : Options)
    if (O->isSet())
      Set.push_back(absl::StrCat(O->name().str(), "=", O->print()));
  if (Set.empty())
    return Name;
  return absl::StrCat(Name, "{", absl::StrJoin(Set, ","), "}");
}

namespace detail {

/// Values that would not survive the pipeline grammar unquoted get quotes.
static std::string quoteIfNeeded(llvm::StringRef S) {
  if (!S.empty() && S.find_first_of(",;{}=\"' \t\n\v\f\r") == llvm::StringRef::npos)
    return S.str();
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

absl::Status parseScalar(llvm::StringRef Text, std::string &Out) {
  Out = Text.str();
  return absl::OkStatus();
}

absl::Status parseScalar(llvm::StringRef Text, bool &Out) {
  std::string Lower = Text.lower();
  if (Lower == "true" || Lower == "1") {
    Out = true;
    return absl::OkStatus();
  }
  if (Lower == "false" || Lower == "0") {
    Out = false;
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("expected true or false, got '", Text.str(), "'"));
}

absl::Status parseScalar(llvm::StringRef Text, int64_t &Out) {
  long long V;
  if (Text.getAsInteger(10, V))
    return absl::InvalidArgumentError(absl::StrCat("expected an integer, got '", Text.str(), "'"));
  Out = V;
  return absl::OkStatus();
}

absl::Status parseScalar(llvm::StringRef Text, double &Out) {
  if (Text.getAsDouble(Out) || !std::isfinite(Out))
    return absl::InvalidArgumentError(absl::StrCat("expected a number, got '", Text.str(), "'"));
  return absl::OkStatus();
}

std::string printScalar(const std::string &V) { return quoteIfNeeded(V); }

llvm::SmallVector<llvm::StringRef, 8> splitListItems(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  if (!Text.empty())
    Text.split(Parts, ';');
  for (llvm::StringRef &Part : Parts)
    Part = Part.trim();
  return Parts;
}
std::string printScalar(bool V) { return V ? "true" : "false"; }
std::string printScalar(int64_t V) { return std::to_string(V); }
std::string printScalar(double V) { return absl::StrCat(V); }

template <> llvm::StringRef scalarTypeName<std::string>() { return "string"; }
template <> llvm::StringRef scalarTypeName<bool>() { return "bool"; }
template <> llvm::StringRef scalarTypeName<int64_t>() { return "int"; }
template <> llvm::StringRef scalarTypeName<double>() { return "number"; }

} // namespace detail

/// A list is quoted as a whole (items hold no ';'), so `a=1;b=2` stays a
/// list of two when it is parsed back.
static std::string printListItem(const std::string &V) { return V; }
static std::string printListItem(int64_t V) { return std::to_string(V); }

template <typename T> std::string ListOption<T>::print() const {
  std::vector<std::string> Parts;
  for (const T &V : Values)
    Parts.push_back(printListItem(V));
  std::string Joined = absl::StrJoin(Parts, ";");
  if (Joined.find_first_of(",{}\"'") == std::string::npos &&
      llvm::StringRef(Joined).trim() == Joined)
    return Joined;
  return detail::printScalar(Joined);
}

template <typename T> llvm::StringRef ListOption<T>::typeName() const {
  static const std::string Name = absl::StrCat("list<", detail::scalarTypeName<T>().str(), ">");
  return Name;
}

template <typename T> absl::Status ListOption<T>::parseValue(llvm::StringRef Text) {
  Values.clear();
  for (llvm::StringRef Part : detail::splitListItems(Text)) {
    T V{};
    FROST_RETURN_IF_ERROR(detail::parseScalar(Part, V));
    Values.push_back(std::move(V));
  }
  return absl::OkStatus();
}

template class ListOption<std::string>;
template class ListOption<int64_t>;

} // namespace frost
