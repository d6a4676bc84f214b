//===- OpClasses.cpp - Which ops are variables, savers, control flow ------===//
#include "frost/IR/OpClasses.h"

#include "llvm/ADT/STLExtras.h"

namespace frost {

bool isVariableOp(llvm::StringRef Op) {
  return Op == "VariableV2" || Op == "Variable" || Op == "VarHandleOp";
}

bool isAnyVariableOp(llvm::StringRef Op) { return isVariableOp(Op) || Op == "TemporaryVariable"; }

bool isRefVariableOp(llvm::StringRef Op) {
  return Op == "VariableV2" || Op == "Variable" || Op == "TemporaryVariable";
}

bool isStateOp(llvm::StringRef Op) { return isAnyVariableOp(Op) || Op.contains("HashTable"); }

bool isAssignOp(llvm::StringRef Op) {
  return Op == "Assign" || Op == "AssignAdd" || Op == "AssignSub" || Op == "AssignVariableOp" ||
         Op == "AssignAddVariableOp" || Op == "AssignSubVariableOp";
}

bool isTableInitializerOp(llvm::StringRef Op) {
  static const llvm::StringRef Ops[] = {
      "InitializeTable",     "InitializeTableV2",          "InitializeTableFromTextFile",
      "LookupTableImport",   "InitializeTableFromTextFileV2", "LookupTableImportV2",
      "InitializeTableFromDataset"};
  return llvm::is_contained(Ops, Op);
}

bool isTextFileTableInitializerOp(llvm::StringRef Op) {
  return Op == "InitializeTableFromTextFileV2" || Op == "InitializeTableFromTextFile";
}

bool isSaveRestoreOp(llvm::StringRef Op) {
  static const llvm::StringRef Ops[] = {"SaveV2",          "Save",           "SaveSlices",
                                        "RestoreV2",       "Restore",        "RestoreSlice",
                                        "MergeV2Checkpoints", "ShardedFilename", "ShardedFilespec"};
  return llvm::is_contained(Ops, Op);
}

bool isPlaceholderOp(llvm::StringRef Op) {
  return Op == "Placeholder" || Op == "PlaceholderWithDefault";
}

bool isSwitchOp(llvm::StringRef Op) { return Op == "Switch" || Op == "RefSwitch"; }

bool isMergeOp(llvm::StringRef Op) { return Op == "Merge" || Op == "RefMerge"; }

bool isNextIterationOp(llvm::StringRef Op) {
  return Op == "NextIteration" || Op == "RefNextIteration";
}

bool isIfOp(llvm::StringRef Op) { return Op == "If" || Op == "StatelessIf"; }

bool isCaseOp(llvm::StringRef Op) { return Op == "Case" || Op == "StatelessCase"; }

bool isWhileOp(llvm::StringRef Op) { return Op == "While" || Op == "StatelessWhile"; }

bool isPartitionedCallOp(llvm::StringRef Op) {
  return Op == "PartitionedCall" || Op == "StatefulPartitionedCall";
}

} // namespace frost
