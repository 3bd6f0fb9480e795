// Usable deployment budgets (formulas in budgets.h).
#include "platforms/loader/budgets.h"

#include <fmt/format.h>

#include "platforms/loader/loader.h"

namespace edgesim {

DoryBudgets dory_budgets(const PlatformSpec& s) {
  const auto& d = s.budgets.dory;
  if (!d.present)
    throw PlatformError(fmt::format("platform '{}' has no budgets.dory section", s.name));
  DoryBudgets b;
  b.l1 = d.l1 != kAutoBudget ? d.l1
                              : s.l1.size - d.l1_reserved - d.l1_stack_core0 - (d.n_cores - 1) * d.l1_stack_other;
  b.l2 = d.l2 != kAutoBudget ? d.l2 : s.l2.size - d.l2_reserved - d.l2_code_reserved;
  b.l3 = s.l3.size - d.l3_reserved;
  return b;
}

DeeployBudgets deeploy_budgets(const PlatformSpec& s) {
  const auto& d = s.budgets.deeploy;
  if (!d.present)
    throw PlatformError(fmt::format("platform '{}' has no budgets.deeploy section", s.name));
  auto pick = [](int64_t v, int64_t size) { return v == kAutoBudget ? size : v; };
  DeeployBudgets b;
  b.l1 = pick(d.l1, s.l1.size);
  b.l2 = pick(d.l2, s.l2.size);
  b.l3 = pick(d.l3, s.l3.size);
  b.wmem = pick(d.wmem, s.wmem.present ? s.wmem.size : 0);
  return b;
}

PlatformSpec flow_platform(const PlatformSpec& spec, const std::string& policy) {
  PlatformSpec s = spec;
  // DORY's flows (every policy but Deeploy's) built without -flto: PULP-NN's requantisation
  // helpers live in pulp_nn_utils.c, so every requantised output is a call.
  const bool deeploy = policy.rfind("deeploy", 0) == 0 || policy == "tuned-deeploy";
  // The loops that hold the call (a matmul block's channel loop, the single leftover pixel's
  // channel loop, the depthwise output loop) are then branch loops, not hardware loops.
  if (!deeploy && s.budgets.dory.present && !s.budgets.dory.lto && s.cluster.cost.present) {
    s.cluster.cost.c_rq += s.cluster.cost.c_rq_call;
    s.cluster.cost.c_grp += s.cluster.cost.c_loop_call;
    s.cluster.cost.c_dwpx += s.cluster.cost.c_loop_call;
    s.cluster.cost.c_px1 += s.cluster.cost.c_loop_call;
  }
  // ... and generated with 64-bit batch-norm coefficients: PULP-NN's 64-bit requantisation
  // helper (a 32 x 64-bit product, a 64-bit add and shift) and two more loads per κ/λ read.
  if (!deeploy && s.budgets.dory.present && s.budgets.dory.bn_bits == 64 && s.cluster.cost.present) {
    s.cluster.cost.c_rq += s.cluster.cost.c_rq64;
    s.cluster.cost.c_kl += s.cluster.cost.c_kl64;
    s.cluster.cost.c_kl_px2 += s.cluster.cost.c_kl64;  // the second pixel's re-read is 64-bit too
  }
  const KernelLibraryCostSpec& lib = spec.budgets.deeploy.cost;
  if (policy != "deeploy" || !lib.present || !s.cluster.cost.present) return s;
  ClusterCostSpec& c = s.cluster.cost;
  c.c_il = lib.c_il;
  c.c_rq = lib.c_rq;
  c.c_kl = lib.c_kl;
  c.c_kl_px2 = 0;  // the library's c_kl already counts κ/λ re-read for every output
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
