//===- ExportSavedModel.cpp - A frozen graph as a serving SavedModel ------===//
//
// What TF Serving, TFLite's and tf2onnx's converters and both of
// TensorFlow's loaders take (issue #30): saved_model.pb with one MetaGraphDef
// (tagged serve), its signatures with each tensor's dtype and static shape
// (TensorFlow's shape functions, as far as Frost's know them), the lookup
// tables' initializers as the `__saved_model_init_op` the loaders run, an
// empty variables/ (a frozen graph has none; the loaders then restore
// nothing), and assets/ with the vocabulary files the graph still reads,
// bound to the Consts that name them. All written into a temporary directory
// and renamed into place.
//
//===----------------------------------------------------------------------===//
#include "JobsInternal.h"

#include "frost/IR/EdgeTypes.h"
#include "frost/IR/OpRegistry.h"
#include "frost/IR/TensorName.h"
#include "frost/Transforms/Utils/ShapeInference.h"

#include "absl/strings/str_cat.h"

#include <filesystem>
#include <set>

namespace frost {

namespace {

constexpr llvm::StringLiteral InitOpKey = "__saved_model_init_op";

/// The TensorInfo of `Tensor` ("node" or "node:k") in `M`'s graph: its
/// dtype, and its static shape refined by the `Declared` one (when given and
/// they agree; the declared one when they do not).
absl::StatusOr<tensorflow::TensorInfo> tensorInfo(const Model &M, const OpRegistry &Ops,
                                                  const GraphShapes &Shapes,
                                                  llvm::StringRef Tensor,
                                                  llvm::StringRef Signature,
                                                  const tensorflow::TensorInfo *Declared) {
  FROST_ASSIGN_OR_RETURN(
      TensorRef Ref,
      resolveTensorName(M.graph(), Tensor, absl::StrCat("signature '", Signature.str(), "'")));
  const int Port = std::max(Ref.Port, 0);
  tensorflow::TensorInfo Info;
  Info.set_name(absl::StrCat(Ref.N->name().str(), ":", Port));
  tensorflow::DataType DType = outputDType(*Ref.N, Port, Ops);
  if (DType == tensorflow::DT_INVALID)
    return absl::InvalidArgumentError(absl::StrCat(
        "signature '", Signature.str(), "': the dtype of ", Info.name(), " (",
        Ref.N->op().str(), ") is unknown"));
  Info.set_dtype(DType);
  PartialShape Shape = Shapes.of(*Ref.N, Port);
  if (Declared) { // no tensor_shape is a scalar's, as TensorFlow reads it
    PartialShape Said = partialShapeFromProto(Declared->tensor_shape());
    Shape = refineShape(Shape, Said).value_or(Said);
  }
  *Info.mutable_tensor_shape() = partialShapeToProto(Shape);
  return Info;
}

/// Vocabulary files the graph still reads (an initializer from a text file
/// whose file Frost could not read into the graph): the Const naming each,
/// and the file.
std::vector<std::pair<Node *, std::string>> assetFiles(Graph &G) {
  std::vector<std::pair<Node *, std::string>> Files;
  for (Node &N : G) {
    if (N.op() != "InitializeTableFromTextFile" && N.op() != "InitializeTableFromTextFileV2")
      continue;
    if (N.numDataInputs() < 2)
      continue;
    Node *Name = N.input(1).Src;
    const tensorflow::AttrValue *Value = Name->findAttr("value");
    if (Name->op() != "Const" || !Value || Value->tensor().string_val_size() != 1)
      continue;
    const std::string &Path = Value->tensor().string_val(0);
    std::error_code EC;
    if (std::filesystem::is_regular_file(Path, EC))
      Files.push_back({Name, Path});
  }
  return Files;
}

/// A declared signature input that the frozen outputs do not need was
/// pruned with what only it fed. Clients still send it (TF Serving refuses a
/// request naming an input its signature lacks), so it comes back as an
/// unread Placeholder of its declared dtype and shape, and the signature
/// stays the source's.
void restoreUnreadInputs(Context &Ctx, Graph &G, const ServingSignature &Sig) {
  if (!Sig.Declared)
    return;
  for (const auto &[Key, Tensor] : Sig.Inputs) {
    auto It = Sig.Declared->inputs().find(Key);
    auto [Name, Port] = llvm::StringRef(Tensor).rsplit(':');
    // Only a node's first output can be a Placeholder's.
    if (It == Sig.Declared->inputs().end() || G.findNode(Name) || (!Port.empty() && Port != "0") ||
        It->second.dtype() == tensorflow::DT_INVALID)
      continue;
    Node *Input = G.createNode(Name, "Placeholder");
    Input->attr("dtype").set_type(It->second.dtype());
    *Input->attr("shape").mutable_shape() = It->second.tensor_shape();
    Ctx.diagnostics().note(absl::StrCat(
        "signature '", Sig.Key, "': input '", Key, "' (", Tensor,
        ") is not needed by the outputs frozen; kept as an unread Placeholder so that "
        "requests that send it still match the signature"));
  }
}

} // namespace

ServingSignature servingDefault(const Graph &G, llvm::ArrayRef<std::string> Outputs) {
  ServingSignature Sig;
  Sig.Key = "serving_default";
  for (const Node &N : G)
    if (N.op() == "Placeholder")
      Sig.Inputs.push_back({N.name().str(), absl::StrCat(N.name().str(), ":0")});
  for (const std::string &Out : Outputs)
    Sig.Outputs.push_back({Out, Out});
  return Sig;
}

absl::StatusOr<WrittenBytes> writeServingSavedModel(Context &Ctx, Model &M,
                                                    const ServingExport &Export,
                                                    OutputDirectory &Out,
                                                    uint64_t SizeLimit) {
  auto Meta = std::make_unique<tensorflow::MetaGraphDef>();
  for (const std::string &Tag : Export.Tags)
    Meta->mutable_meta_info_def()->add_tags(Tag);
  for (const ServingSignature &Sig : Export.Signatures)
    restoreUnreadInputs(Ctx, M.graph(), Sig);
  // Before the graph changes: its shapes and dtypes for the signatures.
  {
    OpRegistry Ops = modelOpRegistry(M);
    GraphShapes Shapes = inferGraphShapes(M.graph());
    for (const ServingSignature &Sig : Export.Signatures) {
      tensorflow::SignatureDef &Def = (*Meta->mutable_signature_def())[Sig.Key];
      Def.set_method_name("tensorflow/serving/predict");
      for (const auto *Part : {&Sig.Inputs, &Sig.Outputs}) {
        const bool In = Part == &Sig.Inputs;
        for (const auto &[Key, Tensor] : *Part) {
          const tensorflow::TensorInfo *Declared = nullptr;
          if (Sig.Declared) {
            const auto &Infos = In ? Sig.Declared->inputs() : Sig.Declared->outputs();
            if (auto It = Infos.find(Key); It != Infos.end())
              Declared = &It->second;
          }
          FROST_ASSIGN_OR_RETURN(tensorflow::TensorInfo Info,
                                 tensorInfo(M, Ops, Shapes, Tensor, Sig.Key, Declared));
          (In ? *Def.mutable_inputs() : *Def.mutable_outputs())[Key] = std::move(Info);
        }
      }
    }
  }
  // The loaders run one init op: the initializers, through a NoOp when
  // there are several.
  if (!Export.InitNodes.empty()) {
    std::string Init = Export.InitNodes.front();
    if (Export.InitNodes.size() > 1) {
      Node *Group = M.graph().createNode(M.graph().uniqueName("saved_model_init"), "NoOp");
      for (const std::string &Name : Export.InitNodes)
        if (Node *N = M.graph().findNode(Name))
          Group->addControlInput(N);
      Init = Group->name().str();
    }
    tensorflow::SignatureDef &Def = (*Meta->mutable_signature_def())[InitOpKey.str()];
    tensorflow::TensorInfo &Info = (*Def.mutable_outputs())[InitOpKey.str()];
    Info.set_name(Init); // an op, as TensorFlow's builder names it
    Info.mutable_tensor_shape()->set_unknown_rank(true);
  }
  // Assets, each once under its file name (numbered when two share one).
  std::set<std::string> Taken;
  for (auto &[Const, Path] : assetFiles(M.graph())) {
    std::string Name = std::filesystem::path(Path).filename().string();
    for (int K = 1; !Taken.insert(Name).second; ++K)
      Name = absl::StrCat(std::filesystem::path(Path).stem().string(), "_", K,
                          std::filesystem::path(Path).extension().string());
    FROST_ASSIGN_OR_RETURN(std::string Copy, Out.file(absl::StrCat("assets/", Name)));
    std::error_code EC;
    std::filesystem::copy_file(Path, Copy, EC);
    if (EC)
      return absl::InternalError(absl::StrCat(Path, ": cannot copy into ", Out.path(),
                                              "/assets: ", EC.message()));
    tensorflow::AssetFileDef &Asset = *Meta->add_asset_file_def();
    Asset.mutable_tensor_info()->set_name(absl::StrCat(Const->name().str(), ":0"));
    Asset.mutable_tensor_info()->set_dtype(tensorflow::DT_STRING);
    Asset.set_filename(Name);
  }
  FROST_RETURN_IF_ERROR(Out.makeDirectory("variables"));

  auto Saved = std::make_unique<tensorflow::SavedModel>();
  Saved->set_saved_model_schema_version(1);
  Saved->add_meta_graphs();
  M.setContainer(std::move(Meta), std::move(Saved), 0);
  FROST_ASSIGN_OR_RETURN(std::string Pb, Out.file("saved_model.pb"));
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> File, OutputFile::prepare(Ctx, Pb));
  WriteOptions Write;
  Write.SizeLimit = SizeLimit;
  Write.Hash = true;
  absl::Status Written = writeModel(M, *File, Write);
  M.dropContainer();
  FROST_RETURN_IF_ERROR(Written);
  FROST_RETURN_IF_ERROR(File->commit());
  return File->written();
}

} // namespace frost
