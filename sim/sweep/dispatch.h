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
#include <memory>
#include <string>
#include <vector>

namespace edgesim {
class ProcessPool;
}

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

// The record of a point whose process failed: on_crash(index, why).
using OnCrash = std::function<std::string(size_t index, const std::string& why)>;

// -j N: evaluates the points on min(N, pending) forked worker processes (sim/workers/process_pool.h,
// the pool `edgesim tune` uses too), dynamic assignment. A worker that dies on a point (a crash,
// SIGKILL) is replaced and the point retried once on the new worker; a point that fails again, or
// whose evaluation threw, yields the record `on_crash(index, why)` ("worker process killed by
// signal 9 (tried 2 times)"), so no other point is lost. A point still running `timeout_s`
// seconds after it was handed out (0: no limit) has its worker killed and yields
// on_crash(index, "timed out after N s (worker process killed)"), without a retry. Workers
// leave with _exit.
void dispatch_workers(int jobs, const std::vector<size_t>& pending, const Evaluate& evaluate, const Sink& sink,
                      const OnCrash& on_crash, double timeout_s = 0);

// One point at a time in a forked child process with the same retry and timeout rules (a pool of
// one worker, forked on first use and kept): how each MPI rank evaluates its points, so that a
// crash, a kill or a timeout costs the point, not the rank and with it the MPI job.
class IsolatedEvaluate {
 public:
  IsolatedEvaluate(Evaluate evaluate, OnCrash on_crash, double timeout_s);
  ~IsolatedEvaluate();
  std::string operator()(size_t index);

 private:
  Evaluate evaluate_;
  OnCrash on_crash_;
  double timeout_s_;
  std::unique_ptr<ProcessPool> pool_;
};

}  // namespace edgesim::sweep
