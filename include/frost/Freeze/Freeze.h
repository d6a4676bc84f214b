//===- Freeze.h - Freezing a model, as a library ----------------*- C++ -*-===//
//
// What freeze-graph does, callable from C++ (and later Python): options ->
// inputs resolved once (model, checkpoint) -> outputs resolved once to nodes
// -> the freeze sequence of frost/Transforms/Pipelines.h, configured with
// typed values and run by one pass manager whose analyses share the opened
// checkpoint -> a frozen Model and the facts a report needs.
//
//   Context Ctx;
//   FreezeOptions O;
//   O.Positional = {"model.ckpt"};
//   O.Outputs = {"logits"};
//   absl::StatusOr<FreezeResult> R = freeze(Ctx, O);
//   if (R.ok()) writeFrozenGraph(Ctx, *R, "frozen.pb", FrozenFormat::Binary);
//
//===----------------------------------------------------------------------===//
#ifndef FROST_FREEZE_FREEZE_H
#define FROST_FREEZE_FREEZE_H

#include "frost/Checkpoint/Resolve.h"
#include "frost/IO/GraphIO.h"
#include "frost/IR/Model.h"
#include "frost/Pass/PassManager.h"
#include "frost/Support/Context.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace frost {

struct FreezeOptions {
  /// The input: one of a positional path (checkpoint prefix or directory,
  /// .meta, GraphDef, SavedModel directory), a GraphDef, a MetaGraphDef or
  /// a SavedModel directory (freeze_graph.py's --input_* flags).
  std::vector<std::string> Positional;
  std::string InputGraph, InputMetaGraph, SavedModelDir;
  /// Or the model itself: a serialized GraphDef or MetaGraphDef, binary or
  /// text (Python's GraphDef objects), named InputBytesName in messages. Not
  /// copied: the caller keeps the bytes alive while freeze() runs.
  std::optional<llvm::StringRef> InputBytes;
  std::string InputBytesName = "<bytes>";
  /// Checkpoint to freeze from; default: the input's own.
  std::string Checkpoint;
  /// A SaverDef file whose restore op maps variables to keys.
  std::string InputSaver;
  std::vector<std::string> Tags = {"serve"};

  /// Node or tensor names, `collection:NAME`, `signature:NAME`.
  std::vector<std::string> Outputs;
  /// Nodes kept with the outputs (freeze_graph.py's --initializer_nodes).
  std::vector<std::string> InitializerNodes;
  std::string Signature;

  std::optional<std::string> Ema;
  std::vector<std::string> Rename, Bind, Only, Except;
  bool ClearDevices = true;
  bool StripTrainingOps = false;
  /// Ops writing a frozen variable become NoOps (drop-variable-writes).
  bool DropVariableWrites = false;
  bool KeepFunctionalControlFlow = false;
  /// Then optimize for inference (optimize_for_inference's passes,
  /// frost/Transforms/Pipelines.h) before the one write.
  bool Optimize = false;
  /// With Optimize: no fused pad/resize convolutions.
  bool TocoCompatible = false;
  /// With Optimize: half and bfloat16 computed in float32.
  bool ComputeInFloat32 = false;
  /// Fixed input shapes (NAME:D,D,... items) and batch size (0: none),
  /// set after freezing, their shape arithmetic folded (set-input-shapes).
  std::vector<std::string> InputShapes;
  int64_t BatchSize = 0;
  /// More passes after freezing, in pipeline syntax.
  std::string ExtraPipeline;
  /// Keep a copy of the model as it was just before its variables became
  /// constants (FreezeResult::Source), for frost-verify to run.
  bool KeepSource = false;

  /// The pass manager's debugging aids; its Timing report is filled.
  PassManagerOptions PM;
  /// Print the pipeline before it runs (to PM.Out, even when quiet).
  bool DumpPipeline = false;
  uint64_t SizeLimit = ProtobufSizeLimit;
};

/// One output as requested and the node it resolved to.
struct FreezeOutput {
  /// As the user wrote it, or "signature NAME: key = tensor".
  std::string Requested;
  std::string Node;
};

/// A variable that is a Const now, and where its value came from.
struct FrozenVariable {
  std::string Name;
  VariableSource Source;
  tensorflow::DataType DType;
  std::vector<int64_t> Shape;
  uint64_t Bytes;
};

struct FreezeResult {
  /// The frozen graph, as a bare GraphDef.
  std::unique_ptr<Model> M;
  /// With KeepSource: the graph before convert-variables-to-constants (a
  /// TF2 signature instantiated and inlined, renames, EMA and binds done),
  /// its variables still variables; variableSources() as freezing chose them.
  std::unique_ptr<Model> Source;

  /// What was read: the graph file, its container and checkpoint (empty when
  /// none was needed), the SavedModel's tags and assets.
  std::string GraphPath;
  ContainerKind Container = ContainerKind::GraphDef;
  std::string Checkpoint;
  std::vector<std::string> Tags, Assets;

