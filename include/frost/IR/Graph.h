//===- Graph.h - Frost's in-memory graph IR ---------------------*- C++ -*-===//
//
// A Graph holds the nodes of a TensorFlow GraphDef with their edges resolved to
// pointers, use lists on every node, O(1) lookup by name and O(1) erase. Every
// field of the GraphDef that is not a node (versions, library, debug_info and
// fields this build does not know) is kept verbatim, so GraphDef -> Graph ->
// GraphDef with no pass in between reproduces the input exactly.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_IR_GRAPH_H
#define FROST_IR_GRAPH_H

#include "frost/Support/Status.h"
#include "frost/proto/graph.pb.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/ilist_node.h"
#include "llvm/ADT/simple_ilist.h"
#include "llvm/ADT/iterator_range.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace frost {

class Graph;
class Node;

/// The port of a control edge ("^name" in NodeDef.input).
inline constexpr int ControlPort = -1;

/// One entry of NodeDef.input: output `Port` of `Src`, or a control edge.
struct Input {
  Node *Src = nullptr;
  int Port = 0;
  /// Spelled "name:0" rather than "name"; kept so round trips are exact.
  bool ExplicitPort = false;

  bool isControl() const { return Port == ControlPort; }
};

/// Node `User` reads one of our outputs through its input number `InputIndex`.
struct Use {
  Node *User;
  unsigned InputIndex;
};

/// Attributes sorted by name: iteration order is the canonical output order.
using AttrMap = std::map<std::string, tensorflow::AttrValue, std::less<>>;

/// The elements of a tensor attribute kept outside its AttrValue, e.g. in a
/// mapped checkpoint shard, until the graph is written: freezing a model never
/// copies its weights. They are the TensorProto's tensor_content.
struct ExternalContent {
  llvm::StringRef Bytes;
  /// Keeps Bytes alive.
  std::shared_ptr<const void> Keeper;
};

/// One node. Its inputs are data inputs first, then control inputs, as
/// TensorFlow requires; the mutators below keep that order and the use lists of
/// the producers in step.
class Node : public llvm::ilist_node<Node> {
public:
  llvm::StringRef name() const { return Name; }
  llvm::StringRef op() const { return Op; }
  /// A number unique within the graph, below Graph::idBound(): algorithms
  /// keep per-node state in vectors indexed by it instead of hash maps.
  unsigned id() const { return Id; }
  llvm::StringRef device() const { return Device; }
  Graph &graph() const { return *Parent; }

  void setOp(llvm::StringRef NewOp);
  void setDevice(llvm::StringRef NewDevice);

  // --- Inputs -------------------------------------------------------------
  llvm::ArrayRef<Input> inputs() const { return Inputs; }
  unsigned numInputs() const { return Inputs.size(); }
  const Input &input(unsigned I) const { return Inputs[I]; }
  /// Data inputs are the first numDataInputs() entries of inputs().
  unsigned numDataInputs() const;
  llvm::ArrayRef<Input> dataInputs() const {
    return llvm::ArrayRef(Inputs).take_front(numDataInputs());
  }
  llvm::ArrayRef<Input> controlInputs() const {
    return llvm::ArrayRef(Inputs).drop_front(numDataInputs());
  }

  /// Appends a data input (before the control inputs).
  void addDataInput(Node *Src, int Port);
  /// Appends a control input unless an identical one exists.
  void addControlInput(Node *Src);
  /// Points input I at another producer; a data input stays a data input.
  void setInput(unsigned I, Node *Src, int Port);
  void removeInput(unsigned I);
  /// Removes every input whose producer satisfies `Pred`.
  void removeInputsIf(llvm::function_ref<bool(const Input &)> Pred);

  // --- Uses ---------------------------------------------------------------
  llvm::ArrayRef<Use> uses() const { return Uses; }
  bool hasUses() const { return !Uses.empty(); }
  /// Makes every reader of (this, Port) read (NewSrc, NewPort) instead;
  /// Port == ControlPort moves the control edges.
  void replaceUsesOfOutput(int Port, Node *NewSrc, int NewPort);
  /// Moves all uses (data and control, port by port) to NewSrc.
  void replaceAllUsesWith(Node *NewSrc);

  // --- Attributes ---------------------------------------------------------
  const AttrMap &attrs() const { return Attrs; }
  AttrMap &mutableAttrs() { return Attrs; }
  const tensorflow::AttrValue *findAttr(std::string_view Name) const;
  tensorflow::AttrValue &attr(std::string_view Name) { return Attrs[std::string(Name)]; }
  bool eraseAttr(std::string_view Name);

  /// Sets attribute `Name` to a tensor of `DType` and `Shape` whose elements
  /// (raw little-endian, tensor_content layout) stay where they are.
  void setExternalTensorAttr(std::string_view Name, tensorflow::DataType DType,
                             llvm::ArrayRef<int64_t> Shape, ExternalContent Content);
  /// The external elements of attribute `Name`, or null.
  const ExternalContent *externalContent(std::string_view Name) const;
  /// Copies external elements into the AttrValue (for passes that edit them).
  void materializeAttr(std::string_view Name);

  /// NodeDef fields other than name/op/input/device/attr (debug info, full
  /// type, unknown fields); null when there are none.
  const tensorflow::NodeDef *extraFields() const { return Extra.get(); }
  tensorflow::NodeDef &mutableExtraFields();

  /// "name" for port 0 of a data edge, "name:k", or "^name".
  static std::string formatInput(llvm::StringRef Name, int Port, bool ExplicitPort = false);

private:
  friend class Graph;
  friend class GraphBuilder;
  Node(Graph *Parent, unsigned Id, llvm::StringRef Name, llvm::StringRef Op)
      : Parent(Parent), Id(Id), Name(Name), Op(Op) {}

