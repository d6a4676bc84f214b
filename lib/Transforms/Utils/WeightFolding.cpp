//===- WeightFolding.cpp - Folding per-channel arithmetic into weights ----===//
#include "frost/Transforms/Utils/WeightFolding.h"

#include "frost/IR/Matchers.h"
#include "frost/Tensor/Shape.h"
#include "frost/IR/ConstValue.h"

#include "absl/strings/str_cat.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cstring>

namespace frost {

namespace {

bool isFloatingDType(tensorflow::DataType T) {
  return T == tensorflow::DT_FLOAT || T == tensorflow::DT_DOUBLE;
}

std::string quoted(const Node &N) { return absl::StrCat("'", N.name().str(), "'"); }

} // namespace

bool isConstInput(const Input &In) {
  return !In.isControl() && In.Port == 0 && In.Src->op() == "Const";
}

absl::StatusOr<std::vector<double>> constDoubles(const Node &C) {
  FROST_ASSIGN_OR_RETURN(TensorData T, constValue(C));
  std::vector<double> Out;
  if (T.dtype() == tensorflow::DT_FLOAT) {
    for (float V : T.values<float>())
      Out.push_back(V);
  } else if (T.dtype() == tensorflow::DT_DOUBLE) {
    Out = T.values<double>();
  } else {
    return absl::InvalidArgumentError(absl::StrCat("constant ", quoted(C), " is ",
                                                   dataTypeName(T.dtype()),
                                                   ", not float or double"));
  }
  return Out;
}

absl::StatusOr<std::optional<WeightedOp>> matchWeightedOp(Node *N) {
  if (!matchOp(N, {"Conv2D", "DepthwiseConv2dNative", "MatMul"}) || N->numDataInputs() != 2)
    return std::nullopt;
  WeightedOp W;
  W.Op = N;
  if (!isConstInput(N->input(1)))
    return absl::InvalidArgumentError(absl::StrCat("the weights of ", quoted(*N), " are not a Const (",
                                                   N->input(1).Src->op().str(), ")"));
  W.Weights = N->input(1).Src;
  FROST_ASSIGN_OR_RETURN(W.WeightValue, constValue(*W.Weights));
  tensorflow::DataType DType = W.WeightValue.dtype();
  const tensorflow::AttrValue *T = N->findAttr("T");
  if (!isFloatingDType(DType) || (T && T->type() != DType))
    return absl::InvalidArgumentError(absl::StrCat("the weights of ", quoted(*N), " are ",
                                                   dataTypeName(DType),
                                                   ", not float or double of the op's T"));
  llvm::ArrayRef<int64_t> Shape = W.WeightValue.shape();
  bool Matrix = N->op() == "MatMul";
  if (Shape.size() != (Matrix ? 2u : 4u))
    return absl::InvalidArgumentError(absl::StrCat("the weights of ", quoted(*N), " have shape ",
                                                   formatShape(Shape)));
  if (Matrix) {
    const tensorflow::AttrValue *TransposeB = N->findAttr("transpose_b");
    W.Channels = TransposeB && TransposeB->b() ? Shape[0] : Shape[1];
    W.ChannelAxis = 1;
    W.OutputRank = 2;
  } else {
    W.Channels = N->op() == "Conv2D" ? Shape[3] : Shape[2] * Shape[3];
    const tensorflow::AttrValue *Format = N->findAttr("data_format");
    std::string F = Format ? Format->s() : "NHWC";
    if (F != "NHWC" && F != "NCHW")
      return absl::InvalidArgumentError(
          absl::StrCat(quoted(*N), " has data_format ", F, ", not NHWC or NCHW"));
    W.ChannelAxis = F == "NHWC" ? 3 : 1;
    W.OutputRank = 4;
  }
  if (W.Channels <= 0)
    return absl::InvalidArgumentError(absl::StrCat("the weights of ", quoted(*N), " are empty"));
  return W;
}

absl::StatusOr<std::vector<double>> channelValues(const WeightedOp &W, const Input &In,
                                                  llvm::StringRef Role) {
  if (!isConstInput(In))
    return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " ", quoted(*In.Src),
                                                   " is not a Const (", In.Src->op().str(), ")"));
  FROST_ASSIGN_OR_RETURN(TensorData T, constValue(*In.Src));
  llvm::ArrayRef<int64_t> Shape = T.shape();
  // Broadcasting aligns trailing axes: every axis but the channel's is 1.
  bool Broadcasts = Shape.size() <= static_cast<size_t>(W.OutputRank);
  int64_t Count = 1;
  for (size_t I = 0; Broadcasts && I < Shape.size(); ++I) {
    int Axis = W.OutputRank - static_cast<int>(Shape.size()) + static_cast<int>(I);
    Count *= Shape[I];
    Broadcasts = Shape[I] == 1 || (Axis == W.ChannelAxis && Shape[I] == W.Channels);
  }
  if (!Broadcasts || (Count != 1 && Count != W.Channels))
    return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " ", quoted(*In.Src),
                                                   " has shape ", formatShape(Shape),
                                                   ", not one value per channel of ",
                                                   quoted(*W.Op), " (", W.Channels, ")"));
  if (T.dtype() != W.WeightValue.dtype())
    return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " ", quoted(*In.Src), " is ",
                                                   dataTypeName(T.dtype()), ", the weights ",
                                                   dataTypeName(W.WeightValue.dtype())));
  FROST_ASSIGN_OR_RETURN(std::vector<double> Values, constDoubles(*In.Src));
  if (Values.size() == 1)
    Values.assign(static_cast<size_t>(W.Channels), Values.front());
  return Values;
}

