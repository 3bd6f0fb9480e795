// Scratch: a memory level reached by the DMA only, without banks or a bandwidth model — the
// level WMEM: DIANA's digital weight memory (l1_wdig), which the DMA fills with the SOMA's weight
// tiles, or Siracusa's weight memory (read in place by the NPU, never through this socket).
// Timing: an access completes `latency` cycles after it starts (l1_wdig.latency, else
// wmem.latency); the DMA's own cost formula already charges the transfer (cluster_dma.h), so the
// DMA does not add this delay, like the other levels'.
#pragma once
#include "platforms/loader/spec.h"
#include "sim/mem/memory.h"

namespace edgesim {

class Scratch : public Memory {
 public:
  Scratch(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size, const PlatformSpec& p);
  int64_t access_cycles(int64_t start, int64_t addr, int64_t bytes, bool write) override;

 private:
  int64_t latency_;
};

}  // namespace edgesim
