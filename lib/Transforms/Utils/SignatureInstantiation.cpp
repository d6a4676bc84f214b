//===- SignatureInstantiation.cpp - A TF2 signature's function as a graph ===//
//
// Instantiating a signature's function, as TensorFlow's function_def_to_graph
// does for a loaded signature: one node per argument, named after it, then
// the body's nodes under their own names. Captured arguments are matched to
// SavedObjectGraph nodes by the concrete function's `bound_inputs`; a
// variable's checkpoint key is found by walking the SavedObjectGraph and the
// checkpoint's TrackableObjectGraph together from their roots by child name.
// A captured tf.lookup table is built from its _create_resource and
// _initialize functions; an asset the initializer captures (a vocabulary
// file) becomes its path, as the loader makes it.
//
//===----------------------------------------------------------------------===//
#include "frost/Transforms/Utils/SignatureInstantiation.h"

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Pass/AnalysisManager.h"
#include "frost/IR/FunctionBody.h"
#include "frost/IR/Model.h"
#include "frost/IR/OpClasses.h"
#include "frost/Support/Suggest.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/util/message_differencer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"

#include <deque>
#include <map>
#include <optional>

namespace frost {

namespace {

using tensorflow::SavedObject;
using tensorflow::SavedObjectGraph;
using tensorflow::TrackableObjectGraph;

/// The TrackableObjectGraph a TF2 checkpoint stores under this key.
constexpr llvm::StringLiteral ObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

/// "node:k" -> (node, k); "node" -> (node, 0).
std::pair<llvm::StringRef, int> splitTensorName(llvm::StringRef Tensor) {
  auto [Name, Port] = Tensor.rsplit(':');
  int K = 0;
  if (Port.empty() || Port.getAsInteger(10, K))
    return {Tensor, 0};
  return {Name, K};
}

const tensorflow::SignatureDef *findSignature(const Model &M, llvm::StringRef Name) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta)
    return nullptr;
  auto It = Meta->signature_def().find(Name.str());
  return It == Meta->signature_def().end() ? nullptr : &It->second;
}

/// The call node every output of `Sig` comes from, or null.
const Node *signatureCall(const Graph &G, const tensorflow::SignatureDef &Sig) {
  const Node *Call = nullptr;
  for (const auto &[Key, Info] : Sig.outputs()) {
    const Node *N = G.findNode(splitTensorName(Info.name()).first);
    if (!N || !isPartitionedCallOp(N->op()) || (Call && Call != N))
      return nullptr;
    Call = N;
  }
  return Call;
}

std::string calledFunction(const Node &Call) {
  const tensorflow::AttrValue *F = Call.findAttr("f");
  return F && F->has_func() ? F->func().name() : "";
}

/// Checkpoint keys of the SavedObjectGraph's variables, by walking it and the
/// checkpoint's TrackableObjectGraph together from node 0 by child name.
class VariableKeys {
public:
  static absl::StatusOr<VariableKeys> read(const SavedObjectGraph &Saved,
                                           const CheckpointReader &Reader);
  /// The key of SavedObjectGraph node `Id`'s VARIABLE_VALUE, and its path.
  absl::StatusOr<std::pair<std::string, std::string>> keyOf(int Id) const;

private:
  const SavedObjectGraph *Saved = nullptr;
  std::string Checkpoint;
  TrackableObjectGraph Trackable;
  /// SavedObjectGraph id -> (TrackableObjectGraph id, path from the root).
  std::map<int, std::pair<int, std::string>> Matched;
};

