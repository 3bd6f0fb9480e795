// Cluster cost model of the integer row normalisations (docs/timing.md "Transformer kernels").
//
// iRMSNorm: Deeploy's iRMSnorm_s8_s8_plp ([60] TargetLibraries/PULPOpen/src/iRMSnorm.c). Every core
// walks EVERY row (the row loop is not split); only the outputs of a row are split, ⌈L/NC⌉
// positions per core. Per row and core:
//   Σx²     L × (lb, p.mac), unrolled by 8                      2 cycles, 1 access
//   ⌊S/L⌋   one division                                         div(L) + 2
//   √S      binary search over [0, 255]: 8 steps of (add, srai, mul, compare, branch, move, branch)
//                                                                56 cycles
//   outputs chunk × (lb x, lw w, mul, div by r, sra, clip, sb)   7 + div(r) cycles, 3 accesses
//   row     loop set-up                                          6 cycles
// r is data-dependent: ASSUMPTION (asm) r ≈ 32 (the RMS of int8 activations; div(32) = 30 cycles).
// iLayerNorm: no Deeploy PULP int8 kernel (ICCT is not deployed on Siracusa); modelled (asm) with
// rows split ⌈R/NC⌉ and each core computing its rows whole:
//   Σx L × 2 / 1, ⌊Σ/L⌋ div(L) + 2, Σ(x−μ)² L × 3 / 1, ⌊V/L⌋ div(L) + 2, √V 56,
//   outputs L × (lb, sub, lw w, mul, div by r, lw b, add, sra, clip, sb) 10 + div(r) / 4, set-up 6.
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/norm/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost norm_cluster_cost(const NormParams& p, const Shape& y, const ClusterSpec& cl, int64_t mem_latency = 0);

}  // namespace edgesim
