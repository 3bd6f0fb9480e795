// Cluster cost model of the integer activations (docs/timing.md "Transformer kernels").
//   iHardswish + RequantShift: Deeploy's RQiHardswish_s8_s8_plp ([60] TargetLibraries/PULPOpen/src/
//     RQiHardswish.c), elements split ⌈n/NC⌉ per core, per element (lb, add, clip, mul, mul, mul,
//     add, sra, clip, sb) 10 cycles, 2 accesses; 8 cycles of set-up.
//   iHardswish alone: Deeploy's Generic iHardswish under ClusterTransformer (one core, [60]
//     PULPOpen/Bindings.py): per element (lb, add, clip, mul, mul, sw) 6 cycles, 2 accesses.
//   iGELU + RequantShift: Deeploy's Generic RQGELU_s8_s8 under ClusterTransformer (one core, [60]
//     Generic/src/RQGELU_s8.c): per element sign (3), abs (1), min (2), add, mul, sub, mul, add,
//     sra, mul, mul-add, add, sra, clip, lb, sb ≈ 20 cycles, 2 accesses.
//   iGELU alone: the same loop without the requant, 14 cycles, 2 accesses, one core.
// Instruction counts are read off the C loops (der); no stall allowance beyond the load-use ones.
#pragma once
#include "kernels/act/params.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost act_cluster_cost(const ActParams& p, const Shape& y, const ClusterSpec& cl, int64_t mem_latency = 0);

}  // namespace edgesim
