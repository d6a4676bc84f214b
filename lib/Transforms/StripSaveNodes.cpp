//===- StripSaveNodes.cpp - Remove the Saver and initializer plumbing -----===//
//
// A training graph carries a Saver (save/Const, save/SaveV2, save/RestoreV2,
// save/Assign_*, save/restore_all, ...) and variable initializers (init,
// v/Assign, v/Initializer/*) that a frozen inference graph does not need.
// What is plumbing is decided by relations, not by the `save/` scope:
//
// 1. Roots: the nodes MetaGraphDef.saver_def (and each SaverDef of the
//    `savers` collection) names, and every save/restore op (SaveV2, Save,
//    SaveSlices, RestoreV2, Restore, RestoreSlice, MergeV2Checkpoints,
//    ShardedFilename, ShardedFilespec). With `initializers` (the default)
//    also: NoOps named `init` or `init_N`, `V/Assign` nodes assigning to
//    variable V, and nodes under a `*/Initializer/` scope.
// 2. The region grows from the roots to a fixpoint. Upstream: a producer joins
//    when every reader of it is in the region (save/SaveV2/tensor_names, the
//    sharded saver's StringJoin/Select chain, initial values). Downstream: an
//    Identity, NoOp, Assign*, Pack, StringJoin or save/restore op joins when
//    each of its inputs is in the region, is a variable, or is a data input
//    that will join because every other reader of it is in the region
//    (save/control_dependency, save/Assign_3, save/restore_all).
//    Never joining: variables, hash tables, Placeholders, reads of a variable
//    (its ReadVariableOp or Identity snapshot belong to the variable), and
//    other source ops besides Const and NoOp.
// 3. A region node nothing reads must be a side effect to be plumbing: a
//    root, a save/restore op, a NoOp, an Assign*, or an Identity that waits
//    on the region through a control input (the Saver's save tensor). Any
//    other (`out = Identity(save/RestoreV2:0)`) is a user's output and stays.
// 4. Removed: region nodes that no node outside the region needs, through
//    data, control or colocation (`_class: loc:@`) inputs, and that no
//    signature or `outputs` entry (the freeze's) names. A kept node
//    reading a saver node keeps it.
//
// In a MetaGraph or SavedModel, saver_def is cleared once a node it names is
// gone, and collection entries naming removed nodes are dropped: node_list
// values, SaverDefs of `savers`, and VariableDefs of the variable collections
// whose initializer, snapshot or initial value was removed (TensorFlow could
// not import them otherwise).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace frost {

