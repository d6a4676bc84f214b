//===- OpRegistry.h - The OpDefs a model carries ----------------*- C++ -*-===//
//
// The OpDefs that describe the ops a graph uses: a MetaGraph's
// `stripped_op_list` (which TensorFlow writes with every SavedModel and .meta),
// the signatures of the library's functions, then TensorFlow's standard OpDefs
// built into Frost (scripts/generate_op_defs.py writes them from TensorFlow's
// registry; TensorFlow 2 SavedModels leave the ops their functions use out of
// their op list). Function bodies name outputs by argument
// (`node:output_arg:index`); turning those into graph ports (`node:k`),
// restoring stripped default attributes and typing edges need these.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_OPREGISTRY_H
#define FROST_IR_OPREGISTRY_H

#include "frost/Support/Status.h"
#include "frost/proto/graph.pb.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <deque>

namespace frost {

using ProtoAttrMap = google::protobuf::Map<std::string, tensorflow::AttrValue>;

class OpRegistry {
public:
  OpRegistry() = default;
  // ByName points into Defs, which a move keeps and a copy would not.
  OpRegistry(OpRegistry &&) = default;
  OpRegistry &operator=(OpRegistry &&) = default;
  OpRegistry(const OpRegistry &) = delete;
  OpRegistry &operator=(const OpRegistry &) = delete;

  /// Later definitions of an op do not replace earlier ones.
  void add(const tensorflow::OpList &Ops);
  /// Each function is an op named after it.
  void add(const tensorflow::FunctionDefLibrary &Library);
  /// Ops this registry does not define are then looked up with
  /// findStandardOpDef.
  void fallBackToStandardOps() { FallBackToStandard = true; }

  const tensorflow::OpDef *find(llvm::StringRef Op) const;
  /// Whether it defines no op of its own (the standard ones do not count).
  bool empty() const { return ByName.empty(); }
  size_t size() const { return ByName.size(); }

private:
  void add(const tensorflow::OpDef &Def);
  std::deque<tensorflow::OpDef> Defs;
  llvm::StringMap<const tensorflow::OpDef *> ByName;
  bool FallBackToStandard = false;
};

/// TensorFlow's standard OpDef of `Op` (lib/IR/StandardOpDefs.pb.zlib,
/// without documentation), or null. The list is read on the first call and
/// each OpDef parsed on the first lookup of its op, once per process; what is
/// returned lives as long as the process and never changes. Thread-safe.
const tensorflow::OpDef *findStandardOpDef(llvm::StringRef Op);
/// How many standard OpDefs Frost knows.
size_t numStandardOpDefs();

class Model;

/// The OpDefs for model `M`: its MetaGraph's stripped_op_list, then its
/// library's functions, then TensorFlow's standard OpDefs.
OpRegistry modelOpRegistry(const Model &M);

/// A node's attribute by name, or null.
using AttrLookup = llvm::function_ref<const tensorflow::AttrValue *(llvm::StringRef)>;

/// How many tensors argument `Arg` stands for in a node with `Attrs`: 1, or
/// the value of its number_attr, or the length of its type_list_attr.
absl::StatusOr<int> argLength(const tensorflow::OpDef::ArgDef &Arg, const ProtoAttrMap &Attrs);
absl::StatusOr<int> argLength(const tensorflow::OpDef::ArgDef &Arg, AttrLookup FindAttr);

/// The flat output number of `OutputArg`:`Index` for a node of op `Def`.
absl::StatusOr<int> flatOutputIndex(const tensorflow::OpDef &Def, const ProtoAttrMap &Attrs,
                                    llvm::StringRef OutputArg, int Index);

/// Adds the OpDef's default value of every attribute `Attrs` lacks, as
/// TensorFlow does when it imports a graph saved with stripped defaults.
/// `Attrs`: a NodeDef's map or a Node's.
template <typename AttrMapT>
void addDefaultAttrs(const tensorflow::OpDef &Def, AttrMapT &Attrs) {
  for (const tensorflow::OpDef::AttrDef &A : Def.attr())
    if (A.has_default_value() && !Attrs.count(A.name()))
      Attrs[A.name()] = A.default_value();
}

} // namespace frost

#endif // FROST_IR_OPREGISTRY_H
