// Functional executor: runs a Schedule untimed on one byte array per memory level, performing
// each Dma as a strided byte copy and each Compute by calling the reference kernel on views
// into the buffers (docs/schedule.md). Used by `edgesim compile --check` and the tests to prove
// that tiled execution equals the untiled interpreter bit-exactly.
#pragma once
#include <optional>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/schedule/schedule.h"
#include "kernels/core/tensor.h"

namespace edgesim {

struct FunctionalResult {
  std::vector<Tensor> outputs;                   // graph outputs, in order
  std::vector<std::optional<Tensor>> values;     // every placed tensor, read back after the run
};

// Throws std::runtime_error naming the command (step, id, note) on an out-of-bounds access.
FunctionalResult execute_functional(const Graph& g, const Schedule& s,
                                    const std::vector<Tensor>& inputs);

// Assertion pass over an allocated schedule: every buffer lies inside its level's high-water
// mark, and no two buffers of a level whose lifetimes intersect overlap in address. Throws
// std::runtime_error naming both buffers.
void check_allocation(const Schedule& s);

}  // namespace edgesim
