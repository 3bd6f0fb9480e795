// SimContext (context.h).
#include "sim/core/context.h"

#include <systemc>

namespace edgesim {

SimContext::SimContext() : prev_(sc_core::sc_curr_simcontext) {
  ctx_ = new sc_core::sc_simcontext();
  sc_core::sc_curr_simcontext = ctx_;
  sc_core::sc_default_global_context = ctx_;
}

SimContext::~SimContext() {
  delete ctx_;
  sc_core::sc_curr_simcontext = prev_;
  sc_core::sc_default_global_context = prev_;
}

int64_t SimContext::run() {
  sc_core::sc_start();
  return now_cycles();
}

int64_t to_cycles(const sc_core::sc_time& t) {
  return static_cast<int64_t>(t.value() / sc_core::sc_time(1, sc_core::SC_NS).value());
}

int64_t now_cycles() { return to_cycles(sc_core::sc_time_stamp()); }

}  // namespace edgesim
