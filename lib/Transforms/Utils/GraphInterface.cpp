//===- GraphInterface.cpp - The inputs and outputs a user names -----------===//
#include "frost/Transforms/Utils/GraphInterface.h"

#include "frost/IR/TensorName.h"

#include "absl/strings/str_cat.h"

namespace frost {

absl::StatusOr<llvm::StringSet<>> interfaceNodeNames(const Graph &G,
                                                     llvm::ArrayRef<std::string> Inputs,
                                                     llvm::ArrayRef<std::string> Outputs) {
  llvm::StringSet<> Names;
  for (const std::string &Output : Outputs) {
    FROST_ASSIGN_OR_RETURN(TensorRef Ref, resolveTensorName(G, Output, "output"));
    Names.insert(Ref.N->name());
  }
  for (const std::string &Text : Inputs) {
    llvm::StringRef Name;
    int Port;
    bool Explicit;
    if (!parseInputName(llvm::StringRef(Text).trim(), Name, Port, Explicit))
      return absl::InvalidArgumentError(
          absl::StrCat("input '", Text, "' is not a node or tensor name"));
    if (G.findNode(Name))
      Names.insert(Name);
  }
  return Names;
}

} // namespace frost
