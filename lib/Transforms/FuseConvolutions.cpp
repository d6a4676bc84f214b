//===- FuseConvolutions.cpp - Resize and mirror padding into a Conv2D -----===//
//
// graph_transforms' fuse_pad_and_conv, fuse_resize_and_conv and
// fuse_resize_pad_and_conv (fuse_convolutions.cc), and the step of
// optimize_for_inference that does all three: a Conv2D reading
//
//   MirrorPad(x, paddings)                  -> FusedPadConv2D(x, paddings, w)
//   ResizeBilinear(x, size)                 -> FusedResizeAndPadConv2D(x, size,
//                                                `<conv>_dummy_paddings`, w)
//   MirrorPad(ResizeBilinear(x, size), p)   -> FusedResizeAndPadConv2D(x, size, p, w)
//
// becomes one op named as the Conv2D, with its T, strides and padding, the
// pad's mode (REFLECT without a pad) and the resize's align_corners. A pad or
// resize other nodes read stays for them. One class, three registered
// names, each for its pattern (fuse-pad-and-conv: a MirrorPad of anything);
// optimize_for_inference's fuse_resize_and_conv is the three run
// resize+pad, pad, resize.
//
// TensorFlow fuses whatever matches, dropping what the fused ops cannot
// express: Frost leaves a site alone, with a warning, when the Conv2D is not
// NHWC, is dilated or explicitly padded, or the resize uses
// half_pixel_centers (TF2's tf.image.resize does): the fused op would
// compute something else. And TensorFlow 2.21's CPU kernels of both fused
// ops compute every image of a batch from the first one (measured: images
// 1 and 2 of a batch of 3 off by 20 where the unfused ops agree), so Frost
// fuses only where static shapes say the batch is 1.
//
//===----------------------------------------------------------------------===//
#include "frost/IR/Matchers.h"
#include "frost/IR/Model.h"
#include "frost/Transforms/PassOptions.h"
#include "frost/Transforms/Passes.h"
#include "frost/IR/ConstValue.h"
#include "frost/Transforms/Utils/GraphInterface.h"
#include "frost/Transforms/Utils/ShapeInference.h"
#include "frost/Transforms/Utils/WeightFolding.h"

#include "absl/strings/str_cat.h"

namespace frost {

namespace {

enum class Fusion { Pad, Resize, ResizePad };

class FuseConvolutionsPass : public Pass {
public:
  explicit FuseConvolutionsPass(Fusion Which) : Which(Which) {}
  FuseConvolutionsPass(Fusion Which, const KeepOutputsOptions &O) : Which(Which) {
    Outputs.setIfGiven(O.Outputs);
  }

private:
  Fusion Which;
  ListOption<std::string> Outputs{*this, "outputs",
                                  "Nodes kept even when the fused op no longer reads them"};
  GraphEnds graphEnds() override { return {nullptr, &Outputs}; }
  Statistic NumFused{*this, "convolutions-fused", "Conv2D nodes fused with a pad or resize"};
  Statistic NumLeftAlone{*this, "sites-left-alone",
                         "Sites left as they are (each with a warning saying why)"};

  static std::string whyNot(const Node &Conv, const Node *Pad, const Node *Resize, int64_t Batch) {
    const tensorflow::AttrValue *Format = Conv.findAttr("data_format");
    if (Format && Format->s() != "NHWC")
      return absl::StrCat("its Conv2D has data_format ", Format->s(), "; the fused ops are NHWC");
    if (const tensorflow::AttrValue *D = Conv.findAttr("dilations"))
      if (llvm::any_of(D->list().i(), [](int64_t V) { return V != 1; }))
        return "its Conv2D is dilated; the fused ops are not";
    const tensorflow::AttrValue *Padding = Conv.findAttr("padding");
    if (!Padding || (Padding->s() != "SAME" && Padding->s() != "VALID"))
      return "its Conv2D's padding is not SAME or VALID";
    if (Batch != 1)
      return absl::StrCat("its batch is ", Batch < 0 ? "not known to be 1" : absl::StrCat(Batch),
                          ": TensorFlow's fused kernels compute every image from the first");
    if (Pad) {
      const tensorflow::AttrValue *Tpaddings = Pad->findAttr("Tpaddings");
      if (Tpaddings && Tpaddings->type() != tensorflow::DT_INT32)
        return "its MirrorPad's paddings are not int32, which the fused ops take";
    }
    if (Resize) {
      const tensorflow::AttrValue *HalfPixel = Resize->findAttr("half_pixel_centers");
      if (HalfPixel && HalfPixel->b())
        return "its ResizeBilinear uses half_pixel_centers, which FusedResizeAndPadConv2D cannot";
      // The resize makes floats of any number type; the fused op reads its
      // input as the convolution's T.
      const tensorflow::AttrValue *ResizeT = Resize->findAttr("T");
      const tensorflow::AttrValue *ConvT = Conv.findAttr("T");
      if (!ResizeT || !ConvT || ResizeT->type() != ConvT->type())
        return "its ResizeBilinear reads another type than the Conv2D's T";
    }
    return "";
  }

