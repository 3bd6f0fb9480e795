// Deeploy element-wise cluster costs (see cost_deeploy.h).
#include "kernels/eltwise/cost_deeploy.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

using namespace cluster_cost;

KernelCost deeploy_mul_cost(const MulParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  (void)p;
  const int64_t n = elements(y);
  if (n <= 0) return empty_cost(cl, "mul");
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c) t[static_cast<size_t>(c)] = Work{8, 0} + Work{4, 3} * share(n, cl.n_cores, c);
  return work_cost(cl, "mul", t, lat);
}

KernelCost deeploy_requant_cost(const RequantParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  const int64_t n = elements(y);
  if (n <= 0) return empty_cost(cl, "requant");
  const int64_t channels = p.rq.channels();
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c)
    t[static_cast<size_t>(c)] = channels <= 1 ? Work{10, 0} + Work{9, 2} * share(n, cl.n_cores, c)
                                              : Work{10, 0} + Work{11 + div_cycles(channels), 4} * n;
  return work_cost(cl, channels <= 1 ? "uniform_requant" : "requant", t, lat);
}

}  // namespace edgesim
