//===- CandidateOutputs.cpp - Nodes that look like a model's results ------===//
#include "frost/IR/CandidateOutputs.h"

#include "frost/IR/Model.h"

#include "llvm/ADT/STLExtras.h"

namespace frost {

bool isSaverScope(llvm::StringRef NodeName) {
  llvm::StringRef Scope = NodeName.split('/').first;
  if (Scope == NodeName)
    return false;
  if (Scope == "save")
    return true;
  return Scope.consume_front("save_") && !Scope.empty() &&
         llvm::all_of(Scope, [](char C) { return C >= '0' && C <= '9'; });
}

llvm::StringSet<> saverDefNodes(const Model &M) {
  llvm::StringSet<> Nodes;
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta || !Meta->has_saver_def())
    return Nodes;
  const tensorflow::SaverDef &Saver = Meta->saver_def();
  for (const std::string *Tensor :
       {&Saver.filename_tensor_name(), &Saver.save_tensor_name(), &Saver.restore_op_name()})
    Nodes.insert(llvm::StringRef(*Tensor).split(':').first);
  return Nodes;
}

namespace {

bool isUnlikelyOutput(const Node &N, const llvm::StringSet<> &SaverNodes) {
  llvm::StringRef Op = N.op();
  return Op == "Const" || Op == "NoOp" || Op == "Placeholder" || Op.starts_with("Assign") ||
         Op.starts_with("Save") || Op.starts_with("Restore") || isSaverScope(N.name()) ||
         SaverNodes.contains(N.name());
}

std::vector<const Node *> candidateOutputNodes(const Graph &G,
                                               const llvm::StringSet<> &SaverNodes) {
  std::vector<const Node *> Out;
  for (const Node &N : G)
    if (!N.hasUses() && !isUnlikelyOutput(N, SaverNodes))
      Out.push_back(&N);
  return Out;
}

} // namespace

std::vector<const Node *> candidateOutputNodes(const Model &M) {
  return candidateOutputNodes(M.graph(), saverDefNodes(M));
}

std::vector<const Node *> candidateOutputNodes(const Graph &G) {
  return candidateOutputNodes(G, llvm::StringSet<>());
}

std::vector<std::string> candidateOutputs(const Model &M) {
  std::vector<std::string> Names;
  for (const Node *N : candidateOutputNodes(M))
    Names.push_back(N->name().str());
  return Names;
}

} // namespace frost
