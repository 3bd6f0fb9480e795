// Cost model of the RISC-V host (cluster.impl riscv_host, DIANA) running the plain C loops that
// TVM's C code generator emits for the layers no accelerator takes (HTVM compiles them with the
// target "c" [19]). Pure functions `cycles = f(params, shapes, cluster.host_cost)`.
//
// Loop nests modelled (TVM's generic NCHW compute definitions, default schedule: no tiling, no
// unrolling, no vectorisation; whole tensors in L2; batch N as the outermost loop):
//   conv     [pad]  for c < Cin, i < Hp, j < Wp:  pad_temp[c][i][j] = inside ? x : 0   pad / element
//                   for f < Cout, y < Ho, x < Wo:                                      out / output
//                     for rc < Cin/g, ry < kh, rx < kw: acc += pad_temp · w           mac / MAC
//   gemm     for b < batch, m < M, n < N:  for k < K: acc += a · b                     mac, out
//   pool     [pad]  for c < C, y < Ho, x < Wo:  for ry < kh, rx < kw: max / sum        mac, out
//   others   one flattened loop over the output elements (TVM fuses injective axes)    elem / element
// T = call + loop · Σ_levels iterations(level) + the bodies above. A loop level of extent 1 is
// dropped (TVM's simplifier removes it): a depthwise conv has no rc loop, a 1×1 conv no ry/rx.
// The padded copy is materialised only when a pad is non-zero (Hp = pt + H + pb).
// Assumptions: one instruction per cycle with the stall allowances folded into the constants
// (docs/diana.md "Host"); the core reads L2 without extra latency; no instruction-cache misses;
// uncalibrated — no public cycle measurement of DIANA's host exists.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/conv/params.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/gemm/params.h"
#include "kernels/pool/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// Σ over the levels of a loop nest (outermost first) of the iterations of that level, extent-1
// levels dropped: {4, 1, 3} -> 4 + 12 = 16.
int64_t host_loop_iterations(const std::vector<int64_t>& extents);

// x [N, Cin, H, W], y [N, Cout, Ho, Wo] (tile views; 1-D convs have H = 1).
KernelCost host_conv_cost(const ConvParams& p, const Shape& x, const Shape& y, const HostCostSpec& h);
// a [..., M, K] (or [..., K, M] with trans_a), y [..., M, N].
KernelCost host_gemm_cost(const GemmParams& p, const Shape& a, const Shape& y, const HostCostSpec& h);
// x [N, C, H, W], y [N, C, Ho, Wo].
KernelCost host_pool_cost(const PoolParams& p, const Shape& x, const Shape& y, const HostCostSpec& h);
// `elements` outputs of an element-wise op (add, requant, clip, copies).
KernelCost host_eltwise_cost(const std::string& kernel, int64_t elements, const HostCostSpec& h);

}  // namespace edgesim
