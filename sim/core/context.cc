// SimContext (context.h).
#include "sim/core/context.h"

#include "sim/core/sanitizer_hooks.h"

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

}  // namespace edgesim
