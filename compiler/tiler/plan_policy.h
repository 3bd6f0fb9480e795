// A plan's tilings as a tiling policy: every layer gets the tiling a plan decided before (the
// autotuner's network plan, compiler/tune/tuned_plan.h), through tile_graph's driver, so the
// layers it skips, the NPU's fallback and the accelerators' own tiles are what any policy gets.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "compiler/tiler/policy.h"

namespace edgesim {

// `name` is the policy the plan's layers say they ran under when tile_graph makes one itself
// (an accelerator layer whose cluster tile did not fit). A layer the plan does not tile is a
// TilingError naming it.
std::unique_ptr<TilingPolicy> make_plan_policy(std::string name, std::vector<LayerTiling> tilings);

}  // namespace edgesim