absl::StatusOr<std::vector<double>> biasValues(const WeightedOp &W, const Node &Add,
                                               const Input &Bias) {
  if (Add.op() != "BiasAdd")
    return channelValues(W, Bias, "bias");
  const tensorflow::AttrValue *Format = Add.findAttr("data_format");
  int Axis = Format && Format->s() == "NCHW" && W.OutputRank >= 3 ? 1 : W.OutputRank - 1;
  if (Axis != W.ChannelAxis)
    return absl::InvalidArgumentError(absl::StrCat(quoted(Add), " adds along axis ", Axis,
                                                   ", not the channels of ", quoted(*W.Op)));
  if (!isConstInput(Bias))
    return absl::InvalidArgumentError(absl::StrCat("its bias ", quoted(*Bias.Src),
                                                   " is not a Const (", Bias.Src->op().str(), ")"));
  FROST_ASSIGN_OR_RETURN(std::vector<double> Values, constDoubles(*Bias.Src));
  if (Values.size() != static_cast<size_t>(W.Channels))
    return absl::InvalidArgumentError(absl::StrCat("its bias ", quoted(*Bias.Src), " has ",
                                                   Values.size(), " values for ", W.Channels,
                                                   " channels"));
  return Values;
}

void moveControlInputs(const Node &From, Node &To) {
  for (const Input &In : From.controlInputs())
    if (In.Src != &To)
      To.addControlInput(In.Src);
}

TensorData scaledWeights(const WeightedOp &W, llvm::ArrayRef<double> Scale) {
  const TensorData &V = W.WeightValue;
  llvm::ArrayRef<int64_t> Shape = V.shape();
  const tensorflow::AttrValue *TransposeB = W.Op->findAttr("transpose_b");
  bool TransposedMatrix = W.Op->op() == "MatMul" && TransposeB && TransposeB->b();
  int64_t Inner = TransposedMatrix ? Shape[1] : 1;
  auto channelOf = [&](size_t I) {
    return static_cast<size_t>(TransposedMatrix ? static_cast<int64_t>(I) / Inner
                                                : static_cast<int64_t>(I) % W.Channels);
  };
  // One copy of the bytes, scaled in place.
  auto scale = [&](auto Zero) {
    using T = decltype(Zero);
    std::string Bytes = V.bytes().str();
    for (size_t I = 0; I < Bytes.size() / sizeof(T); ++I) {
      T X;
      std::memcpy(&X, Bytes.data() + I * sizeof(T), sizeof(T));
      X = static_cast<T>(static_cast<double>(X) * Scale[channelOf(I)]);
      std::memcpy(Bytes.data() + I * sizeof(T), &X, sizeof(T));
    }
    return TensorData::owned(V.dtype(), {Shape.begin(), Shape.end()}, std::move(Bytes));
  };
  return V.dtype() == tensorflow::DT_FLOAT ? scale(float()) : scale(double());
}

absl::StatusOr<Node *> createChannelConst(Graph &G, llvm::StringRef Name,
                                          tensorflow::DataType DType,
                                          llvm::ArrayRef<double> Values, const Node &Near) {
  std::string Bytes;
  if (DType == tensorflow::DT_FLOAT) {
    for (double V : Values) {
      float F = static_cast<float>(V);
      Bytes.append(reinterpret_cast<const char *>(&F), sizeof F);
    }
  } else if (DType == tensorflow::DT_DOUBLE) {
    Bytes.append(reinterpret_cast<const char *>(Values.data()), Values.size() * sizeof(double));
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot make a ", dataTypeName(DType), " constant ", Name.str()));
  }
  return createConst(G, Name,
                     TensorData::owned(DType, {static_cast<int64_t>(Values.size())}, std::move(Bytes)),
                     Near.device());
}

absl::Status replaceWeights(Graph &G, WeightedOp &W, const TensorData &Value) {
  FROST_ASSIGN_OR_RETURN(Node * C, createConst(G, absl::StrCat(W.Op->name().str(), "_weights"),
                                               Value, W.Weights->device()));
  Node *Old = W.Weights;
  W.Op->setInput(1, C, 0);
  W.Weights = C;
  W.WeightValue = Value;
  eraseIfUnused(G, {Old});
  return absl::OkStatus();
}

void eraseIfUnused(Graph &G, llvm::ArrayRef<Node *> Nodes) {
  llvm::SmallPtrSet<Node *, 8> Erased;
  for (Node *N : Nodes)
    if (N && !Erased.contains(N) && !N->hasUses()) {
      Erased.insert(N);
      G.eraseNode(N);
    }
}

} // namespace frost
