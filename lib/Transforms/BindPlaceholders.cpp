//===- BindPlaceholders.cpp - Placeholders to constants, dead branches out ===//
//
// `bind-placeholders{bind=is_training=false;keep_prob=1.0}` turns each named
// Placeholder or PlaceholderWithDefault into a Const of its dtype holding the
// value: filled to the placeholder's shape when that is fully defined, else a
// scalar (with a warning when the shape has a known rank). The node keeps its
// name, device and non-shape attributes, so its consumers are untouched; a
// PlaceholderWithDefault loses its default input. A list item is `NAME=VALUE`,
// split at the first `=` (node names cannot hold one); values are trimmed and
// cannot hold `;`; quote the whole list when a value holds `,` or `}`.
// Values: bool `true`/`false`/`1`/`0` (any case); floating point as strtod
// reads it, `inf` and `nan` included, rounded to the dtype like NumPy does
// when a Python float is fed (half directly, bfloat16 through float); integers
// in base 10 within the dtype's range; strings verbatim.
//
// With `fold-switches` (the default) every Switch/RefSwitch whose predicate is
// a Const bool with no control inputs, possibly through Identity nodes without
// control inputs, is folded as TensorFlow's constant folding followed by
// Grappler's dead-branch removal would fold it, exactly:
// - readers of the live output read the Switch's data input directly; a
//   Switch still read through control edges becomes Identity(data) (its
//   deadness is its data's), else it is erased;
// - the nodes the dead output reaches are always dead and are erased: every
//   non-Merge node with a dead data or control input, and every Merge whose
//   data inputs are all dead;
// - a Merge with some dead data inputs loses them (and dead control inputs);
//   left with one, it becomes an Identity of it under the same name.
// Folding repeats until nothing changes, so a predicate computed by a folded
// Merge of constants is folded too. A Switch is left alone (with a warning)
// when its dead region reaches a loop (Enter, Exit, NextIteration, LoopCond)
// or a ControlTrigger, or when a Merge losing inputs has its value_index output
// read. A colocation with a removed node goes after the pass, as after every
// pass (Colocation.h).
// Not folded: predicates that are computed (Equal of constants, ...), Const
// predicates with control inputs, _SwitchN, and functional If/Case ops.
// Dead nodes may be graph outputs (fetching them would fail in TensorFlow).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/Shape.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <cerrno>
#include <cmath>
#include <map>
#include <optional>

