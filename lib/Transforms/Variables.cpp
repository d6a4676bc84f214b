//===- Variables.cpp - Finding variables and their checkpoint keys --------===//
#include "frost/Transforms/Variables.h"

#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/TensorProtoCodec.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>
#include <set>

namespace frost {

tensorflow::DataType variableDType(const Node &N) {
  const tensorflow::AttrValue *DType = N.findAttr("dtype");
  if (!DType || DType->value_case() != tensorflow::AttrValue::kType)
    return tensorflow::DT_INVALID;
  return baseDataType(DType->type());
}

//===----------------------------------------------------------------------===//
// Slice specs
//===----------------------------------------------------------------------===//

absl::StatusOr<SliceSpec> parseSliceSpec(llvm::StringRef Spec) {
  SliceSpec Out;
  Spec = Spec.trim();
  if (Spec.empty())
    return Out;
  auto bad = [&](llvm::StringRef Why) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed slice spec '", Spec.str(), "': ", Why.str()));
  };
  llvm::SmallVector<llvm::StringRef, 8> Words;
  Spec.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() < 2)
    return bad("expected the full shape, then the slice");
  for (llvm::StringRef W : llvm::ArrayRef(Words).drop_back()) {
    int64_t Dim;
    if (W.getAsInteger(10, Dim) || Dim < 0)
      return bad(absl::StrCat("dimension '", W.str(), "' is not a size"));
    Out.FullShape.push_back(Dim);
  }
  llvm::SmallVector<llvm::StringRef, 8> Dims;
  Words.back().split(Dims, ':');
  if (Dims.size() != Out.FullShape.size())
    return bad(absl::StrCat("the slice has ", Dims.size(), " dimensions, the shape ",
                            Out.FullShape.size()));
  for (size_t I = 0; I < Dims.size(); ++I) {
    SliceExtent E;
    if (Dims[I] != "-") {
      auto [StartText, LengthText] = Dims[I].split(',');
      if (StartText.getAsInteger(10, E.Start) || LengthText.getAsInteger(10, E.Length) ||
          E.Start < 0 || E.Length < 0 || E.Start + E.Length > Out.FullShape[I])
        return bad(absl::StrCat("extent '", Dims[I].str(), "' does not fit dimension ", I,
                                " of size ", Out.FullShape[I]));
    }
    Out.Extents.push_back(E);
  }
  return Out;
}

std::string formatSliceSpec(const SliceSpec &Spec) {
  if (Spec.isWhole())
    return "";
  std::vector<std::string> Extents;
  for (const SliceExtent &E : Spec.Extents)
    Extents.push_back(E.isFull() ? "-" : absl::StrCat(E.Start, ",", E.Length));
  return absl::StrCat(absl::StrJoin(Spec.FullShape, " "), " ", absl::StrJoin(Extents, ":"));
}

//===----------------------------------------------------------------------===//
// The Saver's restore subgraph
//===----------------------------------------------------------------------===//

namespace {

/// The strings of a Const string tensor (through Identity nodes), or nullopt.
std::optional<std::vector<std::string>> constStrings(const Node *N) {
  while (N && N->op() == "Identity" && N->numDataInputs() == 1)
    N = N->input(0).Src;
  if (!N || N->op() != "Const")
    return std::nullopt;
  const tensorflow::AttrValue *Value = N->findAttr("value");
  if (!Value || !Value->has_tensor() || Value->tensor().dtype() != tensorflow::DT_STRING)
    return std::nullopt;
  absl::StatusOr<TensorData> T = decodeTensorProto(Value->tensor(), N->name());
  if (!T.ok())
    return std::nullopt;
  return std::vector<std::string>(T->elements().begin(), T->elements().end());
}

/// The variable node a value written into `Target` (an Assign's ref input or
/// an AssignVariableOp's handle) belongs to.
const Node *variableBehind(const Node *Target) {
  while (matchOp(Target, {"Identity", "RefIdentity"}) && Target->numDataInputs() >= 1)
    Target = Target->input(0).Src;
  return Target && isVariableOp(Target->op()) ? Target : nullptr;
}

/// Calls `Found(variable)` for each assignment that stores output `Port` of
/// `Restore` (possibly through Identity nodes) into a variable; `Assign` is
/// the assigning node.
template <typename Fn> void forEachAssigned(const Node &Restore, int Port, Fn Found) {
  std::vector<std::pair<const Node *, int>> Work = {{&Restore, Port}};
  std::set<const Node *> Seen;
  while (!Work.empty()) {
    auto [N, P] = Work.back();
    Work.pop_back();
    for (const Use &U : N->uses()) {
      const Input &In = U.User->input(U.InputIndex);
      if (In.isControl() || In.Port != P || !Seen.insert(U.User).second)
        continue;
      llvm::StringRef Op = U.User->op();
      if (Op == "Identity") {
        Work.push_back({U.User, 0});
      } else if ((Op == "Assign" || Op == "AssignVariableOp") && U.InputIndex == 1) {
        if (const Node *Var = variableBehind(U.User->input(0).Src))
          Found(*Var, *U.User);
      }
    }
  }
}

/// Every node the restore op named by the saver_def runs (its transitive
/// inputs), or empty when there is no such op.
std::vector<bool> restoreClosure(const Model &M, bool &HaveSaver) {
  HaveSaver = false;
  const Graph &G = M.graph();
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta || !Meta->has_saver_def())
    return {};
  llvm::StringRef Name(Meta->saver_def().restore_op_name());
  Name = Name.split(':').first;
  const Node *Root = Name.empty() ? nullptr : G.findNode(Name);
  if (!Root)
    return {};
  HaveSaver = true;
  std::vector<bool> In(G.idBound());
  std::vector<const Node *> Work = {Root};
  In[Root->id()] = true;
  while (!Work.empty()) {
    const Node *N = Work.back();
    Work.pop_back();
    for (const Input &I : N->inputs())
      if (!In[I.Src->id()]) {
        In[I.Src->id()] = true;
        Work.push_back(I.Src);
      }
  }
  return In;
}

} // namespace

