// Cluster cost model of the integer softmax kernels (docs/timing.md "Transformer kernels").
//
// iSoftmax: Deeploy's PULPSoftmax_i8_u8 / _u8_u8 ([60] TargetLibraries/PULPOpen/src/Softmax.c).
// Rows split: cores 0..NC-2 take ⌊R/NC⌋ rows, the last core the rest (so R < NC leaves all rows
// on the last core). Per row of L elements, three passes:
//   max    L × (lb, p.max, load-use)                          3 cycles, 1 access
//   exp    L × (lb, sub, div by log2, neg, clip, mul, 2 add,  13 + div(log2) cycles, 2 accesses
//              mul, add, sra, sw to the row buffer, add)
//   norm   L × (lw, mul 255, divu by Σe, sb)                   4 + div(Σe) cycles, 2 accesses
//   row    set-up of the three loops                           8 cycles
// div(d) is the GVSoC division stall (cluster_common.h div_cycles: clz(d) + 3 + issue). log2 is a
// parameter; Σe depends on the data: ASSUMPTION (asm) Σe ≈ (A·B² + C)·⌈L/2⌉ (half the row near the
// maximum), clz of it is what matters (±1 cycle per halving).
// ITAMax: no Deeploy PULP kernel (ICCT is not deployed on Siracusa); modelled (asm) as the same
// three-pass row loop with shifts instead of divisions, rows split ⌈R/NC⌉ per core:
//   max 3 cycles / 1 access, sum 7 / 1 (lb, sub, add 16, sra 5, li, srl, add), out 6 / 2,
//   one division per row of (N−1)·256 by E (E ≈ 256·⌈L/2⌉, asm) and 8 cycles of set-up.
// Operands in L2: each access pays mem_latency (cluster_common.h Work).
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/softmax/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost softmax_cluster_cost(const SoftmaxParams& p, const Shape& y, const ClusterSpec& cl,
                                int64_t mem_latency = 0);

}  // namespace edgesim
