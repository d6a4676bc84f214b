//===- FoldConstants.cpp - Replace computations on constants by constants ---===//
//
// graph_transforms' fold_constants (TensorFlow's common_runtime constant
// folding), computed by Frost's evaluator (lib/Eval) instead of a session:
//
// - A node is foldable when it is a Const, or its op has a kernel in lib/Eval
//   and all its data inputs are foldable; never when its op or name is
//   excluded, or it is fed (`inputs`): nothing downstream of a fed tensor
//   folds. Shape, ShapeN and Size fold when their input's shape is fully
//   known, Rank when its rank is (Utils/ShapeInference: placeholders'
//   declared shapes carried through the graph), as TensorFlow's ShapeRefiner
//   lets them.
// - Each tensor flowing from a foldable node into one that is not becomes a
//   Const named as TensorFlow names it, `<producer>/_<k>__cf__<k>` (k counts
//   from 0 over the tensors sorted by name and port); its control inputs are
//   the non-foldable nodes the folded computation waited for (control inputs,
//   and the inputs of folded shape ops). A tensor larger than
//   `max-constant-size` bytes is left computed.
// - Folding has a budget (eval::EvalBudget): `eval-budget` work units for
//   the whole pass, each kernel call charged an estimate before it runs, and
//   `eval-max-bytes` for any one tensor, a constant's expanded value (a
//   splat) as much as a kernel's output. A graph over it fails the pass with
//   one error naming the node and the option; a splat nothing folds with is
//   never expanded.
// - Foldable nodes nothing reads any more are removed.
// - A fed PlaceholderWithDefault becomes a Placeholder, its default dropped,
//   as TensorFlow rewrites the inputs.
//
// Differences from TensorFlow, deliberate:
// - A foldable node named in `outputs`, or read by no node at all (a graph
//   output), becomes a Const of the same name in place; TensorFlow keeps the
//   whole computation of an output (issue #22028's complaint).
// - An op or dtype without a kernel, or a computation TensorFlow would refuse
//   (incompatible shapes, ...), leaves that node computed (counted, and the
//   errors shown as warnings) instead of failing the whole transform.
// - Nothing is pruned: run `prune` for TensorFlow's removal of what the
//   outputs do not need (transform-graph's fold_constants does both).
//
//===----------------------------------------------------------------------===//
#include "frost/Eval/Eval.h"
#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/TensorName.h"
#include "frost/Tensor/Shape.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"
#include "frost/Transforms/Utils/ShapeInference.h"

#include "frost/Support/File.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <climits>
#include <map>
#include <optional>

