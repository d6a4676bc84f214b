//===- SideEffects.h - Ops whose every run counts ---------------*- C++ -*-===//
//
// Two alike nodes may become one only when running the op twice is the same
// as running it once. It is not for the ops TensorFlow marks stateful (random
// numbers, variables, queues, readers, summaries, Print, Assert, I/O,
// StatefulPartitionedCall, ...) nor for the ops that write through a reference
// input (Assign, AssignAdd, ScatterAdd, ApplyAdam, ...): merging two
// AssignAdd(v, 1) would add 1 once.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_SIDEEFFECTS_H
#define FROST_TRANSFORMS_UTILS_SIDEEFFECTS_H

#include "frost/IR/OpRegistry.h"

#include "llvm/ADT/StringRef.h"

namespace frost {

/// Whether op `Op` is stateful or takes a reference input, by the model's own
/// OpDef (a MetaGraph's stripped_op_list, a library function's signature) when
/// it has one, else by TensorFlow's standard OpDef (findStandardOpDef).
/// Unknown ops (custom ones) are not.
bool hasSideEffects(llvm::StringRef Op, const OpRegistry &Ops);

} // namespace frost

#endif // FROST_TRANSFORMS_UTILS_SIDEEFFECTS_H
