//===- ShapeInference.cpp - Static shapes of a node's outputs -------------===//
//
// TensorFlow's shape functions (core/ops/*_ops.cc, common_shape_fns) for the
// ops of inference graphs. Three kinds of rule:
// - declared shapes: placeholders;
// - arithmetic on shapes: elementwise ops (same shape, or broadcast),
//   matrix products, convolutions and pooling, batch norms;
// - the shape-moving ops (Reshape, Transpose, StridedSlice, ConcatV2, Pad,
//   reductions, ...): their output shape depends on the values of their
//   constant operands, so lib/Eval's kernel runs on zeros of the data
//   operands' fully known shapes, and its output shape is the answer (the
//   kernel refuses what TensorFlow refuses, masks and -1 included).
//
//===----------------------------------------------------------------------===//
#include "frost/Transforms/Utils/ShapeInference.h"

#include "frost/Eval/Eval.h"
#include "frost/Tensor/DataType.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace frost {

bool PartialShape::fullyDefined() const {
  return Dims && std::none_of(Dims->begin(), Dims->end(), [](int64_t D) { return D < 0; });
}

namespace {

using Shapes = std::vector<PartialShape>;

/// TensorFlow's largest rank (TensorShape), and the most outputs a rule
/// lists (Split, Unpack): beyond, hostile graphs could make Frost allocate
/// without bound.
constexpr int64_t MaxRank = 254;
constexpr int64_t MaxOutputs = int64_t(1) << 16;

/// Zero operands larger than this (bytes, all together) are not built: the
/// shape stays unknown.
constexpr int64_t MaxZeroOperandBytes = int64_t(64) << 20;

/// The node being inferred, its operands' shapes and known values.
class Operands {
public:
  Operands(const Node &N, ShapeOfFn ShapeOf, ValueOfFn ValueOf)
      : N(N), ShapeOf(ShapeOf), ValueOf(ValueOf) {}

  unsigned size() const { return N.numDataInputs(); }
  PartialShape shape(unsigned I) const {
    if (I >= size())
      return PartialShape();
    if (const TensorData *V = value(I))
      return PartialShape(std::vector<int64_t>(V->shape().begin(), V->shape().end()));
    const Input &In = N.dataInputs()[I];
    return ShapeOf(*In.Src, In.Port);
  }
  const TensorData *value(unsigned I) const {
    if (I >= size())
      return nullptr;
    const Input &In = N.dataInputs()[I];
    return ValueOf(*In.Src, In.Port);
  }

  llvm::StringRef stringAttr(std::string_view Name, llvm::StringRef Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->value_case() == tensorflow::AttrValue::kS ? llvm::StringRef(A->s()) : Default;
  }
  bool boolAttr(std::string_view Name) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->b();
  }
  /// A list(int) attribute, or `Default` when absent.
  std::vector<int64_t> intsAttr(std::string_view Name, std::vector<int64_t> Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || !A->has_list() || A->list().i_size() == 0)
      return Default;
    return std::vector<int64_t>(A->list().i().begin(), A->list().i().end());
  }
  int64_t intAttr(std::string_view Name, int64_t Default) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A && A->value_case() == tensorflow::AttrValue::kI ? A->i() : Default;
  }
  std::optional<tensorflow::DataType> typeAttr(std::string_view Name) const {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    if (!A || A->value_case() != tensorflow::AttrValue::kType)
      return std::nullopt;
    return A->type();
  }

  const Node &N;

private:
  ShapeOfFn ShapeOf;
  ValueOfFn ValueOf;
};

/// A + B and A * B of dimensions (hostile graphs carry any integers):
/// unknown (-1) when either is unknown or negative, or the result overflows.
int64_t addDims(int64_t A, int64_t B) {
  int64_t R;
  return A < 0 || B < 0 || __builtin_add_overflow(A, B, &R) ? -1 : R;
}
int64_t mulDims(int64_t A, int64_t B) {
  int64_t R;
  return A < 0 || B < 0 || __builtin_mul_overflow(A, B, &R) ? -1 : R;
}

/// Two partial shapes broadcast together (BroadcastBinaryOpOutputShapeFn):
/// a 1 takes the other side's dimension, known or not; an unknown dimension
/// beside a known one above 1 is that one. Incompatible shapes: nullopt.
std::optional<PartialShape> broadcast(const PartialShape &A, const PartialShape &B) {
  if (!A.rankKnown() || !B.rankKnown())
    return PartialShape();
  const int64_t Rank = std::max(A.rank(), B.rank());
  std::vector<int64_t> Out(static_cast<size_t>(Rank));
  for (int64_t I = 0; I < Rank; ++I) {
    const int64_t IA = A.rank() - Rank + I, IB = B.rank() - Rank + I;
    const int64_t DA = IA < 0 ? 1 : A.dims()[IA], DB = IB < 0 ? 1 : B.dims()[IB];
    if (DA == 1)
      Out[I] = DB;
    else if (DB == 1)
      Out[I] = DA;
    else if (DA < 0 || DB < 0)
      Out[I] = std::max(DA, DB);
    else if (DA == DB)
      Out[I] = DA;
    else
      return std::nullopt;
  }
  return PartialShape(std::move(Out));
}

