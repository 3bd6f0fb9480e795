// The cluster kernel library a flow links, as a patch of the platform's cluster costs
// (cluster.cost): the platform file declares the data (budgets.dory.lto, budgets.dory.bn_bits,
// budgets.deeploy.cost), the flows decide which patch applies (Flow::kernel_platform).
#pragma once
#include "platforms/loader/spec.h"

namespace edgesim {

// DORY's flows: built without -flto (budgets.dory.lto false), PULP-NN's requantisation helpers
// live in pulp_nn_utils.c, so every requantised output is a call: cluster.cost.c_rq_call is added
// to c_rq, and c_loop_call to c_grp, c_dwpx and c_px1 (the loops around the call are branch loops,
// not hardware loops). Generated with 64-bit batch-norm coefficients (budgets.dory.bn_bits 64):
// c_rq64 is added to c_rq and c_kl64 to c_kl and c_kl_px2 (a 32 x 64-bit product, a 64-bit add
// and shift, two more loads per kappa/lambda read). Otherwise `spec` unchanged.
PlatformSpec dory_kernel_library(const PlatformSpec& spec);

// Deeploy's flow: the keys of budgets.deeploy.cost (the library Deeploy links on this chip, e.g.
// GAP9's prebuilt pulp-nn-mixed) replace those of cluster.cost. Otherwise `spec` unchanged.
PlatformSpec deeploy_kernel_library(const PlatformSpec& spec);

}  // namespace edgesim
