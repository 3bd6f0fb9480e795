// Short operator label of a graph node for reports: "conv 3x3", "conv 3x3 /2", "dwconv 3x3",
// "conv 1x1", "gemm" (constant weights), "matmul" (two activations), "maxpool 2x2", "sumpool 4x4",
// "add", "reshape", the transformer ops "isoftmax", "itamax", "irmsnorm", "ilayernorm",
// "ihardswish[+rq]", "igelu[+rq]", "imean", "gather", "fquant", ... The one op vocabulary of
// every table, JSON and HTML page (run, compile, tune, sweep).
#pragma once
#include <string>

#include "kernels/ir/graph.h"

namespace edgesim {

std::string layer_label(const Graph& g, const Node& n);

}  // namespace edgesim
