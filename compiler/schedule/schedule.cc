// Small helpers of the Schedule data structure (compiler/schedule/schedule.h).
#include "compiler/schedule/schedule.h"

namespace edgesim {

const char* level_name(Level l) {
  switch (l) {
    case Level::L3: return "L3";
    case Level::L2: return "L2";
    case Level::L1: return "L1";
    case Level::WMEM: return "WMEM";
  }
  return "?";
}

const Placement* Schedule::placement_of(int tensor) const {
  for (const Placement& p : placements)
    if (p.tensor == tensor) return &p;
  return nullptr;
}

}  // namespace edgesim
