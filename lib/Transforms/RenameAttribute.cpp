//===- RenameAttribute.cpp - Move one attribute to another name -----------===//
//
// TensorFlow's graph_transforms rename_attribute(old_attribute_name,
// new_attribute_name, op_name): on every node (or only nodes of op `op-name`;
// absent or `*`: every op) the attribute `old-attribute-name` moves to
// `new-attribute-name`. The nodes of library functions are renamed too.
//
// A node holding both names: TensorFlow keeps the new name's value and drops
// the old one, silently losing whichever the user meant. Frost drops the old
// one only when both hold the same value (nothing is lost); when they differ
// it fails naming the node, since either choice would be a guess.
// `old-attribute-name` equal to `new-attribute-name` is refused (TensorFlow
// would erase the attribute).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/EveryNode.h"

#include "absl/strings/str_cat.h"
#include "google/protobuf/util/message_differencer.h"

namespace frost {

namespace {

class RenameAttributePass : public Pass {
  Option<std::string> OldName{*this, "old-attribute-name", "The attribute to rename"};
  Option<std::string> NewName{*this, "new-attribute-name", "Its new name"};
  Option<std::string> OpName{*this, "op-name", "Only on nodes of this op (default `*`: every op)",
                             "*"};
  Statistic NumRenamed{*this, "attributes-renamed",
                       "Attributes renamed (graph and function nodes)"};
  Statistic NumDuplicates{*this, "duplicates-dropped",
                          "Old attributes dropped: the new name held the same value"};

  absl::Status validateOptions() const override {
    if (OldName->empty())
      return absl::InvalidArgumentError("needs old-attribute-name=NAME: the attribute to rename");
    if (NewName->empty())
      return absl::InvalidArgumentError("needs new-attribute-name=NAME: its new name");
    if (*OldName == *NewName)
      return absl::InvalidArgumentError(
          absl::StrCat("old-attribute-name and new-attribute-name are both '", *OldName, "'"));
    if (OpName->empty())
      return absl::InvalidArgumentError("op-name is empty; use op-name=* for every op");
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &) override {
    absl::Status Result;
    every_node::forEveryNode(M.graph(), [&](auto &N, llvm::StringRef Function) {
      if (!Result.ok() || (*OpName != "*" && every_node::opOf(N) != *OpName))
        return;
      if (!every_node::findAttrOf(N, *OldName))
        return;
      if (!every_node::findAttrOf(N, *NewName)) {
        every_node::moveAttrOf(N, *OldName, *NewName);
        ++NumRenamed;
        return;
      }
      every_node::materializeAttrOf(N, *OldName);
      every_node::materializeAttrOf(N, *NewName);
      if (google::protobuf::util::MessageDifferencer::Equals(
              *every_node::findAttrOf(N, *OldName), *every_node::findAttrOf(N, *NewName))) {
        every_node::eraseAttrOf(N, *OldName);
        ++NumDuplicates;
        return;
      }
      Result = absl::InvalidArgumentError(
          absl::StrCat(every_node::describeNode(N, Function), " (", every_node::opOf(N).str(),
                       ") has both '", *OldName, "' and '", *NewName,
                       "' with different values; remove one first (remove-attribute)"));
    });
    return Result;
  }
};

} // namespace

std::unique_ptr<Pass> createRenameAttributePass() {
  return std::make_unique<RenameAttributePass>();
}

} // namespace frost
