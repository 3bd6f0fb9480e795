// Tcdm (tcdm.h).
#include "sim/mem/tcdm.h"

#include <algorithm>

namespace edgesim {

Tcdm::Tcdm(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size,
           const PlatformSpec& p)
    : Memory(name, storage, size),
      banks_(std::max<int64_t>(1, p.l1.banks)),
      word_(std::max<int64_t>(1, p.l1.bank_width_bytes)),
      interleave_(std::max<int64_t>(1, p.l1.interleave_bytes)),
      latency_(std::max<int64_t>(0, p.l1.latency)),
      conflicts_(p.fidelity.l1_conflicts),
      bank_free_(static_cast<size_t>(banks_), 0) {}

int64_t Tcdm::access_cycles(int64_t start, int64_t addr, int64_t bytes, bool) {
  if (bytes <= 0) return latency_;
  const int64_t first = addr / word_, last = (addr + bytes - 1) / word_;
  const int64_t words = last - first + 1;
  if (!conflicts_) return words - 1 + latency_;
  int64_t t = start;   // cycle the next word may issue
  int64_t served = start;
  for (int64_t k = 0; k < words; ++k) {
    const auto b = static_cast<size_t>(((first + k) * word_ / interleave_) % banks_);
    served = std::max(t, bank_free_[b]);
    bank_free_[b] = served + 1;
    t = served + 1;
  }
  return served - start + latency_;
}

}  // namespace edgesim
