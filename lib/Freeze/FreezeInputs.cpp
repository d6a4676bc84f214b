//===- FreezeInputs.cpp - The model and checkpoint a freeze reads ---------===//
//
// freeze-graph's INPUT is a checkpoint prefix (its .meta beside it), a
// checkpoint directory (its latest), a .meta, a GraphDef or a SavedModel
// directory; freeze_graph.py's --input_* flags name them too. The checkpoint
// defaults to the input's own: the prefix, the one a .meta sits beside, or a
// SavedModel's variables/variables.
//
//===----------------------------------------------------------------------===//
#include "FreezeInternal.h"

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Pass/AnalysisManager.h"
#include "frost/Support/File.h"
#include "frost/Transforms/Utils/SignatureInstantiation.h"

#include "absl/strings/str_cat.h"
#include "google/protobuf/text_format.h"
#include "llvm/Support/FileSystem.h"

namespace frost {

namespace {

bool isSavedModelDir(const std::string &Path) {
  return llvm::sys::fs::is_regular_file(Path + "/saved_model.pb") ||
         llvm::sys::fs::is_regular_file(Path + "/saved_model.pbtxt");
}

} // namespace

/// The one input path the options name.
absl::Status checkOneInput(const FreezeOptions &O) {
  size_t NumInputs = !O.Positional.empty() + !O.SavedModelDir.empty() +
                     !(O.InputGraph.empty() && O.InputMetaGraph.empty()) +
                     O.InputBytes.has_value();
  if (O.Positional.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "one input expected, got ", O.Positional.size(), ": '", O.Positional[0], "', '",
        O.Positional[1], "'", O.Positional.size() > 2 ? ", ..." : ""));
  if (NumInputs > 1)
    return absl::InvalidArgumentError(
        "give one input: a positional INPUT, --input_saved_model_dir, or "
        "--input_graph/--input_meta_graph");
  if (NumInputs == 0)
    return absl::InvalidArgumentError(
        "no input: give a checkpoint prefix or directory, a .meta, a GraphDef or a "
        "SavedModel directory (see --help)");
  return absl::OkStatus();
}

namespace {

/// Standard input, a FIFO or a device: a graph read as a stream (no
/// checkpoint is ever one).
bool isStream(const std::string &Path) {
  return Path == "-" || (llvm::sys::fs::exists(Path) && !llvm::sys::fs::is_regular_file(Path) &&
                         !llvm::sys::fs::is_directory(Path));
}

/// A SaverDef file, binary or text.
absl::StatusOr<tensorflow::SaverDef> readSaverDef(Context &Ctx, const std::string &Path) {
  FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> F, MappedFile::open(Ctx, Path));
  tensorflow::SaverDef Saver;
  std::string Bytes = F->bytes().str();
  bool Ok = detectEncoding(Bytes) == Encoding::Binary
                ? Saver.ParseFromString(Bytes)
                : google::protobuf::TextFormat::ParseFromString(Bytes, &Saver);
  if (!Ok)
    return absl::InvalidArgumentError(absl::StrCat(Path, ": not a SaverDef (binary or text)"));
  return Saver;
}

} // namespace

absl::StatusOr<ResolvedInput> resolveInput(Context &Ctx, llvm::StringRef Path) {
  ResolvedInput In;
  std::string P = Path.str();
  auto useCheckpoint = [&](const std::string &Named) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(ResolvedCheckpoint R, resolveCheckpoint(Ctx, Named));
    for (const std::string &N : R.Notes)
      Ctx.diagnostics().note(N);
    R.Notes.clear();
    if (!R.MetaPath) {
      // tf.train.Checkpoint writes no graph at all: say where one comes from.
      absl::StatusOr<std::unique_ptr<CheckpointReader>> Reader =
          CheckpointReader::open(Ctx, R.Prefix);
      if (Reader.ok() && (*Reader)->contains("_CHECKPOINTABLE_OBJECT_GRAPH"))
        return absl::NotFoundError(absl::StrCat(
            "checkpoint ", R.Prefix,
            " is a TF2 object-based checkpoint (tf.train.Checkpoint, model.save_weights) "
            "and holds no graph: save the model as a SavedModel (tf.saved_model.save(model, "
            "DIR) or model.export(DIR)) and freeze DIR"));
      return absl::NotFoundError(absl::StrCat(
          "checkpoint ", R.Prefix, " has no .meta file beside it: name the graph with "
                                   "--input_meta_graph or --input_graph"));
    }
    In.GraphPath = *R.MetaPath;
    In.Checkpoint = std::move(R);
    return absl::OkStatus();
  };
  llvm::StringRef Ref(P);
  bool IsDirectory = llvm::sys::fs::is_directory(P);
  // A GraphDef file is read as one, whatever else its name holds
  // (train.data-2020.pb), and one that is not there is named ("cannot
  // open"), not searched for as a checkpoint prefix. (A missing .meta is:
  // its checkpoint says what is wrong.)
  bool GraphFile = Ref.ends_with(".pb") || Ref.ends_with(".pbtxt");
  if (GraphFile && (llvm::sys::fs::is_regular_file(P) || !llvm::sys::fs::exists(P))) {
    In.GraphPath = P;
  } else if (IsDirectory && !isSavedModelDir(P)) {
    FROST_RETURN_IF_ERROR(useCheckpoint(P));
  } else if (IsDirectory || ((llvm::sys::fs::is_regular_file(P) || isStream(P)) &&
                             !Ref.ends_with(".index") && !Ref.contains(".data-"))) {
    In.GraphPath = P;
  } else {
    FROST_RETURN_IF_ERROR(useCheckpoint(P));
  }
  return In;
}

