// Sram: the SoC's L2 (impl `sram`), reached by the cluster DMA and the cores.
// Timing: an access completes `latency` cycles after it starts; with a bandwidth cap
// (fidelity.l2_bw_cap) the memory serves bw bytes per cycle in arrival order, so an access first
// waits for the port (busy until the previous access's data went through), then occupies it for
// ceil(bytes / bw) cycles, and completes latency cycles after its last byte.
// Without the cap (GVSoC's assumption) accesses never delay each other.
// Parameters: l2.latency_from_cluster, l2.bw_bytes_per_cycle, fidelity.l2_bw_cap.
// Not modelled: L2 banking and the SoC interconnect's arbitration between masters.
#pragma once
#include "platforms/loader/spec.h"
#include "sim/mem/memory.h"

namespace edgesim {

class Sram : public Memory {
 public:
  Sram(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size, const PlatformSpec& p);
  int64_t access_cycles(int64_t start, int64_t addr, int64_t bytes, bool write) override;

 private:
  int64_t latency_;
  double bw_;            // bytes per cycle, 0 = no cap
  int64_t free_ = 0;     // first cycle the port is free (cap mode)
};

}  // namespace edgesim
