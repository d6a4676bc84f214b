//===- JobsInternal.h - What the jobs share ---------------------*- C++ -*-===//
#ifndef FROST_LIB_JOBS_JOBSINTERNAL_H
#define FROST_LIB_JOBS_JOBSINTERNAL_H

#include "frost/Jobs/Jobs.h"

namespace frost {

/// Notes `Source`'s files (and their siblings: a checkpoint's shards, the
/// SavedModel's variables) as the job's inputs, which no output may replace;
/// once per job, before its output is prepared.
void noteInputs(Context &Ctx, const GraphSource &Source);

/// Where a graph job writes: a file, a SavedModel directory, or neither
/// (bytes).
struct PreparedOutput {
  std::unique_ptr<OutputFile> File;
  std::unique_ptr<OutputDirectory> Dir;
};

/// The output of a destination, prepared before any work (a bad path fails
/// at once; an input is never replaced).
absl::StatusOr<PreparedOutput> prepareDestination(Context &Ctx, const GraphDestination &Out);

/// Every name of `Names` (a node, `node:k` or `^node`) is in `G`; else the
/// error names the user's `Flag` ("--inputs") and suggests close names.
absl::Status checkNamesExist(const Graph &G, llvm::ArrayRef<std::string> Names,
                             llvm::StringRef Flag);

/// Writes `M` bare into `Out` (or a SavedModel around it, whose signature
/// fetches `Outputs`) and commits it, or serializes it when there is no
/// output; timed as "write output".
absl::StatusOr<GraphJobResult> finishGraphJob(Context &Ctx, Model &M,
                                              const GraphDestination &Destination,
                                              PreparedOutput &Out,
                                              llvm::ArrayRef<std::string> Outputs,
                                              TimingReport *Timing);

/// One signature of a serving SavedModel: keys -> tensors ("node" or
/// "node:k") of its graph.
struct ServingSignature {
  std::string Key;
  std::vector<std::pair<std::string, std::string>> Inputs, Outputs;
  /// What the source declared for the keys (their shapes refine what shape
  /// inference finds).
  const tensorflow::SignatureDef *Declared = nullptr;
};

/// What a serving SavedModel around a frozen graph holds besides the graph.
struct ServingExport {
  std::vector<std::string> Tags = {"serve"};
  std::vector<ServingSignature> Signatures;
  /// Nodes to run once after loading (lookup-table initializers).
  std::vector<std::string> InitNodes;
};

/// The serving_default signature of a bare graph: its Placeholders in, the
/// given tensors out (keys: the names as given, a node's port 0 when none).
ServingSignature servingDefault(const Graph &G, llvm::ArrayRef<std::string> Outputs);

/// Writes `M`'s graph as a serving SavedModel into `Out` (committed by the
/// caller; ExportSavedModel.cpp): saved_model.pb, an empty variables/, the
/// vocabulary files the graph still reads in assets/. `M` gains the init
/// op's NoOp when several initializers need one. The result: saved_model.pb's
/// size and SHA-256.
absl::StatusOr<WrittenBytes> writeServingSavedModel(Context &Ctx, Model &M,
                                                    const ServingExport &Export,
                                                    OutputDirectory &Out, uint64_t SizeLimit);

} // namespace frost

#endif // FROST_LIB_JOBS_JOBSINTERNAL_H
