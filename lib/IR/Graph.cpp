//===- Graph.cpp - Frost's in-memory graph IR -----------------------------===//
#include "frost/Support/Suggest.h"
#include "frost/IR/Graph.h"

#include "absl/strings/str_cat.h"

#include <algorithm>
#include "absl/strings/str_join.h"

#include <cassert>

namespace frost {

//===----------------------------------------------------------------------===//
// Input names
//===----------------------------------------------------------------------===//

bool parseInputName(llvm::StringRef Text, llvm::StringRef &Name, int &Port,
                    bool &ExplicitPort) {
  ExplicitPort = false;
  if (Text.consume_front("^")) {
    Name = Text;
    Port = ControlPort;
    return !Name.empty() && !Name.contains(':');
  }
  size_t Colon = Text.rfind(':');
  if (Colon == llvm::StringRef::npos) {
    Name = Text;
    Port = 0;
    return !Name.empty();
  }
  Name = Text.take_front(Colon);
  llvm::StringRef Digits = Text.drop_front(Colon + 1);
  unsigned Value;
  // getAsInteger accepts "0x.." style radix prefixes only with radix 0.
  if (Name.empty() || Name.contains(':') || Digits.empty() ||
      !llvm::all_of(Digits, [](char C) { return C >= '0' && C <= '9'; }) ||
      Digits.getAsInteger(10, Value) || Value > (1u << 30))
    return false;
  Port = static_cast<int>(Value);
  ExplicitPort = true;
  return true;
}

std::string Node::formatInput(llvm::StringRef Name, int Port, bool ExplicitPort) {
  if (Port == ControlPort)
    return absl::StrCat("^", Name.str());
  if (Port == 0 && !ExplicitPort)
    return std::string(Name);
  return absl::StrCat(Name.str(), ":", Port);
}

std::string NodeLocations::of(size_t NodeIndex) const {
  std::string Where = Lookup ? Lookup(NodeIndex) : std::string();
  return Where.empty() ? File : absl::StrCat(File, ":", Where);
}

//===----------------------------------------------------------------------===//
// Node
//===----------------------------------------------------------------------===//

void Node::setOp(llvm::StringRef NewOp) { Op = Parent->intern(NewOp); }
void Node::setDevice(llvm::StringRef NewDevice) { Device = Parent->intern(NewDevice); }

unsigned Node::numDataInputs() const {
  // Control inputs come last (the verifier checks it): a binary search keeps
  // `for (I < numDataInputs())` loops linear on a node with millions of inputs.
  return static_cast<unsigned>(
      std::partition_point(Inputs.begin(), Inputs.end(),
                           [](const Input &In) { return !In.isControl(); }) -
      Inputs.begin());
}

void Node::addUse(unsigned InputIndex) {
  Inputs[InputIndex].Src->Uses.push_back({this, InputIndex});
}

void Node::removeUse(Node *User, unsigned InputIndex) {
  auto It = llvm::find_if(Uses, [&](const Use &U) {
    return U.User == User && U.InputIndex == InputIndex;
  });
  assert(It != Uses.end() && "use list out of step with inputs");
  Uses.erase(It);
}

// Inputs from `From` on change position: drop their uses, edit, re-add them.
void Node::reindexInputsFrom(unsigned From, llvm::function_ref<void()> Edit) {
  for (unsigned K = From; K < Inputs.size(); ++K)
    Inputs[K].Src->removeUse(this, K);
  Edit();
  for (unsigned K = From; K < Inputs.size(); ++K)
    addUse(K);
}

void Node::addDataInput(Node *Src, int Port) {
  assert(Src && Port >= 0 && "data input needs a producer and a port");
  unsigned Pos = numDataInputs();
  reindexInputsFrom(Pos, [&] { Inputs.insert(Inputs.begin() + Pos, Input{Src, Port}); });
}

void Node::addControlInput(Node *Src) {
  assert(Src && "control input needs a producer");
  for (const Input &In : controlInputs())
    if (In.Src == Src)
      return;
  Inputs.push_back(Input{Src, ControlPort});
  addUse(Inputs.size() - 1);
}

void Node::setInput(unsigned I, Node *Src, int Port) {
  assert(I < Inputs.size() && Src);
  assert((Port == ControlPort) == Inputs[I].isControl() &&
         "setInput cannot turn a data input into a control input");
  Inputs[I].Src->removeUse(this, I);
  Inputs[I] = Input{Src, Port};
  addUse(I);
}

void Node::removeInput(unsigned I) {
  assert(I < Inputs.size());
  reindexInputsFrom(I, [&] { Inputs.erase(Inputs.begin() + I); });
}

void Node::removeInputsIf(llvm::function_ref<bool(const Input &)> Pred) {
  reindexInputsFrom(0, [&] { llvm::erase_if(Inputs, Pred); });
}

void Node::replaceUsesOfOutput(int Port, Node *NewSrc, int NewPort) {
  assert(NewSrc && NewSrc != this);
  assert((Port == ControlPort) == (NewPort == ControlPort));
  llvm::SmallVector<Use, 8> Moving;
  for (const Use &U : Uses)
    if (U.User->Inputs[U.InputIndex].Port == Port)
      Moving.push_back(U);
  // Control edges: drop ours and add the new one (which de-duplicates).
  if (Port == ControlPort) {
    llvm::SmallVector<Node *, 8> Users;
    for (const Use &U : Moving)
      Users.push_back(U.User);
    for (Node *User : Users) {
      User->removeInputsIf([&](const Input &In) { return In.Src == this && In.isControl(); });
      User->addControlInput(NewSrc);
    }
    return;
  }
  for (const Use &U : Moving)
    U.User->setInput(U.InputIndex, NewSrc, NewPort);
}

void Node::replaceAllUsesWith(Node *NewSrc) {
  llvm::SmallVector<int, 4> Ports;
  for (const Use &U : Uses) {
    int P = U.User->Inputs[U.InputIndex].Port;
    if (!llvm::is_contained(Ports, P))
      Ports.push_back(P);
  }
  for (int P : Ports)
    replaceUsesOfOutput(P, NewSrc, P);
}

const tensorflow::AttrValue *Node::findAttr(std::string_view AttrName) const {
  auto It = Attrs.find(AttrName);
  return It == Attrs.end() ? nullptr : &It->second;
}

bool Node::eraseAttr(std::string_view AttrName) {
  auto It = Attrs.find(AttrName);
  if (It == Attrs.end())
    return false;
  Attrs.erase(It);
  if (auto Ext = External.find(AttrName); Ext != External.end())
    External.erase(Ext);
  return true;
}

void Node::setExternalTensorAttr(std::string_view AttrName, tensorflow::DataType DType,
                                 llvm::ArrayRef<int64_t> Shape, ExternalContent Content) {
  tensorflow::AttrValue &Value = attr(AttrName);
  Value.Clear();
  // Only dtype and shape: the writer appends tensor_content (field 4) after
  // them, which is where protobuf would put it.
  tensorflow::TensorProto &Tensor = *Value.mutable_tensor();
  Tensor.set_dtype(DType);
  for (int64_t Dim : Shape)
    Tensor.mutable_tensor_shape()->add_dim()->set_size(Dim);
  External.insert_or_assign(std::string(AttrName), std::move(Content));
}

const ExternalContent *Node::externalContent(std::string_view AttrName) const {
  auto It = External.find(AttrName);
  return It == External.end() ? nullptr : &It->second;
}

void Node::materializeAttr(std::string_view AttrName) {
  auto It = External.find(AttrName);
  if (It == External.end())
    return;
  attr(AttrName).mutable_tensor()->set_tensor_content(It->second.Bytes.str());
  External.erase(It);
}

tensorflow::NodeDef &Node::mutableExtraFields() {
  if (!Extra)
    Extra = std::make_unique<tensorflow::NodeDef>();
  return *Extra;
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

Graph::~Graph() {
  while (!Nodes.empty()) {
    Node &N = Nodes.front();
    Nodes.remove(N);
    delete &N;
  }
}

Node *Graph::createNode(llvm::StringRef Name, llvm::StringRef Op) {
  // The name map's entry owns the name's bytes; the node views them.
  auto [It, Inserted] = ByName.try_emplace(Name, nullptr);
  assert(Inserted && "node names are unique");
  (void)Inserted;
  Node *N = new Node(this, NextId++, It->getKey(), intern(Op));
  It->second = N;
  Nodes.push_back(*N);
  ++NumNodes;
  return N;
}

void Graph::eraseNode(Node *N) {
  assert(N->Uses.empty() && "erasing a node that is still read");
  N->removeInputsIf([](const Input &) { return true; });
  ByName.erase(N->Name);
  Nodes.remove(*N);
  --NumNodes;
  delete N;
}

void Graph::removeInputsIf(llvm::function_ref<bool(const Node &, const Input &)> Pred) {
  // Every use list rebuilt from the surviving inputs: linear in the graph.
  for (Node &N : Nodes)
    N.Uses.clear();
  for (Node &N : Nodes) {
    llvm::erase_if(N.Inputs, [&](const Input &In) { return Pred(N, In); });
    for (unsigned I = 0; I < N.Inputs.size(); ++I)
      N.addUse(I);
  }
}

void Graph::eraseNodesIf(llvm::function_ref<bool(const Node &)> Pred) {
  std::vector<bool> Dead(NextId);
  bool Any = false;
  for (const Node &N : Nodes)
    if (Pred(N))
      Dead[N.Id] = Any = true;
  if (!Any)
    return;
  removeInputsIf([&](const Node &N, const Input &In) { return Dead[N.Id] || Dead[In.Src->Id]; });
  for (auto It = Nodes.begin(); It != Nodes.end();) {
    Node &N = *It++;
    if (!Dead[N.Id])
      continue;
    ByName.erase(N.Name);
    Nodes.remove(N);
    --NumNodes;
    delete &N;
  }
}

void Graph::reorder(llvm::ArrayRef<Node *> Order) {
  assert(Order.size() == NumNodes && "reorder needs every node once");
  for (Node *N : Order)
    Nodes.remove(*N);
  assert(Nodes.empty() && "reorder needs every node once");
  for (Node *N : Order)
    Nodes.push_back(*N);
}

void Graph::renameNode(Node *N, llvm::StringRef NewName) {
  auto [It, Inserted] = ByName.try_emplace(NewName, N);
  assert(Inserted && "node names are unique");
  (void)Inserted;
  ByName.erase(N->Name);
  N->Name = It->getKey();
}

std::string Graph::uniqueName(llvm::StringRef Base) const {
  if (!findNode(Base))
    return Base.str();
  for (unsigned I = 1;; ++I) {
    std::string Candidate = absl::StrCat(Base.str(), "_", I);
    if (!findNode(Candidate))
      return Candidate;
  }
}

//===----------------------------------------------------------------------===//
// GraphBuilder
//===----------------------------------------------------------------------===//

GraphBuilder::GraphBuilder(const NodeLocations *Locations)
    : G(std::make_unique<Graph>()), Locations(Locations) {}

GraphBuilder::~GraphBuilder() = default;

void GraphBuilder::report(size_t Index, std::string Message) {
  constexpr size_t MaxReported = 20;
  if (Errors.size() < MaxReported)
    Errors.push_back(Locations ? absl::StrCat(Locations->of(Index), ": ", Message) : Message);
  else if (Errors.size() == MaxReported)
    Errors.push_back("... (further errors not shown)");
}

void GraphBuilder::addNode(tensorflow::NodeDef &&ND) {
  size_t Index = NumAdded++;
  if (ND.name().empty()) {
    report(Index, absl::StrCat("node #", Index, " (", ND.op(), ") has an empty name"));
    return;
  }
  if (G->findNode(ND.name())) {
    report(Index, absl::StrCat("node '", ND.name(), "': duplicate node name"));
    return;
  }
  Node *N = G->createNode(ND.name(), ND.op());
  if (!ND.device().empty())
    N->Device = G->intern(ND.device());
  for (auto &[Key, Value] : *ND.mutable_attr())
    N->Attrs.emplace(Key, std::move(Value));

  // Producers seen already (the usual, topological order) are linked now;
  // later ones get a placeholder that finish() fills.
  bool SeenControl = false;
  N->Inputs.reserve(ND.input_size());
  for (std::string &Text : *ND.mutable_input()) {
    llvm::StringRef Name;
    int Port;
    bool Explicit;
    if (!parseInputName(Text, Name, Port, Explicit)) {
      report(Index, absl::StrCat("node '", N->name().str(), "': malformed input '", Text, "'"));
      continue;
    }
    if (Port == ControlPort) {
      SeenControl = true;
    } else if (SeenControl) {
      report(Index, absl::StrCat("node '", N->name().str(), "': data input '", Text,
                                 "' comes after a control input"));
      continue;
    }
    N->Inputs.push_back(Input{G->findNode(Name), Port, Explicit});
    if (N->Inputs.back().Src)
      N->addUse(N->Inputs.size() - 1);
    else
      Forward.push_back({N, N->numInputs() - 1, Index, std::move(Text)});
  }

  // Whatever is left (debug info, full type, unknown fields) rides along.
  ND.clear_name();
  ND.clear_op();
  ND.clear_device();
  ND.clear_attr();
  ND.clear_input();
  if (ND.ByteSizeLong() != 0) {
    N->Extra = std::make_unique<tensorflow::NodeDef>();
    N->Extra->Swap(&ND);
  }
}

absl::StatusOr<std::unique_ptr<Graph>> GraphBuilder::finish(tensorflow::GraphDef &&Other) {
  for (const ForwardInput &F : Forward) {
    llvm::StringRef Name;
    int Port;
    bool Explicit;
    parseInputName(F.Text, Name, Port, Explicit);
    if (Node *Src = G->findNode(Name)) {
      F.User->Inputs[F.InputIndex].Src = Src;
      F.User->addUse(F.InputIndex);
    } else {
      report(F.NodeIndex, absl::StrCat("node '", F.User->name().str(), "': input '", F.Text,
                                       "' names no node in the graph"));
    }
  }
  Forward.clear();
  if (!Errors.empty())
    return absl::InvalidArgumentError(joinFindings(Errors));
  Other.clear_node();
  G->Other.Swap(&Other);
  return std::move(G);
}

absl::StatusOr<std::unique_ptr<Graph>>
Graph::fromGraphDef(tensorflow::GraphDef &&Def, const NodeLocations *Locations) {
  GraphBuilder Builder(Locations);
  for (tensorflow::NodeDef &ND : *Def.mutable_node())
    Builder.addNode(std::move(ND));
  return Builder.finish(std::move(Def));
}

void Graph::toGraphDef(tensorflow::GraphDef &Out) const {
  Out.CopyFrom(Other);
  Out.mutable_node()->Reserve(NumNodes);
  for (const Node &N : Nodes) {
    tensorflow::NodeDef &ND = *Out.add_node();
    if (N.Extra)
      ND.CopyFrom(*N.Extra);
    ND.set_name(N.Name.str());
    ND.set_op(N.Op.str());
    for (const Input &In : N.Inputs)
      ND.add_input(Node::formatInput(In.Src->name(), In.Port, In.ExplicitPort));
    if (!N.Device.empty())
      ND.set_device(N.Device.str());
    for (const auto &[Key, Value] : N.Attrs) {
      tensorflow::AttrValue &Out = (*ND.mutable_attr())[Key];
      Out = Value;
      if (const ExternalContent *Ext = N.externalContent(Key))
        Out.mutable_tensor()->set_tensor_content(Ext->Bytes.str());
    }
  }
}

std::unique_ptr<Graph> Graph::clone() const {
  tensorflow::GraphDef Def;
  toGraphDef(Def);
  auto Copy = fromGraphDef(std::move(Def));
  assert(Copy.ok() && "a valid graph always converts back");
  return *std::move(Copy);
}

} // namespace frost
