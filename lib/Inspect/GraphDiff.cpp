//===- GraphDiff.cpp - A structural diff of two graphs --------------------===//
//
// Pairing: by name, then by structure in one topological sweep (Kahn's
// algorithm run on both graphs at once): a node becomes a candidate when
// every producer of its data inputs is paired; B's candidates wait in hash
// buckets keyed by op, attributes and their producers' partners, A's look
// their bucket up. A pair made releases the consumers on both sides, B's
// first, so a chain of renamed nodes pairs link by link, and a node that
// finds no partner when it is released never will. Among candidates alike
// (two renamed zeros) the longest common name suffix wins, then graph
// order; but only a suffix from a scope boundary ("/") on, or a whole name:
// else the node waits for its readers to decide (below), as a guess would
// cascade. Linear in nodes and edges, but for the
// values of unpaired constants, which are hashed once.
//
// A renamed node that also changed (a constant one ulp off) stops that
// sweep, and with it everything downstream. So, last, nodes pair by their
// neighbours: an unpaired node and an unpaired node of B reading the
// partners of its producers (the rest of their inputs unpaired on both
// sides), or the producer, at the same input, of a paired reader's partner.
// Their ops must agree, unless all their inputs are paired and either the
// pair is between paired readers too or the names end alike. Each pair
// made retries the neighbours; scans are capped, so fan-outs stay linear.
//
//===----------------------------------------------------------------------===//
#include "frost/Inspect/GraphDiff.h"

#include "GraphDiffValues.h"

#include "frost/Inspect/GraphSummary.h"
#include "frost/Support/Wire.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/xxhash.h"

#include <deque>
#include <map>
#include <set>
#include <tuple>

namespace frost::inspect {

using namespace detail;

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

namespace {

//===----------------------------------------------------------------------===//
// The differ
//===----------------------------------------------------------------------===//

/// Colocation attribute: its "loc:@name" entries name nodes.
constexpr llvm::StringLiteral ColocationAttr = "_class";

class Differ {
public:
  Differ(const Model &MA, const Model &MB, const DiffOptions &O) : MA(MA), MB(MB), O(O) {
    for (const std::string &Name : O.IgnoreAttrs)
      Ignored.insert(Name);
    SA.init(MA.graph());
    SB.init(MB.graph());
  }

  absl::StatusOr<GraphDiff> run();

private:
  /// One graph's nodes in order, indexed both ways, and their partners.
  struct Side {
    std::vector<const Node *> Nodes;
    /// Node::id() -> position in Nodes.
    std::vector<int> Pos;
    /// Position -> the partner's position in the other graph, or -1.
    std::vector<int> Partner;
    /// Unpaired producers of data inputs, edge by edge.
    std::vector<unsigned> Pending;

    void init(const Graph &G) {
      Pos.assign(G.idBound(), -1);
      for (const Node &N : G) {
        Pos[N.id()] = static_cast<int>(Nodes.size());
        Nodes.push_back(&N);
      }
      Partner.assign(Nodes.size(), -1);
    }
    int pos(const Node *N) const { return Pos[N->id()]; }
    int partner(const Node *N) const { return Partner[pos(N)]; }
  };

  bool ignored(llvm::StringRef Attr) const { return Ignored.contains(Attr); }

  void pair(int A, int B) {
    SA.Partner[A] = B;
    SB.Partner[B] = A;
  }

