// The graph's text form (compiler/ir/printer.cc).
#pragma once
#include <string>

#include "kernels/ir/graph.h"

namespace edgesim {

// Stable, human-readable text form (one line per tensor input and node) for tests and
// `edgesim describe net.onnx`. Format documented in docs/graph.md.
std::string print_graph(const Graph& g);

}  // namespace edgesim
