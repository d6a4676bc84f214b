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

absl::StatusOr<BatchNorm> readBatchNorm(Node &N) {
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
  const tensorflow::AttrValue *Format = N.findAttr("data_format");
  return BatchNorm{&N,        N.input(0),
                   N.input(3), N.input(4),
                   N.input(2), N.input(1),
                   floatAttr("epsilon", 1e-4f), Format ? Format->s() : "NHWC"};
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

  /// Folds the batch norm when it follows a convolution: false when it does
  /// not, an error saying why when it does but cannot be folded.
  absl::StatusOr<bool> fold(Graph &G, Node &N, const llvm::StringSet<> &Protected) {
    // The convolution, possibly behind a bias add.
    if (N.numDataInputs() == 0 || N.input(0).Port != 0)
      return false;
    Node *X = N.input(0).Src;
    Node *Add = nullptr;
    std::optional<Input> Bias;
    if (matchOp(X, {"BiasAdd", "Add", "AddV2"}) && X->numDataInputs() == 2) {
      // BiasAdd's bias is its second input; an add's may be either.
      unsigned ConvSide =
          X->op() != "BiasAdd" && !matchOp(dataInputNode(X, 0), {"Conv2D", "DepthwiseConv2dNative"});
      if (X->input(ConvSide).Port != 0)
        return false;
      Add = X;
      Bias = X->input(1 - ConvSide);
      X = X->input(ConvSide).Src;
    }
    if (!matchOp(X, {"Conv2D", "DepthwiseConv2dNative"}))
      return false;
    FROST_ASSIGN_OR_RETURN(BatchNorm B, readBatchNorm(N));
    if (otherOutputsRead(N))
      return absl::InvalidArgumentError("its other outputs (batch mean, variance, ...) are read");
    for (Node *Between : {Add, X})
      if (Between && (Between->uses().size() != 1 || Protected.contains(Between->name())))
        return absl::InvalidArgumentError(absl::StrCat(
            "'", Between->name().str(), "' is read by other nodes too (or is an output)"));
    FROST_ASSIGN_OR_RETURN(std::optional<WeightedOp> W, matchWeightedOp(X));
    if (!W)
      return false;
    const tensorflow::AttrValue *ConvFormat = X->findAttr("data_format");
    std::string Format = ConvFormat ? ConvFormat->s() : "NHWC";
    if (Format != B.DataFormat)
      return absl::InvalidArgumentError(absl::StrCat("its data_format ", B.DataFormat,
                                                     " is not its convolution's (", Format, ")"));

    auto params = [&](const Input &In, llvm::StringRef Role) -> absl::StatusOr<std::vector<double>> {
      if (!isConstInput(In))
        return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " '",
                                                       In.Src->name().str(), "' is not a Const"));
      FROST_ASSIGN_OR_RETURN(std::vector<double> V, constDoubles(*In.Src));
      if (V.size() != static_cast<size_t>(W->Channels))
        return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " has ", V.size(),
                                                       " values for ", W->Channels, " channels"));
      return V;
    };
    FROST_ASSIGN_OR_RETURN(std::vector<double> Mean, params(B.Mean, "mean"));
    FROST_ASSIGN_OR_RETURN(std::vector<double> Variance, params(B.Variance, "variance"));
    FROST_ASSIGN_OR_RETURN(std::vector<double> Beta, params(B.Beta, "beta"));
    std::vector<double> Gamma(Mean.size(), 1.0);
    if (B.Gamma) {
      FROST_ASSIGN_OR_RETURN(Gamma, params(*B.Gamma, "gamma"));
    }
    std::vector<double> BiasValues(Mean.size(), 0.0);
    if (Bias) {
      FROST_ASSIGN_OR_RETURN(BiasValues, biasValues(*W, *Add, *Bias));
    }
    // BatchNormWithGlobalNormalization has one T; fused batch norms of float
    // or double convolutions have float parameters.
    tensorflow::DataType ParamType = W->WeightValue.dtype();
    bool Single = ParamType == tensorflow::DT_FLOAT;
    auto round = [&](double V) { return Single ? static_cast<double>(static_cast<float>(V)) : V; };

    std::vector<double> Scale(Mean.size()), Offset(Mean.size());
    for (size_t C = 0; C < Mean.size(); ++C) {
      double Sum = round(Variance[C] + static_cast<double>(B.Epsilon));
      Scale[C] = 1.0 / std::sqrt(Sum) * Gamma[C];
      double ShiftedMean = round(Mean[C] - BiasValues[C]);
      Offset[C] = -ShiftedMean * Scale[C] + Beta[C];
    }

    FROST_RETURN_IF_ERROR(replaceWeights(G, *W, scaledWeights(*W, Scale)));
    FROST_ASSIGN_OR_RETURN(Node * OffsetConst,
                           createChannelConst(G, absl::StrCat(X->name().str(), "_bn_offset"),
                                              ParamType, Offset, *X));
    std::vector<Node *> Gone{Add, Bias ? Bias->Src : nullptr, B.Mean.Src, B.Variance.Src,
                             B.Beta.Src, B.Gamma ? B.Gamma->Src : nullptr};
    // An unscaled BatchNormWithGlobalNormalization ignores its gamma input;
    // it goes with the norm only when it is a constant.
    if (N.op() == "BatchNormWithGlobalNormalization" && !B.Gamma && isConstInput(N.input(4)))
      Gone.push_back(N.input(4).Src);
    // The batch norm becomes the BiasAdd: its name, readers and control
    // inputs stay.
    N.setOp("BiasAdd");
    N.mutableAttrs().clear();
    if (const tensorflow::AttrValue *T = X->findAttr("T"))
      N.attr("T") = *T;
    if (ConvFormat)
      N.attr("data_format") = *ConvFormat;
    N.setInput(0, X, 0);
    N.setInput(1, OffsetConst, 0);
    for (unsigned I = 4; I >= 2; --I)
      N.removeInput(I);
    if (Add)
      moveControlInputs(*Add, N);
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
