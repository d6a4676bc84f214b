//===- FreezeMain.cpp - The freeze-graph driver ---------------------------===//
//
// Flags -> input model and checkpoint -> output node names -> the freezing
// pipeline -> run -> frozen GraphDef (+ a JSON report). The passes do the
// work; this file decides what to read and which passes to run:
//
//   rename-variables, ema-remap          (--rename, --ema: which keys)
//   bind-placeholders                    (--bind: before conversion, so dead
//                                         branches need no variable)
//   convert-variables-to-constants       (reads the Saver's keys, so before
//   strip-save-nodes, prune               the Saver is stripped)
//   strip-training-ops                   (--strip-training-ops: after prune,
//                                         which removes the optimizer)
//   clear-devices                        (unless --keep-devices)
//   --pass-pipeline                      (the user's own)
//
// TensorFlow's freeze_graph.py flags are accepted with argparse's spellings;
// its known defects are not copied: a missing checkpoint, a graph frozen twice
// and bad flags are errors or notices with the right exit code.
//
//===----------------------------------------------------------------------===//
#include "frost/Tools/FreezeMain.h"

#include "ArgParser.h"
#include "Inspect.h"

#include "frost/Checkpoint/Resolve.h"
#include "frost/Tensor/Tensor.h"
#include "frost/IO/GraphIO.h"
#include "frost/IR/Reachability.h"
#include "frost/IR/TensorName.h"
#include "frost/IR/Verifier.h"
#include "frost/Pass/PassManager.h"
#include "frost/Support/File.h"
#include "frost/Support/Suggest.h"
#include "frost/Tools/ToolSupport.h"
#include "frost/Transforms/Passes.h"
#include "frost/Transforms/SavedModel.h"
#include "frost/Transforms/Variables.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/text_format.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <sys/stat.h>

#include <chrono>
#include <optional>

namespace frost {

namespace {

struct FreezeConfig {
  std::vector<std::string> Positional;
  std::string InputGraph, InputMetaGraph, SavedModelDir, Checkpoint, InputSaver;
  std::vector<std::string> Outputs, InitializerNodes;
  std::string Output;
  std::vector<std::string> Tags = {"serve"};
  std::string Signature;
  std::optional<std::string> Ema;
  std::vector<std::string> Rename, Bind, Only, Except;
  bool ClearDevices = true;
  bool StripTrainingOps = false;
  bool KeepFunctionalControlFlow = false;
  std::string Emit;
  std::string ExtraPipeline;
  std::string ReportPath;
  bool Quiet = false, Timing = false;
  bool Help = false, Version = false;
  PassManagerOptions PM;
  bool DumpPipeline = false;
  uint64_t SizeLimit = ProtobufSizeLimit;
};

/// "a, b ,c" -> {"a", "b", "c"}: freeze_graph.py drops every space.
void appendCommaList(llvm::StringRef Text, std::vector<std::string> &Out) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef P : Parts) {
    std::string Item;
    for (char C : P)
      if (C != ' ')
        Item += C;
    if (!Item.empty())
      Out.push_back(std::move(Item));
  }
}

