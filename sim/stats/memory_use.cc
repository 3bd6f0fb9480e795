// memory_use (memory_use.h).
#include "sim/stats/memory_use.h"

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"

namespace edgesim {

std::vector<MemoryUse> memory_use(const Schedule& s, const PlatformSpec& p) {
  std::vector<MemoryUse> out;
  const size_t n = s.steps.size();
  int64_t l1_cap = p.l1.size;
  try {
    l1_cap = policy_budgets(p, s.policy).l1;
  } catch (const std::exception&) {
    // unknown policy name in a hand-written schedule: report against the L1 size
  }
  for (Level l : {Level::L1, Level::L2, Level::L3, Level::WMEM}) {
    MemoryUse u;
    u.level = level_name(l);
    u.size = l == Level::L1 ? p.l1.size : l == Level::L2 ? p.l2.size : l == Level::L3 ? p.l3.size : p.wmem.size;
    u.capacity = l == Level::L1 ? l1_cap : u.size;
    u.is_budget = l == Level::L1 && l1_cap != p.l1.size;
    u.high_water = s.high_water[static_cast<size_t>(l)];
    u.per_step.assign(n, 0);
    bool used = false;
    for (const Buffer& b : s.buffers) {
      if (b.level != l || b.bytes <= 0) continue;
      used = true;
      for (int k = std::max(0, b.first_step); k <= b.last_step && k < static_cast<int>(n); ++k)
        u.per_step[static_cast<size_t>(k)] += b.bytes;
    }
    if (used) out.push_back(std::move(u));
  }
  return out;
}

}  // namespace edgesim