  void pairByName();
  void pairByStructure();
  void pairByNeighbours();
  bool looselyAlike(const Node &A, const Node &B, bool AllowOpChange) const;
  llvm::hash_code attrHash(const Node &N) const;
  /// The bucket key of a node whose producers are all paired: producers are
  /// spelled as A's positions on both sides.
  uint64_t key(const Node &N, const Side &S, bool IsA, llvm::hash_code Attrs) const;
  bool alike(const Node &A, const Node &B) const;
  bool sameAttr(const Node &A, const Node &B, const std::string &Name,
                const tensorflow::AttrValue &VA, const tensorflow::AttrValue &VB,
                NodeChange *Change) const;
  std::vector<std::string> colocation(const tensorflow::AttrValue &V, bool MapFromA) const;
  void compareNodes(const Node &A, const Node &B, NodeDiff &D) const;
  void compareFunctions(GraphDiff &D) const;
  absl::Status compareSignatures(GraphDiff &D) const;
  void compareGraphFields(GraphDiff &D) const;
  using TensorInfoMap = google::protobuf::Map<std::string, tensorflow::TensorInfo>;
  /// A signature's tensor as "node:port", A's node spelled by its partner.
  std::string canonicalTensorName(const tensorflow::TensorInfo &Info, bool FromA) const;
  void compareTensorInfos(GraphDiff &D, const std::string &Key, llvm::StringRef Group,
                          const TensorInfoMap &A, const TensorInfoMap &B) const;