namespace frost {

namespace {

using tensorflow::DataType;

std::string typeName(DataType T) { return tensorflow::DataType_Name(T); }

/// Reads `Text` as a double the way strtod does, all of it; beyond the
/// range of double it is infinite and `Overflow` is set.
std::optional<double> parseDouble(llvm::StringRef Text, bool &Overflow) {
  Overflow = false;
  if (Text.empty() || llvm::isSpace(Text.front()))
    return std::nullopt;
  std::string Copy = Text.str();
  char *End = nullptr;
  errno = 0;
  double V = std::strtod(Copy.c_str(), &End);
  if (End != Copy.c_str() + Copy.size())
    return std::nullopt;
  Overflow = errno == ERANGE && std::isinf(V);
  return V;
}

/// `Value` as a TensorProto element of `Type` appended to `T`; an error text
/// says why not.
std::optional<std::string> appendValue(DataType Type, llvm::StringRef Value,
                                       tensorflow::TensorProto &T) {
  auto notA = [&](llvm::StringRef What) {
    return absl::StrCat("'", Value.str(), "' is not ", What.str(), " (", typeName(Type), ")");
  };
  auto outOfRange = [&] {
    return absl::StrCat("'", Value.str(), "' is out of range for ", typeName(Type));
  };
  switch (Type) {
  case tensorflow::DT_BOOL: {
    std::string Lower = Value.lower();
    if (Lower == "true" || Lower == "1")
      T.add_bool_val(true);
    else if (Lower == "false" || Lower == "0")
      T.add_bool_val(false);
    else
      return notA("true or false");
    return std::nullopt;
  }
  case tensorflow::DT_FLOAT:
  case tensorflow::DT_DOUBLE:
  case tensorflow::DT_HALF:
  case tensorflow::DT_BFLOAT16: {
    bool Overflow;
    std::optional<double> D = parseDouble(Value, Overflow);
    if (!D)
      return notA("a number");
    if (Overflow)
      return outOfRange();
    if (Type == tensorflow::DT_DOUBLE) {
      T.add_double_val(*D);
      return std::nullopt;
    }
    // NumPy rounds a Python float to float16 directly, and to bfloat16
    // through float32 (ml_dtypes).
    llvm::APFloat F(*D);
    bool LosesInfo;
    const llvm::fltSemantics &Target =
        Type == tensorflow::DT_HALF ? llvm::APFloat::IEEEhalf() : llvm::APFloat::IEEEsingle();
    if (F.convert(Target, llvm::APFloat::rmNearestTiesToEven, &LosesInfo) &
        llvm::APFloat::opOverflow)
      return outOfRange();
    if (Type == tensorflow::DT_BFLOAT16 &&
        F.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo) &
            llvm::APFloat::opOverflow)
      return outOfRange();
    if (Type == tensorflow::DT_FLOAT)
      T.add_float_val(F.convertToFloat());
    else
      T.add_half_val(static_cast<int32_t>(F.bitcastToAPInt().getZExtValue()));
    return std::nullopt;
  }
  case tensorflow::DT_INT8:
  case tensorflow::DT_INT16:
  case tensorflow::DT_INT32:
  case tensorflow::DT_INT64: {
    long long V;
    if (Value.getAsInteger(10, V))
      return notA("an integer");
    int Bits = Type == tensorflow::DT_INT8    ? 8
               : Type == tensorflow::DT_INT16 ? 16
               : Type == tensorflow::DT_INT32 ? 32
                                              : 64;
    if (Bits < 64 && (V < -(1LL << (Bits - 1)) || V >= (1LL << (Bits - 1))))
      return outOfRange();
    if (Type == tensorflow::DT_INT64)
      T.add_int64_val(V);
    else
      T.add_int_val(static_cast<int32_t>(V));
    return std::nullopt;
  }
  case tensorflow::DT_UINT8:
  case tensorflow::DT_UINT16:
  case tensorflow::DT_UINT32:
  case tensorflow::DT_UINT64: {
    unsigned long long V;
    if (Value.starts_with("-") || Value.starts_with("+") || Value.getAsInteger(10, V))
      return notA("a non-negative integer");
    int Bits = Type == tensorflow::DT_UINT8    ? 8
               : Type == tensorflow::DT_UINT16 ? 16
               : Type == tensorflow::DT_UINT32 ? 32
                                               : 64;
    if (Bits < 64 && V >= (1ULL << Bits))
      return outOfRange();
    if (Type == tensorflow::DT_UINT32)
      T.add_uint32_val(static_cast<uint32_t>(V));
    else if (Type == tensorflow::DT_UINT64)
      T.add_uint64_val(V);
    else
      T.add_int_val(static_cast<int32_t>(V));
    return std::nullopt;
  }
  case tensorflow::DT_STRING:
    T.add_string_val(Value.str());
    return std::nullopt;
  default:
    return absl::StrCat("cannot bind a placeholder of type ", typeName(Type));
  }
}

/// The shape's dimensions when every one is known.
std::optional<std::vector<int64_t>> fullyDefined(const tensorflow::TensorShapeProto &Shape) {
  if (Shape.unknown_rank())
    return std::nullopt;
  std::vector<int64_t> Dims;
  for (const auto &Dim : Shape.dim()) {
    if (Dim.size() < 0)
      return std::nullopt;
    Dims.push_back(Dim.size());
  }
  return Dims;
}

struct Binding {
  std::string Name, Value;
};

/// Where a dead region must not go: loops and ControlTrigger have their own
/// rules for dead inputs.
bool stopsFolding(llvm::StringRef Op) {
  static const llvm::StringRef Ops[] = {"Enter",    "RefEnter",         "Exit",
                                        "RefExit",  "NextIteration",    "RefNextIteration",
                                        "LoopCond", "ControlTrigger"};
  return llvm::is_contained(Ops, Op);
}

/// The value of a predicate that is a scalar Const bool without control
/// inputs, seen through Identity nodes without control inputs.
std::optional<bool> constantPredicate(const Input &In) {
  const Node *P = In.Src;
  int Port = In.Port;
  while (P->op() == "Identity" && Port == 0 && P->numInputs() == 1) {
    Port = P->input(0).Port;
    P = P->input(0).Src;
  }
  if (P->op() != "Const" || Port != 0 || P->numInputs() != 0)
    return std::nullopt;
  const tensorflow::AttrValue *Value = P->findAttr("value");
  if (!Value || !Value->has_tensor() || Value->tensor().dtype() != tensorflow::DT_BOOL)
    return std::nullopt;
  const tensorflow::TensorProto &T = Value->tensor();
  for (const auto &Dim : T.tensor_shape().dim())
    if (Dim.size() != 1)
      return std::nullopt;
  if (const ExternalContent *Ext = P->externalContent("value"))
    return Ext->Bytes.size() == 1 ? std::optional<bool>(Ext->Bytes[0] != 0) : std::nullopt;
  if (T.bool_val_size() > 0)
    return T.bool_val(0);
  if (!T.tensor_content().empty())
    return T.tensor_content().size() == 1 ? std::optional<bool>(T.tensor_content()[0] != 0)
                                          : std::nullopt;
  return false; // no elements given: the zero value
}

class BindPlaceholdersPass : public Pass {
public:
  BindPlaceholdersPass() = default;
  explicit BindPlaceholdersPass(const BindPlaceholdersOptions &O) {
    Bind.set(O.Bind);
  }

private:
  ListOption<std::string> Bind{*this, "bind",
                               "Placeholders to bind, NAME=VALUE (e.g. is_training=false)"};
  Option<bool> FoldSwitches{*this, "fold-switches",
                            "Fold Switch/Merge whose predicate is now a constant", true};
  Statistic NumBound{*this, "placeholders-bound", "Placeholders replaced by constants"};
  Statistic NumSwitches{*this, "switches-folded", "Switch nodes with a constant predicate folded"};
  Statistic NumMerges{*this, "merges-simplified", "Merge nodes that lost dead inputs"};
  Statistic NumDead{*this, "dead-nodes-removed", "Nodes removed because they are always dead"};

