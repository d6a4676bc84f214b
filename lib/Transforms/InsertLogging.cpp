//===- InsertLogging.cpp - Print nodes after chosen nodes ------------------===//
//
// graph_transforms' insert_logging: a debugging aid that makes the graph log
// tensors as it runs. After each chosen node that something reads (data or
// control), a `Print` named `<node>__print__` takes `<node>:0` and then every
// port of the node something reads (a control read counts as port 0), in
// ascending order, and every data reader of `<node>:0` reads the Print
// instead, so that it runs. Its message is `;<op>;` (show-op), then
// `;<print name>;` (show-name), then `message`; `first-n` and `summarize`
// are Print's attributes. A node is chosen when its op is one of `op` (all
// when none is given) and its name starts with one of `prefix` (all when
// none is given).
//
// Differences from TensorFlow, so that the result always imports:
// - Print's `U` lists the types of the tensors it takes (TensorFlow listed
//   every output of the node, a mismatch when some are not read);
// - a node whose output types Frost does not know (an op without an OpDef in
//   the model), or whose outputs are references, is not logged (warned);
// - a name already taken gets a suffix (`<node>__print___1`).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/EdgeTypes.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Support/Suggest.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"

#include <limits>
#include <set>

namespace frost {

namespace {

/// Nodes named in a warning before the rest are only counted.
constexpr size_t MaxNamed = 5;

class InsertLoggingPass : public Pass {
  ListOption<std::string> Ops{*this, "op", "Ops whose nodes are logged (all when none)"};
  ListOption<std::string> Prefixes{*this, "prefix",
                                   "Name prefixes of the nodes logged (all when none)"};
  Option<std::string> Message{*this, "message", "Text each Print writes first", ""};
  Option<bool> ShowName{*this, "show-name", "Start the message with `;<print name>;`", false};
  Option<bool> ShowOp{*this, "show-op", "Start the message with `;<op>;`", false};
  Option<int64_t> FirstN{*this, "first-n", "Print only this many times (-1: always)", -1};
  Option<int64_t> Summarize{*this, "summarize", "Elements printed per tensor", 1024};
  Statistic NumLogged{*this, "nodes-logged", "Nodes followed by a Print"};
  Statistic NumUnknown{*this, "nodes-not-logged",
                       "Chosen nodes not logged: output types unknown or references"};

  absl::Status validateOptions() const override {
    for (const Option<int64_t> *O : {&FirstN, &Summarize})
      if (**O < std::numeric_limits<int32_t>::min() || **O > std::numeric_limits<int32_t>::max())
        return absl::InvalidArgumentError(absl::StrCat(O->name().str(), "=", **O,
                                                       ": Print takes a 32-bit integer"));
    return absl::OkStatus();
  }

  bool chosen(const Node &N) const {
    if (!Ops->empty() && llvm::find(*Ops, N.op()) == Ops->end())
      return false;
    return Prefixes->empty() || llvm::any_of(*Prefixes, [&](const std::string &P) {
             return N.name().starts_with(P);
           });
  }

  /// The ports of N something reads, a control read as port 0.
  static std::set<int> portsRead(const Node &N) {
    std::set<int> Ports;
    for (const Use &U : N.uses()) {
      const Input &In = U.User->input(U.InputIndex);
      Ports.insert(In.isControl() ? 0 : In.Port);
    }
    return Ports;
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    const OpRegistry Registry = modelOpRegistry(M);
    std::vector<Node *> Order;
    std::vector<std::string> NotLogged;
    std::vector<Node *> Original;
    for (Node &N : G)
      Original.push_back(&N);
    for (Node *N : Original) {
      Order.push_back(N);
      std::set<int> Ports = portsRead(*N);
      if (Ports.empty() || !chosen(*N))
        continue;
      // Print's T is output 0's type, U the types of the ports it takes.
      const tensorflow::DataType First = outputDType(*N, 0, Registry);
      std::vector<tensorflow::DataType> Types;
      for (int Port : Ports)
        Types.push_back(outputDType(*N, Port, Registry));
      auto unusable = [](tensorflow::DataType T) {
        return T == tensorflow::DT_INVALID || T >= tensorflow::DT_FLOAT_REF;
      };
      if (unusable(First) || llvm::any_of(Types, unusable)) {
        NotLogged.push_back(absl::StrCat("'", N->name().str(), "' (", N->op().str(), ")"));
        ++NumUnknown;
        continue;
      }
      Node *Print = G.createNode(G.uniqueName(absl::StrCat(N->name().str(), "__print__")), "Print");
      // Readers of output 0 read the Print first, which then takes its inputs.
      N->replaceUsesOfOutput(0, Print, 0);
      Print->addDataInput(N, 0);
      for (int Port : Ports)
        Print->addDataInput(N, Port);
      std::string Text;
      if (*ShowOp)
        absl::StrAppend(&Text, ";", N->op().str(), ";");
      if (*ShowName)
        absl::StrAppend(&Text, ";", Print->name().str(), ";");
      absl::StrAppend(&Text, *Message);
      Print->attr("T").set_type(First);
      for (tensorflow::DataType T : Types)
        Print->attr("U").mutable_list()->add_type(T);
      Print->attr("message").set_s(Text);
      Print->attr("first_n").set_i(*FirstN);
      Print->attr("summarize").set_i(*Summarize);
      Order.push_back(Print);
      ++NumLogged;
    }
    G.reorder(Order);
    if (!NotLogged.empty()) {
      Ctx.warning(name(), absl::StrCat(NotLogged.size(),
                                       " node(s) not logged, their output types unknown "
                                       "(no OpDef in the model) or references: ",
                                       listFindings(NotLogged, MaxNamed)));
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createInsertLoggingPass() { return std::make_unique<InsertLoggingPass>(); }

} // namespace frost