ArgParser makeParser(FreezeConfig &C) {
  using K = ArgParser::Kind;
  ArgParser P;
  auto str = [](std::string &Field) {
    return [&Field](llvm::StringRef V) {
      Field = V.str();
      return absl::OkStatus();
    };
  };
  auto list = [](std::vector<std::string> &Field) {
    return [&Field](llvm::StringRef V) {
      appendCommaList(V, Field);
      return absl::OkStatus();
    };
  };
  auto flag = [](bool &Field, bool Invert = false) {
    return [&Field, Invert](llvm::StringRef V) {
      Field = (V == "true") != Invert;
      return absl::OkStatus();
    };
  };
  const std::string Main = "Options", Compat = "freeze_graph.py flags (same meaning)",
                    Debug = "Debugging (the pass manager's)";
  P.add({{"outputs", "output_node_names"}, K::Value, "LIST",
         "Outputs to keep, comma separated: node names, tensor names\n"
         "(add:0), collection:NAME (a MetaGraph collection's nodes),\n"
         "signature:NAME (a signature's outputs)",
         list(C.Outputs), Main});
  P.add({{"o", "output", "output_graph"}, K::Value, "FILE",
         "Where to write the frozen GraphDef (- for standard output)", str(C.Output), Main});
  P.add({{"checkpoint", "input_checkpoint"}, K::Value, "PREFIX",
         "Checkpoint to freeze from: a prefix, one of its files, or a\n"
         "directory (its latest); default: the input's own", str(C.Checkpoint), Main});
  P.add({{"signature"}, K::Value, "NAME",
         "Signature whose outputs to keep when --outputs is not given",
         str(C.Signature), Main});
  P.add({{"tags", "saved_model_tags"}, K::Value, "TAG,...",
         "Tags of the SavedModel meta graph to freeze (default: serve)",
         [&C](llvm::StringRef V) {
           C.Tags.clear();
           appendCommaList(V, C.Tags);
           return absl::OkStatus();
         },
         Main});
  P.add({{"ema"}, K::OptionalValue, "NAME",
         "Freeze averaged variables with their moving averages (NAME:\n"
         "the EMA's name, default ExponentialMovingAverage)",
         [&C](llvm::StringRef V) {
           C.Ema = V.empty() ? "ExponentialMovingAverage" : V.str();
           return absl::OkStatus();
         },
         Main});
  P.add({{"rename"}, K::Value, "VAR:KEY,...",
         "Freeze graph variable VAR from checkpoint key KEY\n"
         "(what Saver({KEY: VAR}) restores)",
         list(C.Rename), Main});
  P.add({{"bind"}, K::Value, "NAME=VALUE,...",
         "Replace placeholders by constants (is_training=false) and\n"
         "fold the branches they decide",
         [&C](llvm::StringRef V) {
           llvm::SmallVector<llvm::StringRef, 4> Parts;
           V.split(Parts, ',', -1, false);
           for (llvm::StringRef Part : Parts)
             C.Bind.push_back(Part.trim().str());
           return absl::OkStatus();
         },
         Main});
  P.add({{"only", "variable_names_whitelist"}, K::Value, "VAR,...",
         "Freeze only these variables (node names)", list(C.Only), Main});
  P.add({{"except", "variable_names_blacklist", "variable_names_denylist"}, K::Value,
         "VAR,...", "Leave these variables unfrozen (node names)", list(C.Except), Main});
  P.add({{"keep-devices"}, K::Bool, "", "Keep the nodes' device placements",
         flag(C.ClearDevices, /*Invert=*/true), Main});
  P.add({{"strip-training-ops"}, K::Bool, "",
         "Rewrite reference-typed training ops left after pruning\n"
         "(RefSwitch to Switch, AssignSub to Sub, ...)",
         flag(C.StripTrainingOps), Main});
  P.add({{"keep-functional-control-flow"}, K::Bool, "",
         "TF2 SavedModels: keep If/While functional instead of lowering\n"
         "them to Switch/Merge (TensorFlow's lower_control_flow=False)",
         flag(C.KeepFunctionalControlFlow), Main});
  P.add({{"emit"}, K::Value, "pb|pbtxt", "Output encoding (default: pbtxt for a .pbtxt file)",
         [&C](llvm::StringRef V) {
           if (V != "pb" && V != "pbtxt")
             return absl::InvalidArgumentError("expected pb or pbtxt");
           C.Emit = V.str();
           return absl::OkStatus();
         },
         Main});
  P.add({{"pass-pipeline"}, K::Value, "PIPELINE",
         "More passes to run after freezing (frost-opt --list-passes)",
         str(C.ExtraPipeline), Main});
  P.add({{"report"}, K::Value, "FILE.json",
         "Write what was done as JSON: inputs, outputs, each frozen\n"
         "variable and its checkpoint key, node counts, output size\n"
         "and SHA-256, timings",
         str(C.ReportPath), Main});
  P.add({{"quiet", "q"}, K::Bool, "", "Print errors and warnings only", flag(C.Quiet), Main});
  P.add({{"help", "h"}, K::Bool, "", "Show this help", flag(C.Help), Main});
  P.add({{"version"}, K::Bool, "", "Show the version", flag(C.Version), Main});

  P.add({{"input_graph"}, K::Value, "FILE", "GraphDef to freeze (binary or text)",
         str(C.InputGraph), Compat});
  P.add({{"input_meta_graph"}, K::Value, "FILE",
         "MetaGraphDef to freeze (wins over --input_graph, as in TF)",
         str(C.InputMetaGraph), Compat});
  P.add({{"input_saved_model_dir"}, K::Value, "DIR", "SavedModel to freeze",
         str(C.SavedModelDir), Compat});
  P.add({{"input_saver"}, K::Value, "FILE",
         "SaverDef whose restore op maps variables to checkpoint keys",
         str(C.InputSaver), Compat});
  P.add({{"input_binary"}, K::Bool, "",
         "Accepted; binary and text are told apart by content",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"clear_devices"}, K::Bool, "", "Clear device placements (default true)",
         flag(C.ClearDevices), Compat});
  P.add({{"initializer_nodes"}, K::Value, "NODE,...",
         "Nodes to keep with the outputs (table initializers, ...)",
         list(C.InitializerNodes), Compat});
  P.add({{"checkpoint_version"}, K::Value, "1|2",
         "Accepted; the checkpoint's format is detected",
         [](llvm::StringRef V) {
           if (V != "1" && V != "2")
             return absl::InvalidArgumentError("must be 1 or 2");
           return absl::OkStatus();
         },
         Compat});
  P.add({{"restore_op_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});
  P.add({{"filename_tensor_name"}, K::Value, "NAME", "Accepted and ignored (deprecated in TF)",
         [](llvm::StringRef) { return absl::OkStatus(); }, Compat});

  P.add({{"timing"}, K::Bool, "", "Print wall time per phase and pass", flag(C.Timing), Debug});
  P.add({{"pass-statistics"}, K::Bool, "", "Print the statistics of each pass",
         flag(C.PM.Statistics), Debug});
  P.add({{"print-ir-after-all"}, K::Bool, "", "Print the graph after each pass",
         flag(C.PM.PrintIRAfterAll), Debug});
  P.add({{"print-ir-after"}, K::Value, "PASS,...", "Print the graph after the named passes",
         list(C.PM.PrintIRAfter), Debug});
  P.add({{"verify-each"}, K::Bool, "", "Verify the graph after each pass (default true)",
         flag(C.PM.VerifyEach), Debug});
  P.add({{"dump-pass-pipeline"}, K::Bool, "", "Print the pipeline before running it",
         flag(C.DumpPipeline), Debug});
  P.add({{"protobuf-size-limit"}, K::Value, "BYTES", "Largest file to read or write",
         [&C](llvm::StringRef V) {
           if (V.getAsInteger(10, C.SizeLimit))
             return absl::InvalidArgumentError("expected a number of bytes");
           return absl::OkStatus();
         },
         Debug, /*Hidden=*/true});
  return P;
}

//===----------------------------------------------------------------------===//
// Input: the model and its checkpoint
//===----------------------------------------------------------------------===//

struct FreezeInput {
  std::unique_ptr<Model> M;
  std::string GraphPath;
  /// Empty when there is none (an already frozen graph needs none).
  std::string Checkpoint;
};

bool isDirectory(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode);
}

bool isFile(const std::string &Path) {
  struct stat St;
  return ::stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

bool isSavedModelDir(const std::string &Path) {
  return isFile(Path + "/saved_model.pb") || isFile(Path + "/saved_model.pbtxt");
}

/// The graph and checkpoint the command line names; `Notes` hears how it
/// was understood where that was not literal.
absl::StatusOr<FreezeInput> loadInput(const FreezeConfig &C, std::vector<std::string> &Notes) {
  ReadOptions Read;
  Read.Tags = C.Tags;
  Read.SizeLimit = C.SizeLimit;
  FreezeInput In;
  std::string DefaultCheckpoint;

  auto useCheckpointOf = [&](const std::string &Path) -> absl::Status {
    FROST_ASSIGN_OR_RETURN(ResolvedCheckpoint R, resolveCheckpoint(Path));
    for (const std::string &N : R.Notes)
      Notes.push_back(N);
    if (!R.MetaPath)
      return absl::NotFoundError(absl::StrCat(
          "checkpoint ", R.Prefix, " has no .meta file beside it: name the graph with "
                                   "--input_meta_graph or --input_graph"));
    In.GraphPath = *R.MetaPath;
    DefaultCheckpoint = R.Prefix;
    return absl::OkStatus();
  };

  size_t NumInputs = !C.Positional.empty() + !C.SavedModelDir.empty() +
                     !(C.InputGraph.empty() && C.InputMetaGraph.empty());
  if (C.Positional.size() > 1)
    return absl::InvalidArgumentError(absl::StrCat(
        "one input expected, got ", C.Positional.size(), ": '", C.Positional[0], "', '",
        C.Positional[1], "'", C.Positional.size() > 2 ? ", ..." : ""));
  if (NumInputs > 1)
    return absl::InvalidArgumentError(
        "give one input: a positional INPUT, --input_saved_model_dir, or "
        "--input_graph/--input_meta_graph");
  if (NumInputs == 0)
    return absl::InvalidArgumentError(
        "no input: give a checkpoint prefix or directory, a .meta, a GraphDef or a "
        "SavedModel directory (see --help)");

  if (!C.SavedModelDir.empty()) {
    In.GraphPath = C.SavedModelDir;
  } else if (!C.InputMetaGraph.empty()) {
    if (!C.InputGraph.empty())
      Notes.push_back(absl::StrCat("freezing the graph of --input_meta_graph ", C.InputMetaGraph,
                                   "; --input_graph ", C.InputGraph,
                                   " is not read (as in freeze_graph.py)"));
    In.GraphPath = C.InputMetaGraph;
  } else if (!C.InputGraph.empty()) {
    In.GraphPath = C.InputGraph;
  } else {
    const std::string &P = C.Positional.front();
    llvm::StringRef Ref(P);
    if (isDirectory(P) && !isSavedModelDir(P)) {
      FROST_RETURN_IF_ERROR(useCheckpointOf(P));
    } else if (isDirectory(P) || (isFile(P) && !Ref.ends_with(".index") &&
                                  !Ref.contains(".data-"))) {
      In.GraphPath = P;
    } else {
      FROST_RETURN_IF_ERROR(useCheckpointOf(P));
    }
  }

  FROST_ASSIGN_OR_RETURN(In.M, readModel(In.GraphPath, Read));
  if (In.M->kind() == ContainerKind::SavedModel) {
    // variables/variables, when the SavedModel has variables at all.
    std::string Dir = isDirectory(In.GraphPath)
                          ? In.GraphPath
                          : llvm::StringRef(In.GraphPath).rsplit('/').first.str();
    if (Dir == In.GraphPath && !isDirectory(Dir))
      Dir = ".";
    std::string Prefix = Dir + "/variables/variables";
    if (isFile(Prefix + ".index"))
      DefaultCheckpoint = Prefix;
  } else if (DefaultCheckpoint.empty() && llvm::StringRef(In.GraphPath).ends_with(".meta")) {
    // model.ckpt-10.meta: its checkpoint is model.ckpt-10.
    absl::StatusOr<ResolvedCheckpoint> R = resolveCheckpoint(In.GraphPath);
    if (R.ok()) {
      DefaultCheckpoint = R->Prefix;
      Notes.push_back(absl::StrCat("using checkpoint ", R->Prefix, " beside the .meta"));
    }
  }
  In.Checkpoint = C.Checkpoint.empty() ? DefaultCheckpoint : C.Checkpoint;

  if (!C.InputSaver.empty()) {
    // A separate SaverDef: its restore op says which keys feed the variables.
    FROST_ASSIGN_OR_RETURN(std::unique_ptr<MappedFile> F, MappedFile::open(C.InputSaver));
    tensorflow::SaverDef Saver;
    std::string Bytes = F->bytes().str();
    bool Ok = detectEncoding(Bytes) == Encoding::Binary
                  ? Saver.ParseFromString(Bytes)
                  : google::protobuf::TextFormat::ParseFromString(Bytes, &Saver);
    if (!Ok)
      return absl::InvalidArgumentError(
          absl::StrCat(C.InputSaver, ": not a SaverDef (binary or text)"));
    if (!In.M->metaGraph())
      In.M->setContainer(std::make_unique<tensorflow::MetaGraphDef>());
    *In.M->metaGraph()->mutable_saver_def() = Saver;
  }
  return In;
}

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

struct OutputName {
  std::string Requested; // as the user wrote it, or "signature NAME: key"
  std::string Node;
};

/// The node of a tensor name from a collection or signature ("y:0", "^init").
std::string nodeOfTensor(llvm::StringRef Tensor) {
  Tensor.consume_front("^");
  return Tensor.split(':').first.str();
}

absl::Status signatureOutputs(const Model &M, llvm::StringRef Name,
                              std::vector<OutputName> &Out) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  std::vector<llvm::StringRef> Keys;
  if (Meta)
    for (const auto &Entry : Meta->signature_def())
      Keys.push_back(Entry.first);
  llvm::sort(Keys);
  const tensorflow::SignatureDef *Sig = nullptr;
  if (Meta)
    if (auto It = Meta->signature_def().find(Name.str()); It != Meta->signature_def().end())
      Sig = &It->second;
  if (!Sig) {
    if (Keys.empty())
      return absl::NotFoundError(absl::StrCat("signature '", Name.str(), "': ",
                                              M.sourcePath(), " has no signatures"));
    std::vector<std::string> Close = closestNames(Name, Keys);
    return absl::NotFoundError(absl::StrCat(
        "no signature '", Name.str(), "' in ", M.sourcePath(),
        Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
        " (signatures: ", llvm::join(Keys, ", "), ")"));
  }
  // In key order, as TensorFlow's structured outputs are.
  std::map<std::string, const tensorflow::TensorInfo *> Sorted;
  for (const auto &[Key, Info] : Sig->outputs())
    Sorted[Key] = &Info;
  for (const auto &[Key, Info] : Sorted) {
    std::vector<std::string> Tensors;
    if (Info->has_coo_sparse())
      Tensors = {Info->coo_sparse().indices_tensor_name(),
                 Info->coo_sparse().values_tensor_name(),
                 Info->coo_sparse().dense_shape_tensor_name()};
    else if (Info->has_composite_tensor())
      for (const tensorflow::TensorInfo &Part : Info->composite_tensor().components())
        Tensors.push_back(Part.name());
    else
      Tensors.push_back(Info->name());
    for (const std::string &T : Tensors)
      Out.push_back({absl::StrCat("signature ", Name.str(), ": ", Key, " = ", T),
                     nodeOfTensor(T)});
  }
  if (Sorted.empty())
    return absl::InvalidArgumentError(
        absl::StrCat("signature '", Name.str(), "' has no outputs"));
  return absl::OkStatus();
}

absl::Status collectionOutputs(const Model &M, llvm::StringRef Name,
                               std::vector<OutputName> &Out) {
  const tensorflow::MetaGraphDef *Meta = M.metaGraph();
  if (!Meta)
    return absl::InvalidArgumentError(absl::StrCat(
        "collection:", Name.str(), ": ", M.sourcePath(),
        " is a bare GraphDef; collections live in a MetaGraph (.meta) or SavedModel"));
  auto It = Meta->collection_def().find(Name.str());
  if (It == Meta->collection_def().end()) {
    std::vector<llvm::StringRef> Keys;
    for (const auto &Entry : Meta->collection_def())
      Keys.push_back(Entry.first);
    llvm::sort(Keys);
    std::vector<std::string> Close = closestNames(Name, Keys);
    return absl::NotFoundError(absl::StrCat(
        "no collection '", Name.str(), "' in ", M.sourcePath(),
        Close.empty() ? "" : absl::StrCat("; did you mean ", quotedAlternatives(Close), "?"),
        " (collections: ", Keys.empty() ? "none" : llvm::join(Keys, ", "), ")"));
  }
  if (!It->second.has_node_list())
    return absl::InvalidArgumentError(absl::StrCat(
        "collection '", Name.str(), "' holds no graph nodes (it is not a node_list)"));
  for (const std::string &T : It->second.node_list().value())
    Out.push_back({absl::StrCat("collection ", Name.str(), ": ", T), nodeOfTensor(T)});
  if (It->second.node_list().value_size() == 0)
    return absl::InvalidArgumentError(absl::StrCat("collection '", Name.str(), "' is empty"));
  return absl::OkStatus();
}

/// A SavedModel's one signature (or serving_default) is what it serves.
/// The signatures a model serves (not `__saved_model_init_op` and the
/// like), sorted.
std::vector<std::string> servedSignatures(const Model &M) {
  std::vector<std::string> Keys;
  if (M.metaGraph())
    for (const auto &Entry : M.metaGraph()->signature_def())
      if (!llvm::StringRef(Entry.first).starts_with("__"))
        Keys.push_back(Entry.first);
  llvm::sort(Keys);
  return Keys;
}

std::string defaultSignature(const Model &M) {
  std::vector<std::string> Keys = servedSignatures(M);
  return Keys.size() == 1                               ? Keys.front()
         : llvm::is_contained(Keys, "serving_default") ? "serving_default"
                                                        : "";
}

/// The signature a run freezes: --signature, a lone `signature:NAME`
/// output, or the default one when no output is named.
std::string requestedSignature(const FreezeConfig &C, const Model &M) {
  if (!C.Signature.empty())
    return C.Signature;
  if (C.Outputs.size() == 1 && llvm::StringRef(C.Outputs[0]).starts_with("signature:"))
    return C.Outputs[0].substr(strlen("signature:"));
  return C.Outputs.empty() ? defaultSignature(M) : "";
}

/// The output nodes: what --outputs names, else the signature's outputs.
absl::StatusOr<std::vector<OutputName>> resolveOutputs(const FreezeConfig &C, const Model &M,
                                                       std::vector<std::string> &Notes) {
  std::vector<OutputName> Out;
  std::vector<std::string> Errors;
  for (const std::string &Item : C.Outputs) {
    llvm::StringRef Ref(Item);
    absl::Status S;
    if (Ref.consume_front("collection:")) {
      S = collectionOutputs(M, Ref, Out);
    } else if (Ref.consume_front("signature:")) {
      S = signatureOutputs(M, Ref, Out);
    } else {
      absl::StatusOr<TensorRef> T = resolveTensorName(M.graph(), Item, "output");
      if (T.ok())
        Out.push_back({Item, T->N->name().str()});
      S = T.status();
    }
    if (!S.ok())
      Errors.push_back(std::string(S.message()));
  }
  if (Out.empty() && Errors.empty() && !C.Signature.empty())
    if (absl::Status S = signatureOutputs(M, C.Signature, Out); !S.ok())
      Errors.push_back(std::string(S.message()));
  if (Out.empty() && Errors.empty() && M.kind() == ContainerKind::SavedModel) {
    std::string Chosen = defaultSignature(M);
    if (!Chosen.empty()) {
      Notes.push_back(absl::StrCat("no --outputs: freezing for signature '", Chosen,
                                   "' (use --signature or --outputs to choose)"));
      if (absl::Status S = signatureOutputs(M, Chosen, Out); !S.ok())
        Errors.push_back(std::string(S.message()));
    }
  }
  if (!Errors.empty())
    return absl::NotFoundError(absl::StrJoin(Errors, "\n"));
  if (Out.empty() && M.kind() == ContainerKind::SavedModel) {
    std::vector<std::string> Keys = servedSignatures(M);
    if (!Keys.empty())
      return absl::InvalidArgumentError(absl::StrCat(
          M.sourcePath(), " has ", Keys.size(),
          " signatures and none is serving_default: choose one with --signature (",
          absl::StrJoin(Keys, ", "), ") or give --outputs"));
  }
  if (Out.empty()) {
    std::vector<std::string> Candidates;
    for (std::string &Name : inspect::candidateOutputs(M))
      if (!isVariableOp(M.graph().findNode(Name)->op()))
        Candidates.push_back(std::move(Name));
    std::string List = absl::StrJoin(llvm::ArrayRef(Candidates).take_front(8), ", ");
    return absl::InvalidArgumentError(absl::StrCat(
        "no outputs: give --outputs (freeze_graph.py: --output_node_names)",
        Candidates.empty() ? ""
                           : absl::StrCat("; nodes nothing reads: ", List,
                                          Candidates.size() > 8 ? ", ..." : "")));
  }
  // Each node once, in the order first named.
  std::vector<OutputName> Unique;
  for (OutputName &O : Out)
    if (llvm::none_of(Unique, [&](const OutputName &U) { return U.Node == O.Node; }))
      Unique.push_back(std::move(O));
  return Unique;
}

/// Ops that fill a lookup table; input 0 is the table.
bool isTableInitializer(llvm::StringRef Op) {
  return Op == "InitializeTable" || Op == "InitializeTableV2" ||
         Op == "InitializeTableFromTextFile" || Op == "InitializeTableFromTextFileV2" ||
         Op == "LookupTableImport" || Op == "LookupTableImportV2" ||
         Op == "InitializeTableFromDataset";
}

/// The initializers of the lookup tables the outputs read, and the model's
/// init op when it initializes nothing but tables: TensorFlow's freezing
/// drops them and the frozen graph fails with "Table not initialized".
std::vector<std::string> tableInitializers(const Model &M, const std::vector<std::string> &Keep) {
  const Graph &G = M.graph();
  absl::StatusOr<std::vector<bool>> Needed = nodesNeededBy(G, Keep);
  if (!Needed.ok())
    return {};
  std::vector<std::string> Out;
  for (const Node &N : G)
    if (isTableInitializer(N.op()) && N.numDataInputs() > 0 &&
        (*Needed)[N.inputs()[0].Src->id()] && !(*Needed)[N.id()])
      Out.push_back(N.name().str());
  if (Out.empty())
    return Out;
  // The init op a SavedModel names, kept when it runs only these.
  std::vector<std::string> InitOps;
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph()) {
    if (auto It = Meta->signature_def().find("__saved_model_init_op");
        It != Meta->signature_def().end())
      for (const auto &Entry : It->second.outputs())
        InitOps.push_back(nodeOfTensor(Entry.second.name()));
    for (const char *Name : {"saved_model_main_op", "legacy_init_op"})
      if (auto It = Meta->collection_def().find(Name); It != Meta->collection_def().end())
        for (const std::string &T : It->second.node_list().value())
          InitOps.push_back(nodeOfTensor(T));
  }
  for (const std::string &Init : InitOps) {
    const Node *N = G.findNode(Init);
    if (!N || llvm::is_contained(Out, Init))
      continue;
    absl::StatusOr<std::vector<bool>> Runs = nodesNeededBy(G, {Init});
    if (!Runs.ok())
      continue;
    bool OnlyTables = true;
    for (const Node &R : G)
      if ((*Runs)[R.id()] && (isVariableOp(R.op()) ||
                              (isTableInitializer(R.op()) && !llvm::is_contained(Out, R.name()))))
        OnlyTables = false;
    if (OnlyTables)
      Out.push_back(Init);
  }
  return Out;
}