  std::vector<Binding> Bindings;

  absl::Status validateOptions() const override {
    if (Bind.empty())
      return absl::InvalidArgumentError(
          "needs bind=NAME=VALUE[;NAME=VALUE...]: the placeholders to bind");
    llvm::StringSet<> Seen;
    for (const std::string &Item : Bind) {
      auto [Name, Value] = llvm::StringRef(Item).split('=');
      if (Name.trim().empty() || !llvm::StringRef(Item).contains('='))
        return absl::InvalidArgumentError(
            absl::StrCat("bind item '", Item, "' is not NAME=VALUE"));
      if (!Seen.insert(Name.trim()).second)
        return absl::InvalidArgumentError(
            absl::StrCat("placeholder '", Name.trim().str(), "' is bound twice"));
    }
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    Bindings.clear();
    for (const std::string &Item : Bind) {
      auto [Name, Value] = llvm::StringRef(Item).split('=');
      Bindings.push_back({Name.trim().str(), Value.trim().str()});
    }

    // Check everything first: all problems at once, and no half-bound graph.
    std::vector<std::string> Problems;
    absl::StatusCode Code = absl::StatusCode::kOk;
    auto problem = [&](absl::StatusCode C, std::string Message) {
      if (Code == absl::StatusCode::kOk)
        Code = C;
      Problems.push_back(std::move(Message));
    };
    std::vector<std::pair<Node *, tensorflow::TensorProto>> Planned;
    for (const Binding &B : Bindings) {
      std::string What = absl::StrCat("bind '", B.Name, "': ");
      Node *N = G.findNode(B.Name);
      if (!N) {
        problem(absl::StatusCode::kNotFound,
                absl::StrCat(What, "no placeholder named '", B.Name, "'", suggest(G, B.Name)));
        continue;
      }
      if (!isPlaceholderOp(N->op())) {
        problem(absl::StatusCode::kInvalidArgument,
                absl::StrCat(What, "node '", B.Name, "' is a ", N->op().str(),
                             ", not a Placeholder or PlaceholderWithDefault"));
        continue;
      }
      const tensorflow::AttrValue *DType = N->findAttr("dtype");
      if (!DType || DType->value_case() != tensorflow::AttrValue::kType) {
        problem(absl::StatusCode::kInvalidArgument,
                absl::StrCat(What, "placeholder '", B.Name, "' has no dtype attribute"));
        continue;
      }
      tensorflow::TensorProto T;
      T.set_dtype(DType->type());
      std::optional<std::string> Error = appendValue(DType->type(), B.Value, T);
      if (Error) {
        bool Unsupported = llvm::StringRef(*Error).starts_with("cannot bind");
        problem(Unsupported ? absl::StatusCode::kUnimplemented
                            : absl::StatusCode::kInvalidArgument,
                absl::StrCat(What, *Error));
        continue;
      }
      *T.mutable_tensor_shape() = shapeFor(*N, Ctx);
      Planned.emplace_back(N, std::move(T));
    }
    if (!Problems.empty())
      return absl::Status(Code, joinFindings(Problems));

    std::vector<std::string> Done;
    for (size_t I = 0; I < Planned.size(); ++I) {
      auto &[N, T] = Planned[I];
      int64_t Elements = 1;
      for (const auto &Dim : T.tensor_shape().dim())
        Elements *= Dim.size();
      if (Elements == 0) { // An empty tensor has no value to repeat.
        tensorflow::TensorProto Empty;
        Empty.set_dtype(T.dtype());
        *Empty.mutable_tensor_shape() = T.tensor_shape();
        T = std::move(Empty);
      }
      if (N->op() == "PlaceholderWithDefault" && N->numDataInputs() > 0)
        N->removeInput(0);
      N->setOp("Const");
      N->eraseAttr("shape");
      N->eraseAttr("_output_shapes");
      *N->attr("value").mutable_tensor() = std::move(T);
      ++NumBound;
      Done.push_back(absl::StrCat(
          Bindings[I].Name, "=", Bindings[I].Value, " (", typeName(N->findAttr("dtype")->type()),
          " ", formatPartialShape(N->findAttr("value")->tensor().tensor_shape()), ")"));
    }
    Ctx.note(name(), absl::StrCat("bound ", absl::StrJoin(Done, ", ")));

    if (*FoldSwitches)
      foldSwitches(G, Ctx);
    return absl::OkStatus();
  }