absl::StatusOr<VariableKeys> VariableKeys::read(const SavedObjectGraph &Saved,
                                                const CheckpointReader &Reader) {
  VariableKeys K;
  K.Saved = &Saved;
  K.Checkpoint = Reader.prefix();
  llvm::StringRef Checkpoint = K.Checkpoint;
  if (!Reader.contains(ObjectGraphKey))
    return absl::NotFoundError(absl::StrCat(
        "checkpoint ", Checkpoint.str(), " has no '", ObjectGraphKey.str(),
        "' (it was not written by an object-based TF2 saver), so the variables the "
        "signature captures cannot be matched to checkpoint keys"));
  FROST_ASSIGN_OR_RETURN(TensorData Value, Reader.read(ObjectGraphKey));
  if (Value.dtype() != tensorflow::DT_STRING || Value.elements().size() != 1 ||
      !K.Trackable.ParseFromString(Value.elements().front()))
    return absl::InvalidArgumentError(absl::StrCat("checkpoint ", Checkpoint.str(), ": '",
                                                   ObjectGraphKey.str(),
                                                   "' is not a serialized TrackableObjectGraph"));
  if (Saved.nodes_size() == 0 || K.Trackable.nodes_size() == 0)
    return K;
  // Breadth first from the roots; an object reachable by several paths
  // keeps the first (shortest) one.
  std::deque<int> Queue{0};
  K.Matched[0] = {0, ""};
  while (!Queue.empty()) {
    int S = Queue.front();
    Queue.pop_front();
    auto [T, Path] = K.Matched[S];
    const auto &TChildren = K.Trackable.nodes(T).children();
    for (const auto &Child : Saved.nodes(S).children()) {
      if (Child.node_id() < 0 || Child.node_id() >= Saved.nodes_size() ||
          K.Matched.count(Child.node_id()))
        continue;
      for (const auto &TChild : TChildren)
        if (TChild.local_name() == Child.local_name() && TChild.node_id() >= 0 &&
            TChild.node_id() < K.Trackable.nodes_size()) {
          K.Matched[Child.node_id()] = {
              TChild.node_id(), Path.empty() ? Child.local_name()
                                             : absl::StrCat(Path, "/", Child.local_name())};
          Queue.push_back(Child.node_id());
          break;
        }
    }
  }
  return K;
}

absl::StatusOr<std::pair<std::string, std::string>> VariableKeys::keyOf(int Id) const {
  auto It = Matched.find(Id);
  if (It == Matched.end())
    return absl::NotFoundError(absl::StrCat(
        "object ", Id, " of the SavedObjectGraph is not reachable by name in checkpoint ",
        Checkpoint, "'s object graph"));
  const auto &[T, Path] = It->second;
  for (const auto &Attr : Trackable.nodes(T).attributes())
    if (Attr.name() == "VARIABLE_VALUE")
      return std::make_pair(Attr.checkpoint_key(), Path);
  return absl::NotFoundError(absl::StrCat("object '", Path, "' (", Id, ") has no VARIABLE_VALUE in checkpoint ",
                                          Checkpoint));
}

const char *objectKind(const SavedObject &O) {
  switch (O.kind_case()) {
  case SavedObject::kUserObject: return "user object";
  case SavedObject::kAsset: return "asset";
  case SavedObject::kFunction: return "function";
  case SavedObject::kVariable: return "variable";
  case SavedObject::kBareConcreteFunction: return "concrete function";
  case SavedObject::kConstant: return "constant";
  case SavedObject::kResource: return "resource (a lookup table or other TF2 resource)";
  case SavedObject::kCapturedTensor: return "captured tensor";
  default: return "object of unknown kind";
  }
}

/// The shape function_def_to_graph gives argument `I`'s Placeholder.
std::optional<tensorflow::TensorShapeProto> argumentShape(const tensorflow::FunctionDef &F,
                                                          int I) {
  if (auto It = F.attr().find("_input_shapes");
      It != F.attr().end() && I < It->second.list().shape_size())
    return It->second.list().shape(I);
  if (auto It = F.arg_attr().find(I); It != F.arg_attr().end())
    if (auto S = It->second.attr().find("_output_shapes");
        S != It->second.attr().end() && S->second.list().shape_size() > 0)
      return S->second.list().shape(0);
  return std::nullopt;
}

/// The graph's Const that SavedObjectGraph node `Id` (a SavedConstant)
/// names, or null.
const Node *savedConstant(const Graph &G, const SavedObjectGraph &Objects, int Id) {
  if (Id < 0 || Id >= Objects.nodes_size() || !Objects.nodes(Id).has_constant())
    return nullptr;
  const Node *N = G.findNode(Objects.nodes(Id).constant().operation());
  return N && N->op() == "Const" ? N : nullptr;
}

