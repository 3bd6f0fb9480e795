// Cluster (8-core PULP) cost model of Gemm / MatMul tiles (docs/timing.md "Cluster kernel cost
// models", "`linear` and `matmul`").
//   M == 1  "linear"  pulp_nn_linear: output neurons split ⌈N/NC⌉ over cores, computed two at a
//                     time (one input word, two weight words, two sdotp: c_il12 per 4 elements
//                     or leftover element, [32]/[26] pulp_nn_linear.c), an odd last neuron alone
//                     (c_il11); per neuron requant (c_rq; a 1-cycle word store when the output
//                     is the raw int32 accumulator), κ/λ (c_kl) and loop overhead (c_neu).
//   M > 1   "matmul"  modelled like a pointwise conv whose pixels are the M rows of A: rows split
//                     ⌈M/NC⌉ over cores, each core runs MM42(K, N) on pairs of its rows and
//                     PX1(K, N) on an odd last row. PULP-NN has no batched MatMul; this is the
//                     closest kernel structure (an activation row plays the role of an HWC pixel,
//                     the columns of B the role of the output channels).
// Shapes are the Compute command's views: a [..., M, K] ([..., K, M] with trans_a), b [..., K, N]
// ([..., N, K] with trans_b), y [..., M, N]; every leading batch index of y is one more call
// (one more barrier). Pure functions; throw std::invalid_argument without cluster.cost or when
// the reduction lengths of a and b disagree.
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/gemm/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost gemm_cluster_cost(const GemmParams& p, const Shape& a, const Shape& b, const Shape& y,
                             const ClusterSpec& cl);

}  // namespace edgesim
