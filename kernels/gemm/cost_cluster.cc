// Gemm / MatMul cluster cost model: pulp_nn_linear for single-row products, the MM42 pixel-pair
// structure of the pointwise kernel for M > 1 (see cost_cluster.h for the loop nests and why).
// Calibration: the linear loop computes two neurons per step, 8 MACs per c_il12 = 5 cycles per
// core (3 loads + 2 sdotp), at most 8/5 MAC/cycle/core (12.8 on 8 cores) before per-neuron
// overheads.
#include "kernels/gemm/cost_cluster.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/conv/matmul42.h"
#include "kernels/cost/cluster_common.h"

namespace edgesim {
namespace {

using namespace cluster_cost;

// Reduction length of an operand given its transposition (-1 if the operand is absent).
int64_t reduction_of(const Shape& s, bool k_is_last) {
  if (s.empty()) return -1;
  if (s.size() == 1) return s[0];
  return k_is_last ? s[s.size() - 1] : s[s.size() - 2];
}

}  // namespace

KernelCost gemm_cluster_cost(const GemmParams& p, const Shape& a, const Shape& b, const Shape& y,
                             const ClusterSpec& cl) {
  require_cost(cl);
  const int64_t ka = reduction_of(a, !p.trans_a);   // a [.., M, K] or [.., K, M]
  const int64_t kb = reduction_of(b, p.trans_b);    // b [.., K, N] or [.., N, K]
  if (ka >= 0 && kb >= 0 && ka != kb)
    throw std::invalid_argument("cluster cost model: gemm reduction lengths differ: a " + shape_str(a) +
                                " b " + shape_str(b) + (p.trans_a ? " trans_a" : "") +
                                (p.trans_b ? " trans_b" : ""));
  const int64_t k = ka >= 0 ? ka : kb;
  const int64_t n = y.empty() ? 1 : y.back();
  const int64_t m = y.size() >= 2 ? y[y.size() - 2] : 1;
  const int64_t batch = y.size() > 2 ? elements(Shape(y.begin(), y.end() - 2)) : 1;
  const char* name = m == 1 ? "linear" : "matmul";
  if (k <= 0 || n <= 0 || m <= 0 || batch <= 0) return empty_cost(cl, name);

  const ClusterCostSpec& c = cl.cost;
  std::vector<int64_t> t(static_cast<size_t>(cl.n_cores), 0);
  if (m == 1) {
    const int64_t store = p.rq.enabled() ? c.c_rq : 1;
    const int64_t out = store + c.c_kl + c.c_neu;
    const int64_t pair = c.c_il12 * (k / 4 + k % 4) + 2 * out;     // two neurons, one input read
    const int64_t single = c.c_il11 * (k / 4 + k % 4) + out;       // an odd last neuron
    for (int64_t core = 0; core < cl.n_cores; ++core) {
      const int64_t s = share(n, cl.n_cores, core);
      t[static_cast<size_t>(core)] = (s / 2) * pair + (s % 2) * single;
    }
  } else {
    for (int64_t core = 0; core < cl.n_cores; ++core)
      t[static_cast<size_t>(core)] = matmul_pixels(c, share(m, cl.n_cores, core), k, n);
  }
  return make_cost(cl, name, t, batch);
}

}  // namespace edgesim