  void addUse(unsigned InputIndex);
  void reindexInputsFrom(unsigned From, llvm::function_ref<void()> Edit);
  void removeUse(Node *User, unsigned InputIndex);

  Graph *Parent;
  unsigned Id;
  llvm::StringRef Name;
  llvm::StringRef Op;
  llvm::StringRef Device;
  llvm::SmallVector<Input, 2> Inputs;
  llvm::SmallVector<Use, 2> Uses;
  AttrMap Attrs;
  /// Keyed like Attrs; an entry's AttrValue holds the tensor's dtype and shape.
  std::map<std::string, ExternalContent, std::less<>> External;
  std::unique_ptr<tensorflow::NodeDef> Extra;
};

/// Source positions of nodes for diagnostics: "file:line:col" for text input,
/// "file:byte N" for binary input. Looked up only when there is something to
/// report, so a large valid file pays nothing for them.
struct NodeLocations {
  std::string File;
  /// The position of node number `Index` ("12:3", "byte 40"), or "".
  std::function<std::string(size_t Index)> Lookup;
  std::string of(size_t NodeIndex) const;
};

class Graph {
public:
  using NodeList = llvm::simple_ilist<Node>;

  Graph() = default;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  ~Graph();

  /// Builds a graph from a GraphDef, moving its attributes out (see
  /// GraphBuilder for the checks).
  static absl::StatusOr<std::unique_ptr<Graph>>
  fromGraphDef(tensorflow::GraphDef &&Def, const NodeLocations *Locations = nullptr);
  /// The GraphDef this graph stands for (copies attribute values).
  void toGraphDef(tensorflow::GraphDef &Out) const;
  std::unique_ptr<Graph> clone() const;

  // --- Nodes --------------------------------------------------------------
  Node *createNode(llvm::StringRef Name, llvm::StringRef Op);
  Node *findNode(llvm::StringRef Name) const { return ByName.lookup(Name); }
  /// Erases a node that has no uses left (drops its own inputs first).
  void eraseNode(Node *N);
  /// Erases every node matching `Pred` in O(nodes + edges); edges from
  /// survivors into erased nodes are dropped.
  void eraseNodesIf(llvm::function_ref<bool(const Node &)> Pred);
  /// Removes, from every node, the inputs matching `Pred` in O(nodes +
  /// edges): one rebuild of the use lists, where Node::removeInputsIf per
  /// node would move a widely read node's use list once per reader. Pred
  /// is asked once per input.
  void removeInputsIf(llvm::function_ref<bool(const Node &, const Input &)> Pred);
  void renameNode(Node *N, llvm::StringRef NewName);
  /// Puts the nodes in `Order`, which holds each node of the graph once.
  void reorder(llvm::ArrayRef<Node *> Order);
  /// A name not yet used, `Base` itself or `Base_1`, `Base_2`, ...
  std::string uniqueName(llvm::StringRef Base) const;

  NodeList::iterator begin() { return Nodes.begin(); }
  NodeList::iterator end() { return Nodes.end(); }
  NodeList::const_iterator begin() const { return Nodes.begin(); }
  NodeList::const_iterator end() const { return Nodes.end(); }
  size_t size() const { return NumNodes; }
  /// Every node's id() is below this (ids are not reused after erasure).
  unsigned idBound() const { return NextId; }
  bool empty() const { return NumNodes == 0; }

  // --- Everything in GraphDef besides the nodes ----------------------------
  /// versions, library, version, debug_info and unknown fields; `node` is empty.
  const tensorflow::GraphDef &otherFields() const { return Other; }
  tensorflow::GraphDef &mutableOtherFields() { return Other; }
  const tensorflow::FunctionDefLibrary &library() const { return Other.library(); }

  /// Copies a string into storage owned by the graph, once per distinct
  /// string (ops and devices repeat a lot).
  llvm::StringRef intern(llvm::StringRef S) { return Interned.save(S); }

private:
  friend class Node;
  friend class GraphBuilder;
  llvm::BumpPtrAllocator Alloc;
  llvm::UniqueStringSaver Interned{Alloc};
  NodeList Nodes;
  size_t NumNodes = 0;
  unsigned NextId = 0;
  llvm::StringMap<Node *> ByName;
  tensorflow::GraphDef Other;
};

/// Builds a Graph one NodeDef at a time, so a reader can stream nodes from a
/// file without holding a whole GraphDef. Inputs are resolved at the end, so
/// they may name later nodes. Every duplicate or empty name, malformed input,
/// data input after a control input and missing producer is reported at once,
/// each naming the node and its location.
class GraphBuilder {
public:
  explicit GraphBuilder(const NodeLocations *Locations = nullptr);
  ~GraphBuilder();
  /// Takes the node's contents (attributes are moved, not copied).
  void addNode(tensorflow::NodeDef &&ND);
  /// `Other`: the GraphDef's non-node fields (versions, library, ...).
  absl::StatusOr<std::unique_ptr<Graph>> finish(tensorflow::GraphDef &&Other);

private:
  void report(size_t Index, std::string Message);

  /// An input naming a node not seen yet: resolved by finish().
  struct ForwardInput {
    Node *User;
    unsigned InputIndex;
    size_t NodeIndex;
    std::string Text;
  };

  std::unique_ptr<Graph> G;
  const NodeLocations *Locations;
  size_t NumAdded = 0;
  std::vector<ForwardInput> Forward;
  std::vector<std::string> Errors;
};

/// Parses a NodeDef.input string: "name", "name:k" or "^name". Returns false
/// when it is malformed (empty name, bad port).
bool parseInputName(llvm::StringRef Text, llvm::StringRef &Name, int &Port,
                    bool &ExplicitPort);

} // namespace frost

#endif // FROST_IR_GRAPH_H
