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

std::unique_ptr<Model> Model::clone() const {
  auto Copy = std::make_unique<Model>(TheGraph->clone());
  if (Meta)
    Copy->setContainer(std::make_unique<tensorflow::MetaGraphDef>(*Meta),
                       Saved ? std::make_unique<tensorflow::SavedModel>(*Saved) : nullptr,
                       MetaIndex);
  Copy->SourcePath = SourcePath;
  Copy->Sources = Sources;
  Copy->Captured = Captured;
  return Copy;
}

} // namespace frost
