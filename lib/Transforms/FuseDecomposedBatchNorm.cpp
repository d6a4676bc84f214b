//===- FuseDecomposedBatchNorm.cpp - Elementwise batch norms as one op ----===//
//
// optimize_for_inference's fuse_decomposed_batch_norm. tf.nn.batch_normalization
// and Keras 3's BatchNormalization are written as
//
//   Add(Mul(x, s), Sub(beta, Mul(mean, s)))
//   s = Mul(Rsqrt(Add(variance, epsilon)), gamma)   or, without gamma,
//   s = Rsqrt(Add(variance, epsilon))
//
// with constant beta, mean, variance, gamma (one value per channel) and
// epsilon (a scalar). Such a site on a 4-D float x becomes one
// FusedBatchNorm (NHWC, is_training false) named as the Add, which
// fold-old-batch-norms can then fold into the convolution before it. A
// missing gamma becomes a Const of ones `<scope of s>/gamma`, as in
// TensorFlow.
//
// TensorFlow matches only `Add` (TF2 graphs write AddV2), only these operand
// orders, and only when x or one of x's inputs is an NHWC convolution.
// Frost also takes AddV2 and either order of each commutative op, and any x
// whose rank is 4 (the constants then broadcast along its last axis, as
// FusedBatchNorm's NHWC channels do) unless x or one of x's inputs is of an
// NCHW op, as TensorFlow refuses (its runtime computes an NHWC norm after an
// NCHW convolution wrongly); it keeps x's output port, and leaves
// a site alone when one of its inner nodes is read elsewhere (TensorFlow
// removes it anyway). Sites on other ranks (after a Dense layer) are left
// to fold-constants and fold-batch-norms, which fold them into the weights.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/Shape.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"
#include "frost/Transforms/Utils/GraphInterface.h"
#include "frost/Transforms/Utils/ShapeInference.h"
#include "frost/Transforms/Utils/WeightFolding.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

/// A matched site: the root Add and the nodes it replaces.
struct Site {
  Node *Root, *ScaleX, *Sub, *ScaleMean, *S, *Rsqrt, *VarEps;
  Input X;
  Node *Beta, *Mean, *Variance, *Epsilon;
  Node *Gamma = nullptr;
};

/// The operand of binary N other than the one `First` reads, when one of
/// N's two data inputs reads output 0 of `First`.
std::optional<Input> otherOperand(const Node &N, const Node *First) {
  if (N.numDataInputs() != 2)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I)
    if (N.input(I).Src == First && N.input(I).Port == 0)
      return N.input(1 - I);
  return std::nullopt;
}

/// The Const behind `In` when it has rank `Rank`.
Node *constOfRank(const Input &In, size_t Rank) {
  if (!isConstInput(In))
    return nullptr;
  const tensorflow::AttrValue *V = In.Src->findAttr("value");
  if (!V || !V->has_tensor() || V->tensor().tensor_shape().unknown_rank())
    return nullptr;
  return static_cast<size_t>(V->tensor().tensor_shape().dim_size()) == Rank ? In.Src : nullptr;
}

/// Whether N's uses are exactly `Count` data uses.
bool usedOnlyBy(const Node &N, size_t Count) {
  return N.uses().size() == Count && numDataUses(N) == Count;
}

