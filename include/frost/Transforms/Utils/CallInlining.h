//===- CallInlining.h - One function call replaced by its body -*- C++ -*-===//
//
// Grappler's InlineFunctionBody for one call node: the arguments through
// `Func/<call>/input/_N` Identities, the body as `<call>/<node>`, the results
// through `Func/<call>/output/_N`, the call's control inputs and control
// users through NoOps. Shared by inline-functions (every call) and
// fold-constant-branches (the taken branch of an If or Case on a constant).
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_CALLINLINING_H
#define FROST_TRANSFORMS_UTILS_CALLINLINING_H

#include "frost/IR/FunctionBody.h"
#include "frost/Transforms/Utils/ControlFlowLowering.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace frost {

struct CallInlining {
  /// The `_N` of the Func/ names, one counter for a whole run.
  NameCounter &Names;
  /// Called on the call node before it is inlined, with whether the
  /// function takes a resource (Grappler's strict input semantics); may be
  /// empty.
  llvm::function_ref<void(Node &, bool TakesResource)> BeforeInlining;
  /// Where to put the Identity of each result, in signature order (may be
  /// null).
  std::vector<Node *> *Results = nullptr;
};

/// Grappler's IsFunctionCall: a (Stateful)PartitionedCall, a
/// SymbolicGradient or an op naming a library function.
bool isFunctionCall(const FunctionIndex &Functions, const Node &N);

/// Replaces `Call`, whose data inputs are F's arguments, by F's body (the
/// new nodes appended to G) and erases it. A (Stateful)PartitionedCall, or a
/// call marked `_lower_as_multi_device_function`, has its control users wait
/// for the body's control outputs; any other call, for its results. Errors
/// name the call and the function.
absl::Status inlineFunctionCall(Graph &G, Node &Call, const tensorflow::FunctionDef &F,
                                const OpRegistry &Ops, const FunctionIndex &Functions,
                                const CallInlining &How);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_CALLINLINING_H
