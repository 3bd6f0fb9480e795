// Cluster cost model of a float fake-quantisation chain (docs/timing.md "Transformer kernels"):
// elements split ⌈n/NC⌉ over the cores (each core has an FPU port on the Siracusa cluster, [2]),
// per element: load and store (2 cycles, 2 accesses) and per step fadd / fsub / fmul 1 cycle,
// Round 2 (fcvt.w.s + fcvt.s.w), Clip 2 (fmax, fmin), fdiv 12 (ASSUMPTION (asm): iterative
// division). No Deeploy kernel: Deeploy runs this test's float ops one node at a time.
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/fakequant/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost float_chain_cluster_cost(const FloatChainParams& p, const Shape& y, const ClusterSpec& cl,
                                    int64_t mem_latency = 0);

}  // namespace edgesim