//===----------------------------------------------------------------------===//
// The pipeline
//===----------------------------------------------------------------------===//

/// Adds pass `Name` with options; list values are joined with ';'.
absl::Status addPass(PassManager &PM, const PassRegistry &Registry, llvm::StringRef Name,
                     std::vector<std::pair<llvm::StringRef, std::string>> Options = {}) {
  std::unique_ptr<Pass> P = Registry.create(Name);
  assert(P && "freeze-graph names only registered passes");
  for (const auto &[Key, Value] : Options) {
    OptionBase *O = P->findOption(Key);
    assert(O && "freeze-graph sets only declared options");
    if (absl::Status S = O->parse(Value); !S.ok())
      return absl::InvalidArgumentError(
          absl::StrCat(Name.str(), "{", Key.str(), "=", Value, "}: ", S.message()));
  }
  FROST_RETURN_IF_ERROR(P->validateOptions());
  PM.addPass(std::move(P));
  return absl::OkStatus();
}

std::string joinList(const std::vector<std::string> &Items) {
  return absl::StrJoin(Items, ";");
}

absl::Status buildPipeline(const FreezeConfig &C, const FreezeInput &In,
                           const std::vector<std::string> &Keep,
                           const std::vector<std::string> &Tf2Inputs, bool Tf2,
                           const PassRegistry &Registry, PassManager &PM) {
  // convert_variables_to_constants_v2 inlines the calls first (Grappler),
  // lowering If/Case/While in the same walk unless lower_control_flow=False.
  if (Tf2)
    FROST_RETURN_IF_ERROR(addPass(
        PM, Registry, "inline-functions",
        {{"lower-control-flow", C.KeepFunctionalControlFlow ? "false" : "true"}}));
  if (Tf2) // Grappler's output spells Const values its own way
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "compress-constants"));
  if (!C.Rename.empty())
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "rename-variables", {{"map", joinList(C.Rename)}}));
  if (C.Ema)
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "ema-remap", {{"ema", *C.Ema}}));
  if (!C.Bind.empty())
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "bind-placeholders", {{"bind", joinList(C.Bind)}}));
  std::vector<std::pair<llvm::StringRef, std::string>> Convert = {{"outputs", joinList(Keep)}};
  if (!In.Checkpoint.empty())
    Convert.push_back({"checkpoint", In.Checkpoint});
  if (!C.Only.empty())
    Convert.push_back({"only", joinList(C.Only)});
  if (!C.Except.empty())
    Convert.push_back({"except", joinList(C.Except)});
  FROST_RETURN_IF_ERROR(addPass(PM, Registry, "convert-variables-to-constants", Convert));
  if (!Tf2)
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "strip-save-nodes"));
  std::vector<std::string> Needed = Keep;
  for (const std::string &In : Tf2Inputs)
    if (!llvm::is_contained(Needed, In))
      Needed.push_back(In);
  FROST_RETURN_IF_ERROR(addPass(PM, Registry, "prune", {{"outputs", joinList(Needed)}}));
  if (C.StripTrainingOps)
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "strip-training-ops"));
  if (C.ClearDevices)
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "clear-devices"));
  if (Tf2)
    FROST_RETURN_IF_ERROR(addPass(PM, Registry, "function-graph-layout",
                                  {{"inputs", joinList(Tf2Inputs)}, {"outputs", joinList(Keep)}}));
  if (!C.ExtraPipeline.empty())
    FROST_RETURN_IF_ERROR(parsePassPipeline(C.ExtraPipeline, Registry, PM, "--pass-pipeline"));
  return absl::OkStatus();
}

