//===- MergeDuplicateNodes.cpp - One node for each computation ------------===//
//
// graph_transforms' merge_duplicate_nodes: nodes with the same op, device,
// attributes and inputs compute the same thing; the first (in graph order)
// stays, the others' readers (every port, and `^` readers) read it, and they
// go. Merging makes more nodes alike downstream: repeated until nothing
// merges. Nodes named by `inputs`/`outputs` never merge. Differences:
// - alike means equal, compared field by field (attribute values byte for
//   byte, checkpoint-backed constants included); TensorFlow compared 64-bit
//   hashes only, so a collision merged different nodes;
// - control inputs are compared as a set, not in order;
// - the graph keeps its order (TensorFlow rebuilt it in hash order);
// - besides stateful ops, ops writing through a reference input (Assign,
//   AssignAdd, ScatterAdd, Apply*) never merge, nor do Placeholders (two
//   inputs alike are still two inputs); ops TensorFlow does not know (custom
//   ops) merge unless the model's OpDefs call them stateful, where TensorFlow
//   failed;
// - cascades are found in one sweep in execution order (a Merge waiting for
//   one data input), loops by further sweeps.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Support/Wire.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ExecutionOrder.h"
#include "frost/Transforms/Utils/GraphInterface.h"
#include "frost/Transforms/Utils/SideEffects.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"

#include <algorithm>

namespace frost {

namespace {

/// What makes two nodes alike besides their inputs, as comparable bytes:
/// op, device, attributes (external tensor contents included) and the
/// NodeDef's other fields except debug info.
std::string signature(const Node &N) {
  std::string S;
  auto add = [&S](llvm::StringRef Part) {
    uint64_t Size = Part.size();
    S.append(reinterpret_cast<const char *>(&Size), sizeof(Size));
    S.append(Part.data(), Part.size());
  };
  add(N.op());
  add(N.device());
  for (const auto &[Name, Value] : N.attrs()) {
    add(Name);
    add(deterministicBytes(Value));
    const ExternalContent *External = N.externalContent(Name);
    add(External ? External->Bytes : llvm::StringRef());
  }
  if (const tensorflow::NodeDef *Extra = N.extraFields()) {
    tensorflow::NodeDef Copy = *Extra;
    Copy.clear_experimental_debug_info();
    add(deterministicBytes(Copy));
  }
  return S;
}

/// The control inputs' producers, sorted by id.
llvm::SmallVector<Node *, 4> controlSources(const Node &N) {
  llvm::SmallVector<Node *, 4> Sources;
  for (const Input &In : N.controlInputs())
    Sources.push_back(In.Src);
  llvm::sort(Sources, [](Node *A, Node *B) { return A->id() < B->id(); });
  Sources.erase(std::unique(Sources.begin(), Sources.end()), Sources.end());
  return Sources;
}

bool sameInputs(const Node &A, const Node &B) {
  llvm::ArrayRef<Input> DataA = A.dataInputs(), DataB = B.dataInputs();
  if (DataA.size() != DataB.size())
    return false;
  for (size_t I = 0; I < DataA.size(); ++I)
    if (DataA[I].Src != DataB[I].Src || DataA[I].Port != DataB[I].Port)
      return false;
  return controlSources(A) == controlSources(B);
}

class MergeDuplicateNodesPass : public Pass {
  ListOption<std::string> Inputs{*this, "inputs", "Nodes never merged (the graph's inputs)"};
  ListOption<std::string> Outputs{*this, "outputs", "Nodes never merged (the graph's outputs)"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Statistic NumMerged{*this, "nodes-merged", "Nodes merged into an equal one"};
  Statistic NumSweeps{*this, "sweeps", "Sweeps over the graph (the last one merges nothing)"};

  bool mergeable(const Node &N, const llvm::StringSet<> &Protected,
                 const OpRegistry &Registry) const {
    return !Protected.contains(N.name()) && !isPlaceholderOp(N.op()) &&
           !hasSideEffects(N.op(), Registry);
  }

  /// One sweep in execution order; returns how many nodes merged.
  size_t sweep(Graph &G, const llvm::StringSet<> &Protected, const OpRegistry &Registry) {
    ExecutionOrder Order = executionOrder(G, ReadyPolicy::GraphPosition);
    std::vector<Node *> Nodes = std::move(Order.Sorted);
    Nodes.insert(Nodes.end(), Order.Unordered.begin(), Order.Unordered.end());

    // Buckets by hash; equal hashes are compared in full.
    llvm::DenseMap<uint64_t, llvm::SmallVector<Node *, 1>> Seen;
    std::vector<Node *> Merged;
    for (Node *N : Nodes) {
      if (!mergeable(*N, Protected, Registry))
        continue;
      std::string Sig = signature(*N);
      llvm::hash_code Hash = llvm::hash_value(Sig);
      for (const Input &In : N->dataInputs())
        Hash = llvm::hash_combine(Hash, In.Src->id(), In.Port);
      for (Node *Control : controlSources(*N))
        Hash = llvm::hash_combine(Hash, Control->id());
      auto &Bucket = Seen[static_cast<uint64_t>(Hash)];
      Node *Equal = nullptr;
      for (Node *C : Bucket)
        if (sameInputs(*C, *N) && signature(*C) == Sig) {
          Equal = C;
          break;
        }
      if (!Equal) {
        Bucket.push_back(N);
        continue;
      }
      N->replaceAllUsesWith(Equal);
      Merged.push_back(N);
    }
    for (Node *N : Merged)
      G.eraseNode(N);
    return Merged.size();
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, *Inputs, *Outputs));
    OpRegistry Registry = modelOpRegistry(M);
    size_t Count;
    do {
      ++NumSweeps;
      Count = sweep(G, Protected, Registry);
      NumMerged += Count;
    } while (Count > 0);
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createMergeDuplicateNodesPass() {
  return std::make_unique<MergeDuplicateNodesPass>();
}

} // namespace frost
