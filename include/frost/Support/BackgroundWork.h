//===- BackgroundWork.h - Checks that run while the run goes on -*- C++ -*-===//
//
// Work a run's result depends on but that need not hold the run up: one
// worker thread runs the jobs in order while the main thread goes on. A
// freeze checks its checkpoint's checksums this way while it converts and
// writes, so reading the weights once to check them costs no wall time on a
// machine with a second core. Whatever commits a result waits first.
//
// One per run (owned by its Context): a failure found for one run is that
// run's, never the next one's.
//
//===----------------------------------------------------------------------===//
#ifndef FROST_SUPPORT_BACKGROUNDWORK_H
#define FROST_SUPPORT_BACKGROUNDWORK_H

#include "frost/Support/Status.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace frost {

class BackgroundWork {
public:
  BackgroundWork() = default;
  /// Drops the jobs not started (nobody will wait for them: the run is
  /// over) and waits for the one running.
  ~BackgroundWork();
  BackgroundWork(const BackgroundWork &) = delete;
  BackgroundWork &operator=(const BackgroundWork &) = delete;

  /// Queues `Job` for the worker thread (started on first use).
  void run(std::function<absl::Status()> Job);

  /// Waits for every job queued so far and returns the first failure of any
  /// job this run queued (a failure stays: what it found is still wrong).
  absl::Status wait();

private:
  void work();

  std::mutex Lock;
  std::condition_variable Wake, Done;
  std::deque<std::function<absl::Status()>> Jobs;
  uint64_t Queued = 0, Finished = 0;
  absl::Status FirstFailure;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace frost

#endif // FROST_SUPPORT_BACKGROUNDWORK_H
