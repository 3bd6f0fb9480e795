// Dispatch from a graph node's params to the RISC-V host's loop-nest cost model
// (kernels/host/cost.h): conv, gemm and pool have their own nests; everything else (add, mul,
// requant, clip, quantize, layout copies) is one flattened loop over the output elements.
#pragma once
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/core/cost.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// Throws std::invalid_argument when the platform has no cluster.host_cost section or a shape
// is missing.
KernelCost host_kernel_cost(const OpParams& p, const std::vector<Shape>& inputs, const std::vector<Shape>& outputs,
                            const HostCostSpec& host);

}  // namespace edgesim
