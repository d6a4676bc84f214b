//===- ShapeInference.cpp - Static shapes of a node's outputs -------------===//
//
// TensorFlow's shape functions (core/ops/*_ops.cc, common_shape_fns) for the
// ops of inference graphs. Three kinds of rule:
// - declared shapes: placeholders;
// - arithmetic on shapes: elementwise ops (same shape, or broadcast),
//   matrix products, convolutions and pooling, batch norms;
// - the shape-moving ops (Reshape, Transpose, StridedSlice, ConcatV2, Pad,
//   reductions, ...), whose output shape depends on the values of their
//   constant operands: ShapeMovingOps.cpp.
//
//===----------------------------------------------------------------------===//
#include "frost/Transforms/Utils/ShapeInference.h"

#include "ShapeRules.h"

#include "frost/IR/ConstructionOrder.h"
#include "frost/Tensor/Shape.h"
#include "frost/IR/ConstValue.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace frost {

bool PartialShape::fullyDefined() const {
  return Dims && std::none_of(Dims->begin(), Dims->end(), [](int64_t D) { return D < 0; });
}

absl::StatusOr<std::vector<int64_t>> parseDimensions(llvm::StringRef Text) {
  std::vector<int64_t> Dims;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    int64_t D;
    if (P.trim().getAsInteger(10, D) || D < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("'", P.trim().str(), "' is not a dimension (a non-negative integer)"));
    Dims.push_back(D);
  }
  return Dims;
}

PartialShape partialShapeFromProto(const tensorflow::TensorShapeProto &Proto) {
  if (Proto.unknown_rank())
    return PartialShape();
  std::vector<int64_t> Dims;
  for (const auto &D : Proto.dim())
    Dims.push_back(D.size() < 0 ? -1 : D.size());
  return PartialShape(std::move(Dims));
}

tensorflow::TensorShapeProto partialShapeToProto(const PartialShape &Shape) {
  tensorflow::TensorShapeProto Proto;
  if (!Shape.rankKnown())
    Proto.set_unknown_rank(true);
  else
    for (int64_t D : Shape.dims())
      Proto.add_dim()->set_size(D);
  return Proto;
}

std::string formatPartialShape(const PartialShape &Shape) {
  return formatPartialShape(partialShapeToProto(Shape));
}

std::optional<PartialShape> refineShape(const PartialShape &Inferred,
                                        const PartialShape &Recorded) {
  if (!Recorded.rankKnown())
    return Inferred;
  if (!Inferred.rankKnown())
    return Recorded;
  if (Inferred.rank() != Recorded.rank())
    return std::nullopt;
  std::vector<int64_t> Out(Inferred.dims().begin(), Inferred.dims().end());
  for (size_t I = 0; I < Out.size(); ++I) {
    const int64_t D = Recorded.dims()[I];
    if (Out[I] < 0)
      Out[I] = D;
    else if (D >= 0 && D != Out[I])
      return std::nullopt;
  }
  return PartialShape(std::move(Out));
}

using namespace shape_rules;

namespace {




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

/// A placeholder's `shape` attribute. Graphs up to producer 21 wrote an
/// unknown shape as a scalar one.
PartialShape declaredShape(const Operands &In) {
  const tensorflow::AttrValue *A = In.N.findAttr("shape");
  if (!A || !A->has_shape() || A->shape().unknown_rank())
    return PartialShape();
  if (A->shape().dim_size() == 0 && In.N.op() == "Placeholder" &&
      In.N.graph().otherFields().versions().producer() <= 21)
    return PartialShape();
  return partialShapeFromProto(A->shape());
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
  return inferShapeMovingOp(In);
}

} // namespace

std::vector<PartialShape> inferOutputShapes(const Node &N, ShapeOfFn ShapeOf, ValueOfFn ValueOf) {
  std::optional<Shapes> Out = infer(Operands(N, ShapeOf, ValueOf));
  return Out ? std::move(*Out) : Shapes{};
}

/// The largest constant whose value shape inference reads.
constexpr int64_t MaxValueElements = int64_t(1) << 16;

GraphShapes inferGraphShapes(const Graph &G) {
  GraphShapes S;
  S.Shapes.resize(G.idBound());
  std::vector<std::optional<TensorData>> Values(G.idBound());
  auto ShapeOf = [&](const Node &N, int Port) { return S.of(N, Port); };
  auto ValueOf = [&](const Node &N, int Port) -> const TensorData * {
    return Port == 0 && Values[N.id()] ? &*Values[N.id()] : nullptr;
  };
  for (Node *N : graphConstructionOrder(G)) {
    if (N->op() == "Const") {
      const tensorflow::AttrValue *Value = N->findAttr("value");
      if (!Value || !Value->has_tensor())
        continue;
      absl::StatusOr<std::vector<int64_t>> Shape = shapeFromProto(Value->tensor().tensor_shape());
      if (!Shape.ok())
        continue;
      S.Shapes[N->id()] = {PartialShape(*Shape)};
      // Shape functions read small constants (shapes, axes, begin/end), never
      // weights: those are not decoded (nor copied).
      absl::StatusOr<int64_t> Count = numElements(*Shape);
      if (Count.ok() && *Count <= MaxValueElements)
        if (absl::StatusOr<TensorData> V = constValue(*N); V.ok())
          Values[N->id()] = *std::move(V);
    } else {
      S.Shapes[N->id()] = inferOutputShapes(*N, ShapeOf, ValueOf);
    }
  }
  return S;
}

PartialShape GraphShapes::of(const Node &N, int Port) const {
  const std::vector<PartialShape> &Outputs = Shapes[N.id()];
  return Port >= 0 && static_cast<size_t>(Port) < Outputs.size() ? Outputs[Port] : PartialShape();
}

} // namespace frost
