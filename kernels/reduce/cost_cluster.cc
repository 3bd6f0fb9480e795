// IntegerMean cluster cost (see cost_cluster.h).
#include "kernels/reduce/cost_cluster.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

KernelCost mean_cluster_cost(const MeanParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  using namespace cluster_cost;
  require_cost(cl);
  const int64_t outs = elements(y), ins = elements(x);
  if (outs <= 0 || ins <= 0) return empty_cost(cl, "imean");
  const int64_t n = ins / outs;
  const bool pow2 = n > 0 && (n & (n - 1)) == 0;
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  t[0] = Work{3, 1} * ins + Work{(pow2 ? 0 : div_cycles(n)) + 4, 1} * outs;
  (void)p;
  return work_cost(cl, "imean", t, lat);
}

}  // namespace edgesim
