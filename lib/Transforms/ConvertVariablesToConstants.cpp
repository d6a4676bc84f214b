//===- ConvertVariablesToConstants.cpp - Freeze variables from a checkpoint ===//
//
// What TensorFlow's graph_util.convert_variables_to_constants does, without a
// Session: every VariableV2 / Variable / VarHandleOp becomes a Const holding
// its value from the checkpoint, and the ops that read it are rewritten:
//   ReadVariableOp   -> Identity (T = its dtype), keeps `_class`
//   ResourceGather   -> GatherV2(params, indices, new Const `<name>/axis`)
//   ResourceGatherNd -> GatherNd
//   VarIsInitializedOp, IsVariableInitialized
//                    -> Const true (TensorFlow leaves them, and its graph
//                       does not import)
//   Identity, Enter, Exit, Switch, _SwitchN, NextIteration on the path:
//                       T retyped to the value dtype, `_output_shapes` dropped
//   If, Case, While, (Stateful)PartitionedCall: Tin / T retyped, the called
//                       functions retyped and renamed (Utils/FunctionRetyper)
// The Const's TensorProto is what TensorFlow's make_tensor_proto writes for the
// value (tensor_content for more than one element of most numeric dtypes, the
// typed *_val field otherwise); tensor_content stays in the mapped checkpoint
// until the graph is written.
//
// A variable's checkpoint key: the model's VariableSources entry (set by
// rename-variables, ema-remap), else the key the graph's own Saver restores it
// from, else its name. Every variable that cannot be frozen (missing key,
// other dtype or shape, unreadable data) is reported at once.
//
// Where Frost deliberately differs from TensorFlow 2.21 (tested against it in
// test/Transforms/freeze-vs-tensorflow.test):
//  - TF 0.x `Variable` nodes are converted (TensorFlow reads them, then leaves
//    the node a Variable); scalar string variables too (TensorFlow fails).
//  - ResourceGather with batch_dims = b != 0 becomes GatherV2(axis = b,
//    batch_dims = b) (TensorFlow refuses).
//  - A While's `_output_shapes` is updated with its `output_shapes` (TensorFlow
//    leaves it, and its frozen graph does not import).
//  - A Merge of resource handles is retyped (TensorFlow leaves it broken);
//    a variable reaching input 1 of Switch (the predicate) is left alone
//    (TensorFlow raises).
//  - A function still called elsewhere with a real resource keeps its
//    original beside the converted copy (TensorFlow renames it away).
//  - Converted functions are numbered from 1, not by TensorFlow's global uid.
//  - Control inputs of rewritten readers are dropped, as TensorFlow does; but
//    TensorFlow prunes first, so nodes reachable only through them stay in its
//    result while prune after this pass removes them.
//
//===----------------------------------------------------------------------===//
#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/IR/Model.h"
#include "frost/IR/TensorName.h"
#include "frost/Support/Suggest.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"
#include "frost/Transforms/Utils/FunctionRetyper.h"
#include "frost/Transforms/Variables.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>
#include <set>

