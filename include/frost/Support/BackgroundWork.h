//===- BackgroundWork.h - Checks that run while the run goes on -*- C++ -*-===//
//
// Work a run's result depends on but that need not hold the run up: one
// worker thread runs the jobs in order while the main thread goes on. A
// freeze checks its checkpoint's checksums this way while it converts and
// writes, so reading the weights once to check them costs no wall time on a
// machine with a second core. Whatever commits a result waits first.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_BACKGROUNDWORK_H
#define FROST_SUPPORT_BACKGROUNDWORK_H

#include "frost/Support/Status.h"

#include <functional>

namespace frost {

/// Queues `Job` for the worker thread (started on first use).
void runInBackground(std::function<absl::Status()> Job);

/// Waits for every job queued so far and returns the first failure of any
/// job ever run (a failure stays: what it found is still wrong).
absl::Status waitForBackgroundWork();

} // namespace frost

#endif // FROST_SUPPORT_BACKGROUNDWORK_H
