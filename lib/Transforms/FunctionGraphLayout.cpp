//===- FunctionGraphLayout.cpp - Lay a frozen TF2 graph out as TF does ----===//
//
// convert_variables_to_constants_v2 ends by importing the frozen GraphDef and
// pruning it to the function's inputs and outputs (wrap_function's prune,
// i.e. eager/lift_to_graph.py), and `frozen.graph.as_graph_def()` is what
// users save. That copy decides three things this pass reproduces, so Frost's
// graph equals TensorFlow's node for node and in the same order:
//  - order: the inputs first, then the other nodes in the reverse of a
//    depth-first walk from the outputs that enters a node once all its
//    readers are visited, nodes without inputs ahead of the rest;
//  - every node another copied node depends on by a control edge gets
//    `_has_manual_control_dependencies = true` (ops.control_dependencies
//    marks it);
//  - control inputs are sorted by name (Graph::ToGraphDef sorts them), and
//    those that are data inputs too are dropped (the copy's
//    control_dependencies drops them);
//  - `_output_shapes` is gone (the copy does not record it);
//  - `versions` keeps only the producer (the new graph's min_consumer is unset);
//  - the importer's default attributes are present on the nodes freezing
//    created (GatherV2's batch_dims; addKnownDefaultAttrs).
// Nodes the outputs do not reach are left after them (prune removes them).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpInfo.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <set>

namespace frost {

namespace {

class FunctionGraphLayoutPass : public Pass {
public:
  FunctionGraphLayoutPass() = default;
  explicit FunctionGraphLayoutPass(const FunctionGraphLayoutOptions &O) {
    Inputs.set(O.Inputs);
    Outputs.set(O.Outputs);
  }

private:
  ListOption<std::string> Inputs{*this, "inputs", "The function's input Placeholders, in order"};
  ListOption<std::string> Outputs{*this, "outputs", "The function's output nodes, in order"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }

  absl::Status validateOptions() const override {
    if (Outputs.empty())
      return absl::InvalidArgumentError("needs outputs=NAME[;NAME...]: the function's outputs");
    return absl::OkStatus();
  }

  static void sortControlInputs(Node &N) {
    std::vector<Node *> Sources;
    for (const Input &In : N.controlInputs())
      Sources.push_back(In.Src);
    if (std::is_sorted(Sources.begin(), Sources.end(),
                       [](Node *A, Node *B) { return A->name() < B->name(); }))
      return;
    std::sort(Sources.begin(), Sources.end(),
              [](Node *A, Node *B) { return A->name() < B->name(); });
    N.removeInputsIf([](const Input &In) { return In.isControl(); });
    for (Node *Src : Sources)
      N.addControlInput(Src);
  }

