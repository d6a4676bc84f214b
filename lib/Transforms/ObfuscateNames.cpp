//===- ObfuscateNames.cpp - Short meaningless node names ------------------===//
//
// graph_transforms' obfuscate_names: every node not named by `inputs` or
// `outputs` gets the next base-62 number (digits, then a-z, then A-Z: "0" ..
// "Z", "10", ...), counted from 0 in graph order; numbers equal to a kept
// name are skipped. Inputs keep their `^` and port. Differences:
// - `x:0` or `^x` in inputs/outputs keeps node x (TensorFlow compares the raw
//   strings, so `--outputs=x:0` renamed x away); an output naming no node is
//   an error;
// - numbers equal to a library function's name are skipped as well, and
//   colocation attributes (`_class: loc:@x`) follow the renaming, which
//   TensorFlow left pointing at vanished names;
// - a MetaGraphDef or SavedModel is refused: its signatures, collections and
//   saver name nodes too.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Model.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/GraphInterface.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringMap.h"

namespace frost {

namespace {

std::string base62(uint64_t Value) {
  static constexpr llvm::StringRef Digits =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string Text;
  do {
    Text.insert(Text.begin(), Digits[Value % Digits.size()]);
    Value /= Digits.size();
  } while (Value > 0);
  return Text;
}

class ObfuscateNamesPass : public Pass {
  ListOption<std::string> Inputs{*this, "inputs", "Nodes keeping their names (the graph's inputs)"};
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes keeping their names (the graph's outputs)"};
  GraphEnds graphEnds() override { return {&Inputs, &Outputs}; }
  Statistic NumRenamed{*this, "nodes-renamed", "Nodes renamed"};

  absl::Status run(Model &M, PassContext &) override {
    if (M.kind() != ContainerKind::GraphDef)
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot rename the nodes of a ", containerKindName(M.kind()).str(),
          ": its signatures, collections and saver name them; give a frozen GraphDef"));
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Kept, interfaceNodeNames(G, *Inputs, *Outputs));
    llvm::StringSet<> Taken = Kept;
    for (const tensorflow::FunctionDef &F : G.library().function())
      Taken.insert(F.signature().name());

    // New names first: the old ones may be numbers a node gets.
    std::vector<std::pair<Node *, std::string>> Renames;
    uint64_t Counter = 0;
    for (Node &N : G) {
      if (Kept.contains(N.name()))
        continue;
      std::string NewName;
      do
        NewName = base62(Counter++);
      while (Taken.contains(NewName));
      Renames.push_back({&N, std::move(NewName)});
    }
    llvm::StringMap<std::string> NewNameOf;
    for (auto &[N, NewName] : Renames) {
      NewNameOf[N->name()] = NewName;
      NumRenamed += N->name() != NewName;
    }
    // Out of the way, then into place: no name is ever held twice.
    for (auto &[N, NewName] : Renames)
      G.renameNode(N, G.uniqueName(absl::StrCat("obfuscate-names.", N->id())));
    for (auto &[N, NewName] : Renames)
      G.renameNode(N, NewName);
    // Inputs are pointers and follow by themselves; colocations are text.
    for (Node &N : G) {
      auto It = N.mutableAttrs().find("_class");
      if (It == N.mutableAttrs().end())
        continue;
      for (std::string &Entry : *It->second.mutable_list()->mutable_s()) {
        llvm::StringRef Target(Entry);
        if (!Target.consume_front("loc:@"))
          continue;
        if (auto Found = NewNameOf.find(Target); Found != NewNameOf.end())
          Entry = absl::StrCat("loc:@", Found->second);
      }
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createObfuscateNamesPass() { return std::make_unique<ObfuscateNamesPass>(); }

} // namespace frost
