// Dispatch from a graph node's params to the cluster cost model of its op family
// (kernels/<family>/cost_cluster.h). Shapes are those of the Compute command's views (a tile):
// Conv / Pool views are rank 4 [N, C, H, W]; Gemm keeps the operands' ranks; rows layers are the
// 2-D [rows, last axis] view.
// Ops without a structural model (reshape, pad, clip, quantize, ...) use the generic element-wise
// model of docs/timing.md "Element-wise and pooling": ceil(elements / n_cores) · c_op + t_bar.
#pragma once
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct ClusterCostOptions {
  // Extra cycles per core access to the operands' memory: 0 when they are in L1 (tiles), the
  // cluster -> L2 latency when the kernel runs on L2 (policy `untiled`, whole-tensor steps).
  int64_t mem_latency = 0;
  // Deeploy's kernel library (its PULP templates; docs/timing.md): RequantizedGemm as rows of
  // pulp_nn_linear / MatrixVec / TallGEMM, UniformRequantShift, Mul, Concat on one core. The
  // transformer ops always use Deeploy's structure (no other library has them).
  bool deeploy = false;
  // The tuned flow's kernel choice: a depthwise tile that pulp_nn_depthwise_3x3_s1 computes
  // (kernels/conv/cost_dw3x3_s1.h) runs it instead of depthwise_generic.
  bool dw3x3_s1 = false;
};

// Throws std::invalid_argument when the cluster has no cost section (cluster.cost.present).
KernelCost cluster_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs,
                               const std::vector<Shape>& outputs, const ClusterSpec& cluster,
                               const ClusterCostOptions& opt = {});

}  // namespace edgesim
