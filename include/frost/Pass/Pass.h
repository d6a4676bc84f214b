//===- Pass.h - A pass with typed options and statistics --------*- C++ -*-===//
//
// A pass declares its options and statistics as members, MLIR style:
//
//   class PrunePass : public Pass {
//     ListOption<std::string> Outputs{*this, "outputs", "Nodes or tensors to keep"};
//     Statistic NumRemoved{*this, "nodes-removed", "Nodes removed"};
//     absl::Status run(Model &M, PassContext &Ctx) override;
//   };
//
// The pipeline parser fills options from `prune{outputs=a;b}`; the pass
// manager prints statistics.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_PASS_PASS_H
#define FROST_PASS_PASS_H

#include "frost/Pass/AnalysisManager.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace frost {

class Context;
class Model;
class Pass;

/// One `key=value` option of a pass.
class OptionBase {
public:
  OptionBase(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description);
  virtual ~OptionBase() = default;
  OptionBase(const OptionBase &) = delete;
  OptionBase &operator=(const OptionBase &) = delete;

  llvm::StringRef name() const { return Name; }
  llvm::StringRef description() const { return Description; }
  /// Whether the pipeline gave a value.
  bool isSet() const { return WasSet; }

  /// Takes the value text (already unquoted). The message says what was
  /// expected; the parser adds where.
  absl::Status parse(llvm::StringRef Value);
  /// Parses a bare `key` (no `=`): true for bool options, an error otherwise.
  absl::Status parseFlag();
  /// The value as the pipeline syntax would spell it.
  virtual std::string print() const = 0;
  /// "string", "bool", "int", "list<string>".
  virtual llvm::StringRef typeName() const = 0;
  virtual bool isBool() const { return false; }

protected:
  virtual absl::Status parseValue(llvm::StringRef Value) = 0;
  void markSet() { WasSet = true; }

private:
  llvm::StringRef Name, Description;
  bool WasSet = false;
};

namespace detail {
absl::Status parseScalar(llvm::StringRef Text, std::string &Out);
absl::Status parseScalar(llvm::StringRef Text, bool &Out);
absl::Status parseScalar(llvm::StringRef Text, int64_t &Out);
absl::Status parseScalar(llvm::StringRef Text, double &Out);
std::string printScalar(const std::string &V);
/// The items of a list value: split at `;`, each trimmed (empty text: none).
llvm::SmallVector<llvm::StringRef, 8> splitListItems(llvm::StringRef Text);
std::string printScalar(bool V);
std::string printScalar(int64_t V);
std::string printScalar(double V);
template <typename T> llvm::StringRef scalarTypeName();
} // namespace detail

/// A single value of type std::string, bool, int64_t or double.
template <typename T> class Option : public OptionBase {
public:
  Option(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description, T Default = T())
      : OptionBase(Owner, Name, Description), Value(std::move(Default)) {}
  const T &operator*() const { return Value; }
  const T *operator->() const { return &Value; }
  operator const T &() const { return Value; }
  /// Same as set(): a value a caller gives is never mistaken for the default.
  Option &operator=(T V) {
    set(std::move(V));
    return *this;
  }
  /// Sets the value as a pipeline would (it is printed with the pass).
  void set(T V) {
    Value = std::move(V);
    markSet();
  }
  /// set(V) unless V is T's empty value (a typed options struct's "not
  /// given").
  void setIfGiven(T V) {
    if (V != T())
      set(std::move(V));
  }
  std::string print() const override { return detail::printScalar(Value); }
  llvm::StringRef typeName() const override { return detail::scalarTypeName<T>(); }
  bool isBool() const override { return std::is_same_v<T, bool>; }

protected:
  absl::Status parseValue(llvm::StringRef Text) override {
    return detail::parseScalar(Text, Value);
  }

private:
  T Value;
};

/// A list, written `key=a;b;c` in a pipeline.
template <typename T> class ListOption : public OptionBase {
public:
  ListOption(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description)
      : OptionBase(Owner, Name, Description) {}
  const std::vector<T> &operator*() const { return Values; }
  const std::vector<T> *operator->() const { return &Values; }
  auto begin() const { return Values.begin(); }
  auto end() const { return Values.end(); }
  bool empty() const { return Values.empty(); }
  ListOption &operator=(std::vector<T> V) {
    Values = std::move(V);
    markSet();
    return *this;
  }
  /// Adds one value (a parameter given once per value, remove_nodes(op=A,
  /// op=B)): linear in the values given, however many.
  void append(T V) {
    Values.push_back(std::move(V));
    markSet();
  }
  /// Sets the values as a pipeline would, so the printed pass replays the
  /// same: string items holding `;` are split there and trimmed, as
  /// `key=a;b` is parsed.
  void set(std::vector<T> V) {
    if constexpr (std::is_same_v<T, std::string>) {
      Values.clear();
      for (const std::string &Item : V)
        for (llvm::StringRef Part : detail::splitListItems(Item))
          Values.push_back(Part.str());
    } else {
      Values = std::move(V);
    }
    markSet();
  }
  /// set(V) unless V is empty (a typed options struct's "not given").
  void setIfGiven(std::vector<T> V) {
    if (!V.empty())
      set(std::move(V));
  }
  std::string print() const override;
  llvm::StringRef typeName() const override;

protected:
  absl::Status parseValue(llvm::StringRef Text) override;

private:
  std::vector<T> Values;
};

