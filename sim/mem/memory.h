// Memory: a TLM-2.0 target holding the bytes of one memory level (L1 TCDM, L2, L3).
// Contract: b_transport serves READ / WRITE / IGNORE commands on [address, address + length)
// within the level; an access outside it answers TLM_ADDRESS_ERROR_RESPONSE and touches
// nothing. The delay annotated is the access time of the implementation's timing model (in
// cluster cycles, 1 cycle = 1 ns), counted from the current time plus the incoming delay; an
// IGNORE command times an access without moving data (timing-only runs).
// Storage belongs to the caller (the run's ScheduleMachine level array), so the timed run and
// the functional model see the same bytes. The level's size is given apart: a timing-only run
// has no storage and may only send IGNORE commands.
// Implementations register in sim/soc/registry.cc by the YAML `impl:` of their level.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>

namespace edgesim {

class Memory : public sc_core::sc_module {
 public:
  // Several initiators (cluster DMA, uDMA, tests) bind to one memory.
  tlm_utils::multi_passthrough_target_socket<Memory> socket;

  Memory(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size);
  int64_t size() const { return size_; }
  std::byte* data() { return storage_.data(); }

  // Cycles from `start` until an access of `bytes` at `addr` completes; may record the
  // occupancy it causes (ports, banks) so later accesses see it.
  virtual int64_t access_cycles(int64_t start, int64_t addr, int64_t bytes, bool write) = 0;

 private:
  void b_transport(int initiator, tlm::tlm_generic_payload& p, sc_core::sc_time& delay);
  std::vector<std::byte>& storage_;
  int64_t size_;
};

}  // namespace edgesim
