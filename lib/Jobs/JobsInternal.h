//===- JobsInternal.h - What the jobs share ---------------------*- C++ -*-===//
#ifndef FROST_LIB_JOBS_JOBSINTERNAL_H
#define FROST_LIB_JOBS_JOBSINTERNAL_H

#include "frost/Jobs/Jobs.h"

namespace frost {

/// Notes `Source`'s files (and their siblings: a checkpoint's shards, the
/// SavedModel's variables) as the job's inputs, which no output may replace;
/// once per job, before its output is prepared.
void noteInputs(Context &Ctx, const GraphSource &Source);

/// The output file of a destination, prepared before any work (a bad path
/// fails at once; an input is never replaced); null for bytes.
absl::StatusOr<std::unique_ptr<OutputFile>> prepareDestination(Context &Ctx,
                                                               const GraphDestination &Out);

/// Every name of `Names` (a node, `node:k` or `^node`) is in `G`; else the
/// error names the user's `Flag` ("--inputs") and suggests close names.
absl::Status checkNamesExist(const Graph &G, llvm::ArrayRef<std::string> Names,
                             llvm::StringRef Flag);

/// Writes `M` bare into `Out` and commits it, or serializes it when `Out` is
/// null; timed as "write output".
absl::StatusOr<GraphJobResult> finishGraphJob(Context &Ctx, Model &M,
                                              const GraphDestination &Destination,
                                              OutputFile *Out, TimingReport *Timing);

} // namespace frost

#endif // FROST_LIB_JOBS_JOBSINTERNAL_H