  const Model &MA, &MB;
  const DiffOptions &O;
  llvm::StringSet<> Ignored;
  Side SA, SB;
};

void Differ::pairByName() {
  for (size_t I = 0; I < SA.Nodes.size(); ++I)
    if (const Node *B = MB.graph().findNode(SA.Nodes[I]->name()))
      pair(static_cast<int>(I), SB.pos(B));
}

llvm::hash_code Differ::attrHash(const Node &N) const {
  llvm::hash_code H = llvm::hash_value(N.op());
  for (const auto &[Name, V] : N.attrs()) {
    if (ignored(Name) || Name == ColocationAttr)
      continue;
    H = llvm::hash_combine(H, Name);
    std::optional<TensorData> T;
    if (V.has_tensor())
      T = tensorAttr(N, Name, V);
    H = llvm::hash_combine(H, T ? hashTensor(*T)
                                : llvm::hash_code(llvm::xxh3_64bits(deterministicBytes(V))));
  }
  return H;
}

uint64_t Differ::key(const Node &N, const Side &S, bool IsA, llvm::hash_code Attrs) const {
  llvm::hash_code H = Attrs;
  for (const Input &In : N.dataInputs()) {
    int P = IsA ? S.pos(In.Src) : S.partner(In.Src);
    H = llvm::hash_combine(H, P, In.Port);
  }
  return static_cast<uint64_t>(static_cast<size_t>(H));
}

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
    std::optional<TensorData> TA = tensorAttr(A, Name, VA), TB = tensorAttr(B, Name, VB);
    if (TA && TB) {
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

bool Differ::alike(const Node &A, const Node &B) const {
  if (A.op() != B.op() || A.numDataInputs() != B.numDataInputs())
    return false;
  for (auto [IA, IB] : llvm::zip(A.dataInputs(), B.dataInputs()))
    if (SA.partner(IA.Src) != SB.pos(IB.Src) || IA.Port != IB.Port)
      return false;
  auto Relevant = [this](const AttrMap &M) {
    return llvm::count_if(M, [this](const auto &E) {
      return !ignored(E.first) && E.first != ColocationAttr;
    });
  };
  if (Relevant(A.attrs()) != Relevant(B.attrs()))
    return false;
  for (const auto &[Name, VA] : A.attrs()) {
    if (ignored(Name) || Name == ColocationAttr)
      continue;
    const tensorflow::AttrValue *VB = B.findAttr(Name);
    if (!VB || !sameAttr(A, B, Name, VA, *VB, nullptr))
      return false;
  }
  return true;
}

/// Length of the common suffix of two names.
size_t commonSuffix(llvm::StringRef A, llvm::StringRef B) {
  size_t N = 0;
  while (N < A.size() && N < B.size() && A[A.size() - 1 - N] == B[B.size() - 1 - N])
    ++N;
  return N;
}

/// Whether two names end alike from a scope boundary on, or one ends the
/// other ("y", "StatefulPartitionedCall/y"; "f/zero", "Func/call/zero").
bool namesAlike(llvm::StringRef A, llvm::StringRef B) {
  size_t N = commonSuffix(A, B);
  return N == A.size() || N == B.size() || A.take_back(N).starts_with("/");
}

void Differ::pairByStructure() {
  // Candidates of B by key, in the order they were released; Start skips the
  // paired prefix of each.
  struct Bucket {
    std::vector<int> Nodes;
    size_t Start = 0;
  };
  llvm::DenseMap<uint64_t, Bucket> Buckets;
  // Looking a few candidates further finds the best name among alikes
  // without turning thousands of identical nodes quadratic.
  constexpr size_t Window = 64;

  auto isData = [](const Use &U) { return !U.User->input(U.InputIndex).isControl(); };
  for (Side *S : {&SA, &SB}) {
    S->Pending.assign(S->Nodes.size(), 0);
    for (size_t I = 0; I < S->Nodes.size(); ++I)
      if (S->Partner[I] < 0)
        for (const Input &In : S->Nodes[I]->dataInputs())
          S->Pending[I] += S->partner(In.Src) < 0;
  }
  auto releaseB = [&](int I) {
    const Node &N = *SB.Nodes[I];
    Buckets[key(N, SB, false, attrHash(N))].Nodes.push_back(I);
  };
  std::deque<int> Queue;
  for (size_t I = 0; I < SA.Nodes.size(); ++I)
    if (SA.Partner[I] < 0 && SA.Pending[I] == 0)
      Queue.push_back(static_cast<int>(I));
  for (size_t I = 0; I < SB.Nodes.size(); ++I)
    if (SB.Partner[I] < 0 && SB.Pending[I] == 0)
      releaseB(static_cast<int>(I));

  while (!Queue.empty()) {
    int I = Queue.front();
    Queue.pop_front();
    const Node &A = *SA.Nodes[I];
    auto It = Buckets.find(key(A, SA, true, attrHash(A)));
    if (It == Buckets.end())
      continue;
    Bucket &Bk = It->second;
    while (Bk.Start < Bk.Nodes.size() && SB.Partner[Bk.Nodes[Bk.Start]] >= 0)
      ++Bk.Start;
    // The candidates by name likeness, then graph order.
    // (std::stable_sort is avoided: clang flags libstdc++ 12's for its
    // deprecated temporary buffer; the position K breaks ties instead.)
    llvm::SmallVector<std::tuple<size_t, size_t, int>, 8> Candidates;
    for (size_t K = Bk.Start; K < Bk.Nodes.size() && K < Bk.Start + Window; ++K)
      if (int J = Bk.Nodes[K]; SB.Partner[J] < 0)
        Candidates.emplace_back(commonSuffix(A.name(), SB.Nodes[J]->name()), K, J);
    llvm::sort(Candidates, [](const auto &X, const auto &Y) {
      return std::get<0>(X) != std::get<0>(Y) ? std::get<0>(X) > std::get<0>(Y)
                                              : std::get<1>(X) < std::get<1>(Y);
    });
    int Best = -1;
    for (auto [Suffix, K, J] : Candidates) {
      (void)Suffix;
      (void)K;
      if (!alike(A, *SB.Nodes[J]))
        continue;
      // Among alike nodes (two renamed zeros) a name must tell: the names
      // end alike from a scope boundary on, else the readers decide later
      // (pairByNeighbours), rather than a guess that cascades.
      if (Candidates.size() == 1 || namesAlike(A.name(), SB.Nodes[J]->name()))
        Best = J;
      break;
    }
    if (Best < 0)
      continue;
    pair(I, Best);
    for (const Use &U : SB.Nodes[Best]->uses())
      if (isData(U)) {
        int C = SB.pos(U.User);
        if (SB.Partner[C] < 0 && --SB.Pending[C] == 0)
          releaseB(C);
      }
    for (const Use &U : A.uses())
      if (isData(U)) {
        int C = SA.pos(U.User);
        if (SA.Partner[C] < 0 && --SA.Pending[C] == 0)
          Queue.push_back(C);
      }
  }
}

bool Differ::looselyAlike(const Node &A, const Node &B, bool AllowOpChange) const {
  if (A.numDataInputs() != B.numDataInputs())
    return false;
  // Each input: producers that are partners, or both unpaired.
  bool AllPaired = true;
  for (auto [IA, IB] : llvm::zip(A.dataInputs(), B.dataInputs())) {
    if (IA.Port != IB.Port)
      return false;
    int P = SA.partner(IA.Src);
    if (P >= 0 || SB.partner(IB.Src) >= 0) {
      if (P != SB.pos(IB.Src))
        return false;
    } else {
      AllPaired = false;
    }
  }
  return A.op() == B.op() || (AllowOpChange && AllPaired && A.numDataInputs() > 0);
}

void Differ::pairByNeighbours() {
  // Bounds that keep a node with a huge fan-in or fan-out from making this
  // quadratic: such nodes pair exactly or not at all.
  constexpr size_t MaxScan = 64, MaxInputs = 1024;
  constexpr unsigned MaxTries = 8;
  std::vector<unsigned> Tries(SA.Nodes.size(), 0);
  std::vector<bool> Queued(SA.Nodes.size(), false);
  std::deque<int> Queue;
  auto enqueue = [&](const Node *N) {
    int I = SA.pos(N);
    if (SA.Partner[I] < 0 && !Queued[I] && Tries[I] < MaxTries) {
      Queued[I] = true;
      Queue.push_back(I);
    }
  };
  for (const Node *N : SA.Nodes)
    enqueue(N);
  while (!Queue.empty()) {
    int I = Queue.front();
    Queue.pop_front();
    Queued[I] = false;
    const Node &A = *SA.Nodes[I];
    if (SA.Partner[I] >= 0 || A.numDataInputs() > MaxInputs)
      continue;
    ++Tries[I];
    int Best = -1;
    size_t BestSuffix = 0;
    auto consider = [&](const Node &B, bool AllowOpChange) {
      int J = SB.pos(&B);
      if (SB.Partner[J] >= 0 || J == Best || !looselyAlike(A, B, AllowOpChange))
        return;
      size_t Suffix = commonSuffix(A.name(), B.name());
      if (Best < 0 || Suffix > BestSuffix) {
        Best = J;
        BestSuffix = Suffix;
      }
    };
    // B's readers of our producers' partners, at the same input.
    size_t Scanned = 0;
    for (unsigned K = 0; K < A.numDataInputs() && Scanned < MaxScan; ++K) {
      int P = SA.partner(A.input(K).Src);
      if (P < 0)
        continue;
      for (const Use &U : SB.Nodes[P]->uses()) {
        if (++Scanned > MaxScan)
          break;
        if (U.InputIndex == K && U.User->input(K).Port == A.input(K).Port)
          consider(*U.User, namesAlike(A.name(), U.User->name()));
      }
    }
    // The producers in B that our readers' partners read at the same input:
    // sandwiched between pairs, a node may have changed its op.
    Scanned = 0;
    for (const Use &U : A.uses()) {
      if (++Scanned > MaxScan)
        break;
      const Input &In = U.User->input(U.InputIndex);
      int P = SA.partner(U.User);
      if (In.isControl() || P < 0 || U.InputIndex >= SB.Nodes[P]->numDataInputs())
        continue;
      const Input &Other = SB.Nodes[P]->input(U.InputIndex);
      if (Other.Port == In.Port)
        consider(*Other.Src, true);
    }
    if (Best < 0)
      continue;
    pair(I, Best);
    for (const Input &In : A.dataInputs())
      enqueue(In.Src);
    for (const Use &U : A.uses())
      enqueue(U.User);
  }
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

} // namespace

absl::StatusOr<GraphDiff> diffModels(const Model &A, const Model &B, const DiffOptions &Options) {
  return Differ(A, B, Options).run();
}

} // namespace frost::inspect
