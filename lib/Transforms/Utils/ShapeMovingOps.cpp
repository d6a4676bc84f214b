//===- ShapeMovingOps.cpp - Shapes of the ops that rearrange them ---------===//
//
// TensorFlow's shape functions for Reshape and the shape-moving ops, whose
// output shape depends on the values of their constant operands: rules for
// partly known shapes (as TensorFlow carries unknown dimensions through),
// and otherwise lib/Eval's kernel run on zeros of the data operands' fully
// known shapes (the kernel refuses what TensorFlow refuses, masks and -1
// included).
//
//===----------------------------------------------------------------------===//
#include "ShapeRules.h"

#include "frost/Eval/Eval.h"
#include "frost/Tensor/DataType.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace frost::shape_rules {

namespace {

/// Zero operands larger than this (bytes, all together) are not built: the
/// shape stays unknown.
constexpr int64_t MaxZeroOperandBytes = int64_t(64) << 20;

/// Reshape: the shape operand's value, with a -1 resolved when the element
/// count is known.
std::optional<Shapes> reshape(const Operands &In) {
  if (!In.value(1)) {
    // A computed shape: its length is the rank.
    const PartialShape Length = In.shape(1);
    if (Length.rankKnown() && Length.rank() == 1 && Length.dims()[0] >= 0 &&
        Length.dims()[0] <= MaxRank)
      return Shapes{PartialShape::ofRank(Length.dims()[0])};
    return std::nullopt;
  }
  std::optional<std::vector<int64_t>> Target = intsOf(In, 1);
  if (!Target || In.value(1)->shape().size() != 1 ||
      static_cast<int64_t>(Target->size()) > MaxRank)
    return std::nullopt;
  std::vector<int64_t> Dims = std::move(*Target);
  const PartialShape X = In.shape(0);
  if (X.fullyDefined() && std::count(Dims.begin(), Dims.end(), -1) == 1) {
    int64_t Count = 1, Known = 1;
    for (int64_t D : X.dims())
      Count = mulDims(Count, D);
    for (int64_t D : Dims)
      if (D != -1)
        Known = mulDims(Known, D);
    if (Count < 0 || Known <= 0 || Count % Known != 0)
      return std::nullopt;
    *std::find(Dims.begin(), Dims.end(), -1) = Count / Known;
  } else if (X.fullyDefined() && std::count(Dims.begin(), Dims.end(), -1) == 0) {
    // TensorFlow refuses a reshape that changes the element count.
    int64_t Count = 1, Target = 1;
    for (int64_t D : X.dims())
      Count = mulDims(Count, D);
    for (int64_t D : Dims)
      Target = mulDims(Target, D);
    if (Count < 0 || Count != Target)
      return std::nullopt;
  }
  for (int64_t D : Dims)
    if (D < -1)
      return std::nullopt;
  return Shapes{PartialShape(std::move(Dims))};
}

/// X without the dimensions `Axes` (reduced, or squeezed: `MustBeOnes`), or
/// with 1 in their place (`KeepAsOnes`); nullopt for an axis out of range
/// or a squeezed dimension known not to be 1.
std::optional<Shapes> withoutAxes(const PartialShape &X, llvm::ArrayRef<int64_t> Axes,
                                  bool KeepAsOnes, bool MustBeOnes) {
  std::vector<bool> Listed(static_cast<size_t>(X.rank()));
  for (int64_t A : Axes) {
    std::optional<int64_t> Axis = axisIn(A, X.rank());
    if (!Axis || (MustBeOnes && X.dims()[*Axis] >= 0 && X.dims()[*Axis] != 1))
      return std::nullopt;
    Listed[*Axis] = true;
  }
  std::vector<int64_t> Out;
  for (int64_t I = 0; I < X.rank(); ++I)
    if (!Listed[I])
      Out.push_back(X.dims()[I]);
    else if (KeepAsOnes)
      Out.push_back(1);
  return Shapes{PartialShape(std::move(Out))};
}

/// The rules for partly known shapes of the shape-moving ops TensorFlow's
/// shape functions also carry unknown dimensions through; nullopt where the
/// rule needs more (the caller then tries the kernel on zeros).
std::optional<Shapes> movedShape(const Operands &In) {
  const llvm::StringRef Op = In.N.op();
  const PartialShape X = In.shape(0);
  auto Dims = [&] { return std::vector<int64_t>(X.dims().begin(), X.dims().end()); };
  static const llvm::StringSet<> Reductions = {"Sum", "Mean", "Prod", "Max", "Min",
                                               "All", "Any", "ArgMax", "ArgMin"};
  if (Reductions.contains(Op)) {
    std::optional<std::vector<int64_t>> Axes = intsOf(In, 1);
    if (!X.rankKnown() || !Axes)
      return std::nullopt;
    const bool Arg = Op.starts_with("Arg"), Keep = !Arg && In.boolAttr("keep_dims");
    if (Arg && Axes->size() != 1)
      return std::nullopt;
    return withoutAxes(X, *Axes, /*KeepAsOnes=*/Keep, /*MustBeOnes=*/false);
  }
  if (Op == "Transpose") {
    std::optional<std::vector<int64_t>> Perm = intsOf(In, 1);
    if (!X.rankKnown() || !Perm || static_cast<int64_t>(Perm->size()) != X.rank())
      return std::nullopt;
    std::vector<int64_t> Out;
    std::vector<bool> Seen(static_cast<size_t>(X.rank()));
    for (int64_t P : *Perm) {
      if (P < 0 || P >= X.rank() || Seen[P])
        return std::nullopt; // Not a permutation: TensorFlow refuses it.
      Seen[P] = true;
      Out.push_back(X.dims()[P]);
    }
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "ExpandDims") {
    std::optional<std::vector<int64_t>> Axis = intsOf(In, 1);
    std::optional<int64_t> At =
        X.rankKnown() && Axis && Axis->size() == 1 ? axisIn((*Axis)[0], X.rank() + 1) : std::nullopt;
    if (!At)
      return std::nullopt;
    std::vector<int64_t> Out = Dims();
    Out.insert(Out.begin() + *At, 1);
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "Squeeze") {
    std::vector<int64_t> Axes = In.intsAttr("squeeze_dims", {});
    if (!X.rankKnown() || Axes.empty())
      return std::nullopt; // Which dimensions go depends on unknown ones.
    return withoutAxes(X, Axes, /*KeepAsOnes=*/false, /*MustBeOnes=*/true);
  }
  if (Op == "ConcatV2" || Op == "Pack") {
    const bool IsPack = Op == "Pack";
    const unsigned Parts = IsPack ? In.size() : In.size() - 1;
    // Every part of one rank; dimensions other than the axis agree, along
    // it they add up.
    const PartialShape Part = In.shape(0);
    for (unsigned I = 0; I < Parts; ++I)
      if (!In.shape(I).rankKnown() || In.shape(I).rank() != Part.rank())
        return std::nullopt;
    if (Parts == 0 || !Part.rankKnown())
      return std::nullopt;
    std::optional<std::vector<int64_t>> AxisValue;
    if (IsPack)
      AxisValue = std::vector<int64_t>{In.intAttr("axis", 0)};
    else
      AxisValue = intsOf(In, In.size() - 1);
    const int64_t Rank = Part.rank() + (IsPack ? 1 : 0);
    std::optional<int64_t> Axis =
        AxisValue && AxisValue->size() == 1 ? axisIn((*AxisValue)[0], Rank) : std::nullopt;
    if (!Axis)
      return std::nullopt;
    std::vector<int64_t> Out(static_cast<size_t>(Part.rank()), -1);
    int64_t Along = 0;
    for (unsigned I = 0; I < Parts; ++I) {
      const PartialShape S = In.shape(I);
      for (int64_t D = 0; D < Part.rank(); ++D) {
        const int64_t V = S.dims()[D];
        if (!IsPack && D == *Axis) {
          Along = addDims(Along, V);
        } else if (V >= 0) {
          if (Out[D] >= 0 && Out[D] != V)
            return std::nullopt;
          Out[D] = V;
        }
      }
    }
    if (IsPack)
      Out.insert(Out.begin() + *Axis, static_cast<int64_t>(Parts));
    else
      Out[*Axis] = Along;
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "Pad" || Op == "PadV2" || Op == "MirrorPad" || Op == "Tile") {
    std::optional<std::vector<int64_t>> V = intsOf(In, 1);
    const bool IsTile = Op == "Tile";
    if (!X.rankKnown() || !V ||
        static_cast<int64_t>(V->size()) != X.rank() * (IsTile ? 1 : 2) ||
        In.value(1)->shape().size() != (IsTile ? 1u : 2u))
      return std::nullopt;
    std::vector<int64_t> Out = Dims();
    for (int64_t I = 0; I < X.rank(); ++I) {
      if (Out[I] < 0)
        continue;
      if ((IsTile ? (*V)[I] : std::min((*V)[2 * I], (*V)[2 * I + 1])) < 0)
        return std::nullopt; // TensorFlow refuses negative multiples and paddings.
      Out[I] = IsTile ? mulDims(Out[I], (*V)[I])
                      : addDims(Out[I], addDims((*V)[2 * I], (*V)[2 * I + 1]));
      if (Out[I] < 0)
        return std::nullopt;
    }
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "SpaceToBatchND" || Op == "BatchToSpaceND") {
    std::optional<std::vector<int64_t>> Block = intsOf(In, 1), Pads = intsOf(In, 2);
    if (!X.rankKnown() || !Block || !Pads || Pads->size() != 2 * Block->size() ||
        X.rank() < static_cast<int64_t>(Block->size()) + 1)
      return std::nullopt;
    const bool ToBatch = Op == "SpaceToBatchND";
    std::vector<int64_t> Out = Dims();
    int64_t Product = 1;
    for (size_t I = 0; I < Block->size(); ++I) {
      const int64_t B = (*Block)[I], D = Out[I + 1];
      const int64_t Edges = addDims((*Pads)[2 * I], (*Pads)[2 * I + 1]);
      Product = mulDims(Product, B);
      if (B <= 0 || Edges < 0 || Product < 0)
        return std::nullopt;
      if (D < 0)
        continue;
      if (ToBatch) {
        const int64_t Padded = addDims(D, Edges);
        if (Padded < 0 || Padded % B != 0)
          return std::nullopt;
        Out[I + 1] = Padded / B;
      } else {
        const int64_t Grown = mulDims(D, B);
        if (Grown < Edges)
          return std::nullopt;
        Out[I + 1] = Grown - Edges;
      }
    }
    if (Out[0] >= 0) {
      if (!ToBatch && Out[0] % Product != 0)
        return std::nullopt;
      Out[0] = ToBatch ? mulDims(Out[0], Product) : Out[0] / Product;
      if (Out[0] < 0)
        return std::nullopt;
    }
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "GatherV2") {
    const PartialShape Indices = In.shape(1);
    std::optional<std::vector<int64_t>> AxisValue = intsOf(In, 2);
    if (!X.rankKnown() || !Indices.rankKnown() || !AxisValue || AxisValue->size() != 1 ||
        In.intAttr("batch_dims", 0) != 0)
      return std::nullopt;
    std::optional<int64_t> Axis = axisIn((*AxisValue)[0], X.rank());
    if (!Axis)
      return std::nullopt;
    std::vector<int64_t> Out(X.dims().begin(), X.dims().begin() + *Axis);
    Out.insert(Out.end(), Indices.dims().begin(), Indices.dims().end());
    Out.insert(Out.end(), X.dims().begin() + *Axis + 1, X.dims().end());
    return Shapes{PartialShape(std::move(Out))};
  }
  if (Op == "Unpack") {
    const int64_t Count = In.intAttr("num", -1);
    if (!X.rankKnown() || Count < 0 || Count > MaxOutputs)
      return std::nullopt;
    const int64_t Axis = axisIn(In.intAttr("axis", 0), X.rank()).value_or(-1);
    if (Axis < 0 || (X.dims()[Axis] >= 0 && X.dims()[Axis] != Count))
      return std::nullopt; // TensorFlow refuses num != the dimension.
    std::vector<int64_t> Out = Dims();
    Out.erase(Out.begin() + Axis);
    return Shapes(static_cast<size_t>(Count), PartialShape(std::move(Out)));
  }
  if (Op == "Split") {
    const PartialShape Value = In.shape(1);
    std::optional<std::vector<int64_t>> AxisValue = intsOf(In, 0);
    const int64_t Count = In.intAttr("num_split", -1);
    std::optional<int64_t> Axis = Value.rankKnown() && AxisValue && AxisValue->size() == 1
                                      ? axisIn((*AxisValue)[0], Value.rank())
                                      : std::nullopt;
    if (!Axis || Count <= 0 || Count > MaxOutputs)
      return std::nullopt;
    std::vector<int64_t> Out(Value.dims().begin(), Value.dims().end());
    if (Out[*Axis] >= 0) {
      if (Out[*Axis] % Count != 0)
        return std::nullopt;
      Out[*Axis] /= Count;
    }
    return Shapes(static_cast<size_t>(Count), PartialShape(std::move(Out)));
  }
  return std::nullopt;
}

/// The shape-moving ops run on zeros: the attribute naming the dtype of the
/// data operands (none: bool), and which operands only lend their shape.
enum class DataOperands { First, Second, AllButLast, AllButFirst, All };
struct ShapeMover {
  const char *TypeAttr;
  DataOperands Data;
};

const ShapeMover *shapeMover(llvm::StringRef Op) {
  using D = DataOperands;
  static const llvm::StringMap<ShapeMover> Ops = {
      {"Transpose", {"T", D::First}},       {"StridedSlice", {"T", D::First}},
      {"Slice", {"T", D::First}},           {"ExpandDims", {"T", D::First}},
      {"Squeeze", {"T", D::First}},         {"Tile", {"T", D::First}},
      {"Pad", {"T", D::First}},             {"PadV2", {"T", D::First}},
      {"MirrorPad", {"T", D::First}},       {"ReverseV2", {"T", D::First}},
      {"BroadcastTo", {"T", D::First}},     {"GatherV2", {"Tparams", D::First}},
      {"Sum", {"T", D::First}},             {"Mean", {"T", D::First}},
      {"Prod", {"T", D::First}},            {"Max", {"T", D::First}},
      {"Min", {"T", D::First}},             {"All", {"", D::First}},
      {"Any", {"", D::First}},          {"ArgMax", {"T", D::First}},
      {"ArgMin", {"T", D::First}},          {"Unpack", {"T", D::First}},
      {"SplitV", {"T", D::First}},          {"Split", {"T", D::Second}},
      {"ConcatV2", {"T", D::AllButLast}},   {"Concat", {"T", D::AllButFirst}},
      {"Pack", {"T", D::All}},
  };
  auto It = Ops.find(Op);
  return It == Ops.end() ? nullptr : &It->second;
}

bool isDataOperand(DataOperands Data, unsigned I, unsigned Count) {
  switch (Data) {
  case DataOperands::First:
    return I == 0;
  case DataOperands::Second:
    return I == 1;
  case DataOperands::AllButLast:
    return I + 1 < Count;
  case DataOperands::AllButFirst:
    return I > 0;
  case DataOperands::All:
    return true;
  }
  return false;
}

/// The output shapes of a shape-moving op from its kernel run on zeros of
/// its data operands' shapes (known exactly) and its other operands' values.
std::optional<Shapes> byEvaluatingOnZeros(const Operands &In, const ShapeMover &Mover) {
  std::optional<tensorflow::DataType> Type =
      *Mover.TypeAttr ? In.typeAttr(Mover.TypeAttr) : tensorflow::DT_BOOL;
  if (!Type)
    return std::nullopt;
  std::vector<TensorData> Args;
  int64_t Bytes = 0;
  for (unsigned I = 0; I < In.size(); ++I) {
    if (const TensorData *V = In.value(I)) {
      Args.push_back(*V);
      continue;
    }
    const PartialShape S = In.shape(I);
    if (!isDataOperand(Mover.Data, I, In.size()) || !S.fullyDefined())
      return std::nullopt;
    int64_t Count = 1;
    for (int64_t D : S.dims())
      Count = D == 0 || Count <= MaxZeroOperandBytes / D ? Count * D : MaxZeroOperandBytes + 1;
    const size_t Size = dataTypeSize(*Type);
    if (Size == 0 || Count > (MaxZeroOperandBytes - Bytes) / static_cast<int64_t>(Size))
      return std::nullopt;
    Bytes += Count * static_cast<int64_t>(Size);
    Args.push_back(TensorData::owned(*Type, std::vector<int64_t>(S.dims().begin(), S.dims().end()),
                                     std::string(static_cast<size_t>(Count) * Size, '\0')));
  }
  absl::StatusOr<std::vector<TensorData>> Out = eval::evaluate(In.N.op(), Args, In.N.attrs());
  if (!Out.ok())
    return std::nullopt;
  Shapes Result;
  for (const TensorData &T : *Out)
    Result.push_back(PartialShape(std::vector<int64_t>(T.shape().begin(), T.shape().end())));
  return Result;
}

} // namespace

std::optional<Shapes> inferShapeMovingOp(const Operands &In) {
  if (In.N.op() == "Reshape")
    return reshape(In);
  if (std::optional<Shapes> Moved = movedShape(In))
    return Moved;
  if (const ShapeMover *Mover = shapeMover(In.N.op()))
    return byEvaluatingOnZeros(In, *Mover);
  return std::nullopt;
}

} // namespace frost::shape_rules