std::optional<Site> matchSite(Node &Root) {
  if (!matchOp(&Root, {"Add", "AddV2"}) || Root.numDataInputs() != 2)
    return std::nullopt;
  Site S{};
  S.Root = &Root;
  for (unsigned I = 0; I < 2; ++I)
    if (matchOp(dataInputNode(&Root, I), "Mul") && matchOp(dataInputNode(&Root, 1 - I), "Sub")) {
      S.ScaleX = Root.input(I).Src;
      S.Sub = Root.input(1 - I).Src;
    }
  if (!S.ScaleX || Root.input(0).Port != 0 || Root.input(1).Port != 0 ||
      S.ScaleX->numDataInputs() != 2 || S.Sub->numDataInputs() != 2)
    return std::nullopt;
  // Sub(beta, Mul(mean, s)).
  S.Beta = constOfRank(S.Sub->input(0), 1);
  S.ScaleMean = matchInput(S.Sub, 1, "Mul");
  if (!S.Beta || !S.ScaleMean || S.ScaleMean->numDataInputs() != 2)
    return std::nullopt;
  // s is the operand the two Muls share; x and mean are the others.
  for (unsigned I = 0; I < 2 && !S.S; ++I) {
    Node *Candidate = dataInputNode(S.ScaleX, I);
    std::optional<Input> Mean = otherOperand(*S.ScaleMean, Candidate);
    if (Candidate && S.ScaleX->input(I).Port == 0 && Mean && constOfRank(*Mean, 1)) {
      S.S = Candidate;
      S.X = S.ScaleX->input(1 - I);
      S.Mean = Mean->Src;
    }
  }
  if (!S.S)
    return std::nullopt;
  // s = Rsqrt(...) or Mul(Rsqrt(...), gamma).
  if (matchOp(S.S, "Rsqrt")) {
    S.Rsqrt = S.S;
  } else if (matchOp(S.S, "Mul") && S.S->numDataInputs() == 2) {
    for (unsigned I = 0; I < 2; ++I)
      if (Node *R = matchInput(S.S, I, "Rsqrt"); R && constOfRank(S.S->input(1 - I), 1)) {
        S.Rsqrt = R;
        S.Gamma = S.S->input(1 - I).Src;
      }
  }
  if (!S.Rsqrt)
    return std::nullopt;
  // Add(variance, epsilon), either order.
  S.VarEps = matchInput(S.Rsqrt, 0, "Add");
  if (!S.VarEps)
    S.VarEps = matchInput(S.Rsqrt, 0, "AddV2");
  if (!S.VarEps || S.VarEps->numDataInputs() != 2)
    return std::nullopt;
  for (unsigned I = 0; I < 2; ++I)
    if (Node *Var = constOfRank(S.VarEps->input(I), 1)) {
      S.Variance = Var;
      S.Epsilon = constOfRank(S.VarEps->input(1 - I), 0);
    }
  if (!S.Variance || !S.Epsilon)
    return std::nullopt;
  return S;
}

/// The node of an NCHW layout that x is, or that one of x's producer's data
/// inputs is (TensorFlow's reach), else null: over NCHW data the per-channel
/// constants of this pattern broadcast along W, and TensorFlow's runtime
/// (oneDNN, Grappler's remapper) fuses an NHWC FusedBatchNorm into an NCHW
/// convolution before it as if it were over C, computing wrong values.
const Node *nchwSource(const Input &X) {
  auto IsNchw = [](const Node *N) {
    const tensorflow::AttrValue *Format = N ? N->findAttr("data_format") : nullptr;
    return Format && llvm::StringRef(Format->s()).starts_with("NC");
  };
  if (IsNchw(X.Src))
    return X.Src;
  for (unsigned I = 0; I < X.Src->numDataInputs(); ++I)
    if (IsNchw(X.Src->input(I).Src))
      return X.Src->input(I).Src;
  return nullptr;
}

/// More channels than any network has: a declared size beyond it is
/// refused rather than allocated.
constexpr int64_t MaxChannels = int64_t(1) << 24;

