//===- GraphDiffPairing.cpp - Nodes of two graphs paired ------------------===//
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
#include "GraphDiffInternal.h"

#include "GraphDiffValues.h"

#include "frost/Support/Wire.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/xxhash.h"

#include <deque>
#include <tuple>

namespace frost::inspect::detail {

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
    absl::StatusOr<TensorData> T = absl::InvalidArgumentError("not a tensor");
    if (V.has_tensor())
      T = tensorAttrValue(N, Name);
    H = llvm::hash_combine(H, T.ok() ? hashTensor(*T)
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

namespace {

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

} // namespace

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

} // namespace frost::inspect::detail
