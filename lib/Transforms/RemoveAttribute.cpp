//===- RemoveAttribute.cpp - Drop one attribute from nodes ----------------===//
//
// TensorFlow's graph_transforms remove_attribute(attribute_name, op_name):
// erases `attribute-name` from every node, or only from nodes of op `op-name`
// (absent or `*`: every op), e.g. to load a graph in a runtime older than an
// attribute. Unlike TensorFlow, the nodes of library functions lose it too.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/EveryNode.h"

namespace frost {

namespace {

class RemoveAttributePass : public Pass {
  Option<std::string> AttributeName{*this, "attribute-name", "The attribute to remove"};
  Option<std::string> OpName{*this, "op-name", "Only from nodes of this op (default `*`: every op)",
                             "*"};
  Statistic NumRemoved{*this, "attributes-removed",
                       "Attributes removed (graph and function nodes)"};

  absl::Status validateOptions() const override {
    if (AttributeName->empty())
      return absl::InvalidArgumentError("needs attribute-name=NAME: the attribute to remove");
    if (OpName->empty())
      return absl::InvalidArgumentError("op-name is empty; use op-name=* for every op");
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &) override {
    every_node::forEveryNode(M.graph(), [&](auto &N, llvm::StringRef) {
      if (*OpName != "*" && every_node::opOf(N) != *OpName)
        return;
      if (every_node::eraseAttrOf(N, *AttributeName))
        ++NumRemoved;
    });
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createRemoveAttributePass() {
  return std::make_unique<RemoveAttributePass>();
}

} // namespace frost
