// ProcessPool: the one pool of forked worker processes behind `edgesim tune -j N` (candidate
// simulations) and `edgesim sweep -j N` (sweep points). A process per worker, because SystemC's
// globals allow one simulation at a time per process.
//
// Contract:
// - Workers are forked when a request is first handed to them, so a pool of N given fewer requests
//   starts only as many; each sees the parent's memory as it is at that moment (the graph and
//   platform the handler refers to: the parent must not change what the handler reads while the
//   pool lives). A worker that dies is replaced by a new fork when work remains. A worker dies
//   with its parent (PR_SET_PDEATHSIG): a killed `sweep` or `tune` leaves nothing running.
// - A request is a byte string, an answer a byte string (binary-safe, length-prefixed frames).
// - run() hands each request to whichever worker is free (dynamic assignment) and calls `done`
//   in the parent, in completion order, exactly once per request — with the answer, or with the
//   reason it failed: the handler threw (its message), or the worker died on it (the signal or
//   exit status). A request whose worker died is retried `retries` times on a fresh worker
//   before it is reported failed; a handler exception is never retried (it is deterministic).
// - With a timeout (set_timeout), a request that has not been answered that many seconds after
//   it was handed out has its worker killed (SIGKILL) and replaced; the request is reported
//   failed ("timed out after N s"), not retried (a slow request stays slow).
// - `stop` (optional) is polled between events: when it returns true, no further request is
//   handed out, busy workers are terminated (SIGTERM) and their workers replaced on the next
//   run(); run() returns without calling `done` for what was not finished.
// - Workers ignore SIGINT (the parent decides what an interrupt means) and leave with _exit
//   (no static destructors of SystemC run in them). The destructor closes the pipes and reaps.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace edgesim {

struct PoolOutcome {
  bool ok = false;
  std::string answer;   // the handler's answer when ok
  std::string error;    // else: "worker process killed by signal 9", the handler's exception message, ...
  int attempts = 0;     // how many workers tried the request (1 + retries used)
  bool timed_out = false;
};

class ProcessPool {
 public:
  using Handler = std::function<std::string(const std::string& request)>;
  using Done = std::function<void(size_t index, const PoolOutcome& outcome)>;

  ProcessPool(int jobs, Handler handler, int retries = 0);
  ~ProcessPool();
  ProcessPool(const ProcessPool&) = delete;
  ProcessPool& operator=(const ProcessPool&) = delete;

  int jobs() const { return static_cast<int>(workers_.size()); }
  int live_workers() const;   // processes forked and not yet reaped
  void set_timeout(double seconds) { timeout_s_ = seconds; }   // per request; 0: none
  void run(const std::vector<std::string>& requests, const Done& done, const std::function<bool()>& stop = {});
  // Answers in request order; throws std::runtime_error naming the first failed request.
  std::vector<std::string> run_ordered(const std::vector<std::string>& requests);

 private:
  struct Worker {
    pid_t pid = -1;
    int to = -1, from = -1;   // request pipe (write end), answer pipe (read end)
  };
  void spawn(size_t k);
  std::string reap(size_t k);   // closes worker k's pipes, waits for it, says how it ended

  Handler handler_;
  int retries_;
  double timeout_s_ = 0;
  std::vector<Worker> workers_;
};

// The worker count for a `-j N` option: N, or this machine's online processors when N exceeds
// them, with a warning naming the option (each worker runs a simulation, bound by one processor).
int cap_jobs(int requested, const char* option);

}  // namespace edgesim
