//===- BackgroundWork.cpp - Checks that run while the run goes on ---------===//
#include "frost/Support/BackgroundWork.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace frost {

namespace {

/// Never destroyed, its thread never joined: at exit nobody waits for what
/// is queued (a run refused early exits at once), and no job runs against
/// objects static destruction has already taken down.
class WorkQueue {
public:
  void push(std::function<absl::Status()> Job) {
    {
      std::lock_guard<std::mutex> Guard(Lock);
      Jobs.push_back(std::move(Job));
      ++Queued;
      if (!Worker.joinable())
        Worker = std::thread([this] { run(); });
    }
    Wake.notify_all();
  }

  absl::Status wait() {
    std::unique_lock<std::mutex> Guard(Lock);
    Done.wait(Guard, [&] { return Finished == Queued; });
    return FirstFailure;
  }

private:
  void run() {
    std::unique_lock<std::mutex> Guard(Lock);
    while (true) {
      Wake.wait(Guard, [&] { return !Jobs.empty(); });
      std::function<absl::Status()> Job = std::move(Jobs.front());
      Jobs.pop_front();
      Guard.unlock();
      absl::Status S = Job();
      Job = nullptr; // drops what the job kept alive before anyone is told
      Guard.lock();
      if (!S.ok() && FirstFailure.ok())
        FirstFailure = std::move(S);
      ++Finished;
      Done.notify_all();
    }
  }

  std::mutex Lock;
  std::condition_variable Wake, Done;
  std::deque<std::function<absl::Status()>> Jobs;
  uint64_t Queued = 0, Finished = 0;
  absl::Status FirstFailure;
  std::thread Worker;
};

WorkQueue &workQueue() {
  static WorkQueue *Q = new WorkQueue;
  return *Q;
}

} // namespace

void runInBackground(std::function<absl::Status()> Job) { workQueue().push(std::move(Job)); }

absl::Status waitForBackgroundWork() { return workQueue().wait(); }

} // namespace frost
