// Udma: the SoC's I/O DMA moving data between L3 (HyperRAM) and L2 (engine "l3_dma").
// Timing: one channel; copies are served in FIFO order. A copy costs the driver's software
// cost per request (l3.sw_cycles, docs/timing.md "L3 (uDMA + HyperRAM, or DDR)") plus, for each
// contiguous line, the access time the L3 memory annotates on its TLM transaction (each line is one
// 1-D uDMA sub-transfer paying the set-up; the HyperRAM serialises them on its bus). The L2 side is
// not timed (it is far faster than the HyperBus).
// The copy's transactions run at its start: READs or WRITEs with data, TLM_IGNORE_COMMANDs on the
// L3 side without data (timing only).
// Parameters: l3.* (through the memory), fidelity.l3_ddr. Not modelled: the uDMA's channel
// set-up beyond the per-request software cost, RX/TX channel concurrency (the HyperBus is one bus).
#pragma once
#include <tlm_utils/simple_initiator_socket.h>

#include "compiler/schedule/machine.h"
#include "kernels/dma/cost.h"
#include "sim/core/engine.h"

namespace edgesim {

class Udma : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Udma> l3, l2;
  FifoEngine channel;

  Udma(const sc_core::sc_module_name& name, JobListener& listener, const PlatformSpec& p);
  // At the copy's start: moves (data) or times (no data) the lines; sets j.duration.
  void start(Job& j, const Command& c, const DmaAddresses& a, bool data, const std::string& who);

 private:
  L3Timing t_;
};

}  // namespace edgesim
