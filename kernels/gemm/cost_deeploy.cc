// Deeploy RequantizedGemm cluster cost (see cost_deeploy.h for the variants and loops).
#include "kernels/gemm/cost_deeploy.h"

#include <stdexcept>

#include "kernels/cost/cluster_common.h"

namespace edgesim {

namespace {

using namespace cluster_cost;

Work gemv(const ClusterCostSpec& c, int64_t k, int64_t o) {
  const int64_t k4 = k / 4, kr = k % 4;
  const Work pair = Work{c.c_il12, 3} * k4 + Work{5, 3} * kr + Work{2 * (c.c_rq + c.c_kl) + c.c_neu, 6};
  const Work odd = Work{c.c_il11, 2} * k4 + Work{3, 2} * kr + Work{c.c_rq + c.c_kl + c.c_neu, 3};
  return pair * (o / 2) + odd * (o % 2) + Work{c.c_call, 0};
}

}  // namespace

KernelCost deeploy_gemm_cost(const GemmParams& p, const Shape& a, const Shape& b, const Shape& y,
                             const ClusterSpec& cl, int64_t lat) {
  require_cost(cl);
  if (a.empty() || y.empty()) throw std::invalid_argument("cluster cost model: gemm needs its operand shapes");
  const int64_t k = a.size() == 1 ? a[0] : (p.trans_a ? a[a.size() - 2] : a.back());
  (void)b;
  const int64_t o = y.back();
  const int64_t m = y.size() >= 2 ? y[y.size() - 2] : 1;
  const int64_t batch = y.size() > 2 ? elements(Shape(y.begin(), y.end() - 2)) : 1;
  if (k <= 0 || o <= 0 || m <= 0 || batch <= 0) return empty_cost(cl, "deeploy_gemm");
  const ClusterCostSpec& c = cl.cost;
  const int64_t nc = cl.n_cores;
  std::vector<Work> t(static_cast<size_t>(nc));
  if (m == 1 && batch >= 8) {
    for (int64_t core = 0; core < nc; ++core) t[static_cast<size_t>(core)] = gemv(c, k, o) * share(batch, nc, core);
    return work_cost(cl, "matrixvec", t, lat);
  }
  if (batch < 8 && m >= 8 && m % 8 < o % 8) {
    for (int64_t core = 0; core < nc; ++core)
      t[static_cast<size_t>(core)] = gemv(c, k, o) * (batch * share(m, nc, core));
    return work_cost(cl, "tallgemm", t, lat);
  }
  const int64_t store = p.rq.enabled() ? c.c_rq : 1;
  const Work neuron = Work{c.c_il11, 2} * (k / 4 + k % 4) + Work{store + c.c_kl + c.c_neu, 3};
  for (int64_t core = 0; core < nc; ++core)
    t[static_cast<size_t>(core)] = neuron * share(o, nc, core) + Work{c.c_call, 0};
  return work_cost(cl, "gemm_rows", t, lat, batch * m);
}

}  // namespace edgesim
