//===- Context.h - What lives for one job -----------------------*- C++ -*-===//
//
// Everything that lives for one job (a freeze, a transform, a verification,
// a diff, an inspection), like MLIR's MLIRContext: its background checks and
// their failures, the files it read (never to be overwritten by its
// outputs), the mappings of those files that its outputs copy from, and its
// notes and warnings.
// Nothing of a job is global, so a failure in one job never reaches the next
// and two jobs on two threads keep apart. Every reader, model and output
// file of a job is destroyed before its Context.
//
//   frost::Context Ctx;
//   absl::StatusOr<FreezeResult> R = freeze(Ctx, Options);
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_CONTEXT_H
#define FROST_SUPPORT_CONTEXT_H

#include "frost/Support/BackgroundWork.h"
#include "frost/Support/Diagnostics.h"
#include "frost/Support/File.h"

namespace frost {

class Context {
public:
  Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// The job's checks running beside it (checkpoint checksums); whatever
  /// commits a result waits for them.
  BackgroundWork &background() { return Background; }
  /// The files the job reads.
  InputFiles &inputs() { return Inputs; }
  const InputFiles &inputs() const { return Inputs; }
  /// Its mapped input files, for outputs to copy from.
  MappingRegistry &mappings() { return Mappings; }
  const MappingRegistry &mappings() const { return Mappings; }
  /// Its notes and warnings: kept, and printed where a tool asked.
  Diagnostics &diagnostics() { return Diags; }
  const Diagnostics &diagnostics() const { return Diags; }

private:
  Diagnostics Diags;
  InputFiles Inputs;
  MappingRegistry Mappings;
  /// Last, so destroyed first: its dropped jobs release the mapped shards
  /// they hold while the registry is still there.
  BackgroundWork Background;
};

} // namespace frost

#endif // FROST_SUPPORT_CONTEXT_H
