// SimContext: one fresh SystemC simulation context per run (ARCHITECTURE.md, "many simulations
// per process"). SystemC elaborates once per sc_simcontext and cannot restart after a run, so
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

}  // namespace edgesim
