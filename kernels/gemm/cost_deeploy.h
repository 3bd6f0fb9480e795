// Cluster cost model of Deeploy's RequantizedGemm (every Gemm / MatMul + RequantShift, constant
// or runtime B: PULPGEMMRequantMergePass / PULPMatMulRequantMergePass, [60] PULPOpen/
// TopologyOptimizationPasses/Passes.py). The mapper takes the first variant that parses
// ([60] PULPOpen/Platform.py, Parsers.py), decided here on the tile's shapes (a simplification:
// Deeploy decides on the node's shapes):
//   MatrixVec  M == 1 and batch ≥ 8: the batch split ⌈batch/NC⌉ over the cores, each batch one
//              gemv_s8_s8_plp(K, O) on its own core ([60] PULPOpen/src/gemv.c).
//   TallGEMM   batch < 8, M ≥ 8 and M mod 8 < O mod 8: for every batch, the M rows split
//              ⌈M/NC⌉ over the cores, each row one gemv(K, O).
//   GEMM       otherwise: for every batch and row, pulp_nn_linear(K -> O) on all cores (output
//              neurons split ⌈O/NC⌉), which ends with a barrier; the row loop adds 3 nops and the
//              pointer updates and call (c_call) ([60] PULPOpen/Templates/GEMMTemplate.py).
// gemv(K, O): neurons in pairs — ⌊K/4⌋·c_il12 (3 word loads + 2 sdotp) + (K mod 4)·5 (byte
// loads and macs), requant c_rq and κ/λ loads c_kl per neuron, c_neu per pair; an odd last neuron
// ⌊K/4⌋·c_il11 + (K mod 4)·3; c_call per call. pulp_nn_linear per neuron: c_il11·(⌊K/4⌋ + K mod 4)
// + c_rq (a word store without requant) + c_kl + c_neu (kernels/gemm/cost_cluster.h).
// Accesses: every load and store of those loops (a word load of x and w per 4 MACs, ...).
#pragma once
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/gemm/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost deeploy_gemm_cost(const GemmParams& p, const Shape& a, const Shape& b, const Shape& y,
                             const ClusterSpec& cl, int64_t mem_latency = 0);

}  // namespace edgesim
