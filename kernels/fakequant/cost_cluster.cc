// Float fake-quantisation chain cluster cost (see cost_cluster.h).
#include "kernels/fakequant/cost_cluster.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

KernelCost float_chain_cluster_cost(const FloatChainParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  using namespace cluster_cost;
  require_cost(cl);
  const int64_t n = elements(y);
  if (n <= 0) return empty_cost(cl, "fquant");
  int64_t per = 2;
  for (const FloatStep& s : p.steps)
    per += s.op == FloatStep::Op::Div ? 12 : (s.op == FloatStep::Op::Round || s.op == FloatStep::Op::Clip) ? 2 : 1;
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c) t[static_cast<size_t>(c)] = Work{per, 2} * share(n, cl.n_cores, c);
  return work_cost(cl, "fquant", t, lat);
}

}  // namespace edgesim
