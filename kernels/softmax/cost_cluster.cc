// Integer softmax cluster cost (see cost_cluster.h for the loops and assumptions).
#include "kernels/softmax/cost_cluster.h"

#include "kernels/cost/cluster_common.h"

namespace edgesim {

KernelCost softmax_cluster_cost(const SoftmaxParams& p, const Shape& y, const ClusterSpec& cl, int64_t lat) {
  using namespace cluster_cost;
  require_cost(cl);
  const bool ita = p.kind == SoftmaxParams::Kind::ITAMax;
  const char* name = ita ? "itamax" : "isoftmax";
  const int64_t len = y.empty() ? 0 : y.back();
  const int64_t rows = len > 0 ? elements(y) / len : 0;
  if (rows <= 0) return empty_cost(cl, name);
  const int64_t half = (len + 1) / 2;
  Work row{8, 0};
  if (ita) {
    row += Work{3, 1} * len;
    row += Work{7, 1} * len;
    row += Work{6, 2} * len;
    row += Work{div_cycles(256 * half) + 4, 0};
  } else {
    const int64_t sum = (p.coeff_a * p.coeff_b * p.coeff_b + p.coeff_c) * half;
    row += Work{3, 1} * len;
    row += Work{13 + div_cycles(p.log2), 2} * len;
    row += Work{4 + div_cycles(sum), 2} * len;
  }
  std::vector<Work> t(static_cast<size_t>(cl.n_cores));
  for (int64_t c = 0; c < cl.n_cores; ++c)
    t[static_cast<size_t>(c)] = row * (ita ? share(rows, cl.n_cores, c) : share_last(rows, cl.n_cores, c));
  return work_cost(cl, name, t, lat);
}

}  // namespace edgesim
