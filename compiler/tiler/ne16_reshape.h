// Deeploy's NE16 pointwise reshape ([30] `Deeploy/Targets/NE16/TopologyOptimizationPasses/
// Passes.py`, NE16ReshapePointwiseConvolutionPass at 9d78b4d8): before tiling, every 1×1 conv
// on NE16 has its spatial extent H × W re-shaped to (rows, cols) with rows · cols = H · W, the
// option that needs the fewest 6 × 6 subtiles (N-EUREKA's patch; the pass was not changed to
// NE16's 3 × 3), ties broken towards the smallest side. The candidate splits come from a
// factor search that stops below ⌈√(H·W)⌉, so a square of a prime (9 = 3 · 3, 25, 49) has
// no split and becomes (H·W, 1): a 3 × 3 output runs as 9 × 1, i.e. three NE16 3 × 3 patches
// instead of one. Implemented from that description; returns {rows, cols}.
#pragma once
#include <cstdint>
#include <utility>

namespace edgesim {

std::pair<int64_t, int64_t> deeploy_ne16_pointwise_reshape(int64_t hw);

}  // namespace edgesim