  absl::Status findNodes(const Graph &G, const ListOption<std::string> &Names,
                         std::vector<Node *> &Out) const {
    for (const std::string &Name : Names) {
      Node *N = G.findNode(llvm::StringRef(Name).split(':').first);
      if (!N)
        return absl::NotFoundError(absl::StrCat("no node '", Name, "' in the graph"));
      if (!llvm::is_contained(Out, N))
        Out.push_back(N);
    }
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    // As written by Graph::ToGraphDef before TensorFlow walks the graph.
    for (Node &N : G)
      sortControlInputs(N);
    std::vector<Node *> Sources, Fetches;
    FROST_RETURN_IF_ERROR(findNodes(G, Inputs, Sources));
    FROST_RETURN_IF_ERROR(findNodes(G, Outputs, Fetches));
    std::vector<bool> IsSource(G.idBound()), Visited(G.idBound()), Marked(G.idBound());
    for (Node *S : Sources)
      IsSource[S->id()] = Visited[S->id()] = true;

    // map_subgraph: the readers of each node within the outputs' subgraph.
    std::vector<std::set<unsigned>> Readers(G.idBound());
    for (Node *F : Fetches) {
      std::vector<Node *> Work{F};
      while (!Work.empty()) {
        Node *N = Work.back();
        Work.pop_back();
        if (Visited[N->id()])
          continue;
        Visited[N->id()] = true;
        // lift_to_graph's graph_inputs: data inputs, then control inputs,
        // which is the order of N's inputs.
        for (const Input &In : N->inputs()) {
          Readers[In.Src->id()].insert(N->id());
          if (!Visited[In.Src->id()])
            Work.push_back(In.Src);
        }
      }
    }

    // The depth-first walk; a loop's back edge never completes its readers,
    // so a node left over restarts the walk (the first in graph order, where
    // TensorFlow takes an arbitrary one).
    std::vector<Node *> Walk;
    std::vector<Node *> Stack;
    for (Node *F : Fetches)
      if (Readers[F->id()].empty())
        Stack.push_back(F);
    std::vector<bool> Unvisited(G.idBound());
    for (Node *N : Stack)
      Unvisited[N->id()] = true;
    auto allReadersMarked = [&](const Node &N) {
      for (unsigned R : Readers[N.id()])
        if (!Marked[R])
          return false;
      return true;
    };
    while (true) {
      while (!Stack.empty()) {
        Node *N = Stack.back();
        Stack.pop_back();
        if (Marked[N->id()])
          continue;
        Marked[N->id()] = true;
        Unvisited[N->id()] = false;
        Walk.push_back(N);
        for (const Input &In : N->inputs()) {
          if (!Marked[In.Src->id()])
            Unvisited[In.Src->id()] = true;
          if (allReadersMarked(*In.Src))
            Stack.push_back(In.Src);
        }
      }
      Node *Next = nullptr;
      for (Node &N : G)
        if (Unvisited[N.id()] && !Marked[N.id()]) {
          Next = &N;
          break;
        }
      if (!Next)
        break;
      Stack.push_back(Next);
    }
    // Nodes with inputs first, each group in walk order.
    std::vector<Node *> Sorted;
    for (bool WithInputs : {true, false})
      for (Node *N : Walk)
        if (N->inputs().empty() != WithInputs)
          Sorted.push_back(N);
    Walk = std::move(Sorted);

    std::vector<Node *> Order(Sources);
    std::vector<bool> Placed(G.idBound());
    for (Node *S : Sources)
      Placed[S->id()] = true;
    for (auto It = Walk.rbegin(); It != Walk.rend(); ++It)
      if (!Placed[(*It)->id()]) {
        Placed[(*It)->id()] = true;
        Order.push_back(*It);
      }
    for (Node &N : G)
      if (!Placed[N.id()])
        Order.push_back(&N);
    G.reorder(Order);

    if (G.otherFields().has_versions())
      G.mutableOtherFields().mutable_versions()->clear_min_consumer();
    for (Node &N : G) {
      N.eraseAttr("_output_shapes");
      addKnownDefaultAttrs(N);
      if (!Marked[N.id()])
        continue;
      for (const Input &In : N.controlInputs())
        if (Marked[In.Src->id()] || IsSource[In.Src->id()])
          In.Src->attr("_has_manual_control_dependencies").set_b(true);
      // The copy drops a control input that is also a data input (Python's
      // control_dependencies does), though it still marks its producer.
      std::vector<Node *> DataSources;
      for (const Input &In : N.dataInputs())
        DataSources.push_back(In.Src);
      N.removeInputsIf([&](const Input &In) {
        return In.isControl() && llvm::is_contained(DataSources, In.Src);
      });
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFunctionGraphLayoutPass() {
  return std::make_unique<FunctionGraphLayoutPass>();
}

std::unique_ptr<Pass> createFunctionGraphLayoutPass(const FunctionGraphLayoutOptions &Options) {
  return makeNamedPass<FunctionGraphLayoutPass>(PassName::createFunctionGraphLayoutPass, Options);
}

} // namespace frost
