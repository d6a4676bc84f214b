//===- AnalysisManager.cpp - What the passes of one run share -------------===//
#include "frost/Pass/AnalysisManager.h"

#include "frost/IR/Reachability.h"

#include "llvm/ADT/STLExtras.h"

namespace frost {

void AnalysisManager::addResolvedCheckpoint(llvm::StringRef Path,
                                            const ResolvedCheckpoint &Resolved) {
  OpenedCheckpoint &Entry = Checkpoints[Path];
  Entry.Resolved = Resolved;
  Entry.Resolved.Notes.clear();
  Entry.IsResolved = true;
}

absl::StatusOr<const CheckpointReader *>
AnalysisManager::checkpoint(llvm::StringRef Path, std::vector<std::string> *Notes) {
  OpenedCheckpoint &Entry = Checkpoints[Path];
  if (Entry.Reader)
    return Entry.Reader.get();
  if (!Entry.IsResolved) {
    FROST_ASSIGN_OR_RETURN(Entry.Resolved, resolveCheckpoint(Ctx, Path));
    Entry.IsResolved = true;
    if (Notes)
      for (std::string &N : Entry.Resolved.Notes)
        Notes->push_back(std::move(N));
    Entry.Resolved.Notes.clear();
  }
  // What passes read from it ends in a written model, and every writer waits
  // for the checksums first.
  CheckpointOptions Options;
  Options.ChecksumsInBackground = true;
  FROST_ASSIGN_OR_RETURN(Entry.Reader, CheckpointReader::open(Ctx, Entry.Resolved.Prefix, Options));
  ++NumCheckpointsOpened;
  return Entry.Reader.get();
}

absl::StatusOr<const std::vector<bool> *> AnalysisManager::nodesNeededBy(
    const Graph &G, llvm::ArrayRef<std::string> Outputs,
    llvm::function_ref<void(const Node &, llvm::StringRef)> OnMissingColocation) {
  auto It = llvm::find_if(Reachability, [&](const std::unique_ptr<NeededNodes> &R) {
    return R->G == &G && llvm::ArrayRef(R->Outputs) == Outputs;
  });
  NeededNodes *Cached = It == Reachability.end() ? nullptr : It->get();
  if (!Cached) {
    auto Entry = std::make_unique<NeededNodes>(NeededNodes{&G, Outputs.vec(), {}, {}});
    FROST_ASSIGN_OR_RETURN(Entry->Needed,
                           frost::nodesNeededBy(G, Outputs, [&](const Node &N, llvm::StringRef T) {
                             Entry->MissingColocations.emplace_back(&N, T.str());
                           }));
    ++NumReachabilityWalks;
    Cached = Reachability.emplace_back(std::move(Entry)).get();
  }
  if (OnMissingColocation)
    for (const auto &[N, Target] : Cached->MissingColocations)
      OnMissingColocation(*N, Target);
  return &Cached->Needed;
}

} // namespace frost