/// Without a checkpoint, the variables the outputs need cannot be frozen:
/// say so in freeze-graph's terms before any pass runs.
absl::Status checkCheckpointNeeded(const FreezeInput &In, const std::vector<std::string> &Keep,
                                   const FreezeConfig &C) {
  if (!In.Checkpoint.empty())
    return absl::OkStatus();
  const Graph &G = In.M->graph();
  FROST_ASSIGN_OR_RETURN(std::vector<bool> Needed, nodesNeededBy(G, Keep));
  std::vector<std::string> Vars;
  for (const Node &N : G)
    if (Needed[N.id()] && isVariableOp(N.op()) && !llvm::is_contained(C.Except, N.name()) &&
        (C.Only.empty() || llvm::is_contained(C.Only, N.name())))
      Vars.push_back(absl::StrCat("'", N.name().str(), "'"));
  if (Vars.empty())
    return absl::OkStatus();
  size_t Total = Vars.size();
  Vars.resize(std::min<size_t>(Total, 3));
  return absl::InvalidArgumentError(absl::StrCat(
      In.GraphPath, ": the outputs need ", Total, Total == 1 ? " variable" : " variables", " (",
      absl::StrJoin(Vars, ", "), Total > 3 ? ", ..." : "",
      ") but no checkpoint was given: use --checkpoint PREFIX (--input_checkpoint)"));
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

struct FrozenVariable {
  std::string Name;
  const VariableSource *Source;
  tensorflow::DataType DType;
  std::vector<int64_t> Shape;
  uint64_t Bytes;
};

/// The variables that are Consts now, with what they were read from.
std::vector<FrozenVariable> frozenVariables(const Model &M) {
  std::vector<FrozenVariable> Out;
  for (const auto &[Name, Source] : M.variableSources()) {
    const Node *N = M.graph().findNode(Name);
    if (!N || N->op() != "Const")
      continue;
    const tensorflow::AttrValue *Value = N->findAttr("value");
    if (!Value)
      continue;
    const tensorflow::TensorProto &T = Value->tensor();
    FrozenVariable V{Name, &Source, T.dtype(), {}, 0};
    for (const auto &D : T.tensor_shape().dim())
      V.Shape.push_back(D.size());
    if (const ExternalContent *Ext = N->externalContent("value"))
      V.Bytes = Ext->Bytes.size();
    else if (size_t Elem = dataTypeSize(T.dtype()); Elem && numElements(V.Shape).ok())
      V.Bytes = *numElements(V.Shape) * Elem;
    else
      V.Bytes = T.ByteSizeLong();
    Out.push_back(std::move(V));
  }
  return Out;
}

std::string sha256File(const std::string &Path) {
  absl::StatusOr<std::unique_ptr<MappedFile>> F = MappedFile::open(Path);
  if (!F.ok())
    return "";
  llvm::SHA256 Hash;
  llvm::StringRef Bytes = (*F)->bytes();
  Hash.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Bytes.data()),
                                      Bytes.size()));
  std::array<uint8_t, 32> Digest = Hash.final();
  return llvm::toHex(Digest, /*LowerCase=*/true);
}

