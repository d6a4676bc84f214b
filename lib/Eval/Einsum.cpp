//===- Einsum.cpp - Einsum as TensorFlow's CPU kernel reduces it ----------===//
//
// TensorFlow's einsum_op_impl.h turns an Einsum of one or two operands into
// transposes, a sum and one batched matrix product. Labels are numbered by
// first appearance (inputs, then output) and typed: batch (in both inputs
// and the output), free (in one input and the output), contract (in both
// inputs only), reduce (in one input only). Each operand is transposed to
// [batch, free, contract, reduce] (kind, then number), or left as it is when
// it already reads [batch, contract, free, reduce] and the product is told
// to transpose it instead; its reduce labels are summed over (in order, as
// TensorFlow's reducer on [rest, reduce] does); two operands meet in one
// BatchMatMulV2 product [batch, free0, free1], which is transposed to the
// output's labels. Frost takes the same steps with its own kernels.
//
// Rounding: the transposes and, with one operand, the sums are TensorFlow's
// bit for bit. The product is MatMul.cpp's: float and double in Eigen's
// order, not TensorFlow's (last bits). TensorFlow multiplies half and
// bfloat16 operands in their own type (LaunchBatchMatMul<half>, rounding
// after each step of Eigen's blocked products); Frost multiplies them in
// float and rounds once, so those results differ by a few ulps of the
// largest output. Hence a run kernel, within the bounds
// scripts/compare_linalg_with_tf.py measures. An ellipsis stands for
// broadcast dims, which the product broadcasts as BatchMatMulV2 does.
// Repeated labels in one operand or the output (diagonals) are not computed
// (Unimplemented).
//
//===----------------------------------------------------------------------===//
#include "ArraySupport.h"

#include "llvm/ADT/StringExtras.h"

#include <map>
#include <numeric>

