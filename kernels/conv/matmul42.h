// The PULP-NN MatMul blocks every cluster conv / matmul cost model is built from
// (docs/timing.md "MatMul blocks", after pulp_nn_matmul.c of pulp-platform/pulp-nn @ 288d06b):
//
//   MM42(K, Cout): 2 pixels × all Cout output channels over a reduction of length K.
//     The 4×2 inner loop (4 channels × 2 pixels × 4 reduction elements = 32 MACs) costs c_il;
//     each leftover reduction element (K mod 4) costs c_t42; each group of 4 channels then
//     requantises 8 outputs (c_rq), loads 4 κ/λ pairs (c_kl) and pays its set-up c_grp; the
//     second pixel reads the 4 pairs again (c_kl_px2: the first pixel's uint8_t stores may
//     alias them). Leftover channels (Cout mod 4) run a 1×2 loop: c_il12 per 4 elements or per
//     scalar leftover element, 2 outputs, 1 κ/λ (+ c_kl_px2), 1 set-up. MM42 is one
//     pulp_nn_matmul call: c_call.
//   PX1(K, Cout): a single leftover pixel, the caller's inline 1×1 loop over all channels
//     (c_il11 per 4 elements or per leftover element), one output, one κ/λ and the channel
//     loop's own code c_px1 per channel; no call.
#pragma once
#include <cstdint>

#include "platforms/loader/spec.h"

namespace edgesim::cluster_cost {

// One group of 4 output channels of MM42.
inline int64_t mm42_group4(const ClusterCostSpec& c, int64_t k) {
  return c.c_il * (k / 4) + c.c_t42 * (k % 4) + 8 * c.c_rq + 4 * (c.c_kl + c.c_kl_px2) + c.c_grp;
}

// One leftover output channel (Cout mod 4) of MM42.
inline int64_t mm42_group1(const ClusterCostSpec& c, int64_t k) {
  return c.c_il12 * (k / 4 + k % 4) + 2 * c.c_rq + c.c_kl + c.c_kl_px2 + c.c_grp;
}

inline int64_t mm42(const ClusterCostSpec& c, int64_t k, int64_t cout) {
  return (cout / 4) * mm42_group4(c, k) + (cout % 4) * mm42_group1(c, k) + c.c_call;
}

inline int64_t px1(const ClusterCostSpec& c, int64_t k, int64_t cout) {
  return cout * (c.c_il11 * (k / 4 + k % 4) + c.c_rq + c.c_kl + c.c_px1);
}

// `pixels` pixels walked in pairs through MM42, an odd last one through PX1.
inline int64_t matmul_pixels(const ClusterCostSpec& c, int64_t pixels, int64_t k, int64_t cout) {
  if (pixels <= 0) return 0;
  return (pixels / 2) * mm42(c, k, cout) + (pixels % 2) * px1(c, k, cout);
}

}  // namespace edgesim::cluster_cost
