//===- EveryNode.h - Editing graph and function nodes alike -----*- C++ -*-===//
//
// Passes that edit each node by itself (rename an op, drop an attribute, set
// a device) must reach the bodies of library functions too, or a SavedModel's
// functions keep what the graph lost. The graph holds Nodes and the library
// NodeDefs; these overloads give both one spelling, so a pass writes its edit
// once as a generic lambda and hands it to forEveryNode.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_TRANSFORMS_UTILS_EVERYNODE_H
#define FROST_TRANSFORMS_UTILS_EVERYNODE_H

#include "frost/IR/Graph.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace frost::every_node {

inline llvm::StringRef nameOf(const Node &N) { return N.name(); }
inline llvm::StringRef nameOf(const tensorflow::NodeDef &ND) { return ND.name(); }
inline llvm::StringRef opOf(const Node &N) { return N.op(); }
inline llvm::StringRef opOf(const tensorflow::NodeDef &ND) { return ND.op(); }
inline void setOpOf(Node &N, llvm::StringRef Op) { N.setOp(Op); }
inline void setOpOf(tensorflow::NodeDef &ND, llvm::StringRef Op) { ND.set_op(Op.str()); }
inline llvm::StringRef deviceOf(const Node &N) { return N.device(); }
inline llvm::StringRef deviceOf(const tensorflow::NodeDef &ND) { return ND.device(); }
inline void setDeviceOf(Node &N, llvm::StringRef Device) { N.setDevice(Device); }
inline void setDeviceOf(tensorflow::NodeDef &ND, llvm::StringRef Device) {
  ND.set_device(Device.str());
}

/// The attribute `Name`, or null.
inline const tensorflow::AttrValue *findAttrOf(const Node &N, const std::string &Name) {
  return N.findAttr(Name);
}
inline const tensorflow::AttrValue *findAttrOf(const tensorflow::NodeDef &ND,
                                               const std::string &Name) {
  auto It = ND.attr().find(Name);
  return It == ND.attr().end() ? nullptr : &It->second;
}
/// Copies a Node's external tensor bytes of attribute `Name` into its value
/// (before comparing or moving it); NodeDefs hold theirs already.
inline void materializeAttrOf(Node &N, const std::string &Name) { N.materializeAttr(Name); }
inline void materializeAttrOf(tensorflow::NodeDef &, const std::string &) {}
/// Removes attribute `Name` (with a Node's external tensor bytes); false if
/// there was none.
inline bool eraseAttrOf(Node &N, const std::string &Name) { return N.eraseAttr(Name); }
inline bool eraseAttrOf(tensorflow::NodeDef &ND, const std::string &Name) {
  return ND.mutable_attr()->erase(Name) != 0;
}
/// Moves attribute `From` to `To` (which must be absent), external tensor
/// bytes included: they are copied into the value first.
inline void moveAttrOf(Node &N, const std::string &From, const std::string &To) {
  materializeAttrOf(N, From);
  tensorflow::AttrValue Value = std::move(N.attr(From));
  N.eraseAttr(From);
  N.attr(To) = std::move(Value);
}
inline void moveAttrOf(tensorflow::NodeDef &ND, const std::string &From, const std::string &To) {
  auto &Attrs = *ND.mutable_attr();
  tensorflow::AttrValue Value = std::move(Attrs[From]);
  Attrs.erase(From);
  Attrs[To] = std::move(Value);
}

/// Calls `Visit` on every node of `G` (a Node&), then on every node of every
/// library function (a tensorflow::NodeDef&), along with the function's name
/// ("" for graph nodes), for messages.
template <typename Fn> void forEveryNode(Graph &G, Fn &&Visit) {
  for (Node &N : G)
    Visit(N, llvm::StringRef());
  tensorflow::GraphDef &Other = G.mutableOtherFields();
  if (!Other.has_library())
    return; // mutable_library() would add an empty one
  for (tensorflow::FunctionDef &F : *Other.mutable_library()->mutable_function())
    for (tensorflow::NodeDef &ND : *F.mutable_node_def())
      Visit(ND, llvm::StringRef(F.signature().name()));
}

/// "node 'x'" or "node 'x' of function 'f'".
template <typename NodeT> std::string describeNode(const NodeT &N, llvm::StringRef Function) {
  std::string Out = "node '" + nameOf(N).str() + "'";
  if (!Function.empty())
    Out += " of function '" + Function.str() + "'";
  return Out;
}

} // namespace frost::every_node

#endif // FROST_TRANSFORMS_UTILS_EVERYNODE_H