namespace {

/// Ops that may join the region from its outputs.
bool isPlumbingOp(llvm::StringRef Op) {
  return Op == "Identity" || Op == "NoOp" || Op == "Pack" || Op == "StringJoin" ||
         isAssignOp(Op) || isSaveRestoreOp(Op);
}

/// A variable's own reader (v/read, v/Read/ReadVariableOp).
bool isVariableRead(const Node &N) {
  if (N.op() == "ReadVariableOp")
    return true;
  return (N.op() == "Identity" || N.op() == "Snapshot") && N.numDataInputs() > 0 &&
         isAnyVariableOp(N.input(0).Src->op());
}

bool mayJoin(const Node &N) {
  if (isStateOp(N.op()) || N.op() == "Placeholder" || isVariableRead(N))
    return false;
  return N.numInputs() > 0 || N.op() == "Const" || N.op() == "NoOp";
}

/// "init", "init_1", "scope/init".
bool isInitializerName(llvm::StringRef Name) {
  llvm::StringRef Last = Name.rsplit('/').second.empty() ? Name : Name.rsplit('/').second;
  if (!Last.consume_front("init"))
    return false;
  if (Last.empty())
    return true;
  return Last.consume_front("_") && !Last.empty() &&
         llvm::all_of(Last, [](char C) { return C >= '0' && C <= '9'; });
}

/// The node part of a tensor or node name ("save/Const:0" -> "save/Const").
llvm::StringRef nodeNameOf(llvm::StringRef Text) {
  llvm::StringRef Name;
  int Port;
  bool Explicit;
  if (!parseInputName(Text, Name, Port, Explicit))
    return Text;
  return Name;
}

/// VariableDef collections (TensorFlow's registered proto functions).
bool isVariableCollection(llvm::StringRef Key) {
  static const llvm::StringRef Keys[] = {"variables",       "trainable_variables",
                                         "local_variables", "model_variables",
                                         "global_step",     "moving_average_variables",
                                         "metric_variables"};
  return llvm::is_contained(Keys, Key);
}

class StripSaveNodesPass : public Pass {
public:
  StripSaveNodesPass() = default;
  explicit StripSaveNodesPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  Option<bool> Initializers{
      *this, "initializers",
      "Also strip variable initializers (init, V/Assign, V/Initializer/...) no other node needs",
      true};
  ListOption<std::string> Outputs{
      *this, "outputs",
      "Nodes never removed, with what they need (the outputs the user named, a Saver's or an "
      "initializer's nodes included)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumRemoved{*this, "nodes-removed", "Nodes removed"};
  Statistic NumEntriesDropped{*this, "collection-entries-dropped",
                              "Collection entries dropped because they named removed nodes"};

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    tensorflow::MetaGraphDef *Meta = M.metaGraph();
    std::vector<char> InRegion(G.idBound()), IsRoot(G.idBound());
    std::vector<Node *> Region;

    auto addRoot = [&](Node *N) {
      if (!N || IsRoot[N->id()] || isStateOp(N->op()))
        return;
      IsRoot[N->id()] = true;
      if (!InRegion[N->id()]) {
        InRegion[N->id()] = true;
        Region.push_back(N);
      }
    };
    auto addSaverRoots = [&](const tensorflow::SaverDef &Saver) {
      for (const std::string *Name :
           {&Saver.filename_tensor_name(), &Saver.save_tensor_name(), &Saver.restore_op_name()})
        if (!Name->empty())
          addRoot(G.findNode(nodeNameOf(*Name)));
    };

    // 1. Roots.
    if (Meta && Meta->has_saver_def())
      addSaverRoots(Meta->saver_def());
    if (Meta)
      if (auto It = Meta->collection_def().find("savers"); It != Meta->collection_def().end())
        for (const std::string &Bytes : It->second.bytes_list().value()) {
          tensorflow::SaverDef Saver;
          if (Saver.ParseFromString(Bytes))
            addSaverRoots(Saver);
        }
    for (Node &N : G) {
      if (isSaveRestoreOp(N.op()))
        addRoot(&N);
      else if (*Initializers && isInitializerRoot(N))
        addRoot(&N);
    }

    // 2. Grow to a fixpoint; a pass over the region rarely needs a second.
    auto allUsersInRegion = [&](const Node &P, const Node *Except) {
      return P.hasUses() && llvm::all_of(P.uses(), [&](const Use &U) {
               return U.User == Except || InRegion[U.User->id()];
             });
    };
    // A data input may be about to join (save/Const and the save tensor
    // reading it wait on each other); a control input must be in already.
    auto inputsAllow = [&](const Node &C) {
      return llvm::all_of(C.inputs(), [&](const Input &In) {
        const Node &P = *In.Src;
        return InRegion[P.id()] || isStateOp(P.op()) ||
               (!In.isControl() && mayJoin(P) && allUsersInRegion(P, &C));
      });
    };
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (size_t I = 0; I < Region.size(); ++I) {
        Node *X = Region[I];
        auto join = [&](Node *N) {
          InRegion[N->id()] = true;
          Region.push_back(N);
          Changed = true;
        };
        for (const Input &In : X->inputs())
          if (!InRegion[In.Src->id()] && mayJoin(*In.Src) && allUsersInRegion(*In.Src, nullptr))
            join(In.Src);
        for (const Use &U : X->uses())
          if (!InRegion[U.User->id()] && isPlumbingOp(U.User->op()) && mayJoin(*U.User) &&
              inputsAllow(*U.User))
            join(U.User);
      }
    }

    // 3. Sinks that are values, not side effects, belong to the user.
    for (Node *X : Region) {
      if (X->hasUses() || IsRoot[X->id()] || isSaveRestoreOp(X->op()) || X->op() == "NoOp" ||
          isAssignOp(X->op()))
        continue;
      bool WaitsOnRegion = X->op() == "Identity" &&
                           llvm::any_of(X->controlInputs(), [&](const Input &In) {
                             return InRegion[In.Src->id()];
                           });
      if (!WaitsOnRegion)
        InRegion[X->id()] = false;
    }

    // 4. Whatever the rest of the graph or a signature needs stays.
    std::vector<char> Needed(G.idBound());
    std::vector<Node *> Work;
    auto need = [&](Node *N) {
      if (N && !Needed[N->id()]) {
        Needed[N->id()] = true;
        Work.push_back(N);
      }
    };
    for (Node &N : G)
      if (!InRegion[N.id()])
        need(&N);
    if (Meta)
      for (const auto &[Key, Signature] : Meta->signature_def())
        for (const auto *Map : {&Signature.inputs(), &Signature.outputs()})
          for (const auto &[Name, Info] : *Map)
            forEachTensorName(Info, [&](llvm::StringRef T) { need(G.findNode(nodeNameOf(T))); });
    for (const std::string &Name : *Outputs)
      need(G.findNode(nodeNameOf(Name)));
    while (!Work.empty()) {
      Node *N = Work.back();
      Work.pop_back();
      for (const Input &In : N->inputs())
        need(In.Src);
      if (const tensorflow::AttrValue *Class = N->findAttr("_class"))
        for (const std::string &Entry : Class->list().s())
          if (llvm::StringRef Target(Entry); Target.consume_front("loc:@"))
            need(G.findNode(Target));
    }