std::vector<std::string> collectionVariables(const Model &M, llvm::StringRef Collection,
                                             bool *Found) {
  std::vector<std::string> Names;
  if (Found)
    *Found = false;
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta)
    return Names;
  auto It = Meta->collection_def().find(std::string(Collection));
  if (It == Meta->collection_def().end())
    return Names;
  if (Found)
    *Found = true;
  for (const std::string &Bytes : It->second.bytes_list().value()) {
    tensorflow::VariableDef Def;
    if (!Def.ParseFromString(Bytes))
      continue;
    Names.push_back(llvm::StringRef(Def.variable_name()).split(':').first.str());
  }
  return Names;
}

SaverMapping findSaverMapping(const Model &M) {
  SaverMapping Out;
  const Graph &G = M.graph();
  bool HaveSaver = false;
  std::vector<bool> Closure = restoreClosure(M, HaveSaver);

  auto record = [&](const Node &Var, const Node &Assign, RestoreSource Source) {
    if (HaveSaver && !Closure[Assign.id()])
      return; // another Saver's restore subgraph
    auto [It, New] = Out.ByVariable.try_emplace(Var.name().str(), Source);
    if (!New && (It->second.Key != Source.Key || It->second.Slice != Source.Slice))
      Out.Warnings.push_back(absl::StrCat(
          "variable '", Var.name().str(), "' is restored from key '", It->second.Key, "' by '",
          It->second.Via, "' and from key '", Source.Key, "' by '", Source.Via,
          "'; using the first"));
  };

  for (const Node &N : G) {
    llvm::StringRef Op = N.op();
    bool IsV2 = Op == "RestoreV2";
    bool IsSlice = Op == "RestoreSlice";
    if (!IsV2 && !IsSlice && Op != "Restore")
      continue;
    if (N.numDataInputs() < (IsV2 || IsSlice ? 3u : 2u)) {
      Out.Warnings.push_back(
          absl::StrCat("restore op '", N.name().str(), "' has too few inputs; ignored"));
      continue;
    }
    std::optional<std::vector<std::string>> Names = constStrings(N.input(1).Src);
    std::optional<std::vector<std::string>> Slices;
    if (IsV2 || IsSlice)
      Slices = constStrings(N.input(2).Src);
    else
      Slices = std::vector<std::string>(Names ? Names->size() : 0);
    if (!Names || !Slices || Slices->size() != Names->size() ||
        (!IsV2 && Names->size() != 1)) {
      Out.Warnings.push_back(absl::StrCat("restore op '", N.name().str(),
                                          "': its tensor names are not constant strings; "
                                          "ignored"));
      continue;
    }
    for (size_t I = 0; I < Names->size(); ++I)
      forEachAssigned(N, static_cast<int>(I), [&](const Node &Var, const Node &Assign) {
        record(Var, Assign, {(*Names)[I], (*Slices)[I], N.name().str()});
      });
  }

  // Partitioned variables the restore subgraph does not cover: the slice
  // info of the variable collections says which part of which tensor.
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
    for (const char *Collection :
         {"variables", "trainable_variables", "local_variables", "model_variables"}) {
      auto It = Meta->collection_def().find(Collection);
      if (It == Meta->collection_def().end())
        continue;
      for (const std::string &Bytes : It->second.bytes_list().value()) {
        tensorflow::VariableDef Def;
        if (!Def.ParseFromString(Bytes) || !Def.has_save_slice_info_def())
          continue;
        const tensorflow::SaveSliceInfoDef &Info = Def.save_slice_info_def();
        std::string Name = llvm::StringRef(Def.variable_name()).split(':').first.str();
        if (Out.ByVariable.count(Name) || !G.findNode(Name) ||
            Info.full_shape_size() != Info.var_offset_size() ||
            Info.full_shape_size() != Info.var_shape_size())
          continue;
        SliceSpec Spec;
        for (int D = 0; D < Info.full_shape_size(); ++D) {
          Spec.FullShape.push_back(Info.full_shape(D));
          Spec.Extents.push_back({Info.var_offset(D), Info.var_shape(D)});
        }
        Out.ByVariable[Name] = {Info.full_name(), formatSliceSpec(Spec),
                                absl::StrCat("collection '", Collection, "'")};
      }
    }
  return Out;
}

absl::StatusOr<TensorData> cutSlice(const TensorData &Full, const SliceSpec &Spec) {
  llvm::ArrayRef<int64_t> Shape = Full.shape();
  if (Spec.Extents.size() != Shape.size())
    return absl::InvalidArgumentError(absl::StrCat("slice '", formatSliceSpec(Spec),
                                                   "' does not fit shape ", formatShape(Shape)));
  std::vector<int64_t> Start(Shape.size(), 0), Size(Shape.begin(), Shape.end());
  for (size_t D = 0; D < Shape.size(); ++D)
    if (!Spec.Extents[D].isFull()) {
      Start[D] = Spec.Extents[D].Start;
      Size[D] = Spec.Extents[D].Length;
    }
  return sliceTensor(Full, Start, std::move(Size));
}

} // namespace frost
