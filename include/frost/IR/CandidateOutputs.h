//===- CandidateOutputs.h - Nodes that look like a model's results -*- C++ -*-===//
//
// summarize_graph's guess at a graph's outputs when nobody names them: nodes
// nothing reads, except those never fetched for a result (constants,
// placeholders, no-ops, assignments and the Saver's machinery).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_CANDIDATEOUTPUTS_H
#define FROST_IR_CANDIDATEOUTPUTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace frost {

class Graph;
class Model;
class Node;

/// `save/...`, `save_1/...`: the scopes tf.compat.v1.train.Saver builds in.
bool isSaverScope(llvm::StringRef NodeName);

/// The nodes a MetaGraph's saver_def names (filename, save and restore
/// tensors); empty without one.
llvm::StringSet<> saverDefNodes(const Model &M);

/// The candidate outputs, in graph order.
std::vector<const Node *> candidateOutputNodes(const Model &M);
/// The same for a bare graph: no SaverDef to consult.
std::vector<const Node *> candidateOutputNodes(const Graph &G);
/// Their names.
std::vector<std::string> candidateOutputs(const Model &M);

} // namespace frost

#endif // FROST_IR_CANDIDATEOUTPUTS_H
