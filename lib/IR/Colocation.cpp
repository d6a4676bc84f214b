//===- Colocation.cpp - `_class: loc:@X` references -----------------------===//
#include "frost/IR/Colocation.h"

#include "frost/IR/Graph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>

namespace frost {

unsigned dropColocationsWithMissingTargets(Graph &G) {
  unsigned Dropped = 0;
  for (Node &N : G) {
    const tensorflow::AttrValue *Class = N.findAttr("_class");
    if (!Class || !Class->has_list())
      continue;
    auto missing = [&](const std::string &Entry) {
      llvm::StringRef Target(Entry);
      return Target.consume_front("loc:@") && !G.findNode(Target);
    };
    if (llvm::none_of(Class->list().s(), missing))
      continue;
    auto *Entries = N.attr("_class").mutable_list()->mutable_s();
    auto Gone = std::remove_if(Entries->begin(), Entries->end(), missing);
    Dropped += Entries->end() - Gone;
    Entries->erase(Gone, Entries->end());
    if (Entries->empty())
      N.eraseAttr("_class");
  }
  return Dropped;
}

} // namespace frost
