// Pooling cluster cost model (see cost_cluster.h). Uncalibrated (asm): c_pool is the suggested
// 1 cycle per byte per tap (docs/timing.md "Element-wise and pooling"), to be fitted against
// GVSoC runs.
#include "kernels/pool/cost_cluster.h"

#include <algorithm>

#include "kernels/cost/cluster_common.h"
#include "kernels/eltwise/cost_cluster.h"

namespace edgesim {

KernelCost pool_cluster_cost(const PoolParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl) {
  cluster_cost::require_cost(cl);
  (void)x;   // the window is in the params (global pools carry the full input size there)
  const ClusterCostSpec& c = cl.cost;
  const int64_t taps = std::max<int64_t>(p.kh, 1) * std::max<int64_t>(p.kw, 1);
  const bool max = p.kind == PoolParams::Kind::Max;
  const int64_t c_op = max ? c.c_pool * taps + (p.rq.enabled() ? c.c_rq : 0)
                           : 2 * c.c_pool * taps + c.c_rq;
  return eltwise_cluster_cost(max ? "maxpool" : "avgpool", cluster_cost::elements(y), c_op, cl);
}

}  // namespace edgesim