  /// "; did you mean 'x'?" among the placeholders, or the list of them.
  static std::string suggest(const Graph &G, llvm::StringRef Name) {
    std::vector<llvm::StringRef> Candidates;
    for (const Node &N : G)
      if (isPlaceholderOp(N.op()))
        Candidates.push_back(N.name());
    if (Candidates.empty())
      return "; the graph has no placeholders";
    std::vector<std::string> Close = closestNames(Name, Candidates);
    if (!Close.empty())
      return absl::StrCat("; did you mean ", quotedAlternatives(Close), "?");
    std::vector<std::string> Some;
    for (size_t I = 0; I < Candidates.size() && I < 10; ++I)
      Some.push_back(absl::StrCat("'", Candidates[I].str(), "'"));
    return absl::StrCat("; placeholders: ", absl::StrJoin(Some, ", "),
                        Candidates.size() > 10 ? ", ..." : "");
  }

  /// The constant's shape: the placeholder's when fully defined, else scalar.
  tensorflow::TensorShapeProto shapeFor(const Node &N, PassContext &Ctx) {
    const tensorflow::AttrValue *Shape = N.findAttr("shape");
    if (!Shape || !Shape->has_shape())
      return {};
    if (fullyDefined(Shape->shape()))
      return Shape->shape();
    if (!Shape->shape().unknown_rank())
      Ctx.warning(name(), absl::StrCat("placeholder '", N.name().str(), "' has shape ",
                                       formatPartialShape(Shape->shape()),
                                       ", not fully defined: bound to a scalar"));
    return {};
  }

  //===--------------------------------------------------------------------===//
  // Folding
  //===--------------------------------------------------------------------===//

  /// What one Switch's dead output reaches.
  struct DeadRegion {
    llvm::SetVector<Node *> Dead;
    /// Live Merge nodes -> their dead data input indices (maybe none, when
    /// only control inputs are dead).
    llvm::MapVector<Node *, llvm::SmallVector<unsigned, 2>> Merges;
  };

  void foldSwitches(Graph &G, PassContext &Ctx) {
    std::map<std::string, std::string> NotFolded; // switch -> why
    for (bool Changed = true; Changed;) {
      Changed = false;
      std::vector<std::string> Switches;
      for (const Node &N : G)
        if (isSwitchOp(N.op()) && N.numDataInputs() == 2 && constantPredicate(N.input(1)))
          Switches.push_back(N.name().str());
      for (const std::string &Name : Switches) {
        Node *S = G.findNode(Name); // gone when an earlier fold found it dead
        std::optional<bool> Pred;
        if (!S || S->numDataInputs() != 2 || !(Pred = constantPredicate(S->input(1))))
          continue;
        std::optional<std::string> Why = foldSwitch(G, *S, *Pred);
        if (Why) {
          NotFolded[Name] = *Why;
        } else {
          NotFolded.erase(Name);
          Changed = true;
        }
      }
    }
    for (const auto &[Name, Why] : NotFolded)
      if (G.findNode(Name))
        Ctx.warning(name(), absl::StrCat("switch '", Name,
                                         "' has a constant predicate but was not folded: ", Why));
    if (NumSwitches.value() != 0)
      Ctx.note(name(), absl::StrCat("folded ", NumSwitches.value(), " Switch and simplified ",
                                    NumMerges.value(), " Merge nodes; removed ",
                                    NumDead.value(), " dead nodes"));
  }