namespace frost {

namespace {

/// Warnings of one kind shown before the rest are only counted.
constexpr size_t MaxWarnings = 10;

/// What the fold knows about one node.
struct NodeState {
  bool Foldable = false;
  /// Its outputs, once evaluated (a Const's value; a shape op's shape).
  std::vector<TensorData> Values;
  /// The non-foldable nodes its computation waits for, in a stable order.
  llvm::SmallSetVector<Node *, 4> ControlDeps;
  /// Its outputs' static shapes, when it does not fold (or is Oversized).
  std::vector<PartialShape> Shapes;
  /// A Const whose value, expanded, would be over the budget's size: the
  /// bytes it would take (it is never expanded).
  std::optional<uint64_t> Oversized;
};


class FoldConstantsPass : public Pass {
public:
  FoldConstantsPass() = default;
  explicit FoldConstantsPass(const FoldConstantsOptions &O) {
    Inputs.setIfGiven(O.Inputs);
    Outputs.setIfGiven(O.Outputs);
    EvalBudget.setIfGiven(O.EvalBudget);
    EvalMaxBytes.setIfGiven(O.EvalMaxBytes);
  }

private:
  ListOption<std::string> ExcludeOps{*this, "exclude-op", "Ops never folded"};
  ListOption<std::string> ExcludeNodes{*this, "exclude-node", "Nodes never folded"};
  ListOption<std::string> Inputs{*this, "inputs",
                                 "Fed nodes (`name` or `name:k`): nothing downstream folds"};
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes that keep their names (folded in place)"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Option<int64_t> MaxConstantSize{*this, "max-constant-size",
                                  "Largest tensor, in bytes, made a constant", 10 * 1024 * 1024};
  Option<int64_t> EvalBudget{*this, "eval-budget",
                             "Work units (elements and multiply-adds) folding may spend",
                             static_cast<int64_t>(eval::EvalBudget::DefaultWork)};
  Option<int64_t> EvalMaxBytes{*this, "eval-max-bytes",
                               "Largest tensor, in bytes, folding may compute or expand",
                               static_cast<int64_t>(eval::EvalBudget::DefaultMaxTensorBytes)};
  Option<bool> ClearOutputShapes{*this, "clear-output-shapes",
                                 "Remove `_output_shapes` attributes first (they go stale); kept, they are "
                                 "a shape source", true};
  eval::EvalBudget Budget;
  Statistic NumFolded{*this, "nodes-folded", "Computed nodes replaced by constants"};
  Statistic NumConstants{*this, "constants-created", "Constants created"};
  Statistic NumUnimplemented{*this, "not-folded-unimplemented",
                             "Nodes on constants left computed: no kernel for the op or dtype"};
  Statistic NumFailed{*this, "not-folded-error",
                      "Nodes on constants left computed: TensorFlow would fail on them too"};
  Statistic NumTooLarge{*this, "not-folded-too-large",
                        "Tensors left computed: larger than max-constant-size"};

  absl::Status validateOptions() const override {
    if (*MaxConstantSize < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("max-constant-size=", *MaxConstantSize, ": must not be negative"));
    for (const Option<int64_t> *Limit : {&EvalBudget, &EvalMaxBytes})
      if (**Limit <= 0)
        return absl::InvalidArgumentError(
            absl::StrCat(Limit->name().str(), "=", **Limit, ": must be positive"));
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    if (*ClearOutputShapes)
      for (Node &N : G)
        N.eraseAttr("_output_shapes");
    FROST_RETURN_IF_ERROR(checkNamesExist(G));
    std::vector<NodeState> State(G.idBound());
    std::vector<bool> WasRead(G.idBound());
    for (Node &N : G)
      WasRead[N.id()] = N.hasUses();
    // First, so that nothing folds for a default that will not be computed.
    feedPlaceholdersWithDefault(G);
    Budget.WorkLeft = static_cast<uint64_t>(*EvalBudget);
    Budget.MaxTensorBytes = static_cast<uint64_t>(*EvalMaxBytes);
    for (Node *N : graphConstructionOrder(G)) {
      FROST_RETURN_IF_ERROR(evaluateIfFoldable(*N, State, Ctx));
      // A fed tensor has the shape it is fed with: a placeholder's declared
      // one, anything else's unknown.
      if (!State[N->id()].Foldable &&
          (!isListed(Inputs, N->name()) || N->op() == "Placeholder")) {
        inferShapes(*N, State);
        if (!*ClearOutputShapes)
          FROST_RETURN_IF_ERROR(refineWithOutputShapes(*N, State));
      }
    }
    FROST_RETURN_IF_ERROR(materialize(G, State));
    removeDeadFoldedNodes(G, State, WasRead);
    return absl::OkStatus();
  }

  /// Every name in `inputs`, `outputs` and `exclude-node` is a node.
  absl::Status checkNamesExist(const Graph &G) const {
    for (const ListOption<std::string> *List : {&Inputs, &Outputs, &ExcludeNodes})
      for (const std::string &Name : **List)
        FROST_RETURN_IF_ERROR(
            resolveTensorName(G, Name, absl::StrCat(List->name().str(), " entry")).status());
    return absl::OkStatus();
  }

