// How the points of a sweep are spread over processes. Evaluation and collection are decoupled
// by a string message (the point's record as one JSON line): a dispatcher asks `evaluate` for
// the points in `pending` wherever it likes (this process, forked workers, MPI ranks) and
// hands every result to `sink` in the collecting process, in completion order. Order and
// placement never show in the files: the runner sorts by point index.
//
// Interruption: SIGINT / SIGTERM while a sweep runs set a flag (interrupted()); dispatchers
// stop handing out points, stop their workers and return; results already sunk are kept.
#pragma once
#include <csignal>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace edgesim::sweep {

using Evaluate = std::function<std::string(size_t index)>;
using Sink = std::function<void(size_t index, const std::string& message)>;
using Dispatch = std::function<void(const std::vector<size_t>& pending, const Sink& sink)>;

// The flag set by the handlers of InterruptGuard.
bool interrupted();
// Installs SIGINT / SIGTERM handlers that set the flag (no SA_RESTART, so blocking calls return
// EINTR), and restores the previous handlers on destruction.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
 private:
  struct sigaction old_int_{}, old_term_{};
};

// -j 1: evaluates the points one after the other in this process.
void dispatch_in_process(const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink);

// -j N: evaluates the points on min(N, pending) forked worker processes (sim/workers/process_pool.h,
// the pool `edgesim tune` uses too), dynamic assignment. A worker that dies on a point (a crash,
// SIGKILL) is replaced and the point retried once on the new worker; a point that fails again, or
// whose evaluation threw, yields the record `on_crash(index, why)` ("worker process killed by
// signal 9 (tried 2 times)"), so no other point is lost. Workers leave with _exit.
void dispatch_workers(int jobs, const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink,
                      const std::function<std::string(size_t, const std::string&)>& on_crash);

}  // namespace edgesim::sweep
