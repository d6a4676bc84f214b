//===- FlattenAtrousConv.cpp - Atrous convolutions as one convolution -----===//
//
// TensorFlow's graph_transforms flatten_atrous_conv. TF1's atrous (dilated)
// convolutions are built as
//
//   BatchToSpaceND(Conv2D|DepthwiseConv2dNative(SpaceToBatchND(x, block,
//                  paddings), filter), block, crops)
//
// which runtimes without SpaceToBatchND cannot run. Such a site becomes one
// convolution of `x` with the filter dilated by the block shape: a zero
// filter of [(H-1)*bh+1, (W-1)*bw+1, C, M] with filter[h,w,c,m] at
// [bh*h, bw*w, c, m]. It takes the BatchToSpaceND's name (its readers are
// unchanged) and the convolution's op, device and attributes; the filter
// Const keeps its name when nothing else reads it. The nodes only the site
// used are removed. Run fold-constants first, so the filter is a Const.
//
// TensorFlow checks nothing and aborts the process on a site it cannot read.
// Frost leaves such a site as it is, with a warning saying why (and counts it
// in `sites-left-alone`), and differs on purpose:
//  - TensorFlow always gives the new convolution padding SAME, right only
//    when the paddings and crops are the ones tf.nn.atrous_conv2d computes
//    for SAME: padding "VALID" sites came out with the wrong output size.
//    Frost works out which padding the site computes: per spatial dimension,
//    with dilated filter size K, the site reads x from offset paddings[0] -
//    crops[0] and its output is (paddings sum - crops sum) - (K-1) longer
//    than x; SAME is offset (K-1)/2 and K-1 longer, VALID 0 and 0.
//    Anything else is left alone;
//  - the convolution must have padding VALID, strides and dilations 1 and
//    data_format NHWC, the block shape, paddings and crops must be Consts,
//    the block shapes of both ends equal: otherwise the site computes
//    something else (TensorFlow does not look);
//  - `x` keeps its port (TensorFlow drops it), filters of any dtype (not only
//    float) are dilated, a filter other nodes read is left to them and the
//    site gets a new Const `<filter>/dilated` (TensorFlow dilates the shared
//    one in place), and the control inputs of the removed convolution and
//    SpaceToBatchND move to the new convolution.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Tensor/Shape.h"
#include "frost/Tensor/TensorProtoCodec.h"
#include "frost/Transforms/Passes.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/ADT/SetVector.h"

#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace frost {

namespace {

/// The largest dilated filter made, in bytes: a site whose filter would be
/// larger is left alone rather than allocated.
constexpr int64_t MaxDilatedFilterBytes = int64_t(1) << 30;

/// Why a site is left alone (empty: it is not).
using Reason = std::string;

/// The value of a Const node read through output 0, or a reason.
absl::StatusOr<TensorData> constValue(const Input &In, llvm::StringRef Role) {
  const Node &N = *In.Src;
  if (N.op() != "Const" || In.Port != 0)
    return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " '", N.name().str(),
                                                   "' is not a Const (", N.op().str(), ")"));
  const tensorflow::AttrValue *Value = N.findAttr("value");
  if (!Value || !Value->has_tensor())
    return absl::InvalidArgumentError(
        absl::StrCat("its ", Role.str(), " '", N.name().str(), "' has no tensor value"));
  std::string Where = absl::StrCat("its ", Role.str(), " '", N.name().str(), "'");
  const ExternalContent *Ext = N.externalContent("value");
  if (!Ext)
    return decodeTensorProto(Value->tensor(), Where);
  FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Shape,
                         shapeFromProto(Value->tensor().tensor_shape()));
  FROST_ASSIGN_OR_RETURN(int64_t Count, numElements(Shape));
  tensorflow::DataType DType = Value->tensor().dtype();
  if (!isFixedSizeDataType(DType) ||
      Ext->Bytes.size() != static_cast<uint64_t>(Count) * dataTypeSize(DType))
    return absl::InvalidArgumentError(absl::StrCat(Where, " has malformed content"));
  return TensorData::borrowed(DType, std::move(Shape), Ext->Bytes, Ext->Keeper);
}

