//===- FunctionBody.h - Copying a FunctionDef's body into a graph -*- C++ -*-===//
//
// Inlining a call and instantiating a signature both copy a function's nodes
// into a graph: each body node gets a prefixed name, default attributes from
// its OpDef, and its inputs translated from function form (an argument name,
// `node:output_arg:index`, `^node`) to graph form (`node:k`).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_FUNCTIONBODY_H
#define FROST_IR_FUNCTIONBODY_H

#include "frost/IR/Graph.h"
#include "frost/IR/OpRegistry.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>
#include <vector>

namespace frost {

/// A tensor of the graph: output `Port` of `Src`.
struct TensorOf {
  Node *Src = nullptr;
  int Port = 0;
};

struct BodyCopyOptions {
  /// Prepended to every body node's name ("caller/", or "").
  std::string Prefix;
  /// The tensor each input_arg of the function receives.
  std::vector<TensorOf> Args;
  /// Node names already taken get a `_N` suffix instead of failing.
  bool UniquifyNames = true;
  /// Create the nodes in the order TensorFlow instantiates the body
  /// (GraphConstructor: Kahn's order, the earliest node_def first among the
  /// ready ones) rather than in node_def order.
  bool ConstructionOrder = false;
};

struct BodyCopy {
  /// The copied nodes, in the order they were created.
  std::vector<Node *> Nodes;
  /// The tensor of each output_arg, in signature order.
  std::vector<TensorOf> Returns;
  /// The nodes of `control_ret`, in signature control_output order.
  std::vector<Node *> ControlReturns;
};

/// Copies F's body into G. Errors name the function and node: an input that
/// names nothing, an output argument the op does not have, an op without an
/// OpDef where one is needed, attribute placeholders (polymorphic functions).
absl::StatusOr<BodyCopy> copyFunctionBody(Graph &G, const tensorflow::FunctionDef &F,
                                          const OpRegistry &Ops, const BodyCopyOptions &Options);

/// The function named `Name` in G's library, or null (a linear search).
const tensorflow::FunctionDef *findFunction(const Graph &G, llvm::StringRef Name);

/// The functions of a library by name, for passes that look up every node;
/// valid while the library is not changed.
class FunctionIndex {
public:
  explicit FunctionIndex(const tensorflow::FunctionDefLibrary &Library) {
    for (const tensorflow::FunctionDef &F : Library.function())
      ByName.try_emplace(F.signature().name(), &F);
  }
  const tensorflow::FunctionDef *find(llvm::StringRef Name) const { return ByName.lookup(Name); }

private:
  llvm::StringMap<const tensorflow::FunctionDef *> ByName;
};

/// Calls `Visit` with each function name a function-valued attribute holds
/// (`func`, or `list { func }`).
void forEachFunctionName(const tensorflow::AttrValue &V,
                         llvm::function_ref<void(const std::string &)> Visit);

/// The library functions a function's body refers to: ops that name one and
/// function-valued attributes (call targets, branches, loop bodies), each once
/// in order of first appearance.
std::vector<const tensorflow::FunctionDef *> referencedFunctions(const tensorflow::FunctionDef &F,
                                                                 const FunctionIndex &Functions);

/// The library functions G's nodes call or name (an op, a function-valued
/// attribute), directly or through other functions, each once, in order of
/// first appearance.
std::vector<const tensorflow::FunctionDef *> reachableFunctions(const Graph &G,
                                                                const FunctionIndex &Functions);

/// A function's body in a graph of its own, for checks that look inside
/// functions: each argument is a Placeholder of its type, named `^ARG` (a
/// name no body node can have).
struct StandaloneBody {
  Graph Body;
  BodyCopy Copy;
  /// Each argument's Placeholder -> the argument's name.
  llvm::DenseMap<const Node *, std::string> ArgName;
};
/// F's StandaloneBody; errors as copyFunctionBody's.
absl::StatusOr<std::unique_ptr<StandaloneBody>>
instantiateStandalone(const tensorflow::FunctionDef &F, const OpRegistry &Ops);

/// Refuses a call cycle among the functions reachable from `Roots`, following
/// references into functions `Expands` accepts (those a pass would copy):
/// "function 'A' calls itself through B, C". Copying such a body would never end.
/// `Visited` carries what earlier calls explored, so checking every node of a
/// graph walks each function once.
using CallWalkState = llvm::DenseMap<const tensorflow::FunctionDef *, int>;
absl::Status checkNoCallCycle(llvm::ArrayRef<const tensorflow::FunctionDef *> Roots,
                              const FunctionIndex &Functions,
                              llvm::function_ref<bool(const tensorflow::FunctionDef &)> Expands,
                              CallWalkState &Visited);

/// Drops from G's library the functions no node of G calls or names
/// (an op, a function-valued attribute), directly or through other functions,
/// with their gradients; clears an empty library. Returns how many went.
unsigned dropUncalledFunctions(Graph &G);

using ExpandedSizes = llvm::DenseMap<const tensorflow::FunctionDef *, uint64_t>;

/// How many nodes copying Root's body creates when every call inside that
/// `Expands` accepts is copied in turn, up to Limit + 1 (a library whose
/// calls multiply is measured without copying anything). Needs a library
/// without call cycles (checkNoCallCycle); `Memo` carries sizes across calls.
uint64_t expandedBodySize(const tensorflow::FunctionDef &Root, const FunctionIndex &Functions,
                          llvm::function_ref<bool(const tensorflow::FunctionDef &)> Expands,
                          uint64_t Limit, ExpandedSizes &Memo);

} // namespace frost

#endif // FROST_IR_FUNCTIONBODY_H