  absl::StatusOr<bool> fuse(Graph &G, Node &Conv, PassContext &Ctx,
                            std::optional<GraphShapes> &Shapes, const llvm::StringSet<> &Protected) {
    if (Conv.numDataInputs() != 2 || Conv.input(0).Port != 0)
      return false;
    Node *Pad = matchInput(&Conv, 0, "MirrorPad");
    Node *Resize = Pad ? matchInput(Pad, 0, "ResizeBilinear") : matchInput(&Conv, 0, "ResizeBilinear");
    if ((!Pad && !Resize) || (Pad && Pad->numDataInputs() != 2) ||
        (Resize && Resize->numDataInputs() != 2))
      return false;
    // Pad and resize keep the batch: it is that of what the lowest reads.
    const Input &Bottom = Resize ? Resize->input(0) : Pad->input(0);
    switch (Which) {
    case Fusion::Pad: // Whatever the pad reads.
      if (!Pad)
        return false;
      Resize = nullptr;
      break;
    case Fusion::Resize:
      if (Pad)
        return false;
      break;
    case Fusion::ResizePad:
      if (!Pad || !Resize)
        return false;
      break;
    }
    // Shapes are inferred once, when a site needs them; fusing changes no
    // shape, and the nodes it adds are after the inference.
    if (!Shapes)
      Shapes = inferGraphShapes(G);
    int64_t Batch = Bottom.Src->id() < Shapes->Shapes.size()
                        ? Shapes->of(*Bottom.Src, Bottom.Port).dim(0)
                        : -1;
    if (std::string Why = whyNot(Conv, Pad, Resize, Batch); !Why.empty()) {
      Ctx.warning(name(), absl::StrCat("left '", Conv.name().str(), "' alone: ", Why));
      ++NumLeftAlone;
      return false;
    }
    Input Filter = Conv.input(1);
    tensorflow::AttrValue T, Strides, Padding, Mode;
    T = Conv.attrs().count("T") ? Conv.attrs().at("T") : T;
    Strides = Conv.attrs().count("strides") ? Conv.attrs().at("strides") : Strides;
    Padding = Conv.attrs().at("padding");
    Input PadInput;
    if (Pad) {
      PadInput = Pad->input(1);
      if (const tensorflow::AttrValue *M = Pad->findAttr("mode"))
        Mode = *M;
    } else {
      // No padding: zero paddings make that stage of the fused op nothing.
      FROST_ASSIGN_OR_RETURN(
          Node * Zeros,
          createConst(G, absl::StrCat(Conv.name().str(), "_dummy_paddings"),
                      TensorData::owned(tensorflow::DT_INT32, {4, 2}, std::string(32, '\0')),
                      Conv.device()));
      PadInput = Input{Zeros, 0};
      Mode.set_s("REFLECT");
    }
    Input Source = Resize ? Resize->input(0) : Pad->input(0);
    Conv.mutableAttrs().clear();
    Conv.attr("T") = T;
    Conv.attr("strides") = Strides;
    Conv.attr("padding") = Padding;
    Conv.attr("mode") = Mode;
    if (Resize) {
      Conv.setOp("FusedResizeAndPadConv2D");
      const tensorflow::AttrValue *Align = Resize->findAttr("align_corners");
      Conv.attr("resize_align_corners").set_b(Align && Align->b());
      Input Size = Resize->input(1);
      Conv.setInput(0, Source.Src, Source.Port);
      Conv.setInput(1, Size.Src, Size.Port);
      Conv.addDataInput(PadInput.Src, PadInput.Port);
      Conv.addDataInput(Filter.Src, Filter.Port);
    } else {
      Conv.setOp("FusedPadConv2D");
      Conv.setInput(0, Source.Src, Source.Port);
      Conv.setInput(1, PadInput.Src, PadInput.Port);
      Conv.addDataInput(Filter.Src, Filter.Port);
    }
    // The fused op waits for what the pad and resize waited for.
    for (Node *Gone : {Pad, Resize})
      if (Gone)
        moveControlInputs(*Gone, Conv);
    for (Node *Gone : {Pad, Resize})
      if (Gone && !Protected.contains(Gone->name()))
        eraseIfUnused(G, {Gone});
    ++NumFused;
    return true;
  }

  absl::Status run(Model &M, PassContext &Ctx) override {
    Graph &G = M.graph();
    std::vector<Node *> Convs;
    for (Node &N : G)
      if (N.op() == "Conv2D")
        Convs.push_back(&N);
    FROST_ASSIGN_OR_RETURN(llvm::StringSet<> Protected, interfaceNodeNames(G, {}, *Outputs));
    std::optional<GraphShapes> Shapes;
    for (Node *Conv : Convs)
      FROST_RETURN_IF_ERROR(fuse(G, *Conv, Ctx, Shapes, Protected).status());
    return absl::OkStatus();
  }
};

} // namespace

std::unique_ptr<Pass> createFusePadAndConvPass() {
  return std::make_unique<FuseConvolutionsPass>(Fusion::Pad);
}
std::unique_ptr<Pass> createFuseResizeAndConvPass() {
  return std::make_unique<FuseConvolutionsPass>(Fusion::Resize);
}
std::unique_ptr<Pass> createFuseResizePadAndConvPass() {
  return std::make_unique<FuseConvolutionsPass>(Fusion::ResizePad);
}

std::unique_ptr<Pass> createFusePadAndConvPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FuseConvolutionsPass>(PassName::createFusePadAndConvPass, Fusion::Pad,
                                             Options);
}
std::unique_ptr<Pass> createFuseResizeAndConvPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FuseConvolutionsPass>(PassName::createFuseResizeAndConvPass,
                                             Fusion::Resize, Options);
}
std::unique_ptr<Pass> createFuseResizePadAndConvPass(const KeepOutputsOptions &Options) {
  return makeNamedPass<FuseConvolutionsPass>(PassName::createFuseResizePadAndConvPass,
                                             Fusion::ResizePad, Options);
}

} // namespace frost
