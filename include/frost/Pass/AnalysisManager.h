//===- AnalysisManager.h - What the passes of one run share -----*- C++ -*-===//
//
// MLIR's AnalysisManager, cut to what Frost's passes need: a checkpoint is
// resolved and opened once for the whole pipeline (a TF2 SavedModel's
// checkpoint serves instantiate-signature and convert-variables-to-constants
// alike), and the nodes an output list needs are computed once per graph
// state. The pass manager drops graph analyses after every pass that does not
// mark them preserved; checkpoints do not depend on the graph and stay.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_PASS_ANALYSISMANAGER_H
#define FROST_PASS_ANALYSISMANAGER_H

#include "frost/Checkpoint/CheckpointReader.h"
#include "frost/Checkpoint/Resolve.h"
#include "frost/Support/Status.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace frost {

class Context;
class Graph;
class Node;

class AnalysisManager {
public:
  /// Checkpoints open within `Ctx`, which outlives this.
  explicit AnalysisManager(Context &Ctx) : Ctx(Ctx) {}
  Context &context() const { return Ctx; }

  /// The checkpoint `Path` names (a prefix, one of its files or a directory,
  /// as resolveCheckpoint understands it), opened on first use and shared by
  /// every later request for the same path. `Notes` hears how the path was
  /// resolved, the first time only.
  absl::StatusOr<const CheckpointReader *> checkpoint(llvm::StringRef Path,
                                                      std::vector<std::string> *Notes = nullptr);
  /// Records that `Path` resolves to `Resolved`, for a driver that resolved
  /// it already (its notes were printed then).
  void addResolvedCheckpoint(llvm::StringRef Path, const ResolvedCheckpoint &Resolved);

  /// The nodes `Outputs` need (nodesNeededBy), cached while the graph is
  /// unchanged. Colocation targets missing from the graph are told to
  /// `OnMissingColocation` on every call, cached or not.
  absl::StatusOr<const std::vector<bool> *> nodesNeededBy(
      const Graph &G, llvm::ArrayRef<std::string> Outputs,
      llvm::function_ref<void(const Node &, llvm::StringRef)> OnMissingColocation = nullptr);

  /// Forgets everything computed from a graph (after a pass changed it).
  void invalidateGraphAnalyses() { Reachability.clear(); }

  /// How often each was actually computed, for --pass-statistics and reports.
  unsigned checkpointsOpened() const { return NumCheckpointsOpened; }
  unsigned reachabilityWalks() const { return NumReachabilityWalks; }

private:
  Context &Ctx;
  struct OpenedCheckpoint {
    ResolvedCheckpoint Resolved;
    bool IsResolved = false;
    std::unique_ptr<CheckpointReader> Reader;
  };
  llvm::StringMap<OpenedCheckpoint> Checkpoints;

  struct NeededNodes {
    const Graph *G;
    std::vector<std::string> Outputs;
    std::vector<bool> Needed;
    std::vector<std::pair<const Node *, std::string>> MissingColocations;
  };
  /// Owned one by one: callers hold pointers into them.
  std::vector<std::unique_ptr<NeededNodes>> Reachability;

  unsigned NumCheckpointsOpened = 0;
  unsigned NumReachabilityWalks = 0;
};

} // namespace frost

#endif // FROST_PASS_ANALYSISMANAGER_H
