//===- OpClasses.h - Which ops are variables, savers, control flow -*- C++ -*-===//
//
// One answer to "what kind of op is this" for the passes and tools, by op name
// (Frost has no op registry). Where two callers need different sets, the sets
// have different names: `isVariableOp` are the variables a checkpoint holds,
// `isAnyVariableOp` adds TemporaryVariable, whose buffer no checkpoint holds.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_OPCLASSES_H
#define FROST_IR_OPCLASSES_H

#include "llvm/ADT/StringRef.h"

namespace frost {

// --- Variables and state ---------------------------------------------------

/// VariableV2, Variable (TF 0.x) and VarHandleOp: the variables a Saver
/// restores from a checkpoint.
bool isVariableOp(llvm::StringRef Op);
/// isVariableOp or TemporaryVariable.
bool isAnyVariableOp(llvm::StringRef Op);
/// VariableV2, Variable and TemporaryVariable: variables whose output 0 is a
/// reference (not a resource handle).
bool isRefVariableOp(llvm::StringRef Op);
/// isAnyVariableOp or a hash table (HashTable, MutableHashTableV2, ...): ops
/// that own state the Saver merely reads or writes.
bool isStateOp(llvm::StringRef Op);
/// Assign, AssignAdd, AssignSub and their resource forms (AssignVariableOp,
/// AssignAddVariableOp, AssignSubVariableOp).
bool isAssignOp(llvm::StringRef Op);
/// Ops that fill a lookup table (InitializeTableV2, LookupTableImportV2, ...);
/// input 0 is the table.
bool isTableInitializerOp(llvm::StringRef Op);
/// InitializeTableFromTextFile(V2): table initializers that read a file when
/// they run; input 1 is its name.
bool isTextFileTableInitializerOp(llvm::StringRef Op);

// --- Savers -----------------------------------------------------------------

/// SaveV2, Save, SaveSlices, RestoreV2, Restore, RestoreSlice and the helpers
/// a Saver builds around them (MergeV2Checkpoints, ShardedFilename,
/// ShardedFilespec).
bool isSaveRestoreOp(llvm::StringRef Op);

// --- Graph inputs -----------------------------------------------------------

/// Placeholder and PlaceholderWithDefault.
bool isPlaceholderOp(llvm::StringRef Op);

// --- Control flow -----------------------------------------------------------

/// Switch and RefSwitch.
bool isSwitchOp(llvm::StringRef Op);
/// Merge and RefMerge.
bool isMergeOp(llvm::StringRef Op);
/// NextIteration and RefNextIteration, whose edge into a Merge closes a loop.
bool isNextIterationOp(llvm::StringRef Op);
/// If and StatelessIf.
bool isIfOp(llvm::StringRef Op);
/// Case and StatelessCase.
bool isCaseOp(llvm::StringRef Op);
/// While and StatelessWhile.
bool isWhileOp(llvm::StringRef Op);
/// PartitionedCall and StatefulPartitionedCall: calls of the function in `f`.
bool isPartitionedCallOp(llvm::StringRef Op);

} // namespace frost

#endif // FROST_IR_OPCLASSES_H