/// What two shapes of one tensor say together; unknown where they disagree.
PartialShape merge(const PartialShape &A, const PartialShape &B) {
  if (!A.rankKnown())
    return B;
  if (!B.rankKnown())
    return A;
  if (A.rank() != B.rank())
    return PartialShape();
  std::vector<int64_t> Out(A.dims().begin(), A.dims().end());
  for (size_t I = 0; I < Out.size(); ++I) {
    const int64_t D = B.dims()[I];
    if (Out[I] < 0)
      Out[I] = D;
    else if (D >= 0 && D != Out[I])
      return PartialShape();
  }
  return PartialShape(std::move(Out));
}

/// The integers of a known constant operand (int32 or int64), or nullopt.
std::optional<std::vector<int64_t>> intsOf(const Operands &In, unsigned I) {
  const TensorData *V = In.value(I);
  if (!V || (V->dtype() != tensorflow::DT_INT32 && V->dtype() != tensorflow::DT_INT64))
    return std::nullopt;
  std::vector<int64_t> Out;
  for (int64_t K = 0; K < V->numElements(); ++K)
    Out.push_back(V->dtype() == tensorflow::DT_INT64 ? V->element<int64_t>(K)
                                                     : V->element<int32_t>(K));
  return Out;
}

/// An axis in [-Rank, Rank) made non-negative, or nullopt.
std::optional<int64_t> axisIn(int64_t Axis, int64_t Rank) {
  if (Axis < -Rank || Axis >= Rank)
    return std::nullopt;
  return Axis < 0 ? Axis + Rank : Axis;
}

/// A placeholder's `shape` attribute. Graphs up to producer 21 wrote an
/// unknown shape as a scalar one.
PartialShape declaredShape(const Operands &In) {
  const tensorflow::AttrValue *A = In.N.findAttr("shape");
  if (!A || !A->has_shape() || A->shape().unknown_rank())
    return PartialShape();
  if (A->shape().dim_size() == 0 && In.N.op() == "Placeholder" &&
      In.N.graph().otherFields().versions().producer() <= 21)
    return PartialShape();
  std::vector<int64_t> Dims;
  for (const auto &D : A->shape().dim())
    Dims.push_back(D.size() < 0 ? -1 : D.size());
  return PartialShape(std::move(Dims));
}

/// Output size of one windowed dimension (GetWindowedOutputSizeFromDimsV2);
/// -1 when unknown or refused.
int64_t windowedSize(int64_t In, int64_t Window, int64_t Dilation, int64_t Stride,
                     llvm::StringRef Padding, int64_t PadBefore, int64_t PadAfter) {
  if (In < 0 || Stride <= 0 || Dilation <= 0)
    return -1;
  if (Padding == "SAME")
    return In / Stride + (In % Stride != 0);
  if (Window <= 0 || (Padding != "VALID" && Padding != "EXPLICIT"))
    return -1;
  const int64_t Effective = addDims(mulDims(Window - 1, Dilation), 1);
  const int64_t Padded =
      Padding == "EXPLICIT" ? addDims(In, addDims(PadBefore, PadAfter)) : In;
  if (Effective < 0 || Padded < Effective)
    return -1;
  return (Padded - Effective) / Stride + 1;
}

