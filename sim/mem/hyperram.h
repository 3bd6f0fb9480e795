// HyperRam: off-chip L3 behind the uDMA HyperBus interface (impl `hyperram_udma`; also `ddr`).
// Timing: the bus serves one access at a time in arrival order. An access is one 1-D uDMA
// sub-transfer: it waits for the bus, then occupies it for the line time of docs/timing.md "L3
// (uDMA + HyperRAM, or DDR)" (hyperram, gvsoc: (1 + t_lat·2^add + cmd_bytes + n·max(1, clkdiv))
// peripheral cycles scaled to cluster cycles; realistic: bus latency + n / bus bytes per cycle;
// ddr: latency + n / bw), i.e. l3_copy_cycles(1 line) of kernels/dma/cost.h without the per-request
// software cost, which the uDMA (sim/dma/udma.h) charges once per command.
// Parameters: l3.* and fidelity.l3_ddr. Not modelled: refresh, page/row effects, the
// peripheral clock domain crossing (everything is in cluster cycles).
#pragma once
#include "kernels/dma/cost.h"
#include "sim/mem/memory.h"

namespace edgesim {

class HyperRam : public Memory {
 public:
  HyperRam(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size, const PlatformSpec& p);
  int64_t access_cycles(int64_t start, int64_t addr, int64_t bytes, bool write) override;

 private:
  L3Timing t_;
  int64_t free_ = 0;   // first cycle the bus is free
};

}  // namespace edgesim
