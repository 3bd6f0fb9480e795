// Cluster cost models of Deeploy's element-wise PULP kernels (docs/timing.md "Transformer kernels"):
//   mul      MulTemplate ([60] PULPOpen/Templates/MulTemplate.py): elements split ⌈n/NC⌉, per
//            element lb, lb, mul, sw (int32 product) 4 cycles, 3 accesses; 8 cycles of set-up.
//   requant  scalar mul and add: UniformRequantShift_* ([60] PULPOpen/src/UniformRequantShift.c),
//            elements split ⌈n/NC⌉, per element (load, add, mul, add, add rounding, sra, add,
//            clip, sb) 9 cycles, 2 accesses; 10 cycles of set-up.
//            per-channel: RequantShift_*_NHWC ([60] PULPOpen/src/RequantShift.c), which has no core
//            split: every core walks all n elements, each (load, rem by the channel count, lw mul,
//            lw add, mul, add, add, sra, add, clip, sb) 11 cycles + the rem's division stall,
//            4 accesses.
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/eltwise/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost deeploy_mul_cost(const MulParams& p, const Shape& y, const ClusterSpec& cl, int64_t mem_latency = 0);
KernelCost deeploy_requant_cost(const RequantParams& p, const Shape& y, const ClusterSpec& cl,
                                int64_t mem_latency = 0);

}  // namespace edgesim
