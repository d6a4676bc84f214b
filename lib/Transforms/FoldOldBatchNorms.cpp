//===- FoldOldBatchNorms.cpp - Batch norm ops folded into convolutions ----===//
//
// optimize_for_inference's fold_batch_norms (graph_transforms calls its
// older copy fold_old_batch_norms): a batch norm op at inference computes
// x * scale + offset per channel with
//
//   scale  = gamma / sqrt(variance + epsilon)
//   offset = beta - mean * scale
//
// so after a Conv2D or DepthwiseConv2dNative with constant weights it
// becomes weights scaled per output channel and a BiasAdd of the offset.
// The ops: BatchNormWithGlobalNormalization and FusedBatchNorm, V2 and V3
// (graph_transforms misses V2 and V3, optimize_for_inference V2). A BiasAdd,
// Add or AddV2 of a constant bias between the convolution and the batch norm
// goes into the offset. As in optimize_for_inference the BiasAdd takes the
// batch norm's name, the offset is `<conv>_bn_offset`, the scaled weights
// `<conv>_weights`, and the numbers are computed as its numpy code does:
// variance + epsilon in the parameters' dtype, the square root, reciprocal
// and products in double, each result rounded once.
//
// graph_transforms' concat pattern too: a batch norm after a ConcatV2 of
// convolutions (each possibly behind a bias add) folds into each of them,
// with a BiasAdd `<concat>_bn_in<i>` per input and the concat taking the
// batch norm's name. Along the channel axis each convolution takes its slice
// of the scale and offset; along another axis each takes all of them
// (TensorFlow: two inputs only, no bias add, the axis read as NHWC's 3).
//
// TensorFlow rewrites whatever matches; Frost leaves a site alone, with a
// warning saying why, when folding would change what the graph computes:
// a batch norm in training mode (it normalizes with the batch's statistics),
// one whose other outputs are read, a convolution or bias add read by other
// nodes too (TensorFlow changes their input), a data_format differing
// between the two, parameters that are not one constant per channel.
// Weights another node also reads stay as they are for it (TensorFlow
// rewrites them in place).
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstValue.h"
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/GraphInterface.h"
#include "frost/Transforms/Utils/WeightFolding.h"

#include "absl/strings/str_cat.h"

#include <cmath>

