//===- RenameOp.cpp - Give every node of one op another op ----------------===//
//
// TensorFlow's graph_transforms rename_op(old_op_name, new_op_name): nodes
// whose op is `old-op-name` get `new-op-name`, inputs and attributes as they
// are (e.g. a custom op standing in for a built-in one). Unlike TensorFlow,
// the nodes of library functions are renamed too, so a SavedModel's functions
// do not keep the old op.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/EveryNode.h"

namespace frost {

namespace {

class RenameOpPass : public Pass {
  Option<std::string> OldOpName{*this, "old-op-name", "The op to replace"};
  Option<std::string> NewOpName{*this, "new-op-name", "The op those nodes get instead"};
  Statistic NumRenamed{*this, "nodes-renamed", "Nodes given the new op (graph and functions)"};

  absl::Status validateOptions() const override {
    if (OldOpName->empty())
      return absl::InvalidArgumentError("needs old-op-name=OP: the op to replace");
    if (NewOpName->empty())
      return absl::InvalidArgumentError("needs new-op-name=OP: the op those nodes get");
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &) override {
    every_node::forEveryNode(M.graph(), [&](auto &N, llvm::StringRef) {
      if (every_node::opOf(N) != *OldOpName)
        return;
      every_node::setOpOf(N, *NewOpName);
      ++NumRenamed;
    });
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRenameOpPass() { return std::make_unique<RenameOpPass>(); }

} // namespace frost