/// A Const named `Name` in `NewG` holding `Value`'s dtype and value.
Node *copyConstant(Graph &NewG, const Node &Value, llvm::StringRef Name) {
  Node *C = NewG.createNode(Name, "Const");
  for (const char *Attr : {"dtype", "value"})
    if (const tensorflow::AttrValue *V = Value.findAttr(Attr))
      C->attr(Attr) = *V;
  return C;
}

/// The concrete function behind child `Child` of object `Id` (a tf.function
/// with one trace, or a bare concrete function), or null.
const tensorflow::FunctionDef *childFunction(const Graph &G, const SavedObjectGraph &Objects,
                                             int Id, llvm::StringRef Child) {
  for (const auto &Ref : Objects.nodes(Id).children()) {
    if (Ref.local_name() != Child || Ref.node_id() < 0 || Ref.node_id() >= Objects.nodes_size())
      continue;
    const SavedObject &C = Objects.nodes(Ref.node_id());
    if (C.has_function() && C.function().concrete_functions_size() > 0)
      return findFunction(G, C.function().concrete_functions(0));
    if (C.has_bare_concrete_function())
      return findFunction(G, C.bare_concrete_function().concrete_function_name());
  }
  return nullptr;
}

/// A string Const named `Name` holding the path of `Asset`, as TensorFlow's
/// loader gives a function that captures it; `Assets` binds it to the asset.
absl::StatusOr<Node *> assetConstant(Graph &NewG, const Model &M,
                                     const tensorflow::SavedAsset &Asset, const std::string &Name,
                                     std::vector<tensorflow::AssetFileDef> &Assets) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  int Index = Asset.asset_file_def_index();
  int Count = Meta ? Meta->asset_file_def_size() : 0;
  if (Index < 0 || Index >= Count)
    return absl::InvalidArgumentError(absl::StrCat("its asset_file_def_index is ", Index,
                                                   ", but the meta graph has ", Count,
                                                   " asset_file_def entries"));
  const std::string &File = Meta->asset_file_def(Index).filename();
  FROST_ASSIGN_OR_RETURN(std::string Path, savedModelAssetPath(M.sourcePath(), File));
  Node *C = NewG.createNode(Name, "Const");
  C->attr("dtype").set_type(tensorflow::DT_STRING);
  tensorflow::TensorProto &T = *C->attr("value").mutable_tensor();
  T.set_dtype(tensorflow::DT_STRING);
  T.mutable_tensor_shape();
  T.add_string_val(Path);
  tensorflow::AssetFileDef &Def = Assets.emplace_back();
  Def.mutable_tensor_info()->set_name(absl::StrCat(Name, ":0"));
  Def.mutable_tensor_info()->set_dtype(tensorflow::DT_STRING);
  Def.set_filename(File);
  return C;
}

