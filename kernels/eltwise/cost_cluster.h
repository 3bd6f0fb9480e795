// Cluster (8-core PULP) cost models of element-wise tiles (docs/timing.md "Element-wise and
// pooling"). Kernels without a structural model in the sources
// — residual add, standalone requant, clip, layout copies — cost
//     T = ⌈elements / NC⌉ · c_op + t_bar
// with the elements split in chunks of ⌈elements/NC⌉ over the cores (trailing cores may idle)
// and a per-op c_op in cycles per element. c_op values are assumptions (asm) until calibrated
// against GVSoC; the residual add uses cluster.cost.c_add (≈ 8: 2 loads, 2 requant mul-adds and
// shifts, add, clip, store).
#pragma once
#include <cstdint>
#include <string>

#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/eltwise/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// The generic model: `elements` outputs at `c_op` cycles each. Zero elements cost t_bar.
KernelCost eltwise_cluster_cost(const std::string& kernel, int64_t elements, int64_t c_op,
                                const ClusterSpec& cl);

// Residual add ("add"): c_add per output element (broadcast inputs are read per output).
KernelCost add_cluster_cost(const AddParams& p, const Shape& y, const ClusterSpec& cl);

}  // namespace edgesim
