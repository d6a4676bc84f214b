//===- Select.cpp - Select, SelectV2 and ClipByValue ----------------------===//
//
// TensorFlow's cwise_op_select.cc (TF1 Select's row rule, SelectV2's
// broadcasting of all three operands) and cwise_op_clip.cc.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseSupport.h"

namespace frost::eval {

using namespace elementwise;

// --- Select and clipping -----------------------------------------------------

namespace {

/// Output element K of a select reads `Then`/`Else` at `Index[K]` (or K) and
/// the condition at `CondIndex[K]`.
struct SelectPlan {
  std::vector<int64_t> Shape;
  std::vector<int64_t> CondIndex, ThenIndex, ElseIndex;
};

template <typename T>
TensorData selectElements(const TensorData &Cond, const TensorData &Then, const TensorData &Else,
                          const SelectPlan &Plan, int64_t N) {
  ElementsOf<bool> C(Cond);
  ElementsOf<T> A(Then), B(Else);
  OutputOf<T> Out(Plan.Shape);
  for (int64_t K = 0; K < N; ++K)
    Out[K] = C[Plan.CondIndex[K]] ? A[Plan.ThenIndex[K]] : B[Plan.ElseIndex[K]];
  return std::move(Out).finish();
}

TensorData selectStrings(const TensorData &Cond, const TensorData &Then, const TensorData &Else,
                         const SelectPlan &Plan, int64_t N) {
  ElementsOf<bool> C(Cond);
  std::vector<std::string> Out(static_cast<size_t>(N));
  for (int64_t K = 0; K < N; ++K)
    Out[K] = C[Plan.CondIndex[K]] ? Then.elements()[Plan.ThenIndex[K]]
                                  : Else.elements()[Plan.ElseIndex[K]];
  return TensorData::strings(DT_STRING, Plan.Shape, std::move(Out));
}

/// Select's TF1 rules, checked in TensorFlow's order: a scalar condition
/// picks `then` or `else` whole; a vector condition beside a `then` of
/// another rank chooses rows (along dimension 0); otherwise all three have
/// one shape.
absl::StatusOr<SelectPlan> planSelect(const KernelContext &Ctx) {
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  auto SameThenElse = [&]() -> absl::Status {
    if (Then.shape() == Else.shape())
      return absl::OkStatus();
    return Ctx.invalid(absl::StrCat("'then' and 'else' must have the same size.  but received: ",
                                    shapeString(Then.shape()), " vs. ", shapeString(Else.shape())));
  };
  const bool ChoosesRows = Cond.shape().size() == 1 && Then.shape().size() != 1;
  if (Cond.shape().empty()) {
    FROST_RETURN_IF_ERROR(SameThenElse());
  } else if (ChoosesRows) {
    if (Then.shape().empty())
      return Ctx.invalid(absl::StrCat("'then' must be at least a vector, but saw shape: ",
                                      shapeString(Then.shape())));
    if (Then.shape()[0] != Cond.shape()[0])
      return Ctx.invalid(absl::StrCat(
          "Number of batches of 'then' must match size of 'cond', but saw: ", Then.shape()[0],
          " vs. ", Cond.shape()[0]));
    FROST_RETURN_IF_ERROR(SameThenElse());
  } else {
    for (int I : {1, 2})
      if (Ctx.input(I).shape() != Cond.shape())
        return Ctx.invalid(absl::StrCat(
            "Inputs to operation ", Ctx.op().str(), " of type ", Ctx.op().str(),
            " must have the same size and shape.  Input 0: ", shapeString(Cond.shape()), " != input ", I, ": ", shapeString(Ctx.input(I).shape())));
  }
  SelectPlan Plan;
  Plan.Shape = shapeOf(Then);
  int64_t N = Then.numElements();
  Plan.ThenIndex.resize(N);
  for (int64_t K = 0; K < N; ++K)
    Plan.ThenIndex[K] = K;
  Plan.ElseIndex = Plan.ThenIndex;
  if (Cond.shape().empty()) {
    Plan.CondIndex.assign(N, 0);
  } else if (ChoosesRows) {
    int64_t RowSize = Then.shape()[0] ? N / Then.shape()[0] : 0;
    Plan.CondIndex.resize(N);
    for (int64_t K = 0; K < N; ++K)
      Plan.CondIndex[K] = K / RowSize;
  } else {
    Plan.CondIndex = Plan.ThenIndex;
  }
  return Plan;
}

/// SelectV2: the three inputs broadcast together.
absl::StatusOr<SelectPlan> planSelectV2(const KernelContext &Ctx) {
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  absl::StatusOr<std::vector<int64_t>> ThenElse = broadcastShapes(Ctx, Then.shape(), Else.shape());
  absl::StatusOr<std::vector<int64_t>> All =
      ThenElse.ok() ? broadcastShapes(Ctx, Cond.shape(), *ThenElse) : ThenElse;
  if (!All.ok())
    return Ctx.invalid(absl::StrCat("condition ", shapeString(Cond.shape()), ", then ",
                                    shapeString(Then.shape()), ", and else ",
                                    shapeString(Else.shape()), " must be broadcastable"));
  SelectPlan Plan;
  Plan.Shape = std::move(*All);
  Plan.CondIndex = broadcastIndex(Cond.shape(), Plan.Shape);
  Plan.ThenIndex = broadcastIndex(Then.shape(), Plan.Shape);
  Plan.ElseIndex = broadcastIndex(Else.shape(), Plan.Shape);
  return Plan;
}

} // namespace

absl::StatusOr<Outputs> evalSelect(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &Cond = Ctx.input(0), &Then = Ctx.input(1), &Else = Ctx.input(2);
  if (Cond.dtype() != DT_BOOL)
    return Ctx.invalid(absl::StrCat("condition must be bool, got ", dataTypeName(Cond.dtype())));
  if (Then.dtype() != Else.dtype())
    return Ctx.invalid(
        absl::StrCat("'then' and 'else' of different dtypes: ", dataTypeName(Then.dtype()), " and ",
                     dataTypeName(Else.dtype())));
  bool IsV2 = Ctx.op() == "SelectV2";
  if (IsV2) {
    // Refuse a huge broadcast before planning it.
    absl::StatusOr<std::vector<int64_t>> Shape = broadcastShapes(Ctx, Then.shape(), Else.shape());
    if (Shape.ok())
      Shape = broadcastShapes(Ctx, Cond.shape(), *Shape);
    if (Shape.ok())
      FROST_RETURN_IF_ERROR(checkedOutputSize(Ctx, *Shape, 8).status());
  }
  FROST_ASSIGN_OR_RETURN(SelectPlan Plan, IsV2 ? planSelectV2(Ctx) : planSelect(Ctx));
  int64_t N = static_cast<int64_t>(Plan.ThenIndex.size());
  if (Then.dtype() == DT_STRING)
    return Outputs{selectStrings(Cond, Then, Else, Plan, N)};
  return dispatch<AllFixed>(Ctx, Then.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
    using T = typename decltype(Tag)::type;
    return Outputs{selectElements<T>(Cond, Then, Else, Plan, N)};
  });
}

