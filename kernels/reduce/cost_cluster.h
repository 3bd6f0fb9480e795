// Cluster cost model of IntegerMean (docs/timing.md "Transformer kernels"): Deeploy's PULP
// ReduceMean template runs on one core (BEGIN_SINGLE_CORE, [60] PULPOpen/Templates/
// ReduceMeanTemplate.py): for every output, a loop over the reduced elements (lb with the
// computed index, add: 3 cycles, 1 access) and the rounding division or shift with the store
// (div(n) + 4 cycles when n is not a power of two, else 4; 1 access).
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/reduce/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost mean_cluster_cost(const MeanParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl,
                             int64_t mem_latency = 0);

}  // namespace edgesim