struct RunFacts {
  const FreezeInput *In;
  ContainerKind Container;
  std::vector<std::string> Assets;
  std::vector<OutputName> Outputs;
  std::vector<std::string> Initializers;
  /// The signature frozen, and its keys -> tensors of the frozen graph.
  std::string Signature;
  std::vector<std::pair<std::string, std::string>> SignatureInputs, SignatureOutputs;
  std::vector<FrozenVariable> Frozen;
  size_t NodesBefore = 0, NodesAfter = 0;
  std::string Pipeline;
  std::string OutputPath, Format;
  uint64_t OutputBytes = 0;
  std::string Sha256;
  const TimingReport *Timing;
  double TotalSeconds = 0;
};

absl::Status writeReport(const std::string &Path, const FreezeConfig &C, const RunFacts &F) {
  std::string Text;
  {
    llvm::raw_string_ostream OS(Text);
    inspect::JsonWriter J(OS);
    J.objectBegin();
    J.member("tool", std::string(frostVersion()));
    J.key("input");
    J.objectBegin();
    J.member("graph", F.In->GraphPath);
    J.member("container", containerKindName(F.Container).str());
    J.key("checkpoint");
    if (F.In->Checkpoint.empty())
      J.null();
    else
      J.string(F.In->Checkpoint);
    if (F.Container == ContainerKind::SavedModel) {
      J.key("tags");
      J.arrayBegin(true);
      for (const std::string &T : C.Tags)
        J.string(T);
      J.arrayEnd();
      J.key("assets");
      J.arrayBegin(true);
      for (const std::string &A : F.Assets)
        J.string(A);
      J.arrayEnd();
    }
    J.objectEnd();
    J.key("outputs");
    J.arrayBegin();
    for (const OutputName &O : F.Outputs) {
      J.objectBegin();
      J.member("requested", O.Requested);
      J.member("node", O.Node);
      J.objectEnd();
    }
    J.arrayEnd();
    J.key("initializers");
    J.arrayBegin(true);
    for (const std::string &I : F.Initializers)
      J.string(I);
    J.arrayEnd();
    if (!F.Signature.empty()) {
      J.key("signature");
      J.objectBegin();
      J.member("name", F.Signature);
      for (const auto *Part : {&F.SignatureInputs, &F.SignatureOutputs}) {
        J.key(Part == &F.SignatureInputs ? "inputs" : "outputs");
        J.objectBegin();
        for (const auto &[Key, Tensor] : *Part)
          J.member(Key, Tensor);
        J.objectEnd();
      }
      J.objectEnd();
    }
    J.key("variables");
    J.arrayBegin();
    uint64_t TotalBytes = 0;
    for (const FrozenVariable &V : F.Frozen) {
      J.objectBegin();
      J.member("name", V.Name);
      J.member("checkpoint_key", V.Source->Key);
      if (!V.Source->Slice.empty())
        J.member("slice", V.Source->Slice);
      J.member("origin", V.Source->Origin);
      J.member("dtype", dataTypeName(V.DType));
      J.key("shape");
      J.arrayBegin(true);
      for (int64_t D : V.Shape)
        J.number(D);
      J.arrayEnd();
      J.member("bytes", V.Bytes);
      J.objectEnd();
      TotalBytes += V.Bytes;
    }
    J.arrayEnd();
    J.member("variable_bytes", TotalBytes);
    J.key("nodes");
    J.objectBegin();
    J.member("before", static_cast<uint64_t>(F.NodesBefore));
    J.member("after", static_cast<uint64_t>(F.NodesAfter));
    J.objectEnd();
    J.member("pipeline", F.Pipeline);
    J.key("output");
    J.objectBegin();
    J.member("path", F.OutputPath);
    J.member("format", F.Format);
    J.member("bytes", F.OutputBytes);
    J.key("sha256");
    if (F.Sha256.empty())
      J.null();
    else
      J.string(F.Sha256);
    J.objectEnd();
    J.key("timings");
    J.objectBegin();
    for (const auto &[Name, Seconds] : F.Timing->rows()) {
      J.key(Name);
      J.raw(llvm::formatv("{0:f6}", Seconds).str());
    }
    J.key("total");
    J.raw(llvm::formatv("{0:f6}", F.TotalSeconds).str());
    J.objectEnd();
    J.objectEnd();
  }
  return writeStringAtomically(Path, Text);
}

