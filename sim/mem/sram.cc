// Sram (sram.h).
#include "sim/mem/sram.h"

#include <algorithm>
#include <cmath>

namespace edgesim {

Sram::Sram(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size,
           const PlatformSpec& p)
    : Memory(name, storage, size),
      latency_(std::max<int64_t>(0, p.l2.latency_from_cluster)),
      bw_(p.fidelity.l2_bw_cap ? p.l2.bw_bytes_per_cycle : 0) {}

int64_t Sram::access_cycles(int64_t start, int64_t, int64_t bytes, bool) {
  if (bw_ <= 0) return latency_;
  const int64_t begin = std::max(start, free_);
  const auto occupy = static_cast<int64_t>(std::ceil(static_cast<double>(std::max<int64_t>(bytes, 0)) / bw_));
  free_ = begin + occupy;
  return free_ - start + latency_;
}

}  // namespace edgesim
