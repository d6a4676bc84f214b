//===- RunExecutor.h - The graph runner's executor -------------*- C++ -*-===//
//
// The state of one run of GraphRunner and the executor over one graph (the
// top graph or a called function's body). Its parts live by concern:
// RunFrames.cpp schedules nodes through frames and iterations (TF1 loops,
// dead tensors), RunCalls.cpp runs function calls, If, Case and While,
// GraphRunner.cpp runs one node (its kernel, the budget) and the entry point.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_LIB_VERIFY_RUNEXECUTOR_H
#define FROST_LIB_VERIFY_RUNEXECUTOR_H

#include "RunContainers.h"
#include "RunTables.h"

#include "frost/Eval/Eval.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/OpRegistry.h"
#include "frost/Verify/GraphRunner.h"

#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace frost::verify::runner {

/// Work units each node run inside a loop or a function costs besides its
/// kernel: a loop of cheap nodes that never ends runs out of budget in
/// about as long as the budget's kernels would take.
constexpr uint64_t NodeRunWork = 100'000;

inline uint64_t bytesOf(const TensorData &V) {
  uint64_t Bytes = V.bytes().size();
  for (const std::string &E : V.elements())
    Bytes += E.size();
  return Bytes;
}

inline bool isEnterOp(llvm::StringRef Op) { return Op == "Enter" || Op == "RefEnter"; }
inline bool isExitOp(llvm::StringRef Op) { return Op == "Exit" || Op == "RefExit"; }

/// What travels on an edge: a value, a dead tensor (a branch not taken), or
/// the news that the producer (or one before it) could not run.
struct Token {
  enum Kind { Live, Dead, Failed } K = Dead;
  TensorData Value;
  std::shared_ptr<const NotComputed> Why;
};

/// The state of one run shared by the executors of its graph and of the
/// function bodies it calls.
struct RunState {
  RunState(const Graph &G, const RunRequest &Request)
      : Request(Request), Functions(G.library()), Budget(Request.Budget) {
    Ops.add(G.library());
    Ops.fallBackToStandardOps();
  }
  const RunRequest &Request;
  OpRegistry Ops;
  FunctionIndex Functions;
  std::map<std::string, std::unique_ptr<StandaloneBody>, std::less<>> Bodies;
  eval::EvalBudget Budget;
  /// Why the run stopped (a budget spent); OK while it goes on.
  absl::Status OverBudget;
  unsigned CallDepth = 0;
  /// The functional While loops running now, innermost last, with their
  /// iteration: what a budget that runs out inside their bodies names.
  std::vector<std::pair<std::string, int64_t>> Loops;
  std::map<std::string, std::set<std::string>> NoKernel;
  RunContainers Containers;
  RunTables Tables;
  /// The first initializer that failed (GraphRunner runs them before the
  /// fetches): a lookup in a table left empty blames it.
  std::shared_ptr<const NotComputed> InitFailed;
  uint64_t LiveBytes = 0;
  size_t NodesRun = 0;
};

struct Frame;

/// One iteration of a frame (the root frame has one).
struct Iteration {
  /// A node's inputs arrived so far.
  struct Pending {
    std::vector<Token> Data;
    std::vector<bool> Arrived;
    unsigned DataArrived = 0, DeadData = 0, ControlArrived = 0;
    bool ControlDead = false;
    std::shared_ptr<const NotComputed> ControlFailed;
    bool LiveOrFailedData = false;
    /// A Merge that ran ignores its later inputs.
    bool Fired = false;
  };
  Frame *Owner = nullptr;
  int64_t Index = 0;
  std::unordered_map<unsigned, Pending> Waiting;
  /// Waiting entries not run yet.
  size_t Unfinished = 0;
  /// Child frames entered from this iteration, by frame_name.
  std::map<std::string, std::unique_ptr<Frame>, std::less<>> Children;
};

