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

} // namespace frost
