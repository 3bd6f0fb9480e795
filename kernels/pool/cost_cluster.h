// Cluster (8-core PULP) cost model of pooling tiles (docs/timing.md "Cluster kernel cost models").
// PULP-NN's pooling kernels have no structural model; they use the generic element-wise form
// (docs/timing.md "Element-wise and pooling") over the output elements, ⌈elems/NC⌉·c_op + t_bar,
// with
//   Max ("maxpool"): c_op = c_pool·kh·kw — 2 loads, a SIMD byte max and a store per 4 channels
//                    per window tap ≈ c_pool (1) cycle per output byte per tap (pulp_nn_utils.c);
//                    + c_rq when a requant is fused.
//   Sum ("avgpool"): c_op = 2·c_pool·kh·kw + c_rq — the sum is scalar (byte load + 32-bit add
//                    per tap, no SIMD), then one requant / division and store per output.
// Every tap of the window is charged, also padded ones at tile borders (the kernels test the
// bounds, they do not skip the loop iterations). Elements are assumed one byte (uint8).
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/pool/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// x, y: the tile's views ([N, C, H, W]); only y's element count and the window enter the model.
KernelCost pool_cluster_cost(const PoolParams& p, const Shape& x, const Shape& y, const ClusterSpec& cl);

}  // namespace edgesim