struct Frame {
  std::string Name;
  Iteration *Parent = nullptr;
  std::vector<std::unique_ptr<Iteration>> Iterations;
  /// Values of constant Enters, given to every iteration.
  std::vector<std::pair<const Node *, Token>> Invariants;
  /// Exit nodes that gave the parent their value.
  std::set<unsigned> ExitsDone;
  /// Exit nodes that ran dead: their dead value leaves once the frame is done
  /// unless they ran live meanwhile.
  std::vector<const Node *> DeadExits;
  /// Why the loop stopped early: its LoopCond failed (no iteration can
  /// follow; its Exits fail).
  std::shared_ptr<const NotComputed> Poisoned;
};

struct WorkItem {
  Iteration *It;
  const Node *N;
  Iteration::Pending In;
};

/// What became of a node the caller asked for.
struct Outcome {
  bool Reached = false;
  Token::Kind K = Token::Dead;
  std::vector<std::optional<TensorData>> Outputs;
  std::shared_ptr<const NotComputed> Why;
};

class Executor {
public:
  /// `Args`: the values of a function body's argument placeholders.
  /// `Callers`: the call nodes this body runs under, outermost first.
  Executor(const Graph &G, RunState &S, std::vector<std::string> Callers,
           const llvm::DenseMap<const Node *, TensorData> *Args)
      : G(G), S(S), Callers(std::move(Callers)), Args(Args) {
    // A deep chain of calls is named by its ends.
    for (size_t I = 0; I < this->Callers.size(); ++I) {
      if (this->Callers.size() > 4 && I == 1)
        Prefix += ".../";
      if (this->Callers.size() <= 4 || I == 0 || I + 1 == this->Callers.size())
        Prefix += this->Callers[I] + "/";
    }
  }

  /// Runs what `Targets` need; the outcome of each, in order. Errors only
  /// when the run's budget is spent.
  absl::StatusOr<std::vector<Outcome>> run(llvm::ArrayRef<const Node *> Targets);

private:
  void execute(WorkItem W);
  absl::StatusOr<std::vector<std::optional<TensorData>>> compute(const Node &N,
                                                                 std::vector<TensorData> Inputs);
  /// Whether `Op` runs a function: a call, If, Case or While.
  bool callsFunction(llvm::StringRef Op) const;
  /// Runs such a node: the function it calls, the branch it takes, the loop.
  absl::StatusOr<std::vector<TensorData>> computeCall(const Node &N,
                                                      std::vector<TensorData> Inputs);
  absl::StatusOr<std::vector<TensorData>> call(const Node &Caller, llvm::StringRef Function,
                                               std::vector<TensorData> Args);
  absl::Status charge(const Node &N, const Iteration &It);
  /// Whether the run's feeds give N's value (the top-level graph only):
  /// then N runs as a source and what computes it is not needed.
  bool fed(const Node &N) const;
  std::shared_ptr<const NotComputed> blame(const Node &N, std::string Reason, bool NoKernel,
                                           bool OverLimit = false);

  /// Hands N's outputs (one token per port; `Control` for its control edges)
  /// to its consumers, in the iteration they belong to.
  void emit(Iteration *It, const Node &N, std::vector<Token> Outs, Token Control);
  void deliver(Iteration *It, const Node &Src, const Token &Out, const Token &Control);
  void deliverTo(Iteration *It, const Node &User, unsigned InputIndex, const Token &T);
  Iteration *iteration(Frame *F, int64_t Index);
  bool done(const Frame &F) const;
  /// Sends the dead Exits of frames that are done: whether any was.
  bool resolveDeadExits();

  const Graph &G;
  RunState &S;
  std::vector<std::string> Callers;
  /// Put before the names of this body's nodes: `call/`, `outer/.../inner/`.
  std::string Prefix;
  const llvm::DenseMap<const Node *, TensorData> *Args;
  std::vector<bool> Needed;
  std::vector<int> TargetIndex;
  std::vector<Outcome> Outcomes;
  Frame Root;
  std::deque<WorkItem> Ready;
  std::vector<Frame *> WithDeadExits;
  /// Set by call(): the body's node to blame for a call that failed.
  std::shared_ptr<const NotComputed> CalleeBlame;
};

} // namespace frost::verify::runner

#endif // FROST_LIB_VERIFY_RUNEXECUTOR_H