/// A captured TF2 resource (a tf.lookup table) built into the graph: its
/// `_create_resource` function's body under `<Name>/`, and its `_initialize`
/// function's under `<Name>/initializer/`, fed the table and the constants
/// and assets it captures (an asset as its path, bound in `Assets` as the
/// loader binds it). Returns the handle; `Initializers` gets the
/// initializer's nodes to run.
absl::StatusOr<TensorOf> instantiateResource(Graph &NewG, const Model &M,
                                             const SavedObjectGraph &Objects, int Id,
                                             const std::string &Name, const OpRegistry &Ops,
                                             const std::string &Where,
                                             std::vector<Node *> &Initializers,
                                             std::vector<tensorflow::AssetFileDef> &Assets) {
  const Graph &G = M.graph();
  const tensorflow::FunctionDef *Create = childFunction(G, Objects, Id, "_create_resource");
  if (!Create || Create->signature().input_arg_size() != 0)
    return absl::UnimplementedError(absl::StrCat(
        Where, " captures object ", Id,
        ", a resource without a _create_resource function taking no arguments; only "
        "variables, constants and tf.lookup tables can be frozen into the graph"));
  BodyCopyOptions CreateOptions;
  CreateOptions.Prefix = Name + "/";
  FROST_ASSIGN_OR_RETURN(BodyCopy Created, copyFunctionBody(NewG, *Create, Ops, CreateOptions));
  if (Created.Returns.size() != 1)
    return absl::InvalidArgumentError(absl::StrCat(Where, ": ", Create->signature().name(),
                                                   " returns ", Created.Returns.size(),
                                                   " tensors, not one resource"));
  TensorOf Handle = Created.Returns[0];
  const tensorflow::FunctionDef *Init = childFunction(G, Objects, Id, "_initialize");
  if (!Init)
    return Handle;
  const tensorflow::OpDef &Sig = Init->signature();
  auto Concrete = Objects.concrete_functions().find(Sig.name());
  if (Concrete == Objects.concrete_functions().end() ||
      Concrete->second.bound_inputs_size() != Sig.input_arg_size())
    return absl::UnimplementedError(absl::StrCat(
        Where, ": the initializer ", Sig.name(), " of object ", Id,
        " takes arguments that are not captures; it cannot run inside the graph"));
  BodyCopyOptions InitOptions;
  InitOptions.Prefix = Name + "/initializer/";
  for (int I = 0; I < Sig.input_arg_size(); ++I) {
    int Bound = Concrete->second.bound_inputs(I);
    if (Bound == Id) {
      InitOptions.Args.push_back(Handle);
      continue;
    }
    std::string ArgName = NewG.uniqueName(InitOptions.Prefix + Sig.input_arg(I).name());
    if (Bound >= 0 && Bound < Objects.nodes_size() && Objects.nodes(Bound).has_asset()) {
      absl::StatusOr<Node *> Path =
          assetConstant(NewG, M, Objects.nodes(Bound).asset(), ArgName, Assets);
      if (!Path.ok())
        return absl::Status(Path.status().code(),
                            absl::StrCat(Where, ": the initializer ", Sig.name(), " of object ",
                                         Id, " captures asset object ", Bound, ": ",
                                         Path.status().message()));
      InitOptions.Args.push_back({*Path, 0});
      continue;
    }
    const Node *Value = savedConstant(G, Objects, Bound);
    if (!Value)
      return absl::UnimplementedError(absl::StrCat(
          Where, ": the initializer ", Sig.name(), " of object ", Id, " captures object ",
          Bound, ", which is not a constant or an asset of the graph"));
    InitOptions.Args.push_back({copyConstant(NewG, *Value, ArgName), 0});
  }
  FROST_ASSIGN_OR_RETURN(BodyCopy Initialized, copyFunctionBody(NewG, *Init, Ops, InitOptions));
  for (Node *N : Initialized.ControlReturns)
    Initializers.push_back(N);
  for (const TensorOf &T : Initialized.Returns)
    if (!llvm::is_contained(Initializers, T.Src))
      Initializers.push_back(T.Src);
  return Handle;
}

} // namespace

/// The directory of the SavedModel at `Path` (it, or its saved_model.pb).
static std::string savedModelDirectory(llvm::StringRef Path) {
  return llvm::sys::fs::is_directory(Path) ? Path.str()
         : Path.contains('/')              ? Path.rsplit('/').first.str()
                                           : ".";
}

std::string savedModelVariables(llvm::StringRef Path) {
  std::string Prefix = savedModelDirectory(Path) + "/variables/variables";
  return llvm::sys::fs::exists(Prefix + ".index") ? Prefix : "";
}

absl::StatusOr<std::string> savedModelAssetPath(llvm::StringRef Path, llvm::StringRef Filename) {
  // The file is read into the frozen graph: it must be one of the model's.
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Filename.split(Parts, '/');
  if (Filename.empty() || Filename.starts_with("/") || llvm::is_contained(Parts, ".."))
    return absl::InvalidArgumentError(absl::StrCat(
        "asset filename '", Filename.str(), "' is not a file inside the SavedModel's assets/"));
  return absl::StrCat(savedModelDirectory(Path), "/assets/", Filename.str());
}

