// layer_subgraph: one layer node of a graph as a graph of its own (its activation inputs become
// graph inputs, its constants stay constants, its outputs become graph outputs), so the
// simulating evaluator can build and time the schedule of that layer alone.
#pragma once
#include "kernels/ir/graph.h"

namespace edgesim {

Graph layer_subgraph(const Graph& g, int node);

}  // namespace edgesim
