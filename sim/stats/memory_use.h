// Memory occupancy of a schedule per level and step, for reports: the bytes of the buffers
// live at each step (allocation lifetimes, docs/schedule.md §6) against the level's capacity
// (the policy's usable L1 budget; the L2 and L3 sizes). Levels a schedule never uses are left out.
#pragma once
#include <vector>

#include "compiler/schedule/schedule.h"
#include "platforms/loader/spec.h"
#include "sim/stats/run_result.h"

namespace edgesim {

std::vector<MemoryUse> memory_use(const Schedule& s, const PlatformSpec& p);

}  // namespace edgesim
