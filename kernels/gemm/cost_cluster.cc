// Gemm / MatMul cluster cost model: pulp_nn_linear for single-row products, the MM42 pixel-pair
// structure of the pointwise kernel for M > 1 (see cost_cluster.h for the loop nests and why).
// Calibration: the linear loop is load-bound at 4 MACs per c_il11 = 3 cycles per core, i.e. at
// most 4/3 MAC/cycle/core (10.7 on 8 cores) before per-neuron overheads (TIMING_MODELS §2.7).
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
    const int64_t neuron = c.c_il11 * (k / 4 + k % 4) + store + c.c_kl + c.c_neu;
    for (int64_t core = 0; core < cl.n_cores; ++core)
      t[static_cast<size_t>(core)] = share(n, cl.n_cores, core) * neuron;
  } else {
    for (int64_t core = 0; core < cl.n_cores; ++core)
      t[static_cast<size_t>(core)] = matmul_pixels(c, share(m, cl.n_cores, core), k, n);
  }
  return make_cost(cl, name, t, batch);
}

}  // namespace edgesim