    llvm::StringSet<> Removed;
    for (Node *X : Region)
      if (InRegion[X->id()] && !Needed[X->id()])
        Removed.insert(X->name());
    if (Removed.empty())
      return absl::OkStatus();
    G.eraseNodesIf([&](const Node &N) { return InRegion[N.id()] && !Needed[N.id()]; });
    NumRemoved += Removed.size();
    if (Meta)
      cleanContainer(*Meta, Removed, Ctx);
    return absl::OkStatus();
  }

  bool isInitializerRoot(const Node &N) const {
    if (N.op() == "NoOp" && isInitializerName(N.name()))
      return true;
    // V/Assign: the initializer a VariableDef names.
    if (isAssignOp(N.op()) && N.numDataInputs() > 0) {
      const Node &Var = *N.input(0).Src;
      if (isAnyVariableOp(Var.op()) && N.name() == (Var.name() + "/Assign").str())
        return true;
    }
    return N.name().contains("/Initializer/");
  }

  static void forEachTensorName(const tensorflow::TensorInfo &Info,
                                llvm::function_ref<void(llvm::StringRef)> F) {
    if (!Info.name().empty())
      F(Info.name());
    if (Info.has_coo_sparse()) {
      F(Info.coo_sparse().values_tensor_name());
      F(Info.coo_sparse().indices_tensor_name());
      F(Info.coo_sparse().dense_shape_tensor_name());
    }
    for (const tensorflow::TensorInfo &Part : Info.composite_tensor().components())
      forEachTensorName(Part, F);
  }

  void cleanContainer(tensorflow::MetaGraphDef &Meta, const llvm::StringSet<> &Removed,
                      PassContext &Ctx) {
    auto removed = [&](const std::string &Text) {
      return !Text.empty() && Removed.contains(nodeNameOf(Text));
    };
    auto saverGone = [&](const tensorflow::SaverDef &S) {
      return removed(S.filename_tensor_name()) || removed(S.save_tensor_name()) ||
             removed(S.restore_op_name());
    };
    if (Meta.has_saver_def() && saverGone(Meta.saver_def())) {
      const tensorflow::SaverDef &S = Meta.saver_def();
      const std::string &Which = !S.restore_op_name().empty() ? S.restore_op_name()
                                 : !S.save_tensor_name().empty() ? S.save_tensor_name()
                                                                 : S.filename_tensor_name();
      Ctx.detail(name(), absl::StrCat("removed the Saver ('", Which, "') and cleared saver_def"));
      Meta.clear_saver_def();
    }

    // Sorted: the order of notes must not depend on the map's.
    auto &Collections = *Meta.mutable_collection_def();
    std::vector<std::string> Keys;
    for (const auto &Entry : Collections)
      Keys.push_back(Entry.first);
    llvm::sort(Keys);
    std::vector<std::string> Emptied;
    for (const std::string &Key : Keys) {
      tensorflow::CollectionDef &Collection = Collections[Key];
      llvm::StringRef K(Key);
      uint64_t Before = NumEntriesDropped.value();
      if (Collection.has_node_list()) {
        auto *Values = Collection.mutable_node_list()->mutable_value();
        int Size = Values->size();
        Values->erase(std::remove_if(Values->begin(), Values->end(), removed), Values->end());
        NumEntriesDropped += Size - Values->size();
      } else if (Collection.has_bytes_list() && (K == "savers" || isVariableCollection(K))) {
        auto *Values = Collection.mutable_bytes_list()->mutable_value();
        int Size = Values->size();
        Values->erase(std::remove_if(Values->begin(), Values->end(),
                                     [&](const std::string &Bytes) {
                                       if (K == "savers") {
                                         tensorflow::SaverDef S;
                                         return S.ParseFromString(Bytes) && saverGone(S);
                                       }
                                       tensorflow::VariableDef V;
                                       return V.ParseFromString(Bytes) &&
                                              (removed(V.variable_name()) ||
                                               removed(V.initializer_name()) ||
                                               removed(V.snapshot_name()) ||
                                               removed(V.initial_value_name()));
                                     }),
                      Values->end());
        NumEntriesDropped += Size - Values->size();
        if (K != "savers" && Values->size() != Size)
          Ctx.detail(name(), absl::StrCat("dropped ", Size - Values->size(), " of ", Size,
                                        " entries of collection '", Key,
                                        "' that named removed nodes"));
      }
      if (NumEntriesDropped.value() != Before &&
          ((Collection.has_node_list() && Collection.node_list().value().empty()) ||
           (Collection.has_bytes_list() && Collection.bytes_list().value().empty())))
        Emptied.push_back(Key);
    }
    for (const std::string &Key : Emptied)
      Collections.erase(Key);
  }
};

} // namespace

std::unique_ptr<Pass> createStripSaveNodesPass() { return std::make_unique<StripSaveNodesPass>(); }

std::unique_ptr<Pass> createStripSaveNodesPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<StripSaveNodesPass>(PassName::createStripSaveNodesPass, Options);
}

} // namespace frost