  bool isListed(const ListOption<std::string> &List, llvm::StringRef Name) const {
    for (const std::string &Entry : *List)
      if (llvm::StringRef(Entry).split(':').first == Name)
        return true;
    return false;
  }

  /// The static shape of tensor (N, Port): its value's when it folds.
  static PartialShape shapeOf(const Node &N, int Port, const std::vector<NodeState> &State) {
    const NodeState &S = State[N.id()];
    if (S.Foldable && static_cast<size_t>(Port) < S.Values.size())
      return PartialShape(
          std::vector<int64_t>(S.Values[Port].shape().begin(), S.Values[Port].shape().end()));
    if (Port >= 0 && static_cast<size_t>(Port) < S.Shapes.size())
      return S.Shapes[Port];
    return PartialShape();
  }

  /// Infers the static shapes of a node that does not fold.
  static void inferShapes(const Node &N, std::vector<NodeState> &State) {
    State[N.id()].Shapes = inferOutputShapes(
        N, [&](const Node &Src, int Port) { return shapeOf(Src, Port, State); },
        [&](const Node &Src, int Port) -> const TensorData * {
          const NodeState &S = State[Src.id()];
          if (!S.Foldable || Port < 0 || static_cast<size_t>(Port) >= S.Values.size())
            return nullptr;
          return &S.Values[Port];
        });
  }

  /// Kept `_output_shapes` are a shape source, as TensorFlow's importer
  /// makes them: merged with what the shape rules infer, an error where they
  /// disagree.
  static absl::Status refineWithOutputShapes(const Node &N, std::vector<NodeState> &State) {
    const tensorflow::AttrValue *Recorded = N.findAttr("_output_shapes");
    if (!Recorded || !Recorded->has_list())
      return absl::OkStatus();
    std::vector<PartialShape> &Shapes = State[N.id()].Shapes;
    const auto &List = Recorded->list().shape();
    if (Shapes.size() < static_cast<size_t>(List.size()))
      Shapes.resize(List.size());
    for (int Port = 0; Port < List.size(); ++Port) {
      const PartialShape Given = partialShapeFromProto(List[Port]);
      std::optional<PartialShape> Merged = refineShape(Shapes[Port], Given);
      if (!Merged)
        return absl::InvalidArgumentError(absl::StrCat(
            "node '", N.name().str(), "' (", N.op().str(), "): its _output_shapes ",
            formatPartialShape(List[Port]), " for output ", Port,
            " disagree with the shape its inputs give (kept: clear-output-shapes is false)"));
      Shapes[Port] = std::move(*Merged);
    }
    return absl::OkStatus();
  }

  /// The outputs of shape op N (Shape, ShapeN, Size, Rank) from its inputs'
  /// static shapes, or nullopt when one is unknown.
  std::optional<std::vector<TensorData>> foldShapeOp(const Node &N,
                                                     const std::vector<NodeState> &State) const {
    tensorflow::DataType OutType = tensorflow::DT_INT32;
    if (const tensorflow::AttrValue *T = N.findAttr("out_type"))
      OutType = T->type();
    if (OutType != tensorflow::DT_INT32 && OutType != tensorflow::DT_INT64)
      return std::nullopt;
    auto Make = [&](std::vector<int64_t> Shape, llvm::ArrayRef<int64_t> Values) {
      std::string Bytes;
      for (int64_t V : Values) {
        if (OutType == tensorflow::DT_INT32) {
          int32_t V32 = static_cast<int32_t>(V);
          Bytes.append(reinterpret_cast<const char *>(&V32), sizeof V32);
        } else {
          Bytes.append(reinterpret_cast<const char *>(&V), sizeof V);
        }
      }
      return TensorData::owned(OutType, std::move(Shape), std::move(Bytes));
    };
    std::vector<TensorData> Out;
    for (const Input &In : N.dataInputs()) {
      PartialShape Static = shapeOf(*In.Src, In.Port, State);
      // Rank needs the rank only (MaybeReplaceRankOp), the others every
      // dimension.
      if (N.op() == "Rank" && Static.rankKnown()) {
        Out.push_back(Make({}, {Static.rank()}));
        continue;
      }
      if (!Static.fullyDefined())
        return std::nullopt;
      std::vector<int64_t> Shape(Static.dims().begin(), Static.dims().end());
      absl::StatusOr<int64_t> Count = numElements(Shape);
      // int32 results must hold every value, as TensorFlow checks.
      int64_t Largest = Count.ok() ? *Count : -1;
      for (int64_t D : Shape)
        Largest = std::max(Largest, D);
      if (!Count.ok() || (OutType == tensorflow::DT_INT32 && Largest > INT32_MAX))
        return std::nullopt;
      if (N.op() == "Size")
        Out.push_back(Make({}, {*Count}));
      else
        Out.push_back(Make({static_cast<int64_t>(Shape.size())}, Shape));
    }
    if (N.op() == "Rank" || N.op() == "Size" || N.op() == "Shape")
      if (Out.size() != 1)
        return std::nullopt;
    return Out;
  }

