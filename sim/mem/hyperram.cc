// HyperRam (hyperram.h).
#include "sim/mem/hyperram.h"

#include <algorithm>

namespace edgesim {

HyperRam::HyperRam(const sc_core::sc_module_name& name, std::vector<std::byte>& storage, int64_t size,
                   const PlatformSpec& p)
    : Memory(name, storage, size), t_(l3_timing(p)) {}

int64_t HyperRam::access_cycles(int64_t start, int64_t, int64_t bytes, bool) {
  const int64_t line = l3_copy_cycles(t_, 1, bytes) - (t_.hyperram ? t_.sw_cycles : 0);
  const int64_t begin = std::max(start, free_);
  free_ = begin + line;
  return free_ - start;
}

}  // namespace edgesim
