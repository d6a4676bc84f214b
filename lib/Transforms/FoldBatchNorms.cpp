//===- FoldBatchNorms.cpp - Constant scales and shifts into weights -------===//
//
// graph_transforms' fold_batch_norms: once constants are folded, a batch norm
// written with elementwise ops (tf.nn.batch_normalization, Keras 3's
// BatchNormalization) is a Mul by a per-channel constant and an add of one.
// After a Conv2D, DepthwiseConv2dNative or MatMul with constant weights:
//
//  - Mul(conv, scale) becomes the convolution with its weights scaled per
//    output channel, named as the Mul (so its readers are unchanged), as in
//    TensorFlow;
//  - Mul(BiasAdd(conv, bias), scale) also scales the bias (TensorFlow stops
//    at the bias add);
//  - an Add, AddV2 or BiasAdd of a per-channel constant after a bias add
//    merges into its bias, and after the bare convolution becomes a BiasAdd:
//    the convolution, weights and one BiasAdd are what is left of the norm.
//
// Either operand order is matched (TensorFlow: Mul(conv, Const) only); the
// constant may be a scalar, [C] or [C] padded with ones to the output's rank
// (TensorFlow fails the whole transform on anything but [C]). Sites are left
// alone when the convolution or bias add has other readers, and weights
// other nodes read too get a new Const `<conv>_weights` instead of changing
// under them. Run fold-constants first, so each scale is one Const.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/ConstructionOrder.h"
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/Utils/GraphInterface.h"
#include "frost/Transforms/Utils/WeightFolding.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

/// A convolution, possibly behind a bias add of a per-channel constant,
/// whose every node only the site reads.
struct Affine {
  WeightedOp W;
  /// BiasAdd, Add or AddV2, or null.
  Node *BiasNode = nullptr;
  std::vector<double> Bias;
};

/// `In` as a convolution with constant weights, possibly behind a bias add
/// of a constant, each read only by the next node and none an output;
/// nullopt otherwise.
std::optional<Affine> matchAffine(const Input &In, const llvm::StringSet<> &Protected) {
  auto onlyHere = [&](const Node &N) {
    return N.uses().size() == 1 && !Protected.contains(N.name());
  };
  if (In.isControl() || In.Port != 0 || !onlyHere(*In.Src))
    return std::nullopt;
  Affine A;
  Node *Conv = In.Src;
  if (matchOp(Conv, {"BiasAdd", "Add", "AddV2"}) && Conv->numDataInputs() == 2) {
    unsigned ConvSide = Conv->op() != "BiasAdd" && isConstInput(Conv->input(0));
    const Input &Inner = Conv->input(ConvSide);
    if (Inner.Port != 0 || !onlyHere(*Inner.Src))
      return std::nullopt;
    A.BiasNode = Conv;
    Conv = Inner.Src;
  }
  absl::StatusOr<std::optional<WeightedOp>> W = matchWeightedOp(Conv);
  if (!W.ok() || !*W)
    return std::nullopt;
  A.W = std::move(**W);
  if (A.BiasNode) {
    unsigned BiasSide = A.BiasNode->input(0).Src == Conv ? 1 : 0;
    absl::StatusOr<std::vector<double>> B =
        biasValues(A.W, *A.BiasNode, A.BiasNode->input(BiasSide));
    if (!B.ok())
      return std::nullopt;
    A.Bias = *std::move(B);
  }
  return A;
}