/// The elements of an int32 or int64 Const of shape `Shape`, each at least
/// `Min` and at most INT32_MAX (so sums of them cannot overflow); or a reason.
absl::StatusOr<std::vector<int64_t>> constInts(const Input &In, llvm::StringRef Role,
                                               llvm::ArrayRef<int64_t> Shape, int64_t Min) {
  FROST_ASSIGN_OR_RETURN(TensorData T, constValue(In, Role));
  std::vector<int64_t> Values;
  if (T.dtype() == tensorflow::DT_INT32) {
    for (int32_t V : T.values<int32_t>())
      Values.push_back(V);
  } else if (T.dtype() == tensorflow::DT_INT64) {
    Values = T.values<int64_t>();
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("its ", Role.str(), " is ", dataTypeName(T.dtype()), ", not int32/int64"));
  }
  if (T.shape() != Shape)
    return absl::InvalidArgumentError(absl::StrCat(
        "its ", Role.str(), " has shape ", formatShape(T.shape()), ", not ", formatShape(Shape)));
  for (int64_t V : Values)
    if (V < Min || V > std::numeric_limits<int32_t>::max())
      return absl::InvalidArgumentError(absl::StrCat("its ", Role.str(), " holds ", V));
  return Values;
}

/// Whether list attribute `Name` of `Conv` is absent (when `AbsentOk`) or
/// holds only ones.
bool allOnes(const Node &Conv, const char *Name, bool AbsentOk) {
  const tensorflow::AttrValue *A = Conv.findAttr(Name);
  if (!A)
    return AbsentOk;
  return A->has_list() && A->list().i_size() == 4 &&
         llvm::all_of(A->list().i(), [](int64_t V) { return V == 1; });
}

/// A site the pass rewrites.
struct Site {
  Node *BatchToSpace, *Conv, *SpaceToBatch;
  Input X, Filter;
  std::array<int64_t, 2> Block;
  TensorData FilterValue;
  const char *Padding;
};

/// The padding ("SAME", "VALID") under which a convolution of x with the
/// dilated filter reads what the site reads, or null.
const char *equivalentPadding(const Site &S, llvm::ArrayRef<int64_t> Paddings,
                              llvm::ArrayRef<int64_t> Crops) {
  bool Same = true, Valid = true;
  for (int D = 0; D < 2; ++D) {
    int64_t Dilated = (S.FilterValue.shape()[D] - 1) * S.Block[D] + 1;
    int64_t Offset = Paddings[2 * D] - Crops[2 * D];
    int64_t Growth = Paddings[2 * D] + Paddings[2 * D + 1] - Crops[2 * D] - Crops[2 * D + 1];
    Same &= Offset == (Dilated - 1) / 2 && Growth == Dilated - 1;
    Valid &= Offset == 0 && Growth == 0;
  }
  return Same ? "SAME" : Valid ? "VALID" : nullptr;
}

class FlattenAtrousConvPass : public Pass {
  Statistic NumFlattened{*this, "convolutions-flattened",
                         "Atrous sites made one convolution with a dilated filter"};
  Statistic NumLeftAlone{*this, "sites-left-alone",
                         "Atrous sites left as they are (each with a warning saying why)"};

