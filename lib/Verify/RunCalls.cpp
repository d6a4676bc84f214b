//===- RunCalls.cpp - The graph runner's function calls ------------------===//
//
// Function calls (PartitionedCall, StatefulPartitionedCall, a library
// function as op), If, Case and While: each runs the called function's body
// with another executor over the same run state (budget, containers,
// findings); a call nested too deep fails.
//
//===----------------------------------------------------------------------===//
#include "RunExecutor.h"

#include "frost/IR/OpClasses.h"
#include "frost/Tensor/DataType.h"
#include "frost/Tensor/Truth.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/ScopeExit.h"

namespace frost::verify::runner {

/// Calls nested deeper than this fail (a function that calls itself).
constexpr unsigned MaxCallDepth = 64;

bool Executor::callsFunction(llvm::StringRef Op) const {
  return isPartitionedCallOp(Op) || S.Functions.find(Op) || isIfOp(Op) || isCaseOp(Op) ||
         isWhileOp(Op);
}

absl::StatusOr<std::vector<TensorData>> Executor::call(const Node &Caller,
                                                       llvm::StringRef Function,
                                                       std::vector<TensorData> ArgValues) {
  const tensorflow::FunctionDef *F = S.Functions.find(Function);
  if (!F)
    return absl::InvalidArgumentError(
        absl::StrCat("calls function '", Function.str(), "', which the library does not define"));
  if (S.CallDepth >= MaxCallDepth)
    return absl::InvalidArgumentError(
        absl::StrCat("calls nested deeper than ", MaxCallDepth, " at function '", Function.str(),
                     "' (a function that calls itself?)"));
  auto &Body = S.Bodies[Function.str()];
  if (!Body) {
    absl::StatusOr<std::unique_ptr<StandaloneBody>> Made = instantiateStandalone(*F, S.Ops);
    if (!Made.ok())
      return absl::InvalidArgumentError(absl::StrCat("function '", Function.str(),
                                                     "' does not instantiate: ",
                                                     Made.status().message()));
    Body = *std::move(Made);
  }
  const tensorflow::OpDef &Sig = F->signature();
  if (static_cast<size_t>(Sig.input_arg_size()) != ArgValues.size())
    return absl::InvalidArgumentError(absl::StrCat("passes ", ArgValues.size(),
                                                   " arguments to function '", Function.str(),
                                                   "', which takes ", Sig.input_arg_size()));
  llvm::DenseMap<const Node *, TensorData> Bound;
  for (int I = 0; I < Sig.input_arg_size(); ++I)
    if (const Node *P = Body->Body.findNode(absl::StrCat("^", Sig.input_arg(I).name())))
      Bound[P] = std::move(ArgValues[I]);
  std::vector<const Node *> Targets;
  for (const TensorOf &R : Body->Copy.Returns)
    Targets.push_back(R.Src);
  std::vector<std::string> Path = Callers;
  Path.push_back(Caller.name().str());
  Executor Callee(Body->Body, S, std::move(Path), &Bound);
  ++S.CallDepth;
  absl::StatusOr<std::vector<Outcome>> Outcomes = Callee.run(Targets);
  --S.CallDepth;
  FROST_RETURN_IF_ERROR(Outcomes.status());
  std::vector<TensorData> Results;
  for (size_t I = 0; I < Targets.size(); ++I) {
    const Outcome &O = (*Outcomes)[I];
    int Port = Body->Copy.Returns[I].Port;
    if (O.K == Token::Failed) {
      CalleeBlame = O.Why;
      return absl::InternalError("callee failed");
    }
    if (O.K == Token::Dead || static_cast<size_t>(Port) >= O.Outputs.size() || !O.Outputs[Port])
      return absl::InvalidArgumentError(absl::StrCat("function '", Function.str(),
                                                     "' returns a dead tensor as output ", I));
    Results.push_back(*O.Outputs[Port]);
  }
  return Results;
}

absl::StatusOr<std::vector<TensorData>> Executor::computeCall(const Node &N,
                                                              std::vector<TensorData> Inputs) {
  llvm::StringRef Op = N.op();
  eval::EvalBudget &Budget = S.Budget;
  auto functionAttr = [&](llvm::StringRef Name) -> absl::StatusOr<std::string> {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || !A->has_func())
      return absl::InvalidArgumentError(absl::StrCat("has no function attribute '", Name.str(), "'"));
    return A->func().name();
  };
  if (isPartitionedCallOp(Op)) {
    FROST_ASSIGN_OR_RETURN(std::string F, functionAttr("f"));
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, F, std::move(Inputs)));
    return Out;
  }
  if (S.Functions.find(Op)) {
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, Op, std::move(Inputs)));
    return Out;
  }
  if (isIfOp(Op) || isCaseOp(Op)) {
    if (Inputs.empty())
      return absl::InvalidArgumentError("expected a predicate input");
    TensorData Selector = std::move(Inputs.front());
    Inputs.erase(Inputs.begin());
    std::string Branch;
    if (isIfOp(Op)) {
      std::optional<bool> Truth = truthOf(Selector);
      if (!Truth)
        return absl::InvalidArgumentError(absl::StrCat(
            "its cond is ", dataTypeName(Selector.dtype()), ", which TensorFlow cannot take as true or false"));
      FROST_ASSIGN_OR_RETURN(Branch, functionAttr(*Truth ? "then_branch" : "else_branch"));
    } else {
      const tensorflow::AttrValue *Branches = N.findAttr("branches");
      if (!Branches || Branches->list().func_size() == 0)
        return absl::InvalidArgumentError("has no branches");
      if (Selector.dtype() != tensorflow::DT_INT32 || !Selector.shape().empty())
        return absl::InvalidArgumentError("its branch_index must be an int32 scalar");
      int32_t Index = Selector.element<int32_t>(0);
      int Count = Branches->list().func_size();
      // Case runs its last branch for an index out of range.
      Branch = Branches->list().func(Index < 0 || Index >= Count ? Count - 1 : Index).name();
    }
    FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Out, call(N, Branch, std::move(Inputs)));
    return Out;
  }
  if (isWhileOp(Op)) {
    FROST_ASSIGN_OR_RETURN(std::string Cond, functionAttr("cond"));
    FROST_ASSIGN_OR_RETURN(std::string Body, functionAttr("body"));
    S.Loops.push_back({Prefix + N.name().str(), 0});
    auto Popped = llvm::make_scope_exit([&] { S.Loops.pop_back(); });
    for (int64_t Iteration = 0;; ++Iteration) {
      S.Loops.back().second = Iteration;
      FROST_ASSIGN_OR_RETURN(std::vector<TensorData> Predicate, call(N, Cond, Inputs));
      if (Predicate.empty())
        return absl::InvalidArgumentError(absl::StrCat("its cond '", Cond, "' returns nothing"));
      std::optional<bool> Truth = truthOf(Predicate[0]);
      if (!Truth)
        return absl::InvalidArgumentError(absl::StrCat(
            "its cond '", Cond, "' returns ", dataTypeName(Predicate[0].dtype()),
            ", which TensorFlow cannot take as true or false"));
      if (!*Truth)
        break;
      if (Budget.WorkLeft < NodeRunWork) {
        Budget.Exceeded = eval::EvalBudget::Limit::Work;
        return absl::ResourceExhaustedError(absl::StrCat(
            "the loop was still running at iteration ", Iteration,
            " when the evaluation budget ran out"));
      }
      Budget.WorkLeft -= NodeRunWork;
      FROST_ASSIGN_OR_RETURN(Inputs, call(N, Body, std::move(Inputs)));
    }
    return Inputs;
  }
  return absl::InternalError(absl::StrCat("op ", Op.str(), " calls no function"));
}

} // namespace frost::verify::runner