std::string signatureFunction(const Model &M, llvm::StringRef Signature) {
  const tensorflow::SignatureDef *Sig = findSignature(M, Signature);
  if (!Sig || Sig->outputs().empty())
    return "";
  const Node *Call = signatureCall(M.graph(), *Sig);
  return Call ? calledFunction(*Call) : "";
}

namespace {

/// TensorInfo `Info` without its tensor name: what a signature promises.
tensorflow::TensorInfo withoutName(const tensorflow::TensorInfo &Info) {
  tensorflow::TensorInfo Out = Info;
  Out.clear_name();
  return Out;
}

/// Whether `A` and `B` have the same keys with the same TensorInfos, tensor
/// names aside (each signature has Placeholders of its own); with
/// `ComparePorts`, the names' output ports must agree too.
bool sameTensorInfos(const google::protobuf::Map<std::string, tensorflow::TensorInfo> &A,
                     const google::protobuf::Map<std::string, tensorflow::TensorInfo> &B,
                     bool ComparePorts) {
  if (A.size() != B.size())
    return false;
  for (const auto &[Key, Info] : A) {
    auto It = B.find(Key);
    if (It == B.end() || !google::protobuf::util::MessageDifferencer::Equals(
                             withoutName(Info), withoutName(It->second)))
      return false;
    if (ComparePorts &&
        splitTensorName(Info.name()).second != splitTensorName(It->second.name()).second)
      return false;
  }
  return true;
}

/// What call input `I` of signature `Sig` is: "key:K" for the signature's
/// input K, else the tensor it reads ("dense/kernel:0").
std::string callInputIdentity(const Node &Call, unsigned I, const tensorflow::SignatureDef &Sig) {
  const Input &In = Call.input(I);
  for (const auto &[Key, Info] : Sig.inputs())
    if (splitTensorName(Info.name()) == std::pair(In.Src->name(), In.Port))
      return absl::StrCat("key:", Key);
  return absl::StrCat(In.Src->name().str(), ":", In.Port);
}

} // namespace

bool signaturesComputeAlike(const Model &M, llvm::StringRef A, llvm::StringRef B) {
  const tensorflow::SignatureDef *SigA = findSignature(M, A), *SigB = findSignature(M, B);
  if (!SigA || !SigB || !sameTensorInfos(SigA->inputs(), SigB->inputs(), false) ||
      !sameTensorInfos(SigA->outputs(), SigB->outputs(), true))
    return false;
  const Node *CallA = signatureCall(M.graph(), *SigA), *CallB = signatureCall(M.graph(), *SigB);
  if (!CallA || !CallB || CallA->op() != CallB->op() ||
      CallA->numDataInputs() != CallB->numDataInputs())
    return false;
  for (unsigned I = 0; I < CallA->numDataInputs(); ++I)
    if (callInputIdentity(*CallA, I, *SigA) != callInputIdentity(*CallB, I, *SigB))
      return false;
  const tensorflow::FunctionDef *FA = findFunction(M.graph(), calledFunction(*CallA));
  const tensorflow::FunctionDef *FB = findFunction(M.graph(), calledFunction(*CallB));
  if (!FA || !FB)
    return false;
  // Names and argument attributes (_user_specified_name) are the wrappers'
  // own; ignored, not cleared from copies of two whole bodies.
  google::protobuf::util::MessageDifferencer Differ;
  Differ.IgnoreField(tensorflow::OpDef::descriptor()->FindFieldByName("name"));
  Differ.IgnoreField(tensorflow::FunctionDef::descriptor()->FindFieldByName("arg_attr"));
  return Differ.Compare(*FA, *FB);
}

