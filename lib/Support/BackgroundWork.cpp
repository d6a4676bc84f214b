//===- BackgroundWork.cpp - Checks that run while the run goes on ---------===//
#include "frost/Support/BackgroundWork.h"

namespace frost {

BackgroundWork::~BackgroundWork() {
  std::deque<std::function<absl::Status()>> Dropped;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Stopping = true;
    Dropped.swap(Jobs);
  }
  Wake.notify_all();
  if (Worker.joinable())
    Worker.join();
  // Dropped here, after the worker: what they keep alive (mapped shards)
  // goes before the rest of the run's context.
}

void BackgroundWork::run(std::function<absl::Status()> Job) {
  {
    std::lock_guard<std::mutex> Guard(Lock);
    Jobs.push_back(std::move(Job));
    ++Queued;
    if (!Worker.joinable())
      Worker = std::thread([this] { work(); });
  }
  Wake.notify_all();
}

absl::Status BackgroundWork::wait() {
  std::unique_lock<std::mutex> Guard(Lock);
  Done.wait(Guard, [&] { return Finished == Queued; });
  return FirstFailure;
}

void BackgroundWork::work() {
  std::unique_lock<std::mutex> Guard(Lock);
  while (true) {
    Wake.wait(Guard, [&] { return Stopping || !Jobs.empty(); });
    if (Stopping)
      return;
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

} // namespace frost