namespace frost::eval {

namespace {

// TensorFlow's EinsumHelper::DimensionType numbers.
enum Kind { Broadcast = 0, Batch = 1, Free = 2, Contract = 3, Reduce = 4 };

/// `In` transposed so that dim D of the result is dim Perm[D] of `In`.
absl::StatusOr<TensorData> transposed(const KernelContext &Ctx, const TensorData &In,
                                      llvm::ArrayRef<int> Perm) {
  bool Identity = true;
  for (size_t D = 0; D < Perm.size(); ++D)
    Identity &= Perm[D] == static_cast<int>(D);
  if (Identity)
    return In;
  std::vector<int64_t> Strides = stridesOf(In.shape()), Shape;
  std::vector<std::vector<int64_t>> Offsets;
  for (int P : Perm) {
    Shape.push_back(In.shape()[P]);
    std::vector<int64_t> O(In.shape()[P]);
    for (int64_t I = 0; I < In.shape()[P]; ++I)
      O[I] = I * Strides[P];
    Offsets.push_back(std::move(O));
  }
  return gatherIndexed(Ctx, In, 0, Offsets, std::move(Shape));
}

/// A kernel's refusal as the Einsum's own (its message without the
/// kernel's op name, its code).
absl::Status asEinsum(const KernelContext &Ctx, const absl::Status &S) {
  llvm::StringRef Message(S.message().data(), S.message().size());
  Message = Message.split(": ").second;
  return S.code() == absl::StatusCode::kInvalidArgument ? Ctx.invalid(Message)
         : S.code() == absl::StatusCode::kUnimplemented ? Ctx.unimplemented(Message)
                                                         : S;
}

/// Each row of `In` ([Rows, Columns]) summed in order, one rounding per
/// term: ReduceOperand's Eigen reduction of [rest, reduce] along its last
/// dim is sequential (unlike the Sum op's packets; measured against
/// TensorFlow 2.21), in the element type (bfloat16 in float, rounded once).
template <typename T, typename Acc = T>
TensorData sumRowsOf(const TensorData &In, int64_t Rows, int64_t Columns) {
  ElementsOf<T> X(In);
  OutputOf<T> Out({Rows});
  for (int64_t R = 0; R < Rows; ++R) {
    Acc Sum = Acc(0);
    for (int64_t C = 0; C < Columns; ++C)
      Sum = static_cast<Acc>(Sum + static_cast<Acc>(X[R * Columns + C]));
    Out[R] = static_cast<T>(Sum);
  }
  return std::move(Out).finish();
}

TensorData sumRows(const TensorData &In, int64_t Rows, int64_t Columns) {
  switch (In.dtype()) {
  case tensorflow::DT_FLOAT:
    return sumRowsOf<float>(In, Rows, Columns);
  case tensorflow::DT_DOUBLE:
    return sumRowsOf<double>(In, Rows, Columns);
  case tensorflow::DT_HALF:
    return sumRowsOf<Eigen::half>(In, Rows, Columns);
  case tensorflow::DT_BFLOAT16:
    return sumRowsOf<Eigen::bfloat16, float>(In, Rows, Columns);
  case tensorflow::DT_INT32: // Wrapping, as TensorFlow's sums do.
    return sumRowsOf<int32_t, uint32_t>(In, Rows, Columns);
  default:
    assert(In.dtype() == tensorflow::DT_INT64 && "Einsum's dtypes are checked first");
    return sumRowsOf<int64_t, uint64_t>(In, Rows, Columns);
  }
}

/// The product [batch, free0, free1] of two operands as BatchMatMulV2's
/// kernel computes it (half and bfloat16 in float, rounded once).
absl::StatusOr<TensorData> product(const KernelContext &Ctx, TensorData X, TensorData Y,
                                   bool AdjX, bool AdjY) {
  tensorflow::DataType DType = X.dtype();
  bool Narrow = DType == tensorflow::DT_HALF || DType == tensorflow::DT_BFLOAT16;
  auto Widen = [&](const TensorData &T) -> TensorData {
    OutputOf<float> F(shapeVector(T));
    if (DType == tensorflow::DT_HALF) {
      ElementsOf<Eigen::half> E(T);
      for (int64_t I = 0; I < F.size(); ++I)
        F[I] = static_cast<float>(E[I]);
    } else {
      ElementsOf<Eigen::bfloat16> E(T);
      for (int64_t I = 0; I < F.size(); ++I)
        F[I] = static_cast<float>(E[I]);
    }
    return std::move(F).finish();
  };
  if (Narrow) {
    X = Widen(X);
    Y = Widen(Y);
  }
  TensorData Operands[2] = {std::move(X), std::move(Y)};
  AttrMap Attrs;
  Attrs["T"].set_type(Operands[0].dtype());
  Attrs["adj_x"].set_b(AdjX);
  Attrs["adj_y"].set_b(AdjY);
  absl::StatusOr<Outputs> Result =
      evalBatchMatMulV2(KernelContext("BatchMatMulV2", Operands, Attrs));
  if (!Result.ok())
    return asEinsum(Ctx, Result.status());
  if (!Narrow)
    return (*Result)[0];
  ElementsOf<float> Z((*Result)[0]);
  std::vector<int64_t> Shape = shapeVector((*Result)[0]);
  if (DType == tensorflow::DT_HALF) {
    OutputOf<Eigen::half> Out(Shape);
    for (int64_t I = 0; I < Out.size(); ++I)
      Out[I] = static_cast<Eigen::half>(Z[I]);
    return std::move(Out).finish();
  }
  OutputOf<Eigen::bfloat16> Out(Shape);
  for (int64_t I = 0; I < Out.size(); ++I)
    Out[I] = static_cast<Eigen::bfloat16>(Z[I]);
  return std::move(Out).finish();
}

/// One operand as ReduceOperand leaves it: [batch..., free, contract] (or
/// [batch..., contract, free] when Swapped), its free labels in order.
struct ReducedOperand {
  TensorData Value;
  bool Swapped = false;
  std::vector<int> FreeLabels;
};

} // namespace

// TensorFlow's CPU registrations: float, double, half, bfloat16, int32,
// int64, complex64, complex128 (complex not computed here).
absl::StatusOr<Outputs> evalEinsum(const KernelContext &Ctx) {
  FROST_ASSIGN_OR_RETURN(std::string Equation, Ctx.stringAttr("equation"));
  if (Ctx.numInputs() < 1)
    return Ctx.invalid("Einsum takes at least one input");
  FROST_RETURN_IF_ERROR(checkSameDType(Ctx, 0, Ctx.numInputs()));
  size_t Arrow = Equation.find("->");
  if (Arrow == std::string::npos)
    return Ctx.unimplemented(absl::StrCat("equation '", Equation, "' without '->'"));
  llvm::SmallVector<llvm::StringRef, 2> InStrings;
  llvm::StringRef(Equation).substr(0, Arrow).split(InStrings, ',');
  llvm::StringRef OutString = llvm::StringRef(Equation).substr(Arrow + 2);
  if (InStrings.size() > 2)
    return Ctx.unimplemented(absl::StrCat("equation '", Equation, "' of more than two inputs"));
  if (InStrings.size() != Ctx.numInputs())
    return Ctx.invalid(
        absl::StrCat("Expected ", InStrings.size(), " inputs but got: ", Ctx.numInputs()));

  // Labels numbered by first appearance (inputs, then output); an ellipsis
  // stands for broadcast labels numbered after them, as many as its input's
  // rank leaves (left-aligned numbers, right-aligned broadcasting).
  constexpr int Ellipsis = -1;
  std::map<char, int> Id;
  bool Malformed = false;
  auto Number = [&](llvm::StringRef S) {
    std::vector<int> L;
    for (size_t I = 0; I < S.size(); ++I) {
      if (S[I] != '.') {
        L.push_back(Id.emplace(S[I], static_cast<int>(Id.size())).first->second);
        continue;
      }
      Malformed |= !S.substr(I).starts_with("...") || llvm::is_contained(L, Ellipsis);
      L.push_back(Ellipsis);
      I += 2;
    }
    return L;
  };
  std::vector<std::vector<int>> In;
  for (llvm::StringRef S : InStrings)
    In.push_back(Number(S));
  std::vector<int> Out = Number(OutString);
  if (Malformed)
    return Ctx.unimplemented(absl::StrCat("equation '", Equation, "' with a malformed ellipsis"));
  const int NumNamed = static_cast<int>(Id.size());
  auto Count = [](const std::vector<int> &L, int Label) {
    return static_cast<int>(std::count(L.begin(), L.end(), Label));
  };
  for (const std::vector<int> &L : In)
    for (int Label = 0; Label < NumNamed; ++Label)
      if (Count(L, Label) > 1)
        return Ctx.unimplemented("a label repeated in one input (a diagonal)");
  for (int Label = 0; Label < NumNamed; ++Label)
    if (Count(Out, Label) > 1)
      return Ctx.unimplemented("a label repeated in the output");
  std::vector<Kind> KindOf(NumNamed);
  for (int Label = 0; Label < NumNamed; ++Label) {
    bool Removed = Count(Out, Label) == 0;
    bool Unique = In.size() == 1 || !Count(In[0], Label) || !Count(In[1], Label);
    KindOf[Label] = !Removed ? (Unique ? Free : Batch) : (Unique ? Reduce : Contract);
  }
  for (int Label : Out)
    if (Label != Ellipsis && !Count(In[0], Label) && (In.size() < 2 || !Count(In[1], Label)))
      return Ctx.unimplemented("an output label that no input has");

  // ProcessDimensions: each named label's size (0 while unknown, as
  // TensorFlow records it), each ellipsis replaced by its broadcast labels.
  std::vector<int64_t> Size(NumNamed, 0);
  int MaxBroadcast = 0;
  for (size_t I = 0; I < In.size(); ++I) {
    const TensorData &T = Ctx.input(I);
    const int64_t Rank = static_cast<int64_t>(T.shape().size());
    std::vector<int> &L = In[I];
    auto EllipsisAt = std::find(L.begin(), L.end(), Ellipsis);
    const bool HasEllipsis = EllipsisAt != L.end();
    if (!HasEllipsis && Rank != static_cast<int64_t>(L.size()))
      return Ctx.invalid(absl::StrCat("Expected input ", I, " to have rank ", L.size(),
                                      " but got: ", Rank));
    if (HasEllipsis && Rank + 1 < static_cast<int64_t>(L.size()))
      return Ctx.invalid(absl::StrCat("Expected input ", I, " to have rank at least ",
                                      L.size() - 1, " but got: ", Rank));
    const int Broadcast = HasEllipsis ? static_cast<int>(Rank + 1 - L.size()) : 0;
    const size_t EllipsisAxis = EllipsisAt - L.begin();
    for (size_t A = 0; A < L.size(); ++A) {
      if (L[A] == Ellipsis)
        continue;
      const size_t Axis = A > EllipsisAxis && HasEllipsis ? A + Broadcast - 1 : A;
      int64_t &S = Size[L[A]];
      if (S != 0 && S != T.shape()[Axis])
        return Ctx.invalid(absl::StrCat("Expected dimension ", S, " at axis ", Axis,
                                        " of the input shaped ", shapeOf(T),
                                        " but got dimension ", T.shape()[Axis]));
      S = T.shape()[Axis];
    }
    if (HasEllipsis) {
      std::vector<int> Labels(Broadcast);
      std::iota(Labels.begin(), Labels.end(), NumNamed);
      EllipsisAt = L.erase(EllipsisAt);
      L.insert(EllipsisAt, Labels.begin(), Labels.end());
      MaxBroadcast = std::max(MaxBroadcast, Broadcast);
    }
  }
  if (auto At = std::find(Out.begin(), Out.end(), Ellipsis); At != Out.end()) {
    std::vector<int> Labels(MaxBroadcast);
    std::iota(Labels.begin(), Labels.end(), NumNamed);
    At = Out.erase(At);
    Out.insert(At, Labels.begin(), Labels.end());
  } else if (MaxBroadcast > 0) {
    return Ctx.invalid(absl::StrCat("Output contains ", MaxBroadcast,
                                    " broadcasting dimension(s) but no ellipsis (...) was "
                                    "found in the output subscripts."));
  }
  const int NumLabels = NumNamed + MaxBroadcast;
  KindOf.resize(NumLabels, Broadcast);

  FROST_RETURN_IF_ERROR(checkDType(Ctx, Ctx.input(0).dtype(),
                                   dtypeBit(tensorflow::DT_FLOAT) | dtypeBit(tensorflow::DT_DOUBLE) |
                                       dtypeBit(tensorflow::DT_HALF) |
                                       dtypeBit(tensorflow::DT_BFLOAT16) |
                                       dtypeBit(tensorflow::DT_INT32) |
                                       dtypeBit(tensorflow::DT_INT64)));

  // ReduceOperand: transpose, sum the reduce labels, reshape.
  std::vector<ReducedOperand> Reduced(In.size());
  for (size_t I = 0; I < In.size(); ++I) {
    std::vector<int> &L = In[I];
    auto SwappedRank = [&](int Label) {
      static const int Remap[] = {0, 1, 3, 2, 4};
      return std::make_pair(Remap[KindOf[Label]], Label);
    };
    ReducedOperand &R = Reduced[I];
    R.Swapped = true;
    for (size_t A = 0; A + 1 < L.size(); ++A)
      R.Swapped &= !(SwappedRank(L[A]) > SwappedRank(L[A + 1]));
    std::vector<int> Perm(L.size());
    std::iota(Perm.begin(), Perm.end(), 0);
    if (!R.Swapped)
      std::sort(Perm.begin(), Perm.end(), [&](int A, int B) {
        return std::make_pair(KindOf[L[A]], L[A]) < std::make_pair(KindOf[L[B]], L[B]);
      });
    FROST_ASSIGN_OR_RETURN(TensorData T, transposed(Ctx, Ctx.input(I), Perm));
    int64_t KindSize[5] = {1, 1, 1, 1, 1};
    std::vector<int64_t> Shape;
    for (size_t D = 0; D < Perm.size(); ++D) {
      int Label = L[Perm[D]];
      KindSize[KindOf[Label]] *= T.shape()[D];
      if (KindOf[Label] == Broadcast || KindOf[Label] == Batch)
        Shape.push_back(T.shape()[D]);
      else if (KindOf[Label] == Free)
        R.FreeLabels.push_back(Label);
    }
    int64_t Rest = KindSize[Broadcast] * KindSize[Batch] * KindSize[Free] * KindSize[Contract];
    if (KindSize[Reduce] != 1) {
      T = sumRows(T, Rest, KindSize[Reduce]);
    }
    Shape.push_back(R.Swapped ? KindSize[Contract] : KindSize[Free]);
    Shape.push_back(R.Swapped ? KindSize[Free] : KindSize[Contract]);
    R.Value = reshaped(T, Shape);
  }

  // ContractOperands: one operand is its own result, two meet in a product
  // that broadcasts their batch dims (MatMulBCast).
  TensorData Result = Reduced[0].Value;
  if (In.size() == 2) {
    llvm::ArrayRef<int64_t> X = Reduced[0].Value.shape(), Y = Reduced[1].Value.shape();
    if (!broadcastShapes(Ctx, X.drop_back(2), Y.drop_back(2)).ok())
      return Ctx.invalid(absl::StrCat("Invalid broadcasting dimensions: ", shapeString(X),
                                      " vs. ", shapeString(Y)));
    FROST_ASSIGN_OR_RETURN(Result, product(Ctx, Reduced[0].Value, Reduced[1].Value,
                                           Reduced[0].Swapped, !Reduced[1].Swapped));
  }
  // Its labels: the broadcast ones, the batch ones (by number), then each
  // operand's free ones.
  std::vector<int64_t> ResultShape(Result.shape().begin(), Result.shape().end() - 2);
  std::vector<int> ResultLabels;
  for (Kind K : {Broadcast, Batch})
    for (int Label = 0; Label < NumLabels; ++Label)
      if (KindOf[Label] == K)
        ResultLabels.push_back(Label);
  for (const ReducedOperand &R : Reduced)
    for (int Label : R.FreeLabels) {
      ResultLabels.push_back(Label);
      ResultShape.push_back(Size[Label]);
    }
  std::vector<int> Perm;
  for (int Label : Out)
    Perm.push_back(static_cast<int>(
        std::find(ResultLabels.begin(), ResultLabels.end(), Label) - ResultLabels.begin()));
  FROST_ASSIGN_OR_RETURN(TensorData Output,
                         transposed(Ctx, reshaped(Result, std::move(ResultShape)), Perm));
  return Outputs{std::move(Output)};
}

} // namespace frost::eval