absl::StatusOr<SignatureGraphNames> signatureGraphNames(const Model &M,
                                                        llvm::StringRef Signature) {
  const tensorflow::SignatureDef *Sig = findSignature(M, Signature);
  const Node *Call = Sig ? signatureCall(M.graph(), *Sig) : nullptr;
  const tensorflow::FunctionDef *F =
      Call ? findFunction(M.graph(), calledFunction(*Call)) : nullptr;
  if (!F)
    return absl::InvalidArgumentError(
        absl::StrCat("signature '", Signature.str(), "' is no call of a library function"));
  // The body copied as instantiateSignature copies it, every argument a
  // Placeholder: the names are the same.
  Graph Scratch;
  std::vector<TensorOf> Args;
  for (const tensorflow::OpDef::ArgDef &Arg : F->signature().input_arg()) {
    if (Scratch.findNode(Arg.name()))
      return absl::InvalidArgumentError(absl::StrCat("signature '", Signature.str(),
                                                     "': two arguments are named '",
                                                     Arg.name(), "'"));
    Node *N = Scratch.createNode(Arg.name(), "Placeholder");
    N->attr("dtype").set_type(Arg.type());
    Args.push_back({N, 0});
  }
  BodyCopyOptions Options;
  Options.Args = std::move(Args);
  FROST_ASSIGN_OR_RETURN(BodyCopy Body,
                         copyFunctionBody(Scratch, *F, modelOpRegistry(M), Options));
  SignatureGraphNames Names;
  for (const auto &[Key, Info] : Sig->outputs()) {
    int Port = splitTensorName(Info.name()).second;
    if (Port < 0 || Port >= static_cast<int>(Body.Returns.size()))
      return absl::InvalidArgumentError(absl::StrCat("signature '", Signature.str(),
                                                     "': output '", Key, "' is ", Info.name(),
                                                     " but the function has ",
                                                     Body.Returns.size(), " outputs"));
    const TensorOf &T = Body.Returns[Port];
    Names.Outputs.push_back({Key, absl::StrCat(T.Src->name().str(), ":", T.Port)});
  }
  llvm::sort(Names.Outputs);
  for (const Node &N : Scratch)
    Names.Nodes.push_back(N.name().str());
  return Names;
}

