//===- SideEffects.cpp - Ops whose every run counts -----------------------===//
#include "frost/Transforms/Utils/SideEffects.h"

#include "llvm/ADT/STLExtras.h"

namespace frost {

bool hasSideEffects(llvm::StringRef Op, const OpRegistry &Ops) {
  const tensorflow::OpDef *Def = Ops.find(Op);
  if (!Def)
    Def = findStandardOpDef(Op);
  return Def && (Def->is_stateful() || llvm::any_of(Def->input_arg(), [](const auto &Arg) {
                   return Arg.is_ref();
                 }));
}

} // namespace frost