absl::StatusOr<FreezeInput> loadFreezeInput(const FreezeOptions &O, AnalysisManager &Analyses) {
  FROST_RETURN_IF_ERROR(checkOneInput(O));
  Context &Ctx = Analyses.context();
  FreezeInput In;
  std::string DefaultCheckpoint;

  if (O.InputBytes) {
    In.GraphPath = O.InputBytesName;
  } else if (!O.SavedModelDir.empty()) {
    In.GraphPath = O.SavedModelDir;
  } else if (!O.InputMetaGraph.empty()) {
    if (!O.InputGraph.empty())
      Ctx.diagnostics().note(absl::StrCat("freezing the graph of --input_meta_graph ",
                                          O.InputMetaGraph, "; --input_graph ", O.InputGraph,
                                          " is not read (as in freeze_graph.py)"));
    In.GraphPath = O.InputMetaGraph;
  } else if (!O.InputGraph.empty()) {
    In.GraphPath = O.InputGraph;
  } else {
    FROST_ASSIGN_OR_RETURN(ResolvedInput Resolved,
                           resolveInput(Ctx, O.Positional.front()));
    In.GraphPath = std::move(Resolved.GraphPath);
    if (Resolved.Checkpoint) {
      DefaultCheckpoint = Resolved.Checkpoint->Prefix;
      Analyses.addResolvedCheckpoint(DefaultCheckpoint, *Resolved.Checkpoint);
    }
  }

  ReadOptions Read;
  Read.Tags = O.Tags;
  Read.SizeLimit = O.SizeLimit;
  FROST_ASSIGN_OR_RETURN(In.M, O.InputBytes ? parseModel(*O.InputBytes, O.InputBytesName, Read)
                                            : readModel(Ctx, In.GraphPath, Read));
  if (In.M->kind() == ContainerKind::SavedModel) {
    // variables/variables, when the SavedModel has variables at all.
    if (std::string Prefix = savedModelVariables(In.GraphPath); !Prefix.empty())
      DefaultCheckpoint = Prefix;
  } else if (DefaultCheckpoint.empty() && llvm::StringRef(In.GraphPath).ends_with(".meta")) {
    // model.ckpt-10.meta: its checkpoint is model.ckpt-10.
    // (Not the .meta itself, which would pass for a V1 checkpoint file.)
    absl::StatusOr<ResolvedCheckpoint> R = resolveCheckpoint(Ctx, In.GraphPath);
    if (R.ok() && R->Prefix != In.GraphPath) {
      DefaultCheckpoint = R->Prefix;
      Ctx.diagnostics().note(absl::StrCat("using checkpoint ", R->Prefix, " beside the .meta"));
      Analyses.addResolvedCheckpoint(R->Prefix, *R);
    }
  }
  In.Checkpoint = O.Checkpoint.empty() ? DefaultCheckpoint : O.Checkpoint;

  if (!O.InputSaver.empty()) {
    // A separate SaverDef: its restore op says which keys feed the variables.
    FROST_ASSIGN_OR_RETURN(tensorflow::SaverDef Saver, readSaverDef(Ctx, O.InputSaver));
    if (!In.M->metaGraph())
      In.M->setContainer(std::make_unique<tensorflow::MetaGraphDef>());
    *In.M->metaGraph()->mutable_saver_def() = std::move(Saver);
  }
  return In;
}

} // namespace frost
