//===- AddDefaultAttributes.cpp - Spell out attributes left at default ----===//
//
// TensorFlow's graph_transforms add_default_attributes: every graph node gets
// the attributes its OpDef gives a default and the node lacks (graphs saved
// with stripped defaults then load in runtimes that predate the default).
//
// TensorFlow asks its global op registry, which knows every built-in op, and
// fails on an op it does not know. Frost has no op registry: it uses the
// OpDefs the model carries (a MetaGraphDef's or SavedModel's stripped op
// list, the library functions' signatures), then the few common ops whose
// defaults Frost knows (addKnownDefaultAttrs). Other nodes are left as they
// are, never guessed at: the pass counts them (`nodes-unknown-op`) and warns
// naming their ops. Function bodies are left alone, as TensorFlow does.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpInfo.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/StringMap.h"

#include <map>

namespace frost {

namespace {

/// How many op names a warning spells out.
constexpr size_t MaxOpsNamed = 10;

class AddDefaultAttributesPass : public Pass {
  Statistic NumAdded{*this, "attributes-added", "Default attributes added"};
  Statistic NumNodes{*this, "nodes-changed", "Nodes that got at least one attribute"};
  Statistic NumUnknown{*this, "nodes-unknown-op",
                       "Nodes left alone: their op has no OpDef in the model and Frost "
                       "knows no defaults for it"};

  /// Whether addKnownDefaultAttrs knows defaults for `Op`: it adds some to a
  /// node of that op that has no attributes. Asked once per op.
  bool hasBuiltInDefaults(llvm::StringRef Op) {
    auto [It, Inserted] = BuiltIn.try_emplace(Op, false);
    if (Inserted) {
      Node *Probe = Scratch.createNode(Op, Op);
      addKnownDefaultAttrs(*Probe);
      It->second = !Probe->attrs().empty();
    }
    return It->second;
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    OpRegistry Ops = modelOpRegistry(M);
    std::map<std::string, size_t, std::less<>> UnknownOps; // sorted for the message
    for (Node &N : M.graph()) {
      size_t Before = N.attrs().size();
      if (const tensorflow::OpDef *Def = Ops.find(N.op())) {
        addDefaultAttrs(*Def, N.mutableAttrs());
      } else if (hasBuiltInDefaults(N.op())) {
        addKnownDefaultAttrs(N);
      } else {
        ++UnknownOps[N.op().str()];
        ++NumUnknown;
        continue;
      }
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
                        "; a MetaGraphDef or SavedModel carries the OpDefs its graph uses");
  }

  // Kept from run to run: the answer depends on the op name alone, never on
  // the model.
  Graph Scratch;
  llvm::StringMap<bool> BuiltIn;
};

} // namespace

std::unique_ptr<Pass> createAddDefaultAttributesPass() {
  return std::make_unique<AddDefaultAttributesPass>();
}

} // namespace frost