//===----------------------------------------------------------------------===//
// The run
//===----------------------------------------------------------------------===//

const char *Usage =
    "Usage: freeze-graph INPUT --outputs NAMES -o FROZEN.pb [options]\n"
    "\n"
    "Freezes a TensorFlow model: its variables become constants holding their values from a\n"
    "checkpoint, the Saver and training-only nodes go, and only what the outputs need stays.\n"
    "Writes a GraphDef, as TensorFlow's freeze_graph.py does (whose flags are accepted too).\n"
    "\n"
    "INPUT is a checkpoint prefix (its .meta beside it), a checkpoint directory (its latest\n"
    "checkpoint), a .meta file, a GraphDef (.pb or .pbtxt, with --checkpoint) or a SavedModel\n"
    "directory (with --signature or --outputs). Options may be shortened to any unambiguous\n"
    "prefix, and `_` and `-` are the same in their names.\n";

std::string formatSeconds(double S) { return llvm::formatv("{0:f3} s", S).str(); }

int runFreeze(FreezeConfig &C) {
  using Clock = std::chrono::steady_clock;
  Clock::time_point Start = Clock::now();
  TimingReport Timing;
  C.PM.Timing = &Timing;
  auto fail = [](const absl::Status &S) {
    printError(S);
    return 1;
  };
  auto note = [&C](llvm::StringRef Text) {
    if (!C.Quiet)
      llvm::errs() << "note: " << Text << "\n";
  };

  if (C.Output.empty())
    return fail(absl::InvalidArgumentError(
        "no output file: give -o FROZEN.pb (freeze_graph.py: --output_graph; - for stdout)"));
  PassRegistry Registry;
  registerAllPasses(Registry);
  for (const std::string &Name : C.PM.PrintIRAfter)
    if (!Registry.findPass(Name))
      return fail(absl::InvalidArgumentError(
          absl::StrCat("--print-ir-after: unknown pass '", Name, "'")));
  if (!C.ExtraPipeline.empty()) {
    PassManager Probe;
    if (absl::Status S = parsePassPipeline(C.ExtraPipeline, Registry, Probe, "--pass-pipeline");
        !S.ok())
      return fail(S);
  }

  std::vector<std::string> Notes;
  absl::StatusOr<FreezeInput> In = [&] {
    Stopwatch Timer(&Timing, "read input");
    return loadInput(C, Notes);
  }();
  for (const std::string &N : Notes)
    note(N);
  if (!In.ok())
    return fail(In.status());
  Model &M = *In->M;
  if (C.PM.VerifyEach) {
    Stopwatch Timer(&Timing, "(verify)");
    if (absl::Status S = verifyGraph(M.graph()); !S.ok())
      return fail(absl::Status(S.code(), absl::StrCat(In->GraphPath, ": ", S.message())));
  }

  // A TF2 signature is a function call: its function becomes the graph, as
  // tf.saved_model.load makes it, and its outputs are the function's.
  // What the input was, for the report (instantiating a signature replaces
  // the container).
  ContainerKind InputKind = M.kind();
  std::vector<std::string> Assets;
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
    for (const auto &A : Meta->asset_file_def())
      Assets.push_back(A.filename());
  bool Tf2 = false;
  std::vector<std::string> Tf2Inputs;
  if (M.kind() == ContainerKind::SavedModel) {
    std::string Sig = requestedSignature(C, M);
    if (!Sig.empty() && !signatureFunction(M, Sig).empty()) {
      Notes.clear();
      Stopwatch Timer(&Timing, "instantiate signature");
      absl::Status S = instantiateSignature(M, Sig, In->Checkpoint, Notes);
      for (const std::string &N : Notes)
        note(N);
      if (!S.ok())
        return fail(absl::Status(S.code(), absl::StrCat(In->GraphPath, ": ", S.message())));
      C.Signature = Sig;
      Tf2 = true;
      // The signature's inputs, in argument order: kept even when unused,
      // as TensorFlow keeps them.
      const tensorflow::SignatureDef &Def = M.metaGraph()->signature_def().at(Sig);
      for (const Node &N : M.graph())
        for (const auto &[Key, Info] : Def.inputs())
          if (nodeOfTensor(Info.name()) == N.name())
            Tf2Inputs.push_back(N.name().str());
    }
  }

  Notes.clear();
  absl::StatusOr<std::vector<OutputName>> Outputs = resolveOutputs(C, M, Notes);
  for (const std::string &N : Notes)
    note(N);
  if (!Outputs.ok())
    return fail(Outputs.status());
  std::vector<std::string> Keep;
  for (const OutputName &O : *Outputs)
    Keep.push_back(O.Node);
  for (const std::string &Init : C.InitializerNodes) {
    if (!M.graph().findNode(Init)) {
      absl::StatusOr<TensorRef> T = resolveTensorName(M.graph(), Init, "initializer node");
      return fail(T.status());
    }
    if (!llvm::is_contained(Keep, Init))
      Keep.push_back(Init);
  }
  // A TF1 Keras graph's training flag: freezing is for inference.
  if (const Node *Phase = M.graph().findNode("keras_learning_phase");
      Phase && (Phase->op() == "Placeholder" || Phase->op() == "PlaceholderWithDefault") &&
      !llvm::is_contained(Keep, Phase->name()) &&
      llvm::none_of(C.Bind, [](const std::string &B) {
        return llvm::StringRef(B).split('=').first.trim() == "keras_learning_phase";
      })) {
    const tensorflow::AttrValue *DType = Phase->findAttr("dtype");
    if (DType && DType->type() == tensorflow::DT_BOOL) {
      note("binding keras_learning_phase=false (inference: Dropout and batch-statistics branches "
           "go); --bind keras_learning_phase=true keeps training behaviour");
      C.Bind.push_back("keras_learning_phase=false");
    }
  }
  std::vector<std::string> Initializers = tableInitializers(M, Keep);
  if (!Initializers.empty()) {
    note(absl::StrCat("keeping the lookup-table initializers ", absl::StrJoin(Initializers, ", "),
                      ": run ", Initializers.back(),
                      " once before the outputs (TensorFlow's freezing loses them, and "
                      "the lookups fail with \"Table not initialized\")"));
    for (const std::string &Init : Initializers)
      if (!llvm::is_contained(Keep, Init))
        Keep.push_back(Init);
  }
  if (absl::Status S = checkCheckpointNeeded(*In, Keep, C); !S.ok())
    return fail(S);

  PassManager PM(C.PM);
  if (absl::Status S = buildPipeline(C, *In, Keep, Tf2Inputs, Tf2, Registry, PM); !S.ok())
    return fail(S);
  if (C.DumpPipeline)
    llvm::errs() << "Pass Manager with " << PM.passes().size() << " passes:\n"
                 << PM.printPipeline() << "\n";

  RunFacts Facts;
  Facts.In = &*In;
  Facts.Container = InputKind;
  Facts.Assets = Assets;
  Facts.Outputs = *Outputs;
  Facts.Initializers = Initializers;
  if (const tensorflow::MetaGraphDef *Meta = M.metaGraph())
    if (auto It = Meta->signature_def().find(C.Signature);
        !C.Signature.empty() && It != Meta->signature_def().end()) {
      Facts.Signature = C.Signature;
      for (const auto &[Key, Info] : It->second.inputs())
        Facts.SignatureInputs.push_back({Key, Info.name()});
      for (const auto &[Key, Info] : It->second.outputs())
        Facts.SignatureOutputs.push_back({Key, Info.name()});
      llvm::sort(Facts.SignatureInputs);
      llvm::sort(Facts.SignatureOutputs);
    }
  Facts.NodesBefore = M.graph().size();
  Facts.Pipeline = PM.printPipeline();
  PassContext Ctx(C.Quiet ? llvm::nulls() : llvm::errs());
  if (absl::Status S = PM.run(M, Ctx); !S.ok())
    return fail(S);
  Facts.NodesAfter = M.graph().size();
  Facts.Frozen = frozenVariables(M);

  llvm::StringRef Out(C.Output);
  bool Text = C.Emit == "pbtxt" || (C.Emit.empty() && Out.ends_with(".pbtxt"));
  M.dropContainer();
  {
    Stopwatch Timer(&Timing, "write output");
    absl::Status S;
    if (Text) {
      S = writeStringAtomically(C.Output, printModelText(M));
    } else {
      WriteOptions Write;
      Write.SizeLimit = C.SizeLimit;
      S = writeModel(M, C.Output, Write);
    }
    if (!S.ok())
      return fail(S);
  }
  Facts.OutputPath = C.Output;
  Facts.Format = Text ? "pbtxt" : "pb";
  if (C.Output != "-")
    Facts.OutputBytes = fileSize(C.Output).value_or(0);
  Facts.TotalSeconds = std::chrono::duration<double>(Clock::now() - Start).count();
  Facts.Timing = &Timing;

  if (!C.ReportPath.empty()) {
    if (C.Output != "-")
      Facts.Sha256 = sha256File(C.Output);
    if (absl::Status S = writeReport(C.ReportPath, C, Facts); !S.ok())
      return fail(S);
  }
  if (C.Timing)
    Timing.print(llvm::errs());
  if (!C.Quiet) {
    uint64_t Bytes = 0;
    for (const FrozenVariable &V : Facts.Frozen)
      Bytes += V.Bytes;
    std::vector<std::string> Names;
    for (const OutputName &O : Facts.Outputs)
      Names.push_back(O.Node);
    llvm::errs() << "freeze-graph: froze " << Facts.Frozen.size()
                 << (Facts.Frozen.size() == 1 ? " variable" : " variables") << " ("
                 << formatBytes(Bytes) << ")"
                 << (In->Checkpoint.empty() ? std::string()
                                            : absl::StrCat(" from ", In->Checkpoint))
                 << "; " << Facts.NodesBefore << " -> " << Facts.NodesAfter
                 << " nodes for " << absl::StrJoin(Names, ", ") << "\n"
                 << "freeze-graph: wrote " << (C.Output == "-" ? "<stdout>" : C.Output) << " ("
                 << formatBytes(Facts.OutputBytes) << ", " << Facts.Format << ") in "
                 << formatSeconds(Facts.TotalSeconds) << "\n";
  }
  return 0;
}

} // namespace

int frostFreezeMain(int Argc, char **Argv) {
  FreezeConfig C;
  ArgParser Parser = makeParser(C);
  std::vector<const char *> Args(Argv + 1, Argv + Argc);
  if (absl::Status S = Parser.parse(Args, C.Positional); !S.ok()) {
    llvm::errs() << "freeze-graph: error: " << std::string(S.message()) << "\n";
    return 2;
  }
  if (C.Help) {
    Parser.printHelp(llvm::outs(), Usage);
    return 0;
  }
  if (C.Version) {
    llvm::outs() << frostVersion() << "\n";
    return 0;
  }
  return runFreeze(C);
}

} // namespace frost
