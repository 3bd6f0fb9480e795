// Dispatch from a graph node's params to the cluster cost model of its op family
// (kernels/<family>/cost_cluster.h). Shapes are those of the Compute command's views (a tile):
// Conv / Pool views are rank 4 [N, C, H, W]; Gemm keeps the operands' ranks.
// Ops without a structural model (reshape, concat, pad, requant, quantize, ...) use the generic
// element-wise model of TIMING_MODELS.md §2.7: ceil(elements / n_cores) · c_op + t_bar.
#pragma once
#include <vector>

#include "compiler/ir/graph.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// Throws std::invalid_argument when the cluster has no cost section (cluster.cost.present).
KernelCost cluster_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs,
                               const std::vector<Shape>& outputs, const ClusterSpec& cluster);

}  // namespace edgesim
