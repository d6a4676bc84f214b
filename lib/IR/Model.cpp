//===- Model.cpp - A graph with the container it came in ------------------===//
#include "frost/IR/Model.h"

namespace frost {

llvm::StringRef containerKindName(ContainerKind Kind) {
  switch (Kind) {
  case ContainerKind::GraphDef:
    return "GraphDef";
  case ContainerKind::MetaGraph:
    return "MetaGraphDef";
  case ContainerKind::SavedModel:
    return "SavedModel";
  }
  return "?";
}

} // namespace frost
