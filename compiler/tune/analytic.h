// Analytic cost of one layer step under a candidate tiling: the same cost functions the
// simulator charges (kernels/*/cost_cluster, kernels/dma/cost.h) combined by closed-form
// pipeline formulas instead of a SystemC replay (docs/simulator.md "Replaying a schedule";
// docs/tune.md "Analytic cost": single-buffered, the sum of every job; double-buffered, load(i+1)
// ‖ compute(i) ‖ store(i−1)). Cheap enough to rank every candidate (target ≥ 100,000 per
// second per core); exactness is not required, only the ranking (the tuner reports Kendall's
// tau between analytic and simulated cycles).
#pragma once
#include <cstdint>
#include <string>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct AnalyticContext {
  std::string conventions = "dory";   // "dory": one fork per layer, 3 extra barriers per tile;
                                      // "deeploy": a fork per tile, single-core DMA issue
  bool consts_in_l3 = false;          // the network keeps its constants in L3 (staged per layer)
};

// Cycles of the layer step of `node` (weights, inputs and outputs per `t`, including the L3
// slab copies when t.l3 is tiled). Throws TilingError when the tiling is not valid for the layer.
int64_t analytic_cycles(const Graph& g, int node, const LayerTiling& t, const PlatformSpec& spec,
                        const AnalyticContext& ctx = {});

}  // namespace edgesim
