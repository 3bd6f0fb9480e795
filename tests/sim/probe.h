// Probe: a test initiator for Memory components. Each Access is issued from an SC_THREAD at its
// `at` cycle with a zero incoming delay; the probe records `done` = issue cycle + the delay the
// target annotated, i.e. the earliest cycle the access completes. Assertions run after the
// simulation (never inside the thread).
#pragma once
#include <cstdint>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "sim/core/context.h"
#include "sim/core/sanitizer_hooks.h"

namespace edgesim::test {

struct Access {
  int64_t at = 0;
  int64_t addr = 0;
  int64_t bytes = 4;
  bool write = false;
  int64_t done = -1;
  bool error = false;
};

class Probe : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Probe> socket;
  std::vector<Access> accesses;   // issued in order; `at` must not decrease

  explicit Probe(const sc_core::sc_module_name& n) : sc_core::sc_module(n), socket("socket") {
    SC_HAS_PROCESS(Probe);
    SC_THREAD(run);
  }

 private:
  void run() {
    clear_stale_stack_poison();
    std::vector<unsigned char> buf;
    for (Access& a : accesses) {
      const sc_core::sc_time at(static_cast<double>(a.at), sc_core::SC_NS);
      if (at > sc_core::sc_time_stamp()) wait(at - sc_core::sc_time_stamp());
      buf.assign(static_cast<size_t>(a.bytes), 0xab);
      tlm::tlm_generic_payload p;
      p.set_command(a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      p.set_address(static_cast<uint64_t>(a.addr));
      p.set_data_ptr(buf.data());
      p.set_data_length(static_cast<unsigned>(buf.size()));
      p.set_streaming_width(static_cast<unsigned>(buf.size()));
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      socket->b_transport(p, delay);
      a.error = p.is_response_error();
      a.done = to_cycles(sc_core::sc_time_stamp() + delay);
    }
  }
};

}  // namespace edgesim::test