// ClipByValue: max(min(t, clip_value_max), clip_value_min), each bound a
// scalar or of t's shape.
absl::StatusOr<Outputs> evalClipByValue(const KernelContext &Ctx) {
  FROST_RETURN_IF_ERROR(Ctx.checkNumInputs(3));
  const TensorData &X = Ctx.input(0), &Lo = Ctx.input(1), &Hi = Ctx.input(2);
  if (Lo.dtype() != X.dtype() || Hi.dtype() != X.dtype())
    return Ctx.invalid("t, clip_value_min and clip_value_max of different dtypes");
  auto Fits = [&](const TensorData &Bound) {
    return Bound.shape() == X.shape() || Bound.shape().empty();
  };
  if (!Fits(Lo) || !Fits(Hi))
    return Ctx.invalid(absl::StrCat("clip_value_min and clip_value_max must be either of the "
                                    "same shape as input, or a "
                                    "scalar. input shape: ",
                                    shapeString(X.shape()),
                                    "clip_value_min shape: ", shapeString(Lo.shape()),
                                    "clip_value_max shape: ", shapeString(Hi.shape())));
  return dispatch < Floats | SignedInts | UInt8 |
         UInt16 > (Ctx, X.dtype(), [&](auto Tag) -> absl::StatusOr<Outputs> {
           using T = typename decltype(Tag)::type;
           ElementsOf<T> V(X), L(Lo), H(Hi);
           bool ScalarLo = Lo.shape().empty(), ScalarHi = Hi.shape().empty();
           OutputOf<T> Out(shapeOf(X));
           for (int64_t K = 0; K < Out.size(); ++K)
             Out[K] = std::max(std::min(V[K], H[ScalarHi ? 0 : K]), L[ScalarLo ? 0 : K]);
           return Outputs{std::move(Out).finish()};
         });
}

} // namespace frost::eval
