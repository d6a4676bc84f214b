//===- GraphDiffInternal.h - The differ GraphDiff's files share -*- C++ -*-===//
//
// The Differ's state (both graphs' nodes, positions and partners) and its
// steps: pairing in GraphDiffPairing.cpp, comparing the pairs and building
// the GraphDiff in GraphDiff.cpp. One class, as pairing asks the same
// attribute question comparing does (sameAttr).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_INSPECT_GRAPHDIFFINTERNAL_H
#define FROST_LIB_INSPECT_GRAPHDIFFINTERNAL_H

#include "frost/IR/Graph.h"
#include "frost/Inspect/GraphDiff.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringSet.h"

#include <cstdint>
#include <string>
#include <vector>

namespace frost::inspect::detail {

/// Colocation attribute: its "loc:@name" entries name nodes.
inline constexpr llvm::StringLiteral ColocationAttr = "_class";

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

} // namespace frost::inspect::detail

#endif // FROST_LIB_INSPECT_GRAPHDIFFINTERNAL_H
