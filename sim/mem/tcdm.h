// Tcdm: the cluster's word-interleaved, multi-banked L1 scratchpad (impl `tcdm`).
// Timing: an access of w words (its byte span rounded out to bank words) from one initiator
// port issues one word per cycle starting at `start`; word k goes to bank
// (addr / interleave + k) mod banks. Conflict-free mode (default, as GVSoC assumes): the access
// completes at start + w - 1 + latency. Bank-conflict mode (fidelity.l1_conflicts): each bank
// serves one word per cycle across all initiators, so a word waits until its bank is free;
// the access completes `latency` after its last word was served.
// Engines that do not issue TLM accesses word by word (kernels, DMA bursts) use expected_wait():
// an access meeting `others` accesses from other initiators in the same cycle, all to uniformly
// random banks, finds on average others / banks of them in its bank and, served in random
// order, waits half of those: others / (2 · banks) cycles. In conflict mode the executor
// stretches kernels and the DMA transfers that overlap them by it (docs/simulator.md).
// Parameters: l1.banks, l1.bank_width_bytes, l1.interleave_bytes, l1.latency, fidelity.l1_conflicts.
// Not modelled: the logarithmic interconnect's port count limit (l1.ports), priority rules of
// the real arbiter (conflicts are served first come, first served), address patterns that are
// not uniform (strided accesses hitting one bank).
#pragma once
#include "platforms/loader/spec.h"
#include "sim/mem/memory.h"

namespace edgesim {

class Tcdm : public Memory {
 public:
  Tcdm(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size, const PlatformSpec& p);
  int64_t access_cycles(int64_t start, int64_t addr, int64_t bytes, bool write) override;
  bool conflicts() const { return conflicts_; }
  double expected_wait(double others) const { return others / (2.0 * static_cast<double>(banks_)); }

 private:
  int64_t banks_, word_, interleave_, latency_;
  bool conflicts_;
  std::vector<int64_t> bank_free_;   // first cycle each bank is free (conflict mode)
};

}  // namespace edgesim
