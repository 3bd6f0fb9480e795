// Element-wise cluster cost models (see cost_cluster.h): the generic ⌈elements/NC⌉·c_op + t_bar
// form shared by add, pooling and every op the dispatcher has no structural model for.
#include "kernels/eltwise/cost_cluster.h"

#include <vector>

#include "kernels/cost/cluster_common.h"

namespace edgesim {

KernelCost eltwise_cluster_cost(const std::string& kernel, int64_t elements, int64_t c_op,
                                const ClusterSpec& cl) {
  cluster_cost::require_cost(cl);
  if (elements <= 0) return cluster_cost::empty_cost(cl, kernel);
  std::vector<int64_t> t(static_cast<size_t>(cl.n_cores), 0);
  for (int64_t core = 0; core < cl.n_cores; ++core)
    t[static_cast<size_t>(core)] = cluster_cost::share(elements, cl.n_cores, core) * c_op;
  return cluster_cost::make_cost(cl, kernel, t);
}

KernelCost add_cluster_cost(const AddParams& p, const Shape& y, const ClusterSpec& cl) {
  (void)p;   // the requant constants do not change the instruction count
  cluster_cost::require_cost(cl);
  return eltwise_cluster_cost("add", cluster_cost::elements(y), cl.cost.c_add, cl);
}

}  // namespace edgesim
