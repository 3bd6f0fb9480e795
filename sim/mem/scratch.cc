// Scratch (scratch.h).
#include "sim/mem/scratch.h"

namespace edgesim {

Scratch::Scratch(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size,
                 const PlatformSpec& p)
    : Memory(name, storage, size),
      latency_(p.l1_wdig.present ? p.l1_wdig.latency : p.wmem.present ? p.wmem.latency : 1) {}

int64_t Scratch::access_cycles(int64_t, int64_t, int64_t, bool) { return latency_; }

}  // namespace edgesim
