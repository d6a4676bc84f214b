//===- Colocation.cpp - `_class: loc:@X` references -----------------------===//
#include "frost/IR/Colocation.h"

#include "frost/IR/Graph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <set>

namespace frost {

std::vector<std::string> dropColocationsWithMissingTargets(Graph &G) {
  std::set<std::string> Dropped;
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
    for (const std::string &Entry : *Entries)
      if (missing(Entry))
        Dropped.insert(Entry.substr(5));
    Entries->erase(std::remove_if(Entries->begin(), Entries->end(), missing), Entries->end());
    if (Entries->empty())
      N.eraseAttr("_class");
  }
  return {Dropped.begin(), Dropped.end()};
}

} // namespace frost
