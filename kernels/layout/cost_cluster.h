// Cluster cost models of the layout ops as Deeploy's PULP templates run them (docs/timing.md
// "Transformer kernels"); one-byte elements.
//   transpose  PULPTransposeTemplate ([60] PULPOpen/Templates/TransposeTemplate.py, Generic
//              TransposeParser): nested loops over the output, the first output axis of extent
//              ≥ 8 (else the largest) split ⌊n/NC⌋ per core, the first n mod NC cores one more;
//              per element c_transpose cycles (strided byte load + byte store + load-use stall),
//              2 accesses; 8 cycles of set-up.
//   concat     Generic ConcatTemplate under ClusterTransformer: ONE core memcpy's, for every index
//              of the axes before the concat axis, each input's contiguous chunk; memcpy moves
//              words (lw + sw: 2 cycles, 2 accesses per 4 bytes, the same per leftover byte) and
//              costs 12 cycles per call (ASSUMPTION (asm): call, alignment checks, return).
//   gather     a copy of the selected slice, elements split ⌈n/NC⌉, 2 cycles / 2 accesses each
//              (no Deeploy PULP kernel for integer Gather).
#pragma once
#include <vector>

#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "kernels/layout/params.h"
#include "platforms/loader/spec.h"

namespace edgesim {

KernelCost transpose_cluster_cost(const TransposeParams& p, const Shape& y, const ClusterSpec& cl,
                                  int64_t mem_latency = 0);
KernelCost concat_cluster_cost(const ConcatParams& p, const std::vector<Shape>& inputs, const Shape& y,
                               const ClusterSpec& cl, int64_t mem_latency = 0);
KernelCost gather_cluster_cost(const Shape& y, const ClusterSpec& cl, int64_t mem_latency = 0);

}  // namespace edgesim