absl::Status instantiateSignature(Model &M, llvm::StringRef Signature,
                                  llvm::StringRef Checkpoint, AnalysisManager &Analyses,
                                  std::vector<std::string> &Notes) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  const tensorflow::SignatureDef *Sig = findSignature(M, Signature);
  if (!Sig) {
    std::vector<std::string> Keys;
    if (Meta)
      for (const auto &Entry : Meta->signature_def())
        Keys.push_back(Entry.first);
    std::sort(Keys.begin(), Keys.end());
    return absl::NotFoundError(absl::StrCat(
        "no signature '", Signature.str(), "' in ", M.sourcePath(),
        Keys.empty() ? " (it has none)" : absl::StrCat(" (signatures: ", absl::StrJoin(Keys, ", "), ")")));
  }
  const Graph &G = M.graph();
  const Node *Call = signatureCall(G, *Sig);
  std::string FName = Call ? calledFunction(*Call) : "";
  const tensorflow::FunctionDef *F = findFunction(G, FName);
  if (!F && !FName.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        "signature '", Signature.str(), "': its function '", FName, "' (called by node '",
        Call->name().str(), "') is not in the graph's library"));
  if (!F)
    return absl::InvalidArgumentError(absl::StrCat(
        "signature '", Signature.str(), "': its outputs are not the outputs of one call of a "
        "library function (a TF1 signature: freeze it by its output names)"));
  const tensorflow::OpDef &FSig = F->signature();
  std::string Where = absl::StrCat("signature '", Signature.str(), "' (function ", FName, ")");
  if (static_cast<int>(Call->numDataInputs()) != FSig.input_arg_size())
    return absl::InvalidArgumentError(absl::StrCat(Where, ": node '", Call->name().str(),
                                                   "' passes ", Call->numDataInputs(),
                                                   " arguments but the function takes ",
                                                   FSig.input_arg_size()));

  OpRegistry Ops = modelOpRegistry(M);

  // Which arguments are captured, and what they capture.
  const SavedObjectGraph *Objects =
      Meta && Meta->has_object_graph_def() ? &Meta->object_graph_def() : nullptr;
  const tensorflow::SavedConcreteFunction *Concrete = nullptr;
  if (Objects)
    if (auto It = Objects->concrete_functions().find(FName);
        It != Objects->concrete_functions().end())
      Concrete = &It->second;
  int NumArgs = FSig.input_arg_size();
  int NumBound = Concrete ? Concrete->bound_inputs_size() : 0;
  if (NumBound > NumArgs)
    return absl::InvalidArgumentError(absl::StrCat(Where, ": ", NumBound,
                                                   " bound inputs but only ", NumArgs,
                                                   " arguments"));
  std::optional<VariableKeys> Keys;

  auto NewG = std::make_unique<Graph>();
  NewG->mutableOtherFields() = G.otherFields();
  std::vector<TensorOf> Args;
  VariableSourceMap Sources;
  std::vector<Node *> Initializers; // of captured lookup tables
  std::vector<tensorflow::AssetFileDef> Assets; // their files
  for (int I = 0; I < NumArgs; ++I) {
    const tensorflow::OpDef::ArgDef &Arg = FSig.input_arg(I);
    const Node &Src = *Call->input(I).Src;
    std::string ArgWhere = absl::StrCat(Where, ", argument ", I, " '", Arg.name(), "'");
    if (NewG->findNode(Arg.name()))
      return absl::InvalidArgumentError(absl::StrCat(ArgWhere, ": two arguments have this name"));
    Node *N = nullptr;
    if (I < NumArgs - NumBound) {
      if (Src.op() == "VarHandleOp" || Src.op() == "Const") {
        // Captured without object graph information (a function-based
        // TF1 export): take the graph's node as it is.
        N = NewG->createNode(Arg.name(), Src.op());
        for (const auto &[Key, Value] : Src.attrs())
          N->attr(Key) = Value;
        N->eraseAttr("_output_shapes");
        if (Src.op() == "VarHandleOp") {
          const tensorflow::AttrValue *Shared = Src.findAttr("shared_name");
          std::string Key = Shared && !Shared->s().empty() ? Shared->s() : Src.name().str();
          Sources[Arg.name()] = {Key, "", absl::StrCat("captured variable '", Src.name().str(), "'"),
                                 false};
        }
      } else {
        N = NewG->createNode(Arg.name(), "Placeholder");
        N->attr("dtype").set_type(Arg.type());
        if (std::optional<tensorflow::TensorShapeProto> Shape = argumentShape(*F, I))
          *N->attr("shape").mutable_shape() = *Shape;
      }
    } else {
      int Id = Concrete->bound_inputs(I - (NumArgs - NumBound));
      if (Id < 0 || Id >= Objects->nodes_size())
        return absl::InvalidArgumentError(
            absl::StrCat(ArgWhere, ": bound input ", Id, " is not a SavedObjectGraph node"));
      const SavedObject &O = Objects->nodes(Id);
      if (O.kind_case() == SavedObject::kVariable) {
        if (!Keys) {
          if (Checkpoint.empty())
            return absl::NotFoundError(absl::StrCat(
                ArgWhere, " captures variable '", O.variable().name(),
                "' but the SavedModel has no variables/variables checkpoint"));
          FROST_ASSIGN_OR_RETURN(const CheckpointReader *Reader,
                                 Analyses.checkpoint(Checkpoint, &Notes));
          FROST_ASSIGN_OR_RETURN(VariableKeys K, VariableKeys::read(*Objects, *Reader));
          Keys = std::move(K);
        }
        absl::StatusOr<std::pair<std::string, std::string>> Key = Keys->keyOf(Id);
        if (!Key.ok())
          return absl::Status(Key.status().code(),
                              absl::StrCat(ArgWhere, " captures variable '", O.variable().name(),
                                           "': ", Key.status().message()));
        N = NewG->createNode(Arg.name(), "VarHandleOp");
        N->attr("dtype").set_type(O.variable().dtype());
        *N->attr("shape").mutable_shape() = O.variable().shape();
        // Its own variable in a Session: without a shared_name every
        // unfrozen (--except) handle would name the same one.
        N->attr("shared_name").set_s(Arg.name());
        Sources[Arg.name()] = {Key->first, "", absl::StrCat("object graph: ", Key->second), false};
      } else if (O.kind_case() == SavedObject::kConstant) {
        const Node *Value = savedConstant(G, *Objects, Id);
        if (!Value)
          return absl::InvalidArgumentError(absl::StrCat(ArgWhere, " captures constant '",
                                                         O.constant().operation(),
                                                         "', which is no Const of the graph"));
        N = copyConstant(*NewG, *Value, Arg.name());
      } else if (O.kind_case() == SavedObject::kResource) {
        FROST_ASSIGN_OR_RETURN(TensorOf Handle,
                               instantiateResource(*NewG, M, *Objects, Id, Arg.name(), Ops,
                                                   ArgWhere, Initializers, Assets));
        Args.push_back(Handle);
        continue;
      } else {
        return absl::UnimplementedError(absl::StrCat(
            ArgWhere, " captures object ", Id, ", a ", objectKind(O),
            "; only variables, constants and tf.lookup tables can be frozen into the graph"));
      }
    }
    Args.push_back({N, 0});
  }

  BodyCopyOptions Options;
  Options.Args = Args;
  FROST_ASSIGN_OR_RETURN(BodyCopy Body, copyFunctionBody(*NewG, *F, Ops, Options));

  // The signature, naming the new graph's tensors.
  auto NewMeta = std::make_unique<tensorflow::MetaGraphDef>();
  if (Meta)
    *NewMeta->mutable_meta_info_def() = Meta->meta_info_def();
  tensorflow::SignatureDef NewSig = *Sig;
  for (auto &[Key, Info] : *NewSig.mutable_inputs()) {
    const Node *In = G.findNode(splitTensorName(Info.name()).first);
    for (unsigned I = 0; In && I < Call->numDataInputs(); ++I)
      if (Call->input(I).Src == In)
        Info.set_name(absl::StrCat(Args[I].Src->name().str(), ":0"));
  }
  for (auto &[Key, Info] : *NewSig.mutable_outputs()) {
    int Port = splitTensorName(Info.name()).second;
    if (Port < 0 || Port >= static_cast<int>(Body.Returns.size()))
      return absl::InvalidArgumentError(absl::StrCat(Where, ": output '", Key, "' is ",
                                                     Info.name(), " but the function has ",
                                                     Body.Returns.size(), " outputs"));
    const TensorOf &T = Body.Returns[Port];
    Info.set_name(absl::StrCat(T.Src->name().str(), ":", T.Port));
  }
  (*NewMeta->mutable_signature_def())[Signature.str()] = std::move(NewSig);
  for (tensorflow::AssetFileDef &A : Assets)
    *NewMeta->add_asset_file_def() = std::move(A);
  if (!Initializers.empty()) {
    // One op that fills the tables, named as TF1's tf.tables_initializer()
    // names it, and the SavedModel's init op as TF1 models declare it.
    Node *InitAll = NewG->createNode(NewG->uniqueName("init_all_tables"), "NoOp");
    for (Node *N : Initializers)
      InitAll->addControlInput(N);
    tensorflow::SignatureDef &InitSig =
        (*NewMeta->mutable_signature_def())["__saved_model_init_op"];
    (*InitSig.mutable_outputs())["__saved_model_init_op"].set_name(InitAll->name().str());
  }

  Notes.push_back(absl::StrCat("signature '", Signature.str(), "' is function ", FName, ": ",
                               NumArgs - NumBound, " inputs, ", NumBound, " captured, ",
                               F->node_def_size(), " nodes"));
  M.setGraph(std::move(NewG));
  M.setContainer(std::move(NewMeta));
  for (auto &[Name, Source] : Sources)
    M.variableSources()[Name] = std::move(Source);
  // Every argument that is not a signature input is a capture, a
  // Placeholder in TensorFlow's loaded function.
  M.capturedInputs().clear();
  for (const TensorOf &Arg : Args)
    if (Arg.Src->op() != "Placeholder")
      M.capturedInputs().insert(Arg.Src->name());
  return absl::OkStatus();
}

} // namespace frost