namespace frost {

/// Warnings of one kind shown before the rest are counted.
static constexpr size_t MaxWarnings = 10;

namespace {

using tensorflow::DataType;

//===----------------------------------------------------------------------===//
// The Const's value and the slices of partitioned variables
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Whether a value of shape `Value` fits the declared shape of a variable
/// (unknown rank and unknown dimensions fit anything).
bool shapeFits(const tensorflow::TensorShapeProto &Declared, llvm::ArrayRef<int64_t> Value) {
  if (Declared.unknown_rank())
    return true;
  if (static_cast<size_t>(Declared.dim_size()) != Value.size())
    return false;
  for (size_t D = 0; D < Value.size(); ++D)
    if (Declared.dim(D).size() >= 0 && Declared.dim(D).size() != Value[D])
      return false;
  return true;
}

/// One variable to freeze and where its value comes from.
struct Plan {
  Node *Var;
  DataType DType;
  std::string Key;
  SliceSpec Slice;
  std::string Origin; // "rename-variables", "save/RestoreV2", "its name", ...
  TensorData Value;
};

class ConvertVariablesToConstantsPass : public Pass {
public:
  ConvertVariablesToConstantsPass() = default;
  explicit ConvertVariablesToConstantsPass(const ConvertVariablesToConstantsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
    Checkpoint.setIfGiven(O.Checkpoint);
    Only.setIfGiven(O.Only);
    Except.setIfGiven(O.Except);
  }

private:
  Option<std::string> Checkpoint{
      *this, "checkpoint",
      "Checkpoint to read: a prefix, one of its files, or a directory (its latest)"};
  ListOption<std::string> Outputs{
      *this, "outputs",
      "Convert only the variables these nodes need (data, control and colocation inputs); "
      "default: every variable"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  ListOption<std::string> Only{*this, "only",
                               "Convert only these variables (node names; "
                               "freeze_graph's variable_names_whitelist)"};
  ListOption<std::string> Except{*this, "except",
                                 "Leave these variables alone (node names; "
                                 "freeze_graph's variable_names_blacklist)"};
  Statistic NumConverted{*this, "variables-converted", "Variables turned into constants"};
  Statistic NumBytes{*this, "bytes-frozen", "Bytes of constant values taken from the checkpoint"};
  Statistic NumRewritten{*this, "readers-rewritten",
                         "Reading nodes rewritten (ReadVariableOp, ResourceGather, ...)"};
  Statistic NumRetyped{*this, "nodes-retyped", "Nodes on a variable's path given the value dtype"};
  Statistic NumFunctions{*this, "functions-converted",
                         "Library functions retyped for a constant argument (and renamed)"};

  absl::Status run(Model &M, PassContext &Ctx) override;

  /// `Left`: the variables the outputs need that only/except leave alone.
  std::vector<Node *> variablesToConvert(Model &M, PassContext &Ctx, absl::Status &Error,
                                         std::vector<Node *> &Left);
  RestoreSource chooseSource(const Model &M, const SaverMapping &Saver, const Node &Var,
                             const CheckpointReader &Reader) const;
  void recordLeftVariables(Model &M, llvm::ArrayRef<Node *> Left,
                           const CheckpointReader &Reader) const;
  absl::Status planSources(Model &M, const CheckpointReader &Reader, std::vector<Plan> &Plans,
                           PassContext &Ctx);
  absl::Status rewrite(Graph &G, Plan &P);
  void convertUse(Graph &G, Node &User, unsigned InputIndex, DataType DT,
                  llvm::ArrayRef<int64_t> Shape);
  void propagate(Graph &G, Node &Producer, DataType DT, llvm::ArrayRef<int64_t> Shape);
  void rewriteResourceGather(Graph &G, Node &N);

  /// Made afresh by each run, for that model's library.
  std::unique_ptr<FunctionRetyper> Functions;
};

/// Variables of the graph the options select, in graph order.
std::vector<Node *> ConvertVariablesToConstantsPass::variablesToConvert(
    Model &M, PassContext &Ctx, absl::Status &Error, std::vector<Node *> &Left) {
  Graph &G = M.graph();
  std::vector<bool> Reached(G.idBound(), true);
  if (!Outputs.empty()) {
    // Like prune: data, control and colocation inputs.
    absl::StatusOr<const std::vector<bool> *> Needed =
        Ctx.analyses().nodesNeededBy(G, *Outputs);
    if (!Needed.ok()) {
      Error = Needed.status();
      return {};
    }
    Reached = **Needed;
  }

  std::vector<llvm::StringRef> VariableNames;
  for (Node &N : G)
    if (isVariableOp(N.op()))
      VariableNames.push_back(N.name());
  // Filters naming no variable are most likely typos: say so (ten times at
  // most, then how many more).
  std::vector<std::string> Typos;
  for (const ListOption<std::string> *Filter : {&Only, &Except})
    for (const std::string &Name : *Filter) {
      Node *N = G.findNode(Name);
      if (N && isVariableOp(N->op()))
        continue;
      if (Typos.size() >= MaxWarnings) {
        Typos.emplace_back();
        continue;
      }
      std::string Why = N ? absl::StrCat("'", Name, "' is not a variable (op ", N->op().str(), ")")
                          : absl::StrCat("no variable named '", Name, "'");
      std::vector<std::string> Close = closestNames(Name, VariableNames);
      Typos.push_back(absl::StrCat(
          Filter->name().str(), ": ", Why,
          Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?")));
    }
  for (size_t I = 0; I < Typos.size() && I < MaxWarnings; ++I)
    Ctx.warning(name(), Typos[I]);
  if (Typos.size() > MaxWarnings)
    Ctx.warning(name(), absl::StrCat("(and ", Typos.size() - MaxWarnings,
                                     " more names in only/except that are no variable)"));
  std::set<std::string, std::less<>> OnlySet(Only.begin(), Only.end());
  std::set<std::string, std::less<>> ExceptSet(Except.begin(), Except.end());

  std::vector<Node *> Out;
  for (Node &N : G) {
    if (!isVariableOp(N.op()) || !Reached[N.id()])
      continue;
    if ((Only.isSet() && !OnlySet.count(N.name())) || ExceptSet.count(N.name()))
      Left.push_back(&N);
    else
      Out.push_back(&N);
  }
  return Out;
}

/// The key (and slice) `Var` would be read from: a pass's choice (rename,
/// EMA), else the graph's Saver, else its name (or shared_name).
RestoreSource ConvertVariablesToConstantsPass::chooseSource(const Model &M,
                                                            const SaverMapping &Saver,
                                                            const Node &Var,
                                                            const CheckpointReader &Reader) const {
  RestoreSource Default;
  if (auto It = Saver.ByVariable.find(Var.name()); It != Saver.ByVariable.end()) {
    Default = It->second;
  } else {
    Default = {Var.name().str(), "", "its name"};
    const tensorflow::AttrValue *Shared = Var.findAttr("shared_name");
    if (!Reader.contains(Default.Key) && Shared && !Shared->s().empty() &&
        Reader.contains(Shared->s()))
      Default = {Shared->s(), "", "its shared_name"};
  }
  if (auto It = M.variableSources().find(Var.name()); It != M.variableSources().end()) {
    const VariableSource &S = It->second;
    if (!S.IfPresent || Reader.contains(S.Key))
      return {S.Key, S.Slice, S.Origin};
  }
  return Default;
}

/// Records where the variables left unfrozen keep their values, for reports
/// (their users restore them from the checkpoint when loading the graph).
void ConvertVariablesToConstantsPass::recordLeftVariables(Model &M, llvm::ArrayRef<Node *> Left,
                                                          const CheckpointReader &Reader) const {
  SaverMapping Saver = findSaverMapping(M);
  for (Node *Var : Left) {
    RestoreSource S = chooseSource(M, Saver, *Var, Reader);
    M.variableSources()[Var->name().str()] = {S.Key, S.Slice, S.Via, false};
  }
}

/// Chooses each variable's key and slice, checks them against the checkpoint
/// and reads the values. Every problem is reported at once.
absl::Status ConvertVariablesToConstantsPass::planSources(Model &M,
                                                          const CheckpointReader &Reader,
                                                          std::vector<Plan> &Plans,
                                                          PassContext &Ctx) {
  SaverMapping Saver = findSaverMapping(M);
  for (const std::string &W : Saver.Warnings)
    Ctx.warning(name(), W);

  // Each variable's source, chosen once. A missing key's likely intent is a
  // key no other variable reads.
  std::vector<RestoreSource> Sources;
  std::set<std::string, std::less<>> Used;
  for (const Plan &P : Plans) {
    Sources.push_back(chooseSource(M, Saver, *P.Var, Reader));
    Used.insert(Sources.back().Key);
  }
  std::vector<llvm::StringRef> Unused;
  for (const VariableInfo &Info : Reader.variables())
    if (!Used.count(Info.Name))
      Unused.push_back(Info.Name);

  std::vector<std::string> Problems;
  size_t NumMissing = 0;
  // Full tensors of partitioned variables, read once for all their parts.
  std::map<std::string, TensorData, std::less<>> FullValues;

  for (size_t I = 0; I < Plans.size(); ++I) {
    Plan &P = Plans[I];
    Node &Var = *P.Var;
    std::string What = absl::StrCat("variable '", Var.name().str(), "'");
    const RestoreSource &Chosen = Sources[I];
    P.Key = Chosen.Key;
    P.Origin = Chosen.Via;
    std::string KeyText = absl::StrCat("key '", P.Key, "' (from ", P.Origin, ")");

    absl::StatusOr<SliceSpec> Spec = parseSliceSpec(Chosen.Slice);
    if (!Spec.ok()) {
      Problems.push_back(absl::StrCat(What, ": ", KeyText, ": ", Spec.status().message()));
      continue;
    }
    P.Slice = *Spec;

    const VariableInfo *Info = Reader.find(P.Key);
    if (!Info) {
      ++NumMissing;
      // A variable given another key (rename, EMA) is not after its own.
      std::vector<llvm::StringRef> Candidates;
      for (llvm::StringRef Key : Unused)
        if (Key != Var.name() || P.Key == Var.name())
          Candidates.push_back(Key);
      std::vector<std::string> Close = closestNames(P.Key, Candidates);
      std::string Hint =
          !Close.empty() ? absl::StrCat("; did you mean ", quotedAlternatives(Close), "?")
          : P.Origin == "rename-variables" && !Candidates.empty() && Candidates.size() <= 3
              ? absl::StrCat("; keys no variable reads: ",
                             quotedAlternatives({Candidates.begin(), Candidates.end()}))
              : "";
      Problems.push_back(absl::StrCat(
          What, ": ", KeyText, " is not in the checkpoint", Hint,
          " (TensorFlow: Attempting to use uninitialized value ", Var.name().str(), ")"));
      continue;
    }
    std::vector<int64_t> ValueShape = Info->Shape;
    if (!P.Slice.isWhole()) {
      if (P.Slice.FullShape != Info->Shape) {
        Problems.push_back(absl::StrCat(What, ": ", KeyText, " has shape ",
                                        formatShape(Info->Shape), " but the slice spec '",
                                        Chosen.Slice, "' expects ",
                                        formatShape(P.Slice.FullShape)));
        continue;
      }
      for (size_t D = 0; D < ValueShape.size(); ++D)
        if (!P.Slice.Extents[D].isFull())
          ValueShape[D] = P.Slice.Extents[D].Length;
    }
    const tensorflow::AttrValue *ShapeAttr = Var.findAttr("shape");
    bool DTypeOk = Info->DType == P.DType;
    bool ShapeOk = !ShapeAttr || !ShapeAttr->has_shape() ||
                   shapeFits(ShapeAttr->shape(), ValueShape);
    if (!DTypeOk || !ShapeOk) {
      Problems.push_back(absl::StrCat(
          What, " (", Var.op().str(), ") is ", dataTypeName(P.DType), " ",
          ShapeAttr && ShapeAttr->has_shape() ? formatPartialShape(ShapeAttr->shape()) : "",
          " but ", KeyText, " holds ", dataTypeName(Info->DType), " ",
          formatShape(ValueShape),
          P.Slice.isWhole() ? "" : absl::StrCat(" (slice '", Chosen.Slice, "')")));
      continue;
    }

    // Read (a partitioned variable's full tensor once for all its parts).
    absl::StatusOr<TensorData> Value = absl::UnknownError("");
    if (P.Slice.isWhole()) {
      Value = Reader.read(P.Key);
    } else {
      auto It = FullValues.find(P.Key);
      if (It == FullValues.end()) {
        absl::StatusOr<TensorData> Full = Reader.read(P.Key);
        if (Full.ok())
          It = FullValues.emplace(P.Key, *std::move(Full)).first;
        else
          Value = Full.status();
      }
      if (It != FullValues.end())
        Value = cutSlice(It->second, P.Slice);
    }
    if (!Value.ok()) {
      Problems.push_back(absl::StrCat(What, ": ", KeyText, ": ", Value.status().message()));
      continue;
    }
    P.Value = *std::move(Value);
  }

  // ema-remap's guessed keys ("v/ExponentialMovingAverage" if the checkpoint
  // has it): none there means no variable was averaged, which the user asked for.
  std::vector<std::string> Guessed;
  bool AnyFound = false;
  for (const Plan &P : Plans)
    if (auto It = M.variableSources().find(P.Var->name());
        It != M.variableSources().end() && It->second.IfPresent) {
      Guessed.push_back(It->second.Key);
      AnyFound |= Reader.contains(It->second.Key);
    }
  if (!Guessed.empty() && !AnyFound)
    Ctx.warning(name(), absl::StrCat("the checkpoint has no moving average (no '", Guessed.front(),
                                     "'", Guessed.size() > 1 ? " or the like" : "",
                                     "): every variable is frozen with its own value"));

  if (Problems.empty())
    return absl::OkStatus();
  std::string Message = absl::StrCat(Problems.size(), " of ", Plans.size(),
                                     " variables cannot be frozen from checkpoint '",
                                     Reader.prefix(), "': ", listFindings(Problems));
  return NumMissing == Problems.size() ? absl::NotFoundError(Message)
                                       : absl::InvalidArgumentError(Message);
}

/// Drops everything but name and op from `N`: attributes, inputs, device and
/// extra fields, as TensorFlow's NodeDef.Clear() before it rebuilds a node.
void clearNode(Node &N) {
  std::vector<std::string> Keys;
  for (const auto &Entry : N.attrs())
    Keys.push_back(Entry.first);
  for (const std::string &K : Keys)
    N.eraseAttr(K);
  N.removeInputsIf([](const Input &) { return true; });
  N.setDevice("");
  if (N.extraFields())
    N.mutableExtraFields().Clear();
}

/// Keeps only the first `NumData` data inputs (no control inputs), the
/// attributes named in `Keep`, and clears device and extra fields.
void trimNode(Node &N, unsigned NumData, std::initializer_list<const char *> Keep) {
  AttrMap Kept;
  for (const char *K : Keep)
    if (const tensorflow::AttrValue *V = N.findAttr(K))
      Kept[K] = *V;
  unsigned Index = 0;
  N.removeInputsIf([&](const Input &In) { return In.isControl() || Index++ >= NumData; });
  std::vector<std::string> Keys;
  for (const auto &Entry : N.attrs())
    Keys.push_back(Entry.first);
  for (const std::string &K : Keys)
    N.eraseAttr(K);
  N.mutableAttrs() = std::move(Kept);
  N.setDevice("");
  if (N.extraFields())
    N.mutableExtraFields().Clear();
}

void ConvertVariablesToConstantsPass::rewriteResourceGather(Graph &G, Node &N) {
  // GatherV2(params, indices, axis) with axis = batch_dims, a new Const of the
  // indices' dtype appended to the graph. TensorFlow refuses batch_dims != 0;
  // GatherV2 with axis = batch_dims = b computes the same as ResourceGather.
  int64_t BatchDims = 0;
  if (const tensorflow::AttrValue *V = N.findAttr("batch_dims"))
    BatchDims = V->i();
  tensorflow::AttrValue Indices;
  if (const tensorflow::AttrValue *V = N.findAttr("Tindices"))
    Indices = *V;
  else
    Indices.set_type(tensorflow::DT_INT32);
  tensorflow::AttrValue Params;
  if (const tensorflow::AttrValue *V = N.findAttr("dtype"))
    Params = *V;
  std::string AxisName = absl::StrCat(N.name().str(), "/axis");
  Node *Axis = G.findNode(AxisName);
  if (!Axis || Axis->op() != "Const" || Axis->hasUses())
    Axis = G.createNode(Axis ? G.uniqueName(AxisName) : AxisName, "Const");
  Axis->attr("dtype") = Indices;
  tensorflow::TensorProto &Value = *Axis->attr("value").mutable_tensor();
  Value.set_dtype(Indices.type());
  Value.mutable_tensor_shape();
  if (Indices.type() == tensorflow::DT_INT64)
    Value.add_int64_val(BatchDims);
  else
    Value.add_int_val(static_cast<int32_t>(BatchDims));

  trimNode(N, 2, {"_class"});
  N.setOp("GatherV2");
  N.addDataInput(Axis, 0);
  N.attr("Tparams") = Params;
  N.attr("Tindices") = Indices;
  N.attr("Taxis") = Indices;
  if (BatchDims != 0)
    N.attr("batch_dims").set_i(BatchDims);
}

/// What happens to `User`, which reads a converted variable (or a node
/// retyped for it) through input `InputIndex`; TensorFlow's
/// convert_to_constants _Node subclasses.
void ConvertVariablesToConstantsPass::convertUse(Graph &G, Node &User, unsigned InputIndex,
                                                 DataType DT, llvm::ArrayRef<int64_t> Shape) {
  llvm::StringRef Op = User.op();
  if (Op == "ReadVariableOp") {
    tensorflow::AttrValue T;
    if (const tensorflow::AttrValue *V = User.findAttr("dtype"))
      T = *V;
    trimNode(User, 1, {"_class"});
    User.setOp("Identity");
    User.attr("T") = T;
    ++NumRewritten;
    return;
  }
  if (Op == "ResourceGather") {
    rewriteResourceGather(G, User);
    ++NumRewritten;
    return;
  }
  if (Op == "ResourceGatherNd") {
    tensorflow::AttrValue Params, Indices;
    if (const tensorflow::AttrValue *V = User.findAttr("dtype"))
      Params = *V;
    if (const tensorflow::AttrValue *V = User.findAttr("Tindices"))
      Indices = *V;
    trimNode(User, 2, {"_class"});
    User.setOp("GatherNd");
    User.attr("Tparams") = Params;
    User.attr("Tindices") = Indices;
    ++NumRewritten;
    return;
  }
  if (Op == "VarIsInitializedOp" || Op == "IsVariableInitialized") {
    // A frozen variable is initialized.
    clearNode(User);
    User.setOp("Const");
    User.attr("dtype").set_type(tensorflow::DT_BOOL);
    tensorflow::TensorProto &Value = *User.attr("value").mutable_tensor();
    Value.set_dtype(tensorflow::DT_BOOL);
    Value.mutable_tensor_shape();
    Value.add_bool_val(true);
    ++NumRewritten;
    return;
  }
  if (isIntermediate(Op)) {
    // T types input 0 only (Switch's predicate, input 1, is a bool).
    if (InputIndex != 0)
      return;
    User.attr("T").set_type(DT);
    User.eraseAttr("_output_shapes");
    ++NumRetyped;
    propagate(G, User, DT, Shape);
    return;
  }
  if (Op == "Merge") {
    // TensorFlow leaves Merge alone: its T is already the value dtype for ref
    // variables. A Merge of resource handles would be left broken; retype it.
    const tensorflow::AttrValue *T = User.findAttr("T");
    if (!T || T->type() != tensorflow::DT_RESOURCE)
      return;
    User.attr("T").set_type(DT);
    User.eraseAttr("_output_shapes");
    ++NumRetyped;
    propagate(G, User, DT, Shape);
    return;
  }
  if (std::optional<CallerKind> Kind = callerKind(Op)) {
    // Not followed to the caller's outputs (what a function returns is its
    // business), as in TensorFlow.
    Functions->convertCaller(*Kind, User.mutableAttrs(), InputIndex, DT, Shape);
    ++NumRetyped;
    return;
  }
  // Any other op keeps reading the constant as it read the variable.
}

void ConvertVariablesToConstantsPass::propagate(Graph &G, Node &Producer, DataType DT,
                                                llvm::ArrayRef<int64_t> Shape) {
  // Uses change while users are rewritten: take a snapshot, in graph order
  // (ids follow it) as TensorFlow visits them; it decides where new nodes
  // (ResourceGather's axis) go.
  std::vector<std::pair<Node *, unsigned>> Users;
  for (const Use &U : Producer.uses())
    if (!U.User->input(U.InputIndex).isControl())
      Users.push_back({U.User, U.InputIndex});
  std::sort(Users.begin(), Users.end(), [](const auto &A, const auto &B) {
    return std::make_pair(A.first->id(), A.second) < std::make_pair(B.first->id(), B.second);
  });
  for (auto [User, Index] : Users)
    convertUse(G, *User, Index, DT, Shape);
}

absl::Status ConvertVariablesToConstantsPass::rewrite(Graph &G, Plan &P) {
  Node &Var = *P.Var;
  clearNode(Var);
  Var.setOp("Const");
  Var.attr("dtype").set_type(P.DType);
  absl::Status S = setValueAttr(Var, P.Value);
  if (!S.ok())
    return absl::Status(S.code(), absl::StrCat("variable '", Var.name().str(), "': key '",
                                               P.Key, "': ", S.message()));
  ++NumConverted;
  NumBytes += P.Value.isFixedSize() ? P.Value.bytes().size() : 0;
  propagate(G, Var, P.DType, P.Value.shape());
  return absl::OkStatus();
}

absl::Status ConvertVariablesToConstantsPass::run(Model &M, PassContext &Ctx) {
  Graph &G = M.graph();
  bool AnyVariable = llvm::any_of(G, [](const Node &N) { return isVariableOp(N.op()); });
  if (!AnyVariable) {
    Ctx.note(name(), "graph is already frozen: it has no variables");
    return absl::OkStatus();
  }
  absl::Status Error;
  std::vector<Node *> Left;
  std::vector<Node *> Vars = variablesToConvert(M, Ctx, Error, Left);
  FROST_RETURN_IF_ERROR(Error);
  if (Vars.empty()) {
    Ctx.note(name(), Outputs.empty() ? "no variable is selected; nothing to convert"
                                     : "the outputs need no variable; nothing to convert");
    if (!Left.empty() && !Checkpoint->empty())
      if (absl::StatusOr<const CheckpointReader *> Reader =
              Ctx.analyses().checkpoint(*Checkpoint);
          Reader.ok())
        recordLeftVariables(M, Left, **Reader);
    return absl::OkStatus();
  }

  std::vector<Plan> Plans;
  std::vector<std::string> BadDType;
  for (Node *V : Vars) {
    DataType DT = variableDType(*V);
    if (DT == tensorflow::DT_INVALID)
      BadDType.push_back(absl::StrCat("variable '", V->name().str(), "' (", V->op().str(),
                                      ") has no dtype attribute"));
    Plans.push_back({V, DT, "", {}, "", {}});
  }
  if (!BadDType.empty())
    return absl::InvalidArgumentError(joinFindings(BadDType));

  if (Checkpoint->empty()) {
    std::vector<std::string> Names;
    for (size_t I = 0; I < Vars.size() && I < 3; ++I)
      Names.push_back(absl::StrCat("'", Vars[I]->name().str(), "'"));
    return absl::InvalidArgumentError(absl::StrCat(
        "needs checkpoint=PREFIX: the graph has ", Vars.size(), " variables to freeze (",
        absl::StrJoin(Names, ", "), Vars.size() > 3 ? ", ..." : "", ")"));
  }
  std::vector<std::string> Notes;
  absl::StatusOr<const CheckpointReader *> Reader = Ctx.analyses().checkpoint(*Checkpoint, &Notes);
  for (const std::string &Note : Notes)
    Ctx.note(name(), Note);
  FROST_RETURN_IF_ERROR(Reader.status());

  FROST_RETURN_IF_ERROR(planSources(M, **Reader, Plans, Ctx));
  recordLeftVariables(M, Left, **Reader);
  Functions = std::make_unique<FunctionRetyper>(G);
  for (Plan &P : Plans) {
    FROST_RETURN_IF_ERROR(rewrite(G, P));
    // What was read, for reports: the Const holds dtype, shape and bytes.
    M.variableSources()[P.Var->name().str()] = {P.Key, formatSliceSpec(P.Slice), P.Origin,
                                                false};
  }
  Functions->finish();
  NumFunctions += Functions->numConverted();
  return absl::OkStatus();
}

} // namespace

std::unique_ptr<Pass> createConvertVariablesToConstantsPass() {
  return std::make_unique<ConvertVariablesToConstantsPass>();
}

std::unique_ptr<Pass> createConvertVariablesToConstantsPass(const ConvertVariablesToConstantsOptions &Options) {
  return makeNamedPass<ConvertVariablesToConstantsPass>(PassName::createConvertVariablesToConstantsPass, Options);
}

} // namespace frost
