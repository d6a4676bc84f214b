//===- Verifier.cpp - Structural checks of a graph ------------------------===//
#include "frost/IR/Verifier.h"

#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Graph.h"
#include "frost/IR/OpClasses.h"
#include "frost/IR/OpInfo.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace frost {

namespace {

std::string describe(const Node &N) {
  return absl::StrCat("node '", N.name().str(), "' (", N.op().str(), ")");
}

/// A back edge of a TF1 while loop: NextIteration feeds Merge.
bool isLoopBackEdge(const Node &Src) { return isNextIterationOp(Src.op()); }

void checkCycles(const Graph &G, std::vector<std::string> &Errors) {
  // Kahn's algorithm; what is never ready sits on (or behind) a cycle.
  std::vector<unsigned> Pending(G.idBound());
  std::vector<const Node *> Ready;
  for (const Node &N : G) {
    unsigned Count = 0;
    for (const Input &In : N.inputs())
      if (!isLoopBackEdge(*In.Src))
        ++Count;
    Pending[N.id()] = Count;
    if (Count == 0)
      Ready.push_back(&N);
  }
  size_t Visited = 0;
  while (!Ready.empty()) {
    const Node *N = Ready.back();
    Ready.pop_back();
    ++Visited;
    if (isLoopBackEdge(*N))
      continue;
    for (const Use &U : N->uses())
      if (--Pending[U.User->id()] == 0)
        Ready.push_back(U.User);
  }
  if (Visited == G.size())
    return;
  std::vector<std::string> Names;
  for (const Node &N : G)
    if (Pending[N.id()] != 0 && Names.size() < 8)
      Names.push_back(absl::StrCat("'", N.name().str(), "'"));
  Errors.push_back(absl::StrCat("cycle not broken by a NextIteration back edge, through ",
                                G.size() - Visited, " nodes including ",
                                absl::StrJoin(Names, ", ")));
}

} // namespace

absl::Status verifyGraph(const Graph &G) {
  std::vector<std::string> Errors;
  // Output counts per producer id: -2 not looked up yet, -1 unknown op.
  std::vector<int> Outputs(G.idBound(), -2);
  for (const Node &N : G) {
    bool SeenControl = false;
    for (unsigned I = 0; I < N.numInputs(); ++I) {
      const Input &In = N.input(I);
      if (&In.Src->graph() != &G) {
        Errors.push_back(absl::StrCat(describe(N), ": input ", I, " comes from another graph"));
        continue;
      }
      if (In.isControl()) {
        SeenControl = true;
        continue;
      }
      if (SeenControl)
        Errors.push_back(absl::StrCat(describe(N), ": data input ", I,
                                      " comes after a control input"));
      int &Count = Outputs[In.Src->id()];
      if (Count == -2)
        Count = numOutputs(*In.Src).value_or(-1);
      if (Count >= 0 && In.Port >= Count)
        Errors.push_back(absl::StrCat(describe(N), ": input ", I, " reads output ", In.Port,
                                      " of ", describe(*In.Src), ", which has ", Count,
                                      Count == 1 ? " output" : " outputs"));
    }
  }
  checkCycles(G, Errors);
  if (Errors.empty())
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(Errors, "\n"));
}

} // namespace frost
