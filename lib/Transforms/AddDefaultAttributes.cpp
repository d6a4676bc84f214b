//===- AddDefaultAttributes.cpp - Spell out attributes left at default ----===//
//
// TensorFlow's graph_transforms add_default_attributes: every graph node gets
// the attributes its OpDef gives a default and the node lacks (graphs saved
// with stripped defaults then load in runtimes that predate the default).
//
// TensorFlow asks its global op registry and the graph's function library.
// Frost asks modelOpRegistry: the OpDefs the model carries (a MetaGraphDef's
// or SavedModel's stripped op list, the library functions' signatures), then
// TensorFlow's standard OpDefs built into Frost, so every standard op is
// covered. TensorFlow fails on an op it does not know; Frost leaves such nodes
// (custom ops) as they are, never guessing: the pass counts them
// (`nodes-unknown-op`) and warns naming their ops. Function bodies are left
// alone, as TensorFlow does.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

#include <map>

namespace frost {

namespace {

/// How many op names a warning spells out.
constexpr size_t MaxOpsNamed = 10;

class AddDefaultAttributesPass : public Pass {
  Statistic NumAdded{*this, "attributes-added", "Default attributes added"};
  Statistic NumNodes{*this, "nodes-changed", "Nodes that got at least one attribute"};
  Statistic NumUnknown{*this, "nodes-unknown-op",
                       "Nodes left alone: their op is neither in the model's OpDefs nor a "
                       "standard TensorFlow op"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    OpRegistry Ops = modelOpRegistry(M);
    std::map<std::string, size_t, std::less<>> UnknownOps; // sorted for the message
    for (Node &N : M.graph()) {
      const tensorflow::OpDef *Def = Ops.find(N.op());
      if (!Def) {
        ++UnknownOps[N.op().str()];
        ++NumUnknown;
        continue;
      }
      size_t Before = N.attrs().size();
      addDefaultAttrs(*Def, N.mutableAttrs());
      if (size_t Added = N.attrs().size() - Before) {
        NumAdded += Added;
        ++NumNodes;
      }
    }
    if (!UnknownOps.empty())
      Ctx.warning(name(), unknownOpsMessage(UnknownOps));
    return absl::OkStatus();
  }

  std::string unknownOpsMessage(const std::map<std::string, size_t, std::less<>> &UnknownOps) {
    std::vector<std::string> Named;
    for (const auto &[Op, Count] : UnknownOps) {
      if (Named.size() == MaxOpsNamed)
        break;
      Named.push_back(absl::StrCat(Op, " (", Count, ")"));
    }
    std::string More = UnknownOps.size() > MaxOpsNamed
                           ? absl::StrCat(" and ", UnknownOps.size() - MaxOpsNamed, " more")
                           : "";
    return absl::StrCat("no OpDef for ", NumUnknown.value(), " nodes of ", UnknownOps.size(),
                        " ops, left without their defaults: ", absl::StrJoin(Named, ", "), More,
                        "; they are not standard TensorFlow ops, and a MetaGraphDef or "
                        "SavedModel carries the OpDefs of the custom ops its graph uses");
  }
};

} // namespace

std::unique_ptr<Pass> createAddDefaultAttributesPass() {
  return std::make_unique<AddDefaultAttributesPass>();
}

} // namespace frost