/// Conv2D, DepthwiseConv2dNative, MaxPool and AvgPool over NHWC or NCHW.
std::optional<Shapes> windowed(const Operands &In, bool IsConv, bool IsDepthwise) {
  const PartialShape X = In.shape(0);
  if (!X.rankKnown() || X.rank() != 4)
    return std::nullopt;
  const llvm::StringRef Format = In.stringAttr("data_format", "NHWC");
  if (Format != "NHWC" && Format != "NCHW")
    return std::nullopt;
  const bool Nchw = Format == "NCHW";
  const int HDim = Nchw ? 2 : 1, WDim = HDim + 1, CDim = Nchw ? 1 : 3;
  std::vector<int64_t> Strides = In.intsAttr("strides", {});
  std::vector<int64_t> Dilations = In.intsAttr("dilations", {1, 1, 1, 1});
  std::vector<int64_t> Pads = In.intsAttr("explicit_paddings", std::vector<int64_t>(8, 0));
  if (Strides.size() != 4 || Dilations.size() != 4 || Pads.size() != 8)
    return std::nullopt;
  int64_t KH = -1, KW = -1, Channels = X.dim(CDim);
  if (IsConv) {
    const PartialShape F = In.shape(1);
    if (F.rankKnown() && F.rank() != 4)
      return std::nullopt;
    KH = F.dim(0);
    KW = F.dim(1);
    if (IsDepthwise)
      Channels = mulDims(Channels, F.dim(3));
    else
      Channels = F.dim(3);
  } else {
    std::vector<int64_t> KSize = In.intsAttr("ksize", {});
    if (KSize.size() != 4 ||
        (In.N.op() == "AvgPool" && In.stringAttr("padding", "") == "EXPLICIT"))
      return std::nullopt;
    KH = KSize[HDim];
    KW = KSize[WDim];
    Dilations = {1, 1, 1, 1};
    // MaxPool also pools across channels (depthwise max pooling).
    if (In.N.op() == "MaxPool")
      Channels = windowedSize(X.dim(CDim), KSize[CDim], 1, Strides[CDim],
                              In.stringAttr("padding", ""), Pads[2 * CDim], Pads[2 * CDim + 1]);
  }
  const llvm::StringRef Padding = In.stringAttr("padding", "");
  std::vector<int64_t> Out(4);
  Out[0] = X.dim(0);
  Out[CDim] = Channels;
  Out[HDim] = windowedSize(X.dim(HDim), KH, Dilations[HDim], Strides[HDim], Padding,
                           Pads[2 * HDim], Pads[2 * HDim + 1]);
  Out[WDim] = windowedSize(X.dim(WDim), KW, Dilations[WDim], Strides[WDim], Padding,
                           Pads[2 * WDim], Pads[2 * WDim + 1]);
  return Shapes{PartialShape(std::move(Out))};
}

std::optional<Shapes> matMul(const Operands &In) {
  const PartialShape A = In.shape(0), B = In.shape(1);
  if ((A.rankKnown() && A.rank() != 2) || (B.rankKnown() && B.rank() != 2))
    return std::nullopt;
  const bool TA = In.boolAttr("transpose_a"), TB = In.boolAttr("transpose_b");
  return Shapes{PartialShape({A.dim(TA ? 1 : 0), B.dim(TB ? 0 : 1)})};
}

std::optional<Shapes> batchMatMul(const Operands &In) {
  const PartialShape A = In.shape(0), B = In.shape(1);
  if (!A.rankKnown() || !B.rankKnown() || A.rank() < 2 || B.rank() < 2 ||
      (In.N.op() == "BatchMatMul" && A.rank() != B.rank()))
    return std::nullopt;
  const bool AdjX = In.boolAttr("adj_x"), AdjY = In.boolAttr("adj_y");
  std::optional<PartialShape> Batch =
      broadcast(PartialShape(std::vector<int64_t>(A.dims().begin(), A.dims().end() - 2)),
                PartialShape(std::vector<int64_t>(B.dims().begin(), B.dims().end() - 2)));
  if (!Batch || !Batch->rankKnown())
    return std::nullopt;
  std::vector<int64_t> Out(Batch->dims().begin(), Batch->dims().end());
  Out.push_back(A.dim(A.rank() - (AdjX ? 1 : 2)));
  Out.push_back(B.dim(B.rank() - (AdjY ? 2 : 1)));
  return Shapes{PartialShape(std::move(Out))};
}

/// FusedBatchNorm (V1-V3): y has x's shape; the statistics are vectors of
/// the scale's length.
std::optional<Shapes> fusedBatchNorm(const Operands &In) {
  const PartialShape X = In.shape(0), Scale = In.shape(1);
  PartialShape Stat = Scale.rankKnown() ? Scale : PartialShape::ofRank(1);
  Shapes Out{X};
  for (int I = 1; I < 5; ++I)
    Out.push_back(Stat);
  if (In.N.op() == "FusedBatchNormV3")
    Out.push_back(PartialShape()); // reserve_space_3: TensorFlow says nothing.
  return Out;
}

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

/// Ops whose outputs have the shape of their first operand.
bool keepsShape(llvm::StringRef Op) {
  static const llvm::StringSet<> Ops = {
      "Identity", "Snapshot", "StopGradient", "PreventGradient", "CheckNumerics",
      "Relu", "Relu6", "Elu", "Selu", "LeakyRelu", "Softplus", "Softsign", "Sigmoid", "Tanh",
      "Softmax", "LogSoftmax", "Neg", "Abs", "Sign", "Sqrt", "Rsqrt", "Square", "Reciprocal",
      "Inv", "Exp", "Expm1", "Log", "Log1p", "Sin", "Cos", "Erf", "Floor", "Ceil", "Round",
      "Rint", "IsNan", "IsInf", "IsFinite", "LogicalNot", "Cast", "ZerosLike", "OnesLike",
      "BiasAdd", "BiasAddV1", "LRN", "FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxArgs",
      "FakeQuantWithMinMaxVarsPerChannel", "QuantizeAndDequantizeV2",
      "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4", "Dequantize", "ClipByValue",
      "Gelu", "Swish", "Mish"};
  return Ops.contains(Op);
}