  static std::string paramName(llvm::StringRef Option) {
    std::string Name = Option.str();
    std::replace(Name.begin(), Name.end(), '-', '_');
    return Name;
  }

  /// The budget's error for node N: names it and the option that raises
  /// `Limit` (memory that ran out is no option's).
  absl::Status overBudget(const Node &N, const absl::Status &Status,
                          eval::EvalBudget::Limit Limit) const {
    std::string Message =
        absl::StrCat("node '", N.name().str(), "' (", N.op().str(), "): ", Status.message());
    if (Limit == eval::EvalBudget::Limit::Work || Limit == eval::EvalBudget::Limit::TensorBytes) {
      llvm::StringRef Option =
          Limit == eval::EvalBudget::Limit::Work ? EvalBudget.name() : EvalMaxBytes.name();
      absl::StrAppend(&Message, "; raise it with ", Option.str(),
                      "=N (transform-graph: fold_constants(", paramName(Option), "=N))");
    }
    return absl::ResourceExhaustedError(Message);
  }

  /// Decides whether N folds and, if so, computes its outputs; an error only
  /// when the budget is spent.
  absl::Status evaluateIfFoldable(Node &N, std::vector<NodeState> &State, PassContext &Ctx) {
    NodeState &S = State[N.id()];
    if (isListed(ExcludeNodes, N.name()) || isListed(Inputs, N.name()) ||
        llvm::is_contained(*ExcludeOps, N.op()))
      return absl::OkStatus();
    if (N.op() == "Const") {
      // A splat is expanded only when something folds with it; its shape
      // is known without expanding it (a Shape of it folds).
      if (std::optional<uint64_t> Bytes = decodedValueBytes(N); Bytes && *Bytes > Budget.MaxTensorBytes) {
        S.Oversized = *Bytes;
        S.Shapes = {partialShapeFromProto(N.findAttr("value")->tensor().tensor_shape())};
        S.Foldable = true;
        return absl::OkStatus();
      }
      absl::StatusOr<TensorData> V = constValue(N);
      if (!V.ok() || V->dtype() == tensorflow::DT_RESOURCE)
        return absl::OkStatus();
      S.Values = {*std::move(V)};
    } else if (N.op() == "Shape" || N.op() == "ShapeN" || N.op() == "Size" || N.op() == "Rank") {
      std::optional<std::vector<TensorData>> Values = foldShapeOp(N, State);
      if (!Values)
        return absl::OkStatus();
      S.Values = std::move(*Values);
      // The fed value's producer still runs first, as TensorFlow keeps it.
      for (const Input &In : N.dataInputs())
        if (!State[In.Src->id()].Foldable)
          S.ControlDeps.insert(In.Src);
    } else {
      if (N.numDataInputs() == 0)
        return absl::OkStatus();
      std::vector<TensorData> Args;
      const Node *Oversized = nullptr;
      for (const Input &In : N.dataInputs()) {
        const NodeState &From = State[In.Src->id()];
        if (From.Foldable && From.Oversized)
          Oversized = Oversized ? Oversized : In.Src;
        else if (!From.Foldable || static_cast<size_t>(In.Port) >= From.Values.size())
          return absl::OkStatus();
        else
          Args.push_back(From.Values[In.Port]);
      }
      if (!eval::hasKernel(N.op())) {
        ++NumUnimplemented;
        return absl::OkStatus();
      }
      if (Oversized)
        return overBudget(
            N, absl::ResourceExhaustedError(absl::StrCat(
                   "its input '", Oversized->name().str(), "' would take ",
                   formatBytes(*State[Oversized->id()].Oversized), " expanded, over the limit of ",
                   formatBytes(Budget.MaxTensorBytes), " per tensor")),
            eval::EvalBudget::Limit::TensorBytes);
      absl::StatusOr<std::vector<TensorData>> Out =
          eval::evaluate(N.op(), Args, N.attrs(), eval::Exactness::Bitwise, &Budget);
      if (absl::IsResourceExhausted(Out.status()))
        return overBudget(N, Out.status(), Budget.Exceeded);
      if (!Out.ok()) {
        noteFailure(N, Out.status(), Ctx);
        return absl::OkStatus();
      }
      S.Values = *std::move(Out);
      for (const Input &In : N.dataInputs())
        S.ControlDeps.insert(State[In.Src->id()].ControlDeps.begin(),
                             State[In.Src->id()].ControlDeps.end());
    }
    for (const Input &In : N.controlInputs()) {
      const NodeState &From = State[In.Src->id()];
      if (From.Foldable)
        S.ControlDeps.insert(From.ControlDeps.begin(), From.ControlDeps.end());
      else
        S.ControlDeps.insert(In.Src);
    }
    S.Foldable = true;
    return absl::OkStatus();
  }