  /// The site rooted at `B2S` when it has the atrous shape: null when it has
  /// not; a reason when it has but cannot be flattened.
  absl::StatusOr<std::optional<Site>> matchSite(Node &B2S) {
    Node *Conv = dataInputNode(&B2S, 0);
    if (B2S.numDataInputs() != 3 || B2S.input(0).Port != 0 ||
        !matchOp(Conv, {"Conv2D", "DepthwiseConv2dNative"}) || Conv->numDataInputs() != 2)
      return std::nullopt;
    Node *S2B = dataInputNode(Conv, 0);
    if (!matchOp(S2B, "SpaceToBatchND") || Conv->input(0).Port != 0 || S2B->numDataInputs() != 3)
      return std::nullopt;

    Site S{&B2S, Conv, S2B, S2B->input(0), Conv->input(1), {}, {}, nullptr};
    const tensorflow::AttrValue *Format = Conv->findAttr("data_format");
    if (Format && Format->s() != "NHWC")
      return absl::InvalidArgumentError(
          absl::StrCat("its convolution has data_format ", Format->s(), ", not NHWC"));
    const tensorflow::AttrValue *Padding = Conv->findAttr("padding");
    if (!Padding || Padding->s() != "VALID")
      return absl::InvalidArgumentError("its convolution's padding is not VALID");
    if (!allOnes(*Conv, "strides", false) || !allOnes(*Conv, "dilations", true))
      return absl::InvalidArgumentError("its convolution's strides or dilations are not all 1");

    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Block,
                           constInts(S2B->input(1), "block shape", {2}, 1));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> OutBlock,
                           constInts(B2S.input(1), "BatchToSpaceND block shape", {2}, 1));
    if (Block != OutBlock)
      return absl::InvalidArgumentError(absl::StrCat("its block shapes differ: [",
                                                     absl::StrJoin(Block, ","), "] and [",
                                                     absl::StrJoin(OutBlock, ","), "]"));
    S.Block = {Block[0], Block[1]};
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Paddings,
                           constInts(S2B->input(2), "paddings", {2, 2}, 0));
    FROST_ASSIGN_OR_RETURN(std::vector<int64_t> Crops, constInts(B2S.input(2), "crops", {2, 2}, 0));

    FROST_ASSIGN_OR_RETURN(S.FilterValue, constValue(S.Filter, "filter"));
    const TensorData &F = S.FilterValue;
    if (F.shape().size() != 4 || !F.isFixedSize())
      return absl::InvalidArgumentError(absl::StrCat("its filter is ", dataTypeName(F.dtype()), " ",
                                                     formatShape(F.shape()),
                                                     ", not a 4-D number tensor"));
    if (const tensorflow::AttrValue *T = Conv->findAttr("T"); T && T->type() != F.dtype())
      return absl::InvalidArgumentError(absl::StrCat("its filter is ", dataTypeName(F.dtype()),
                                                     " but the convolution's T is ",
                                                     dataTypeName(T->type())));
    // The dilated filter's size, checked against overflow and the limit.
    int64_t Bytes = static_cast<int64_t>(dataTypeSize(F.dtype()));
    for (int D = 0; D < 4; ++D) {
      int64_t Dim = F.shape()[D];
      if (Dim == 0)
        return absl::InvalidArgumentError("its filter is empty");
      if (D < 2 && Dim - 1 > (MaxDilatedFilterBytes - 1) / S.Block[D])
        return absl::InvalidArgumentError("its dilated filter would exceed 1 GiB");
      int64_t Size = D < 2 ? (Dim - 1) * S.Block[D] + 1 : Dim;
      if (Size > MaxDilatedFilterBytes / Bytes)
        return absl::InvalidArgumentError("its dilated filter would exceed 1 GiB");
      Bytes *= Size;
    }

    S.Padding = equivalentPadding(S, Paddings, Crops);
    if (!S.Padding)
      return absl::InvalidArgumentError(absl::StrCat(
          "its paddings [", absl::StrJoin(Paddings, ","), "] and crops [",
          absl::StrJoin(Crops, ","), "] are neither SAME nor VALID padding of the dilated filter"));
    return S;
  }

  /// The filter's elements spread out by the block shape, zeros between.
  static TensorData dilatedFilter(const Site &S) {
    const TensorData &F = S.FilterValue;
    int64_t H = F.shape()[0], W = F.shape()[1], Inner = F.shape()[2] * F.shape()[3];
    int64_t DH = (H - 1) * S.Block[0] + 1, DW = (W - 1) * S.Block[1] + 1;
    size_t RowBytes = static_cast<size_t>(Inner) * dataTypeSize(F.dtype());
    std::string Bytes(static_cast<size_t>(DH * DW) * RowBytes, '\0');
    for (int64_t Y = 0; Y < H; ++Y)
      for (int64_t X = 0; X < W; ++X)
        std::memcpy(Bytes.data() + ((Y * S.Block[0]) * DW + X * S.Block[1]) * RowBytes,
                    F.bytes().data() + (Y * W + X) * RowBytes, RowBytes);
    return TensorData::owned(F.dtype(), {DH, DW, F.shape()[2], F.shape()[3]}, std::move(Bytes));
  }

  absl::Status flatten(Graph &G, Site &S) {
    Node &B2S = *S.BatchToSpace;
    Node *OldFilter = S.Filter.Src;
    // The filter is rewritten in place when only this site reads it.
    bool InPlace = OldFilter->uses().size() == 1 && S.Conv->uses().size() == 1;
    Node *NewFilter = OldFilter;
    if (!InPlace) {
      NewFilter =
          G.createNode(G.uniqueName(absl::StrCat(OldFilter->name().str(), "/dilated")), "Const");
      NewFilter->setDevice(OldFilter->device());
      NewFilter->attr("dtype").set_type(S.FilterValue.dtype());
      for (const Input &In : OldFilter->controlInputs())
        NewFilter->addControlInput(In.Src);
    }
    tensorflow::TensorProto Value;
    FROST_RETURN_IF_ERROR(makeTensorProto(dilatedFilter(S), Value));
    NewFilter->eraseAttr("value");
    *NewFilter->attr("value").mutable_tensor() = std::move(Value);

    // The BatchToSpaceND becomes the convolution.
    llvm::SetVector<Node *> Replaced;
    Replaced.insert(S.Conv);
    Replaced.insert(S.SpaceToBatch);
    for (const Input &In :
         {B2S.input(1), B2S.input(2), S.SpaceToBatch->input(1), S.SpaceToBatch->input(2)})
      Replaced.insert(In.Src);
    if (NewFilter != OldFilter)
      Replaced.insert(OldFilter);
    tensorflow::AttrValue OutputShapes;
    bool HasOutputShapes = B2S.findAttr("_output_shapes");
    if (HasOutputShapes)
      OutputShapes = *B2S.findAttr("_output_shapes");
    B2S.mutableAttrs() = S.Conv->attrs();
    B2S.eraseAttr("_output_shapes");
    if (HasOutputShapes)
      B2S.attr("_output_shapes") = std::move(OutputShapes);
    B2S.attr("padding").set_s(S.Padding);
    B2S.setOp(S.Conv->op());
    B2S.setDevice(S.Conv->device());
    B2S.setInput(0, S.X.Src, S.X.Port);
    B2S.setInput(1, NewFilter, 0);
    B2S.removeInput(2);
    for (Node *Gone : {S.Conv, S.SpaceToBatch})
      for (const Input &In : Gone->controlInputs())
        B2S.addControlInput(In.Src);

    // Remove what only the site used, readers first.
    for (Node *N : Replaced)
      if (N != &B2S && !N->hasUses() && N != S.X.Src)
        G.eraseNode(N);
    ++NumFlattened;
    return absl::OkStatus();
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Node *> Roots;
    for (Node &N : G)
      if (N.op() == "BatchToSpaceND")
        Roots.push_back(&N);
    for (Node *B2S : Roots) {
      absl::StatusOr<std::optional<Site>> S = matchSite(*B2S);
      if (!S.ok()) {
        Ctx.warning(name(),
                    absl::StrCat("left '", B2S->name().str(), "' alone: ", S.status().message()));
        ++NumLeftAlone;
        continue;
      }
      if (*S)
        FROST_RETURN_IF_ERROR(flatten(G, **S));
    }
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFlattenAtrousConvPass() {
  return std::make_unique<FlattenAtrousConvPass>();
}

} // namespace frost