/// Elementwise binary ops, broadcasting.
bool broadcasts(llvm::StringRef Op) {
  static const llvm::StringSet<> Ops = {
      "Add", "AddV2", "Sub", "Mul", "RealDiv", "Div", "DivNoNan", "MulNoNan", "FloorDiv",
      "FloorMod", "TruncateDiv", "TruncateMod", "Maximum", "Minimum", "Pow",
      "SquaredDifference", "Equal", "NotEqual", "Less", "LessEqual", "Greater",
      "GreaterEqual", "LogicalAnd", "LogicalOr", "Atan2", "Xdivy", "Xlogy", "BitwiseAnd",
      "BitwiseOr", "BitwiseXor"};
  return Ops.contains(Op);
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

std::optional<Shapes> infer(const Operands &In) {
  const llvm::StringRef Op = In.N.op();
  if (Op == "Placeholder" || Op == "PlaceholderV2" || Op == "PlaceholderWithDefault")
    return Shapes{declaredShape(In)};
  if (keepsShape(Op))
    return Shapes{In.shape(0)};
  if ((Op == "Equal" || Op == "NotEqual") && In.N.findAttr("incompatible_shape_error") &&
      !In.boolAttr("incompatible_shape_error"))
    return Shapes{PartialShape()}; // Incompatible shapes give a scalar there.
  if (broadcasts(Op)) {
    std::optional<PartialShape> S = broadcast(In.shape(0), In.shape(1));
    return S ? std::optional<Shapes>(Shapes{*S}) : std::nullopt;
  }
  if (Op == "IdentityN") {
    Shapes Out;
    for (unsigned I = 0; I < In.size(); ++I)
      Out.push_back(In.shape(I));
    return Out;
  }
  if (Op == "AddN") {
    PartialShape S;
    for (unsigned I = 0; I < In.size(); ++I)
      S = merge(S, In.shape(I));
    return Shapes{S};
  }
  if (Op == "Select")
    return Shapes{merge(In.shape(1), In.shape(2))};
  if (Op == "SelectV2") {
    std::optional<PartialShape> S = broadcast(In.shape(1), In.shape(2));
    if (S)
      S = broadcast(In.shape(0), *S);
    return S ? std::optional<Shapes>(Shapes{*S}) : std::nullopt;
  }
  if (Op == "Shape") {
    const PartialShape X = In.shape(0);
    return Shapes{X.rankKnown() ? PartialShape({X.rank()}) : PartialShape::ofRank(1)};
  }
  if (Op == "ShapeN") {
    Shapes Out;
    for (unsigned I = 0; I < In.size(); ++I) {
      const PartialShape X = In.shape(I);
      Out.push_back(X.rankKnown() ? PartialShape({X.rank()}) : PartialShape::ofRank(1));
    }
    return Out;
  }
  if (Op == "Size" || Op == "Rank")
    return Shapes{PartialShape(std::vector<int64_t>{})};
  if (Op == "MatMul")
    return matMul(In);
  if (Op == "BatchMatMul" || Op == "BatchMatMulV2" || Op == "BatchMatMulV3")
    return batchMatMul(In);
  if (Op == "Conv2D")
    return windowed(In, /*IsConv=*/true, /*IsDepthwise=*/false);
  if (Op == "DepthwiseConv2dNative")
    return windowed(In, /*IsConv=*/true, /*IsDepthwise=*/true);
  if (Op == "MaxPool" || Op == "AvgPool")
    return windowed(In, /*IsConv=*/false, /*IsDepthwise=*/false);
  if (Op == "FusedBatchNorm" || Op == "FusedBatchNormV2" || Op == "FusedBatchNormV3")
    return fusedBatchNorm(In);
  if (Op == "Reshape")
    return reshape(In);
  if (std::optional<Shapes> Moved = movedShape(In))
    return Moved;
  if (const ShapeMover *Mover = shapeMover(Op))
    return byEvaluatingOnZeros(In, *Mover);
  return std::nullopt;
}

} // namespace

std::vector<PartialShape> inferOutputShapes(const Node &N, ShapeOfFn ShapeOf, ValueOfFn ValueOf) {
  std::optional<Shapes> Out = infer(Operands(N, ShapeOf, ValueOf));
  return Out ? std::move(*Out) : Shapes{};
}

} // namespace frost