  void noteFailure(const Node &N, const absl::Status &Status, PassContext &Ctx) {
    if (absl::IsUnimplemented(Status)) {
      ++NumUnimplemented;
      return;
    }
    if (++NumFailed; NumFailed.value() <= MaxWarnings)
      Ctx.warning(name(), absl::StrCat("node '", N.name().str(), "' (", N.op().str(),
                                       ") left computed: ", Status.message()));
  }

  /// A foldable node kept under its own name: an output, or read by nothing.
  bool foldsInPlace(const Node &N) const {
    return isListed(Outputs, N.name()) || !N.hasUses();
  }

  /// Whether tensor (N, Port) is read by a node that does not fold.
  static bool readByNonFoldable(const Node &N, int Port, const std::vector<NodeState> &State) {
    for (const Use &U : N.uses()) {
      const Input &In = U.User->input(U.InputIndex);
      if (!In.isControl() && In.Port == Port && !State[U.User->id()].Foldable)
        return true;
    }
    return false;
  }

  bool fits(const TensorData &T) const {
    uint64_t Bytes = T.isFixedSize() ? T.bytes().size() : 0;
    for (const std::string &E : T.elements())
      Bytes += E.size();
    return Bytes <= static_cast<uint64_t>(*MaxConstantSize);
  }

  /// Makes C a Const holding V after the non-foldable nodes in Deps.
  absl::Status makeConst(Node &C, const TensorData &V,
                         const llvm::SmallSetVector<Node *, 4> &Deps) {
    C.removeInputsIf([](const Input &) { return true; });
    std::vector<std::string> Names;
    for (const auto &Entry : C.attrs())
      Names.push_back(Entry.first);
    for (const std::string &Attr : Names)
      C.eraseAttr(Attr);
    C.attr("dtype").set_type(V.dtype());
    FROST_RETURN_IF_ERROR(setValueAttr(C, V));
    for (Node *D : Deps)
      C.addControlInput(D);
    return absl::OkStatus();
  }

