// Deeploy's NE16 pointwise reshape ([30] `Deeploy/Targets/NE16/TopologyOptimizationPasses/
// Passes.py`, NE16ReshapePointwiseConvolutionPass at 9d78b4d8; the same at 375a6329): before
// tiling, every 1×1 conv on NE16 has its spatial extent H × W re-shaped to (rows, cols) with
// rows · cols = H · W, the option that needs the fewest 6 × 6 subtiles (N-EUREKA's patch; the pass
// was not changed to NE16's 3 × 3), ties broken towards the smallest side. The candidate splits
// come from a factor search that stops below ⌈√(H·W)⌉, so a square of a prime (9 = 3 · 3, 25, 49)
// has no split and becomes (H·W, 1): a 3 × 3 output runs as 9 × 1, i.e. three NE16 3 × 3 patches
// instead of one. Implemented from that description.
//
// The pass (apply_ne16_pw_reshape) does to the graph what Deeploy's does: the conv reads and
// writes its activations as [N, C, rows, cols] through two Reshape nodes around it, so that
// Deeploy's tile rules (compiler/tiler/ne16_deeploy.h) tile the re-shaped extent, as Deeploy's
// tiler does. A 1×1 conv's pixels keep their order under the reshape (HWC and NCHW alike), so
// the Reshapes move no byte: the schedule stores their outputs as aliases of their inputs
// (compiler/schedule/build_layout.cc), as Deeploy's Reshape aliases the pointer.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include "compiler/passes/assign_engine.h"
#include "kernels/ir/graph.h"

namespace edgesim {

// {rows, cols} for a spatial extent of hw pixels.
std::pair<int64_t, int64_t> deeploy_ne16_pointwise_reshape(int64_t hw);
// True when rows x cols is already the extent the reshape gives (re-shaped, or its own best).
bool is_deeploy_ne16_pointwise_extent(int64_t rows, int64_t cols);

// Re-shapes every 1×1, stride-1, unpadded, ungrouped conv the engine pass gave the NPU, with 4-D
// activations whose (H, W) is not already Deeploy's (rows, cols); returns how many. Run it after
// assign_engines and apply_io_layout, for policy deeploy on an NE16 (npu.impl ne16) only; it keeps
// ea->why_not aligned with the nodes.
int apply_ne16_pw_reshape(Graph& g, EngineAssignment* ea = nullptr);
// A flow runs it through run_flow_graph_passes (compiler/flows/flow.h).

}  // namespace edgesim
