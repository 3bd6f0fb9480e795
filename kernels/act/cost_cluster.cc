// Integer activation cluster cost (see cost_cluster.h for the loops).
#include "kernels/act/cost_cluster.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

KernelCost act_cluster_cost(const ActParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  using namespace cluster_cost;
  require_cost(cl);
  const bool gelu = p.kind == ActParams::Kind::GELU;
  const bool rq = p.rq.enabled();
  const char* name = gelu ? (rq ? "rq_igelu" : "igelu") : (rq ? "rq_ihardswish" : "ihardswish");
  const int64_t n = elements(y);
  if (n <= 0) return empty_cost(cl, name);
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  if (!gelu && rq) {
    for (int64_t c = 0; c < cl.n_cores; ++c) t[static_cast<size_t>(c)] = Work{8, 0} + Work{10, 2} * share(n, cl.n_cores, c);
  } else {
    const int64_t per = gelu ? (rq ? 20 : 14) : 6;
    t[0] = Work{8, 0};
    t[0] += Work{per, 2} * n;   // one core (ClusterTransformer)
  }
  return work_cost(cl, name, t, lat);
}

}  // namespace edgesim
