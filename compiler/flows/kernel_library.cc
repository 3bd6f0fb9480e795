// The kernel libraries the flows link (kernel_library.h).
#include "compiler/flows/kernel_library.h"

namespace edgesim {

PlatformSpec dory_kernel_library(const PlatformSpec& spec) {
  PlatformSpec s = spec;
  if (s.budgets.dory.present && !s.budgets.dory.lto && s.cluster.cost.present) {
    s.cluster.cost.c_rq += s.cluster.cost.c_rq_call;
    s.cluster.cost.c_grp += s.cluster.cost.c_loop_call;
    s.cluster.cost.c_dwpx += s.cluster.cost.c_loop_call;
    s.cluster.cost.c_px1 += s.cluster.cost.c_loop_call;
  }
  if (s.budgets.dory.present && s.budgets.dory.bn_bits == 64 && s.cluster.cost.present) {
    s.cluster.cost.c_rq += s.cluster.cost.c_rq64;
    s.cluster.cost.c_kl += s.cluster.cost.c_kl64;
    s.cluster.cost.c_kl_px2 += s.cluster.cost.c_kl64;  // the second pixel's re-read is 64-bit too
  }
  return s;
}

PlatformSpec deeploy_kernel_library(const PlatformSpec& spec) {
  PlatformSpec s = spec;
  const KernelLibraryCostSpec& lib = spec.budgets.deeploy.cost;
  if (!lib.present || !s.cluster.cost.present) return s;
  ClusterCostSpec& c = s.cluster.cost;
  c.c_il = lib.c_il;
  c.c_rq = lib.c_rq;
  c.c_kl = lib.c_kl;
  c.c_kl_px2 = 0;  // the library's c_kl already counts kappa/lambda re-read for every output
  c.c_cp = lib.c_cp;
  c.c_dwrow = lib.c_dwrow;
  c.c_dwpx = lib.c_dwpx;
  c.c_dwtap4 = lib.c_dwtap4;
  c.c_dwtap1 = lib.c_dwtap1;
  c.c_dwcol = lib.c_dwcol;
  c.c_layer = lib.c_layer;
  c.c_layer_tr = lib.c_layer_tr;
  return s;
}

}  // namespace edgesim