/// A counter a pass bumps, reported by `--pass-statistics`. It counts the
/// current run: PassManager::rewind zeroes it before the pipeline runs on
/// another model, so a pass may quote it in that run's messages.
class Statistic {
public:
  Statistic(Pass &Owner, llvm::StringRef Name, llvm::StringRef Description);
  Statistic &operator+=(uint64_t N) {
    Value += N;
    return *this;
  }
  Statistic &operator++() {
    ++Value;
    return *this;
  }
  uint64_t value() const { return Value; }
  void reset() { Value = 0; }
  llvm::StringRef name() const { return Name; }
  llvm::StringRef description() const { return Description; }

private:
  llvm::StringRef Name, Description;
  uint64_t Value = 0;
};

/// What a running pass may use besides the model: where to say things, and
/// the analyses the passes of one run share.
/// What the passes of one pass-manager run share: the job's Context, where
/// notes go, the analyses.
class PassContext {
public:
  explicit PassContext(Context &Ctx) : Ctx(Ctx), Analyses(Ctx) {}
  /// The job this run belongs to (its files, its background checks).
  Context &context() { return Ctx; }
  /// A remark for the user, e.g. "graph is already frozen", as a
  /// diagnostic of the job ("PASS: MESSAGE").
  void note(llvm::StringRef PassName, llvm::StringRef Message);
  void warning(llvm::StringRef PassName, llvm::StringRef Message);
  /// A note shown only when asked (-v): Severity::Detail.
  void detail(llvm::StringRef PassName, llvm::StringRef Message);

  AnalysisManager &analyses() { return Analyses; }
  const AnalysisManager &analyses() const { return Analyses; }
  /// Called by a pass that left the graph as it was (it read it, or changed
  /// only side tables): the graph analyses stay valid after it.
  void markGraphAnalysesPreserved() { GraphPreserved = true; }
  /// Whether the pass that just ran marked them; resets the mark.
  bool takeGraphPreserved() { return std::exchange(GraphPreserved, false); }

private:
  Context &Ctx;
  AnalysisManager Analyses;
  bool GraphPreserved = false;
};

class Pass {
public:
  virtual ~Pass() = default;
  Pass() = default;
  Pass(const Pass &) = delete;
  Pass &operator=(const Pass &) = delete;

  /// The registered name, e.g. "prune".
  llvm::StringRef name() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }

  /// Checks option combinations before anything runs.
  virtual absl::Status validateOptions() const { return absl::OkStatus(); }
  virtual absl::Status run(Model &M, PassContext &Ctx) = 0;

  llvm::ArrayRef<OptionBase *> options() const { return Options; }
  OptionBase *findOption(llvm::StringRef OptionName) const;

  /// The options naming the graph's inputs and outputs, which a caller sets
  /// for every pass of a sequence at once (transform-graph's --inputs and
  /// --outputs); null where the pass takes none.
  struct GraphEnds {
    ListOption<std::string> *Inputs = nullptr;
    ListOption<std::string> *Outputs = nullptr;
  };
  virtual GraphEnds graphEnds() { return {}; }
  llvm::ArrayRef<Statistic *> statistics() const { return Statistics; }

  /// `name{opt=value,...}` with the options that were set.
  std::string printAsPipelineElement() const;

private:
  friend class OptionBase;
  friend class Statistic;
  /// Its own copy: a pass outlives the registry that made it.
  std::string Name;
  std::vector<OptionBase *> Options;
  std::vector<Statistic *> Statistics;
};

/// A pass of type PassT made from `Args` (its typed options), named as the
/// registry names it: the typed factories of frost/Transforms/PassOptions.h.
template <typename PassT, typename... ArgsT>
std::unique_ptr<Pass> makeNamedPass(llvm::StringRef Name, ArgsT &&...Args) {
  std::unique_ptr<Pass> P = std::make_unique<PassT>(std::forward<ArgsT>(Args)...);
  P->setName(Name);
  return P;
}

} // namespace frost

#endif // FROST_PASS_PASS_H