class FoldBatchNormsPass : public Pass {
public:
  FoldBatchNormsPass() = default;
  explicit FoldBatchNormsPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes kept as they are (the graph's outputs)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumScales{*this, "scales-folded", "Multiplications folded into weights"};
  Statistic NumShifts{*this, "shifts-folded", "Constant additions folded into a bias"};

  /// Makes A's bias add (created after the convolution when there is none)
  /// a BiasAdd of `Bias`, then gives it `Root`'s place: Root's readers read
  /// it, Root is erased and its name taken.
  absl::Status finish(Graph &G, Affine &A, std::optional<std::vector<double>> Bias, Node &Root,
                      const Input &Constant) {
    Node *Conv = A.W.Op;
    Node *Last = Conv;
    if (Bias) {
      Node *Add = A.BiasNode;
      if (!Add) {
        Add = G.createNode(G.uniqueName(absl::StrCat(Conv->name().str(), "/bias_add")), "BiasAdd");
        Add->setDevice(Conv->device());
        Add->addDataInput(Conv, 0);
        Add->addDataInput(Conv, 0);
      }
      FROST_ASSIGN_OR_RETURN(Node * BiasConst,
                             createChannelConst(G, absl::StrCat(Root.name().str(), "/bias"),
                                                A.W.WeightValue.dtype(), *Bias, *Conv));
      Node *OldBias = nullptr;
      if (A.BiasNode) {
        unsigned BiasSide = Add->input(0).Src == Conv ? 1 : 0;
        OldBias = Add->input(BiasSide).Src;
        Add->setInput(0, Conv, 0);
      }
      Add->setInput(1, BiasConst, 0);
      Add->setOp("BiasAdd");
      Add->eraseAttr("data_format");
      if (const tensorflow::AttrValue *Format = Conv->findAttr("data_format"))
        Add->attr("data_format") = *Format;
      if (const tensorflow::AttrValue *ConvT = Conv->findAttr("T"))
        Add->attr("T") = *ConvT;
      eraseIfUnused(G, {OldBias});
      Last = Add;
    }
    std::string Name = Root.name().str();
    for (const Input &In : Root.controlInputs())
      Last->addControlInput(In.Src);
    Root.replaceAllUsesWith(Last);
    Node *ConstNode = Constant.Src;
    G.eraseNode(&Root);
    eraseIfUnused(G, {ConstNode});
    G.renameNode(Last, Name);
    return absl::OkStatus();
  }

  /// Folds N when it is a Mul or add of a constant after a convolution.
  absl::StatusOr<bool> fold(Graph &G, Node &N, const llvm::StringSet<> &Protected) {
    if (N.numDataInputs() != 2 || !matchOp(&N, {"Mul", "Add", "AddV2", "BiasAdd"}))
      return false;
    for (unsigned ConstSide : {1u, 0u}) {
      if (N.op() == "BiasAdd" && ConstSide == 0)
        break;
      const Input &C = N.input(ConstSide);
      if (!isConstInput(C))
        continue;
      std::optional<Affine> A = matchAffine(N.input(1 - ConstSide), Protected);
      if (!A)
        continue;
      absl::StatusOr<std::vector<double>> Values =
          N.op() == "BiasAdd" ? biasValues(A->W, N, C) : channelValues(A->W, C, "constant");
      if (!Values.ok())
        continue;
      if (N.op() == "Mul") {
        FROST_RETURN_IF_ERROR(replaceWeights(G, A->W, scaledWeights(A->W, *Values)));
        std::optional<std::vector<double>> Bias;
        if (A->BiasNode) {
          Bias = A->Bias;
          for (size_t I = 0; I < Bias->size(); ++I)
            (*Bias)[I] *= (*Values)[I];
        }
        FROST_RETURN_IF_ERROR(finish(G, *A, Bias, N, C));
        ++NumScales;
        return true;
      }
      // A bias add needs an addend of one value per channel exactly.
      if (!A->BiasNode && N.op() == "BiasAdd")
        return false;
      std::vector<double> Bias = A->BiasNode ? A->Bias : std::vector<double>(Values->size(), 0.0);
      for (size_t I = 0; I < Bias.size(); ++I)
        Bias[I] += (*Values)[I];
      FROST_RETURN_IF_ERROR(finish(G, *A, Bias, N, C));
      ++NumShifts;
      return true;
    }
    return false;
  }

  absl::Status run(Model &M, PassContext &) override {
    Graph &G = M.graph();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, {}, *Outputs));
    // Inputs first, so a chain of scales and shifts folds link by link in
    // one walk; a fold removes a node, so the walks end.
    bool Changed = true;
    while (Changed) {
      Changed = false;
      std::vector<std::string> Candidates;
      for (Node *N : graphConstructionOrder(G))
        if (matchOp(N, {"Mul", "Add", "AddV2", "BiasAdd"}))
          Candidates.push_back(N->name().str());
      for (const std::string &Name : Candidates) {
        Node *N = G.findNode(Name);
        if (!N)
          continue;
        FROST_ASSIGN_OR_RETURN(bool Folded, fold(G, *N, Protected));
        Changed |= Folded;
      }
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFoldBatchNormsPass() {
  return std::make_unique<FoldBatchNormsPass>();
}

std::unique_ptr<Pass> createFoldBatchNormsPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FoldBatchNormsPass>(PassName::createFoldBatchNormsPass, Options);
}

} // namespace frost
