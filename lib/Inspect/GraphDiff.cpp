//===- GraphDiff.cpp - A structural diff of two graphs --------------------===//
//
// What differs between the nodes pairing (GraphDiffPairing.cpp) matched:
// op, device, attributes, data inputs through the pairing, control inputs
// as sets; then function libraries by name, the MetaGraph's signatures key
// by key and the graph's versions; and the GraphDiff built from it all.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphDiff.h"

#include "GraphDiffInternal.h"
#include "GraphDiffValues.h"

#include "frost/Inspect/GraphSummary.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <set>

namespace frost::inspect {

llvm::StringRef nodeStatusName(NodeStatus S) {
  switch (S) {
  case NodeStatus::Same:
    return "same";
  case NodeStatus::Added:
    return "added";
  case NodeStatus::Removed:
    return "removed";
  case NodeStatus::Renamed:
    return "renamed";
  case NodeStatus::Changed:
    return "changed";
  }
  return "same";
}

size_t GraphDiff::count(NodeStatus S) const {
  return llvm::count_if(Nodes, [S](const NodeDiff &N) { return N.Status == S; });
}

size_t GraphDiff::changedNodes() const {
  return llvm::count_if(Nodes, [](const NodeDiff &N) { return !N.Changes.empty(); });
}

bool GraphDiff::identical() const {
  return Functions.empty() && Signatures.empty() && GraphFields.empty() &&
         llvm::all_of(Nodes, [](const NodeDiff &N) { return N.Status == NodeStatus::Same; });
}

const NodeDiff *GraphDiff::findA(llvm::StringRef Name) const {
  auto It = IndexA.find(Name);
  return It == IndexA.end() ? nullptr : &Nodes[It->second];
}

const NodeDiff *GraphDiff::findB(llvm::StringRef Name) const {
  auto It = IndexB.find(Name);
  return It == IndexB.end() ? nullptr : &Nodes[It->second];
}

namespace detail {

//===----------------------------------------------------------------------===//
// The differ: paired nodes compared (pairing: GraphDiffPairing.cpp)
//===----------------------------------------------------------------------===//

std::vector<std::string> Differ::colocation(const tensorflow::AttrValue &V,
                                            bool MapFromA) const {
  std::vector<std::string> Out;
  for (const std::string &S : V.list().s()) {
    llvm::StringRef Target(S);
    if (MapFromA && Target.consume_front("loc:@"))
      if (const Node *N = MA.graph().findNode(Target))
        if (int P = SA.partner(N); P >= 0) {
          Out.push_back("loc:@" + SB.Nodes[P]->name().str());
          continue;
        }
    Out.push_back(S);
  }
  return Out;
}

bool Differ::sameAttr(const Node &A, const Node &B, const std::string &Name,
                      const tensorflow::AttrValue &VA, const tensorflow::AttrValue &VB,
                      NodeChange *Change) const {
  if (VA.has_tensor() && VB.has_tensor()) {
    absl::StatusOr<TensorData> TA = tensorAttrValue(A, Name), TB = tensorAttrValue(B, Name);
    if (TA.ok() && TB.ok()) {
      ValueDiff Values;
      if (!compareTensors(*TA, *TB, O.Atol, Values))
        return true;
      if (Change) {
        Change->TheKind = NodeChange::Value;
        Change->Values = std::move(Values);
      }
      return false;
    }
  }
  if (Name == ColocationAttr && VA.has_list() && VB.has_list()) {
    if (colocation(VA, true) == colocation(VB, false))
      return true;
  } else if (deterministicBytes(VA) == deterministicBytes(VB) &&
             A.externalContent(Name) == nullptr && B.externalContent(Name) == nullptr) {
    return true;
  }
  if (Change) {
    Change->TheKind = NodeChange::Attr;
    Change->Old = spellAttr(VA);
    Change->New = spellAttr(VB);
  }
  return false;
}

void Differ::compareNodes(const Node &A, const Node &B, NodeDiff &D) const {
  if (A.op() != B.op()) {
    NodeChange C{NodeChange::Op, "", A.op().str(), B.op().str(), {}, {}, {}};
    D.Changes.push_back(std::move(C));
  }
  if (!O.IgnoreDevices && A.device() != B.device()) {
    NodeChange C{NodeChange::Device, "", A.device().str(), B.device().str(), {}, {}, {}};
    D.Changes.push_back(std::move(C));
  }
  // Attributes in name order, both maps being sorted.
  std::set<std::string> Names;
  for (const auto &E : A.attrs())
    Names.insert(E.first);
  for (const auto &E : B.attrs())
    Names.insert(E.first);
  for (const std::string &Name : Names) {
    if (ignored(Name))
      continue;
    const tensorflow::AttrValue *VA = A.findAttr(Name), *VB = B.findAttr(Name);
    NodeChange C{NodeChange::Attr, Name, {}, {}, {}, {}, {}};
    if (VA && VB) {
      if (sameAttr(A, B, Name, *VA, *VB, &C))
        continue;
    } else {
      if (VA)
        C.Old = spellAttr(*VA);
      if (VB)
        C.New = spellAttr(*VB);
    }
    D.Changes.push_back(std::move(C));
  }
  // Data inputs position by position, through the pairing.
  auto spell = [](const Input &In) { return Node::formatInput(In.Src->name(), In.Port); };
  size_t NA = A.numDataInputs(), NB = B.numDataInputs();
  for (size_t I = 0; I < std::max(NA, NB); ++I) {
    const Input *IA = I < NA ? &A.input(I) : nullptr;
    const Input *IB = I < NB ? &B.input(I) : nullptr;
    if (IA && IB && SA.partner(IA->Src) == SB.pos(IB->Src) && IA->Port == IB->Port)
      continue;
    NodeChange C{NodeChange::Input, std::to_string(I), {}, {}, {}, {}, {}};
    if (IA)
      C.Old = spell(*IA);
    if (IB)
      C.New = spell(*IB);
    D.Changes.push_back(std::move(C));
  }
  // Control inputs as sets, a producer that is also a data producer of the
  // node left out ("^x" next to "x" adds nothing). A's producers are spelled
  // by their partner's position in B, or by -1 - their own when unpaired.
  auto controls = [](const Node &N, auto Id) {
    std::map<int, const Node *> Out;
    if (N.controlInputs().empty())
      return Out;
    llvm::SmallPtrSet<const Node *, 8> Data;
    for (const Input &D : N.dataInputs())
      Data.insert(D.Src);
    for (const Input &C : N.controlInputs())
      if (!Data.contains(C.Src))
        Out.emplace(Id(C.Src), C.Src);
    return Out;
  };
  auto CA = controls(A, [this](const Node *N) {
    int P = SA.partner(N);
    return P >= 0 ? P : -1 - SA.pos(N);
  });
  auto CB = controls(B, [this](const Node *N) { return SB.pos(N); });
  NodeChange C{NodeChange::ControlInputs, "", {}, {}, {}, {}, {}};
  for (const auto &[Id, N] : CB)
    if (!CA.count(Id))
      C.AddedControls.push_back(N->name().str());
  for (const auto &[Id, N] : CA)
    if (!CB.count(Id))
      C.RemovedControls.push_back(N->name().str());
  if (!C.AddedControls.empty() || !C.RemovedControls.empty()) {
    llvm::sort(C.AddedControls);
    llvm::sort(C.RemovedControls);
    D.Changes.push_back(std::move(C));
  }
}

void Differ::compareFunctions(GraphDiff &D) const {
  std::map<std::string, const tensorflow::FunctionDef *> FA, FB;
  for (const auto &F : MA.graph().library().function())
    FA.emplace(F.signature().name(), &F);
  for (const auto &F : MB.graph().library().function())
    FB.emplace(F.signature().name(), &F);
  for (const auto &[Name, F] : FB)
    if (!FA.count(Name))
      D.Functions.push_back({NodeStatus::Added, Name, "", std::nullopt, std::nullopt});
  for (const auto &[Name, F] : FA)
    if (!FB.count(Name))
      D.Functions.push_back({NodeStatus::Removed, Name, "", std::nullopt, std::nullopt});
  for (const auto &[Name, F] : FA) {
    auto It = FB.find(Name);
    if (It == FB.end())
      continue;
    const tensorflow::FunctionDef &A = *F, &B = *It->second;
    if (deterministicBytes(A) == deterministicBytes(B))
      continue;
    EntryDiff E{NodeStatus::Changed, Name, "body", std::nullopt, std::nullopt};
    if (A.node_def_size() != B.node_def_size()) {
      E.What = "nodes";
      E.Old = std::to_string(A.node_def_size());
      E.New = std::to_string(B.node_def_size());
    } else if (deterministicBytes(A.signature()) != deterministicBytes(B.signature())) {
      E.What = "signature";
    }
    D.Functions.push_back(std::move(E));
  }
}

std::string Differ::canonicalTensorName(const tensorflow::TensorInfo &Info, bool FromA) const {
  if (Info.encoding_case() != tensorflow::TensorInfo::kName)
    return tensorInfoName(Info);
  llvm::StringRef Name;
  int Port = 0;
  bool Explicit = false;
  if (!parseInputName(Info.name(), Name, Port, Explicit))
    return Info.name();
  if (FromA)
    if (const Node *N = MA.graph().findNode(Name))
      if (int P = SA.partner(N); P >= 0)
        Name = SB.Nodes[P]->name();
  return Node::formatInput(Name, Port, /*ExplicitPort=*/true);
}

void Differ::compareTensorInfos(GraphDiff &D, const std::string &Key, llvm::StringRef Group,
                                const TensorInfoMap &A, const TensorInfoMap &B) const {
  std::map<std::string, std::pair<const tensorflow::TensorInfo *, const tensorflow::TensorInfo *>>
      Both;
  for (const auto &[K, V] : A)
    Both[K].first = &V;
  for (const auto &[K, V] : B)
    Both[K].second = &V;
  auto spell = [](const tensorflow::TensorInfo &I) {
    return tensorInfoName(I) + " " + typeAndShape(I.dtype(), I.tensor_shape());
  };
  for (const auto &[K, Infos] : Both) {
    auto [X, Y] = Infos;
    if (X && Y && canonicalTensorName(*X, true) == canonicalTensorName(*Y, false) &&
        X->dtype() == Y->dtype() &&
        deterministicBytes(X->tensor_shape()) == deterministicBytes(Y->tensor_shape()))
      continue;
    EntryDiff E{NodeStatus::Changed, Key, absl::StrCat(Group.str(), " ", K), {}, {}};
    if (X)
      E.Old = spell(*X);
    if (Y)
      E.New = spell(*Y);
    D.Signatures.push_back(std::move(E));
  }
}

absl::Status Differ::compareSignatures(GraphDiff &D) const {
  static const tensorflow::MetaGraphDef NoMeta;
  const auto &A = (MA.metaGraph() ? *MA.metaGraph() : NoMeta).signature_def();
  const auto &B = (MB.metaGraph() ? *MB.metaGraph() : NoMeta).signature_def();
  std::set<std::string> Keys;
  if (!O.Signature.empty()) {
    if (!A.count(O.Signature) && !B.count(O.Signature))
      return absl::InvalidArgumentError(absl::StrCat("signature '", O.Signature,
                                                     "': neither model has it"));
    Keys.insert(O.Signature);
  } else if (MA.metaGraph() && MB.metaGraph()) {
    // A bare GraphDef has no signatures to lose.
    for (const auto &E : A)
      Keys.insert(E.first);
    for (const auto &E : B)
      Keys.insert(E.first);
  }
  for (const std::string &Key : Keys) {
    auto IA = A.find(Key), IB = B.find(Key);
    if (IA == A.end() || IB == B.end()) {
      D.Signatures.push_back(
          {IA == A.end() ? NodeStatus::Added : NodeStatus::Removed, Key, "signature", {}, {}});
      continue;
    }
    const tensorflow::SignatureDef &X = IA->second, &Y = IB->second;
    if (X.method_name() != Y.method_name())
      D.Signatures.push_back(
          {NodeStatus::Changed, Key, "method_name", X.method_name(), Y.method_name()});
    compareTensorInfos(D, Key, "input", X.inputs(), Y.inputs());
    compareTensorInfos(D, Key, "output", X.outputs(), Y.outputs());
  }
  return absl::OkStatus();
}

void Differ::compareGraphFields(GraphDiff &D) const {
  auto spell = [](const tensorflow::VersionDef &V) {
    std::string Out = absl::StrCat("producer ", V.producer(), ", min_consumer ", V.min_consumer());
    if (V.bad_consumers_size())
      absl::StrAppend(&Out, ", bad_consumers ",
                      "[" + absl::StrJoin(V.bad_consumers(), ", ") + "]");
    return Out;
  };
  const tensorflow::VersionDef &A = MA.graph().otherFields().versions();
  const tensorflow::VersionDef &B = MB.graph().otherFields().versions();
  if (spell(A) != spell(B))
    D.GraphFields.push_back({NodeStatus::Changed, "versions", "versions", spell(A), spell(B)});
}

absl::StatusOr<GraphDiff> Differ::run() {
  GraphDiff D;
  for (auto [M, Out] : {std::pair{&MA, &D.A}, std::pair{&MB, &D.B}}) {
    Out->File = M->sourcePath();
    Out->Kind = M->kind();
    Out->Nodes = M->graph().size();
    Out->Functions = M->graph().library().function_size();
  }
  pairByName();
  if (O.MatchStructure) {
    pairByStructure();
    pairByNeighbours();
  }

  for (size_t I = 0; I < SA.Nodes.size(); ++I) {
    const Node &A = *SA.Nodes[I];
    NodeDiff N;
    N.NameA = A.name().str();
    N.OpA = A.op().str();
    if (int P = SA.Partner[I]; P >= 0) {
      const Node &B = *SB.Nodes[P];
      N.NameB = B.name().str();
      N.OpB = B.op().str();
      compareNodes(A, B, N);
      N.Status = A.name() != B.name() ? NodeStatus::Renamed
                 : N.Changes.empty()  ? NodeStatus::Same
                                      : NodeStatus::Changed;
      D.IndexB[N.NameB] = D.Nodes.size();
    } else {
      N.Status = NodeStatus::Removed;
    }
    D.IndexA[N.NameA] = D.Nodes.size();
    D.Nodes.push_back(std::move(N));
  }
  for (size_t I = 0; I < SB.Nodes.size(); ++I) {
    if (SB.Partner[I] >= 0)
      continue;
    NodeDiff N;
    N.Status = NodeStatus::Added;
    N.NameB = SB.Nodes[I]->name().str();
    N.OpB = SB.Nodes[I]->op().str();
    D.IndexB[N.NameB] = D.Nodes.size();
    D.Nodes.push_back(std::move(N));
  }
  compareFunctions(D);
  FROST_RETURN_IF_ERROR(compareSignatures(D));
  compareGraphFields(D);
  return D;
}

} // namespace detail

absl::StatusOr<GraphDiff> diffModels(const Model &A, const Model &B, const DiffOptions &Options) {
  return detail::Differ(A, B, Options).run();
}

} // namespace frost::inspect
