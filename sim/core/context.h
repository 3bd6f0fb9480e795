// SimContext: one fresh SystemC simulation context per run (docs/simulator.md, "Many
// simulations per process"). SystemC elaborates once per sc_simcontext and cannot restart after a run, so
// every run builds its modules inside a new context, simulates, and drops the context again.
// The process's first context (the one SystemC creates itself) is never deleted; contexts made
// here are deleted when the guard goes out of scope, after the run's modules were destroyed.
// Not thread-safe: SystemC keeps the current context in a global; one run at a time per process.
#pragma once
#include <cstdint>

namespace sc_core { class sc_simcontext; class sc_time; }

namespace edgesim {

class SimContext {
 public:
  SimContext();
  ~SimContext();
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  // Runs the simulation until no activity is left; returns the final time in cycles.
  int64_t run();

 private:
  sc_core::sc_simcontext* prev_ = nullptr;
  sc_core::sc_simcontext* ctx_ = nullptr;
};

// One cycle of the cluster clock is one nanosecond of SystemC time.
int64_t to_cycles(const sc_core::sc_time& t);
int64_t now_cycles();   // to_cycles(sc_time_stamp())

// The largest simulated time, in cycles: 2^53, where a cycle count is still exact as the double
// SystemC's sc_time is made from, and far below where its 64-bit count of picoseconds wraps.
inline constexpr int64_t kMaxSimCycles = int64_t{1} << 53;
// A delay of `cycles` from `from` (cycles since the start) as SystemC time; throws
// std::overflow_error naming what it was for when the delay is negative or its end passes
// kMaxSimCycles, instead of a time that wraps.
sc_core::sc_time delay_time(int64_t cycles, int64_t from, const char* what);

}  // namespace edgesim