class FuseDecomposedBatchNormPass : public Pass {
public:
  FuseDecomposedBatchNormPass() = default;
  explicit FuseDecomposedBatchNormPass(const KeepOutputsOptions &O) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes kept as they are (the graph's outputs)"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumFused{*this, "batch-norms-fused", "Decomposed batch norms made one FusedBatchNorm"};
  Statistic NumLeftAlone{*this, "batch-norms-left-alone",
                         "Decomposed batch norms left as they are (each with a warning saying "
                         "why, or for fold-batch-norms when not 4-D)"};

  /// Why the site cannot be one FusedBatchNorm; empty when it can.
  std::string refusal(const Site &S, const GraphShapes &Shapes, const llvm::StringSet<> &Protected) {
    const tensorflow::AttrValue *T = S.Root->findAttr("T");
    if (!T || T->type() != tensorflow::DT_FLOAT)
      return "it is not float (FusedBatchNorm takes float)";
    PartialShape X = Shapes.of(*S.X.Src, S.X.Port);
    if (X.rank() != 4)
      return "its input is not known to be 4-D";
    if (const Node *Nchw = nchwSource(S.X))
      return absl::StrCat("its input is NCHW data (from '", Nchw->name().str(),
                          "'), and FusedBatchNorm's constants are over channels where these "
                          "broadcast along the last axis");
    auto onlyBy = [&](const Node &N, size_t Count) {
      return usedOnlyBy(N, Count) && !Protected.contains(N.name());
    };
    bool Shared = !onlyBy(*S.ScaleX, 1) || !onlyBy(*S.Sub, 1) || !onlyBy(*S.ScaleMean, 1) ||
                  !onlyBy(*S.S, 2) || (S.Rsqrt != S.S && !onlyBy(*S.Rsqrt, 1)) ||
                  !onlyBy(*S.VarEps, 1);
    if (Shared)
      return "one of its inner nodes is read elsewhere (or is an output)";
    // The constants broadcast along x's last axis; FusedBatchNorm needs one
    // value per channel exactly.
    int64_t Channels = X.dim(3);
    if (Channels < 0 || Channels > MaxChannels)
      return "its input's channel count is not known";
    for (Node *C : {S.Beta, S.Mean, S.Variance, S.Gamma}) {
      if (!C)
        continue;
      const tensorflow::AttrValue *DType = C->findAttr("dtype");
      int64_t Size = C->findAttr("value")->tensor().tensor_shape().dim(0).size();
      if (!DType || DType->type() != tensorflow::DT_FLOAT || Size != Channels)
        return absl::StrCat("its constant '", C->name().str(), "' is not float with one value "
                            "for each of the input's ", Channels, " channels");
    }
    absl::StatusOr<std::vector<double>> Epsilon = constDoubles(*S.Epsilon);
    if (!Epsilon.ok() || Epsilon->size() != 1)
      return absl::StrCat("its epsilon '", S.Epsilon->name().str(), "' is not one float");
    return "";
  }

  absl::Status fuse(Graph &G, Site &S) {
    FROST_ASSIGN_OR_RETURN(std::vector<double> Epsilon, constDoubles(*S.Epsilon));
    Node *Gamma = S.Gamma;
    if (!Gamma) {
      llvm::StringRef Scope = S.S->name();
      size_t Slash = Scope.rfind('/');
      std::string Name = Slash == llvm::StringRef::npos ? absl::StrCat(Scope.str(), "/gamma")
                                                         : absl::StrCat(Scope.substr(0, Slash).str(), "/gamma");
      int64_t Channels = S.Beta->findAttr("value")->tensor().tensor_shape().dim(0).size();
      FROST_ASSIGN_OR_RETURN(Gamma, createChannelConst(G, Name, tensorflow::DT_FLOAT,
                                                       std::vector<double>(Channels, 1.0), *S.Beta));
    }
    Node &Root = *S.Root;
    tensorflow::AttrValue T = *Root.findAttr("T");
    Root.setOp("FusedBatchNorm");
    Root.mutableAttrs().clear();
    Root.attr("T") = std::move(T);
    Root.attr("epsilon").set_f(static_cast<float>(Epsilon.front()));
    Root.attr("is_training").set_b(false);
    Root.attr("data_format").set_s("NHWC");
    Root.setInput(0, S.X.Src, S.X.Port);
    Root.setInput(1, Gamma, 0);
    for (Node *Param : {S.Beta, S.Mean, S.Variance})
      Root.addDataInput(Param, 0);
    for (Node *Inner : {S.ScaleX, S.Sub, S.ScaleMean, S.S, S.Rsqrt, S.VarEps})
      moveControlInputs(*Inner, Root);
    eraseIfUnused(G, {S.ScaleX, S.Sub, S.ScaleMean, S.S, S.Rsqrt, S.VarEps, S.Epsilon});
    ++NumFused;
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Site> Sites;
    for (Node &N : G)
      if (std::optional<Site> S = matchSite(N))
        Sites.push_back(*S);
    if (Sites.empty())
      return absl::OkStatus();
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, {}, *Outputs));
    GraphShapes Shapes = inferGraphShapes(G);
    std::vector<Site> Fusable;
    for (Site &S : Sites) {
      std::string Why = refusal(S, Shapes, Protected);
      if (Why.empty()) {
        Fusable.push_back(S);
        continue;
      }
      ++NumLeftAlone;
      if (Shapes.of(*S.X.Src, S.X.Port).rank() == 4)
        Ctx.warning(name(), absl::StrCat("left '", S.Root->name().str(), "' alone: ", Why));
    }
    // Sites share no node but constants, so fusing one leaves the others'
    // matches valid.
    for (Site &S : Fusable)
      FROST_RETURN_IF_ERROR(fuse(G, S));
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFuseDecomposedBatchNormPass() {
  return std::make_unique<FuseDecomposedBatchNormPass>();
}

std::unique_ptr<Pass> createFuseDecomposedBatchNormPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FuseDecomposedBatchNormPass>(PassName::createFuseDecomposedBatchNormPass, Options);
}

} // namespace frost
