// Graph I/O layout (docs/schedule.md "Graph I/O layout"): the storage order a deployment takes
// its graph inputs in and gives its outputs in, and the conversions that order costs.
//
//   hwc   (default) inputs arrive and outputs leave in the deployment's own order (HWC for 4-D
//         activations), as DORY's generated application expects them: no conversion.
//   nchw  ONNX's order, converted on the cluster as Deeploy's PULP flow does: its lowering
//         (PULPNCHWtoNHWCPass, [30] LoweringOptimizationPasses.py `_NCHWtoNHWC_fun`) wraps every
//         channels-first conv, pool and pad in Transpose nodes and then folds the pairs that
//         cancel, so what remains at the graph's edges is one NCHW -> NHWC Transpose after each
//         4-D input and one NHWC -> NCHW Transpose before each 4-D output, each a tiled cluster
//         kernel (Deeploy's README_NE16_PERFORMANCE: "transpose cluster forks"). An input whose
//         consumers are all cluster depthwise convs is not converted (Deeploy's PULP depthwise
//         kernel reads CHW: "PULP DW doesn't transpose the input", `_PULP_NCHWtoNHWC_dw_fun`);
//         for the same reason every other cluster depthwise conv reads its input through one
//         NHWC -> NCHW Transpose (the previous layer's output Transpose, which no longer
//         cancels), and its own output Transpose folds with the next layer's input one. Only
//         image tensors (compiler/ir/layout_domain.h) are converted: a transformer's 4-D
//         tensors, such as microLlama's KV caches, are row-major in ONNX order either way.
// The conversions are Transpose nodes with the identity perm and TransposeParams::relayout set:
// values and logical shapes are unchanged, the schedule stores the NCHW side row-major
// (compiler/schedule/build_layout.cc) and tiles the node through L1 (build_relayout.cc).
#pragma once
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/passes/assign_engine.h"

namespace edgesim {

std::vector<std::string> io_layout_names();   // {"hwc", "nchw"}

// Inserts the conversions io_layout asks for (none for "hwc"); returns how many. Run it after
// assign_engines (it keeps ea->why_not aligned with the nodes). Throws std::invalid_argument
// for an unknown io_layout.
int apply_io_layout(Graph& g, const std::string& io_layout, EngineAssignment* ea = nullptr);

// True for a node apply_io_layout inserted.
bool is_relayout(const Node& n);

}  // namespace edgesim