namespace frost {

namespace {

/// A batch norm op's inputs and attributes, by what they mean.
struct BatchNorm {
  Node *Op;
  Input X, Mean, Variance, Beta;
  /// Absent for BatchNormWithGlobalNormalization without scaling.
  std::optional<Input> Gamma;
  float Epsilon;
  std::string DataFormat;
};

bool isBatchNormOp(const Node &N) {
  return matchOp(&N, {"BatchNormWithGlobalNormalization", "FusedBatchNorm", "FusedBatchNormV2",
                      "FusedBatchNormV3"});
}

/// Whether any output of N but the first is read.
bool otherOutputsRead(const Node &N) {
  return llvm::any_of(N.uses(), [](const Use &U) {
    const Input &In = U.User->input(U.InputIndex);
    return !In.isControl() && In.Port != 0;
  });
}

/// A node's data_format (NHWC, the default, when it has none).
std::string dataFormat(const Node &N) {
  const tensorflow::AttrValue *Format = N.findAttr("data_format");
  return Format ? Format->s() : "NHWC";
}

/// The batch norm's inputs and attributes, or why it cannot fold (training mode).
absl::StatusOr<BatchNorm> batchNormParts(Node &N) {
  if (N.numDataInputs() != 5)
    return absl::InvalidArgumentError(absl::StrCat("it has ", N.numDataInputs(), " inputs, not 5"));
  auto floatAttr = [&](const char *Name, float Default) {
    const tensorflow::AttrValue *A = N.findAttr(Name);
    return A ? A->f() : Default;
  };
  if (N.op() == "BatchNormWithGlobalNormalization") {
    const tensorflow::AttrValue *Scaled = N.findAttr("scale_after_normalization");
    BatchNorm B{&N, N.input(0), N.input(1), N.input(2), N.input(3), std::nullopt,
                floatAttr("variance_epsilon", 0), "NHWC"};
    if (Scaled && Scaled->b())
      B.Gamma = N.input(4);
    return B;
  }
  const tensorflow::AttrValue *Training = N.findAttr("is_training");
  if (!Training || Training->b())
    return absl::InvalidArgumentError(
        "it is in training mode (is_training is true): it normalizes with the batch's statistics");
  return BatchNorm{&N,        N.input(0),
                   N.input(3), N.input(4),
                   N.input(2), N.input(1),
                   floatAttr("epsilon", 1e-4f), dataFormat(N)};
}

/// batchNormParts, refused too when an output but the first is read.
absl::StatusOr<BatchNorm> readBatchNorm(Node &N) {
  FROST_ASSIGN_OR_RETURN(BatchNorm B, batchNormParts(N));
  if (otherOutputsRead(N))
    return absl::InvalidArgumentError("its other outputs (batch mean, variance, ...) are read");
  return B;
}

class FoldOldBatchNormsPass : public Pass {
public:
  FoldOldBatchNormsPass() = default;
  explicit FoldOldBatchNormsPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes kept as they are (the graph's outputs)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumFolded{*this, "batch-norms-folded", "Batch norm ops folded into convolutions"};
  Statistic NumLeftAlone{*this, "batch-norms-left-alone",
                         "Batch norm ops after a convolution left as they are (each with a "
                         "warning saying why)"};

  /// A convolution feeding a batch norm, possibly behind a bias add.
  struct ConvBranch {
    Node *Conv = nullptr;
    Node *Add = nullptr;
    std::optional<Input> Bias;
  };

  /// The convolution (output 0) that `In` reads, directly or through a bias
  /// add; nullopt when it reads none.
  static std::optional<ConvBranch> matchBranch(const Input &In) {
    if (In.isControl() || In.Port != 0)
      return std::nullopt;
    ConvBranch B;
    Node *X = In.Src;
    if (matchOp(X, {"BiasAdd", "Add", "AddV2"}) && X->numDataInputs() == 2) {
      // BiasAdd's bias is its second input; an add's may be either.
      unsigned ConvSide =
          X->op() != "BiasAdd" && !matchOp(dataInputNode(X, 0), {"Conv2D", "DepthwiseConv2dNative"});
      if (X->input(ConvSide).Port != 0)
        return std::nullopt;
      B.Add = X;
      B.Bias = X->input(1 - ConvSide);
      X = X->input(ConvSide).Src;
    }
    if (!matchOp(X, {"Conv2D", "DepthwiseConv2dNative"}))
      return std::nullopt;
    B.Conv = X;
    return B;
  }

  /// The batch norm's parameters, each `Channels` values.
  struct Params {
    std::vector<double> Mean, Variance, Beta, Gamma;
  };

  static absl::StatusOr<Params> readParams(const BatchNorm &B, int64_t Channels) {
    auto params = [&](const Input &In, llvm::StringRef Role) -> absl::StatusOr<std::vector<double>> {
      if (!isConstInput(In))
        return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " '",
                                                       In.Src->name().str(), "' is not a Const"));
      FROST_ASSIGN_OR_RETURN(std::vector<double> V, constDoubles(*In.Src));
      if (V.size() != static_cast<size_t>(Channels))
        return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " has ", V.size(),
                                                       " values for ", Channels, " channels"));
      return V;
    };
    Params P;
    FROST_ASSIGN_OR_RETURN(P.Mean, params(B.Mean, "mean"));
    FROST_ASSIGN_OR_RETURN(P.Variance, params(B.Variance, "variance"));
    FROST_ASSIGN_OR_RETURN(P.Beta, params(B.Beta, "beta"));
    P.Gamma.assign(P.Mean.size(), 1.0);
    if (B.Gamma) {
      FROST_ASSIGN_OR_RETURN(P.Gamma, params(*B.Gamma, "gamma"));
    }
    return P;
  }

  /// The per-channel values the branch's bias add adds (zeros without one).
  static absl::StatusOr<std::vector<double>> branchBias(const WeightedOp &W,
                                                        const ConvBranch &Branch) {
    if (!Branch.Bias)
      return std::vector<double>(W.Channels, 0.0);
    return biasValues(W, *Branch.Add, *Branch.Bias);
  }

  /// Folds channels [Begin, Begin + W.Channels) of the batch norm into W:
  /// its weights scaled, and the Const of the offset to add after it.
  static absl::StatusOr<Node *> foldInto(Graph &G, WeightedOp &W,
                                         llvm::ArrayRef<double> BiasValues, const BatchNorm &B,
                                         const Params &P, size_t Begin) {
    // BatchNormWithGlobalNormalization has one T; fused batch norms of float
    // or double convolutions have float parameters.
    tensorflow::DataType ParamType = W.WeightValue.dtype();
    bool Single = ParamType == tensorflow::DT_FLOAT;
    auto round = [&](double V) { return Single ? static_cast<double>(static_cast<float>(V)) : V; };
    std::vector<double> Scale(W.Channels), Offset(W.Channels);
    for (size_t C = 0; C < Scale.size(); ++C) {
      double Sum = round(P.Variance[Begin + C] + static_cast<double>(B.Epsilon));
      Scale[C] = 1.0 / std::sqrt(Sum) * P.Gamma[Begin + C];
      double ShiftedMean = round(P.Mean[Begin + C] - BiasValues[C]);
      Offset[C] = -ShiftedMean * Scale[C] + P.Beta[Begin + C];
    }
    FROST_RETURN_IF_ERROR(replaceWeights(G, W, scaledWeights(W, Scale)));
    return createChannelConst(G, absl::StrCat(W.Op->name().str(), "_bn_offset"), ParamType,
                              Offset, *W.Op);
  }

  /// Why Between (a node of the matched chain) cannot change; empty if it can.
  static std::string readElsewhere(const Node *Between, const llvm::StringSet<> &Protected) {
    if (Between && (Between->uses().size() != 1 || Protected.contains(Between->name())))
      return absl::StrCat("'", Between->name().str(), "' is read by other nodes too (or is an output)");
    return "";
  }

  /// The batch norm's parameter nodes, which go with it when nothing else reads them.
  static std::vector<Node *> paramNodes(const Node &N, const BatchNorm &B) {
    std::vector<Node *> Gone{B.Mean.Src, B.Variance.Src, B.Beta.Src,
                             B.Gamma ? B.Gamma->Src : nullptr};
    // An unscaled BatchNormWithGlobalNormalization ignores its gamma input;
    // it goes with the norm only when it is a constant.
    if (N.op() == "BatchNormWithGlobalNormalization" && !B.Gamma && isConstInput(N.input(4)))
      Gone.push_back(N.input(4).Src);
    return Gone;
  }

  /// Folds the batch norm when it follows a convolution (or a concat of
  /// them): false when it does not, an error saying why when it does but
  /// cannot be folded.
  absl::StatusOr<bool> fold(Graph &G, Node &N, const llvm::StringSet<> &Protected) {
    if (N.numDataInputs() == 0)
      return false;
    std::optional<ConvBranch> Branch = matchBranch(N.input(0));
    if (!Branch) {
      if (N.input(0).Port == 0 && matchOp(N.input(0).Src, "ConcatV2"))
        return foldConcat(G, N, *N.input(0).Src, Protected);
      return false;
    }
    Node *X = Branch->Conv;
    FROST_ASSIGN_OR_RETURN(BatchNorm B, readBatchNorm(N));
    for (Node *Between : {Branch->Add, X})
      if (std::string Why = readElsewhere(Between, Protected); !Why.empty())
        return absl::InvalidArgumentError(Why);
    FROST_ASSIGN_OR_RETURN(std::optional<WeightedOp> W, matchWeightedOp(X));
    if (!W)
      return false;
    std::string Format = dataFormat(*X);
    if (Format != B.DataFormat)
      return absl::InvalidArgumentError(absl::StrCat("its data_format ", B.DataFormat,
                                                     " is not its convolution's (", Format, ")"));
    FROST_ASSIGN_OR_RETURN(Params P, readParams(B, W->Channels));
    FROST_ASSIGN_OR_RETURN(std::vector<double> BiasValues, branchBias(*W, *Branch));
    FROST_ASSIGN_OR_RETURN(Node * OffsetConst, foldInto(G, *W, BiasValues, B, P, 0));
    std::vector<Node *> Gone = paramNodes(N, B);
    Gone.insert(Gone.begin(), {Branch->Add, Branch->Bias ? Branch->Bias->Src : nullptr});
    // The batch norm becomes the BiasAdd: its name, readers and control
    // inputs stay.
    N.setOp("BiasAdd");
    N.mutableAttrs().clear();
    if (const tensorflow::AttrValue *T = X->findAttr("T"))
      N.attr("T") = *T;
    if (const tensorflow::AttrValue *ConvFormat = X->findAttr("data_format"))
      N.attr("data_format") = *ConvFormat;
    N.setInput(0, X, 0);
    N.setInput(1, OffsetConst, 0);
    for (unsigned I = 4; I >= 2; --I)
      N.removeInput(I);
    if (Branch->Add)
      moveControlInputs(*Branch->Add, N);
    eraseIfUnused(G, Gone);
    ++NumFolded;
    return true;
  }

  /// graph_transforms' concat pattern: BN(ConcatV2(conv..., axis)).
  absl::StatusOr<bool> foldConcat(Graph &G, Node &N, Node &Concat,
                                  const llvm::StringSet<> &Protected) {
    if (Concat.numDataInputs() < 2)
      return false;
    const unsigned NumValues = Concat.numDataInputs() - 1;
    std::vector<ConvBranch> Branches;
    for (unsigned I = 0; I < NumValues; ++I) {
      std::optional<ConvBranch> B = matchBranch(Concat.input(I));
      if (!B)
        return false;
      Branches.push_back(*B);
    }
    FROST_ASSIGN_OR_RETURN(BatchNorm B, readBatchNorm(N));
    if (std::string Why = readElsewhere(&Concat, Protected); !Why.empty())
      return absl::InvalidArgumentError(Why);
    std::vector<WeightedOp> Weighted;
    std::vector<std::vector<double>> Biases;
    for (const ConvBranch &Branch : Branches) {
      for (Node *Between : {Branch.Add, Branch.Conv})
        if (std::string Why = readElsewhere(Between, Protected); !Why.empty())
          return absl::InvalidArgumentError(Why);
      FROST_ASSIGN_OR_RETURN(std::optional<WeightedOp> W, matchWeightedOp(Branch.Conv));
      if (!W)
        return false;
      std::string Format = dataFormat(*Branch.Conv);
      if (Format != B.DataFormat)
        return absl::InvalidArgumentError(absl::StrCat(
            "its data_format ", B.DataFormat, " is not its convolution's ('",
            Branch.Conv->name().str(), "': ", Format, ")"));
      FROST_ASSIGN_OR_RETURN(std::vector<double> Bias, branchBias(*W, Branch));
      Biases.push_back(std::move(Bias));
      Weighted.push_back(std::move(*W));
    }
    const Input AxisInput = Concat.input(NumValues);
    absl::StatusOr<TensorData> AxisValue =
        isConstInput(AxisInput) ? constValue(*AxisInput.Src)
                                : absl::InvalidArgumentError("not a Const");
    if (!AxisValue.ok() || AxisValue->numElements() != 1 ||
        (AxisValue->dtype() != tensorflow::DT_INT32 && AxisValue->dtype() != tensorflow::DT_INT64))
      return absl::InvalidArgumentError(absl::StrCat(
          "the axis of '", Concat.name().str(), "' is not a constant integer"));
    int64_t Axis = AxisValue->dtype() == tensorflow::DT_INT32 ? AxisValue->values<int32_t>()[0]
                                                              : AxisValue->values<int64_t>()[0];
    const int Rank = Weighted.front().OutputRank;
    if (Axis < 0)
      Axis += Rank;
    // Along the channels each convolution has its slice of the parameters;
    // along another axis every one has all of them.
    const bool AlongChannels = Axis == Weighted.front().ChannelAxis;
    int64_t Channels = AlongChannels ? 0 : Weighted.front().Channels;
    for (const WeightedOp &W : Weighted) {
      if (!AlongChannels && W.Channels != Channels)
        return absl::InvalidArgumentError(absl::StrCat(
            "'", Concat.name().str(), "' joins convolutions of ", Channels, " and ", W.Channels,
            " channels along axis ", Axis, ", not the channels"));
      if (AlongChannels)
        Channels += W.Channels;
    }
    FROST_ASSIGN_OR_RETURN(Params P, readParams(B, Channels));

    std::vector<Node *> Gone = paramNodes(N, B);
    std::vector<Node *> Folded;
    size_t Begin = 0;
    for (size_t I = 0; I < Branches.size(); ++I) {
      WeightedOp &W = Weighted[I];
      FROST_ASSIGN_OR_RETURN(Node * OffsetConst, foldInto(G, W, Biases[I], B, P, Begin));
      if (AlongChannels)
        Begin += W.Channels;
      Node *Add = G.createNode(G.uniqueName(absl::StrCat(Concat.name().str(), "_bn_in", I)),
                               "BiasAdd");
      Add->setDevice(W.Op->device());
      if (const tensorflow::AttrValue *T = W.Op->findAttr("T"))
        Add->attr("T") = *T;
      if (const tensorflow::AttrValue *Format = W.Op->findAttr("data_format"))
        Add->attr("data_format") = *Format;
      Add->addDataInput(W.Op, 0);
      Add->addDataInput(OffsetConst, 0);
      if (Branches[I].Add)
        moveControlInputs(*Branches[I].Add, *Add);
      Folded.push_back(Add);
      Gone.insert(Gone.begin(), {Branches[I].Add,
                                 Branches[I].Bias ? Branches[I].Bias->Src : nullptr});
    }
    // The batch norm becomes the concat of the folded convolutions: its name,
    // readers and control inputs stay.
    N.setOp("ConcatV2");
    N.mutableAttrs() = Concat.attrs();
    for (unsigned I = 4; I >= 1; --I)
      N.removeInput(I);
    N.setInput(0, Folded.front(), 0);
    for (size_t I = 1; I < Folded.size(); ++I)
      N.addDataInput(Folded[I], 0);
    N.addDataInput(AxisInput.Src, AxisInput.Port);
    moveControlInputs(Concat, N);
    Gone.insert(Gone.begin(), &Concat);
    eraseIfUnused(G, Gone);
    ++NumFolded;
    return true;
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Node *> Sites;
    for (Node &N : G)
      if (isBatchNormOp(N))
        Sites.push_back(&N);
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, {}, *Outputs));
    for (Node *N : Sites) {
      absl::StatusOr<bool> Folded = fold(G, *N, Protected);
      if (!Folded.ok()) {
        Ctx.warning(name(), absl::StrCat("left '", N->name().str(), "' (", N->op().str(),
                                         ") alone: ", Folded.status().message()));
        ++NumLeftAlone;
      }
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFoldOldBatchNormsPass() {
  return std::make_unique<FoldOldBatchNormsPass>();
}

std::unique_ptr<Pass> createFoldOldBatchNormsPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FoldOldBatchNormsPass>(PassName::createFoldOldBatchNormsPass, Options);
}

} // namespace frost