  /// Folds `S`, or says why it cannot.
  std::optional<std::string> foldSwitch(Graph &G, Node &S, bool Pred) {
    int LivePort = Pred ? 1 : 0, DeadPort = 1 - LivePort;

    DeadRegion R;
    std::vector<std::pair<Node *, unsigned>> Edges; // (reader, input index) carrying deadness
    for (const Use &U : S.uses())
      if (U.User->input(U.InputIndex).Port == DeadPort)
        Edges.push_back({U.User, U.InputIndex});
    while (!Edges.empty()) {
      auto [X, Index] = Edges.back();
      Edges.pop_back();
      if (R.Dead.contains(X))
        continue;
      if (stopsFolding(X->op()))
        return absl::StrCat("its dead branch reaches '", X->name().str(), "' (",
                            X->op().str(), ")");
      if (isMergeOp(X->op())) {
        auto &DeadInputs = R.Merges[X];
        if (X->input(Index).isControl() || llvm::is_contained(DeadInputs, Index))
          continue;
        DeadInputs.push_back(Index);
        if (DeadInputs.size() < X->numDataInputs())
          continue;
        R.Merges.erase(X); // every data input is dead: so is the Merge
      }
      R.Dead.insert(X);
      for (const Use &U : X->uses())
        Edges.push_back({U.User, U.InputIndex});
    }
    for (const auto &[M, DeadInputs] : R.Merges)
      if (!DeadInputs.empty() && llvm::any_of(M->uses(), [&](const Use &U) {
            return U.User->input(U.InputIndex).Port == 1 && !R.Dead.contains(U.User);
          }))
        return absl::StrCat("Merge '", M->name().str(),
                            "' would lose an input but its value_index output is read");

    // Live readers read the data; the data input is never in the region.
    Input Data = S.input(0);
    llvm::SmallVector<Use, 8> LiveUses;
    for (const Use &U : S.uses())
      if (U.User->input(U.InputIndex).Port == LivePort && !R.Dead.contains(U.User))
        LiveUses.push_back(U);
    for (const Use &U : LiveUses)
      U.User->setInput(U.InputIndex, Data.Src, Data.Port);

    // Merges drop their dead inputs.
    for (auto &[M, DeadInputs] : R.Merges) {
      llvm::sort(DeadInputs, std::greater<unsigned>());
      for (unsigned Index : DeadInputs)
        M->removeInput(Index);
      M->removeInputsIf(
          [&](const Input &In) { return In.isControl() && R.Dead.contains(In.Src); });
      if (DeadInputs.empty())
        continue;
      ++NumMerges;
      if (M->numDataInputs() == 1) {
        M->setOp(M->op() == "RefMerge" ? "RefIdentity" : "Identity");
        M->eraseAttr("N");
      } else {
        M->attr("N").set_i(M->numDataInputs());
      }
      M->eraseAttr("_output_shapes");
    }

    // The dead nodes go, readers first.
    std::vector<Node *> Ready;
    for (Node *X : R.Dead)
      if (!X->hasUses())
        Ready.push_back(X);
    llvm::DenseSet<Node *> Erased;
    while (!Ready.empty()) {
      Node *X = Ready.back();
      Ready.pop_back();
      llvm::SmallVector<Node *, 4> Producers;
      for (const Input &In : X->inputs())
        if (R.Dead.contains(In.Src))
          Producers.push_back(In.Src);
      G.eraseNode(X);
      Erased.insert(X);
      for (Node *P : Producers)
        if (!P->hasUses() && !Erased.contains(P) && !llvm::is_contained(Ready, P))
          Ready.push_back(P);
    }
    assert(Erased.size() == R.Dead.size() && "a dead node is still read");
    NumDead += Erased.size();

    // The Switch itself: erased, or an Identity for its control readers.
    ++NumSwitches;
    if (!S.hasUses()) {
      G.eraseNode(&S);
    } else {
      S.removeInput(1);
      S.setOp(S.op() == "RefSwitch" ? "RefIdentity" : "Identity");
      S.eraseAttr("_output_shapes");
    }
    return std::nullopt;
  }
};

} // namespace

std::unique_ptr<Pass> createBindPlaceholdersPass() {
  return std::make_unique<BindPlaceholdersPass>();
}

std::unique_ptr<Pass> createBindPlaceholdersPass(const BindPlaceholdersOptions &Options) {
  return makeNamedPass<BindPlaceholdersPass>(PassName::createBindPlaceholdersPass, Options);
}

} // namespace frost