  absl::Status materialize(Graph &G, std::vector<NodeState> &State) {
    // The tensors that leave the folded part, by producer name and port.
    std::map<std::pair<std::string, int>, Node *> Frontier;
    std::vector<Node *> InPlace;
    for (Node &N : G) {
      const NodeState &S = State[N.id()];
      if (!S.Foldable || N.op() == "Const")
        continue;
      if (foldsInPlace(N) && S.Values.size() == 1) {
        InPlace.push_back(&N);
        continue;
      }
      for (int Port = 0; Port < static_cast<int>(S.Values.size()); ++Port)
        if (readByNonFoldable(N, Port, State))
          Frontier[{N.name().str(), Port}] = &N;
    }
    unsigned Counter = 0;
    for (const auto &[Key, N] : Frontier) {
      const TensorData &V = State[N->id()].Values[Key.second];
      if (!fits(V)) {
        ++NumTooLarge;
        continue;
      }
      std::string Name = absl::StrCat(Key.first, "/_", Counter, "__cf__", Counter);
      ++Counter;
      if (G.findNode(Name))
        Name = G.uniqueName(Name);
      Node *C = G.createNode(Name, "Const");
      FROST_RETURN_IF_ERROR(makeConst(*C, V, State[N->id()].ControlDeps));
      // Non-foldable readers read the constant; foldable ones go away.
      std::vector<std::pair<Node *, unsigned>> Readers;
      for (const Use &U : N->uses()) {
        const Input &In = U.User->input(U.InputIndex);
        if (!In.isControl() && In.Port == Key.second && !State[U.User->id()].Foldable)
          Readers.push_back({U.User, U.InputIndex});
      }
      for (auto [User, Index] : Readers)
        User->setInput(Index, C, 0);
      ++NumConstants;
    }
    for (Node *N : InPlace) {
      const TensorData &V = State[N->id()].Values[0];
      if (!fits(V)) {
        ++NumTooLarge;
        continue;
      }
      llvm::SmallSetVector<Node *, 4> Deps = State[N->id()].ControlDeps;
      N->setOp("Const");
      FROST_RETURN_IF_ERROR(makeConst(*N, V, Deps));
      ++NumFolded;
    }
    return absl::OkStatus();
  }

  /// A fed PlaceholderWithDefault becomes a Placeholder: its default is no
  /// longer computed (TensorFlow's RewriteInputsAsPlaceholders).
  void feedPlaceholdersWithDefault(Graph &G) const {
    for (Node &N : G)
      if (N.op() == "PlaceholderWithDefault" && isListed(Inputs, N.name())) {
        N.setOp("Placeholder");
        N.removeInputsIf([](const Input &) { return true; });
      }
  }

  /// Removes the foldable nodes the fold left unread (they were read before),
  /// readers before what they read.
  void removeDeadFoldedNodes(Graph &G, const std::vector<NodeState> &State,
                             const std::vector<bool> &WasRead) {
    std::vector<Node *> Order = graphConstructionOrder(G);
    for (auto It = Order.rbegin(); It != Order.rend(); ++It) {
      Node *N = *It;
      if (N->id() >= State.size() || !State[N->id()].Foldable || !WasRead[N->id()] ||
          N->hasUses() || isListed(Outputs, N->name()))
        continue;
      if (N->op() != "Const")
        ++NumFolded;
      G.eraseNode(N);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createFoldConstantsPass() { return std::make_unique<FoldConstantsPass>(); }

std::unique_ptr<Pass> createFoldConstantsPass(const FoldConstantsOptions &Options) {
  return makeNamedPass<FoldConstantsPass>(PassName::createFoldConstantsPass, Options);
}

} // namespace frost
