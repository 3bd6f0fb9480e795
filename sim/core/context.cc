// SimContext (context.h).
#include "sim/core/context.h"

#include "sim/core/sanitizer_hooks.h"

#include <stdexcept>

#include <fmt/format.h>
#include <systemc>

namespace edgesim {

SimContext::SimContext() : prev_(sc_core::sc_curr_simcontext) {
  ctx_ = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = ctx_;
  sc_core::sc_default_global_context = ctx_;
}

SimContext::~SimContext() {
  delete ctx_;
  clear_coroutine_stacks();   // unmapped with it (sanitizer_hooks.h)
  restore_asan_stack_bounds();
  sc_core::sc_curr_simcontext = prev_;
  sc_core::sc_default_global_context = prev_;
}

int64_t SimContext::run() {
  // SystemC leaves ASan a main stack of 0 bytes (sanitizer_hooks.h): its real bounds are given back
  // when the simulation returns or throws.
  try {
    sc_core::sc_start();
  } catch (...) {
    restore_asan_stack_bounds();
    throw;
  }
  restore_asan_stack_bounds();
  return now_cycles();
}

int64_t to_cycles(const sc_core::sc_time& t) {
  return static_cast<int64_t>(t.value() / sc_core::sc_time(1, sc_core::SC_NS).value());
}

int64_t now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }

sc_core::sc_time delay_time(int64_t cycles, int64_t from, const char* what) {
  if (cycles < 0 || cycles > kMaxSimCycles - from)
    throw std::overflow_error(fmt::format("simulated time overflows: {} of {} cycles at cycle {} would pass 2^53 "
                                          "cycles (is a cost or latency key far too large?)",
                                          what, cycles, from));
  return sc_core::sc_time(static_cast<double>(cycles), sc_core::SC_NS);
}

}  // namespace edgesim
