// Cluster cost models of the layout ops as Deeploy's PULP templates run them (docs/timing.md
// "Transformer kernels"); one-byte elements.
//   transpose  PULPTransposeTemplate ([60] PULPOpen/Templates/TransposeTemplate.py, Generic
//              TransposeParser): nested loops over the output, the first output axis of extent
//              ≥ 8 (else the largest) split ⌊n/NC⌋ per core, the first n mod NC cores one more;
//              per element c_transpose cycles (strided byte load + byte store + load-use stall),
//              2 accesses; 8 cycles of set-up. On a tile of a layout conversion the schedule sets
//              the split axis from the whole tensor (Deeploy's parser sees the whole shape) and,
//              when the extents forming the strided index differ between tiles (runtime values in
//              Deeploy's per-tile tables), c_transpose_idx more per element: GCC then recomputes
//              the index with a multiply instead of stepping a pointer (docs/timing.md). The loop
//              order of a layout conversion is Deeploy's: NHWC output towards HWC.
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
// The output order of the loop that runs a transpose of logical output shape y, and the axis of it
// Deeploy splits over the cores (the first of extent >= 8, else the largest).
Shape transpose_loop_shape(const TransposeParams& p, const Shape& y);
int transpose_parallel_axis(const Shape& loop);
KernelCost concat_cluster_cost(const ConcatParams& p, const std::vector<Shape>& inputs, const Shape& y,
                               const ClusterSpec& cl, int64_t mem_latency = 0);
KernelCost gather_cluster_cost(const Shape& y, const ClusterSpec& cl, int64_t mem_latency = 0);

}  // namespace edgesim