  std::vector<FreezeOutput> Outputs;
  /// Lookup-table initializers kept with the outputs.
  std::vector<std::string> Initializers;
  /// The signature frozen, and its keys -> tensors of the frozen graph.
  std::string Signature;
  std::vector<std::pair<std::string, std::string>> SignatureInputs, SignatureOutputs;
  /// The signature as the source declares it: each key's dtype and shape.
  tensorflow::SignatureDef SignatureDeclared;

  std::vector<FrozenVariable> Frozen;
  /// Variables the outputs need that --only/--except left variables: where
  /// their values are in the checkpoint, for whoever restores them.
  struct LeftVariable {
    std::string Name, Op;
    VariableSource Source;
  };
  std::vector<LeftVariable> Left;
  uint64_t frozenBytes() const;
  size_t NodesBefore = 0, NodesAfter = 0;
  /// What each pass after freezing (--optimize's, --pass-pipeline's)
  /// changed: its nonzero statistics.
  using PassChanges = frost::PassChanges;
  std::vector<PassChanges> Optimizations;
  /// The pipeline that ran, as text that parses back to it.
  std::string Pipeline;
  /// How often the shared analyses did their work.
  unsigned CheckpointsOpened = 0;
};

/// What a user's input path names, resolved as every tool and Python resolve
/// it: a checkpoint prefix or one of its files (the graph is its .meta), a
/// checkpoint directory (the checkpoint its state file names, else its
/// newest), a SavedModel directory, a .meta or GraphDef file, or a stream.
/// The job's diagnostics note how the path was understood where that was not
/// literal, also when resolving then fails.
struct ResolvedInput {
  /// The model file or SavedModel directory to read.
  std::string GraphPath;
  /// The checkpoint the path named, when it named one.
  std::optional<ResolvedCheckpoint> Checkpoint;
};
absl::StatusOr<ResolvedInput> resolveInput(Context &Ctx, llvm::StringRef Path);

/// Notes every file the options name as an input of the job
/// (InputFiles::noteWithSiblings), so that no output of it may replace one;
/// freeze() does, and a caller preparing outputs before it does first.
void noteFreezeInputs(Context &Ctx, const FreezeOptions &Options);

/// Freezes what `Options` name, as a job of `Ctx` (which outlives the
/// result: its constants may lie in the checkpoint's mapped shards). Notes
/// and warnings go to Ctx.diagnostics() as they arise. The options are
/// checked before anything is read (one input, known passes, a pipeline that
/// parses): their mistakes are usageError()s.
absl::StatusOr<FreezeResult> freeze(Context &Ctx, const FreezeOptions &Options);

/// A GraphDef, binary or text, or a serving SavedModel directory around it
/// (the jobs write those: Jobs.h).
enum class FrozenFormat { Binary, Text, SavedModel };

/// What writeFrozenGraph wrote.
struct FrozenFile {
  std::string Path;
  FrozenFormat Format = FrozenFormat::Binary;
  uint64_t Bytes = 0;
  /// Hex SHA-256 of the bytes, when asked for (computed while writing, so
  /// for standard output and pipes too).
  std::string Sha256;
};

/// Refuses a frozen graph whose binary encoding would be over `SizeLimit`
/// (protobuf's 2 GiB: TensorFlow could not load it), before any is written:
/// the size, the biggest constants, and the --except list of the biggest
/// variables that would bring it under the limit (they stay variables,
/// restored from the checkpoint when loading; docs/freeze-graph.md).
absl::Status checkFrozenGraphSize(const FreezeResult &Result, llvm::StringRef Path,
                                  uint64_t SizeLimit = ProtobufSizeLimit);

/// Writes the frozen graph atomically ("-" = standard output).
absl::StatusOr<FrozenFile> writeFrozenGraph(Context &Ctx, const FreezeResult &Result,
                                            llvm::StringRef Path,
                                            FrozenFormat Format, bool Hash = false,
                                            uint64_t SizeLimit = ProtobufSizeLimit);

/// Writes the frozen graph into `Out`, left for the caller to commit (with a
/// report written beside it).
absl::StatusOr<FrozenFile> writeFrozenGraph(const FreezeResult &Result, OutputFile &Out,
                                            FrozenFormat Format, bool Hash = false,
                                            uint64_t SizeLimit = ProtobufSizeLimit);

/// The JSON report of a freeze (docs/freeze-graph.md): inputs, outputs, each
/// frozen variable with its key, node counts, the output file, timings.
std::string freezeReportJson(const FreezeResult &Result, const FrozenFile &Output,
                             const TimingReport &Timing, double TotalSeconds);

} // namespace frost

#endif // FROST_FREEZE_FREEZE_H
