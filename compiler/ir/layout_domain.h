// Layout domains of a graph's tensors (docs/schedule.md "Placements"):
//   sequence  rank-3/4 tensors of the transformer part: read or written by a Gemm / MatMul, a
//             softmax, a norm, an integer activation, a float chain, a mean, a gather, a
//             Transpose or a Mul of two activations, or connected to such a tensor through
//             element-wise and layout ops (Add, Mul, Requant, Clip, Pad, Concat, Reshape,
//             Quantize, Dequantize). Deeploy keeps them row-major in ONNX order
//             ([.., tokens, features]), and so does edgesim.
//   image     every other rank-3/4 activation, and those read or written by a Conv or a pool (and
//             what element-wise ops connect to them) even when a sequence op touches them too:
//             stored HWC (DORY's layout).
// A rows layer is a node that works along rows of its last axis and whose operands are all
// sequence (or rank 1-2) tensors of the output's shape: softmax, norms, activations, float
// chains, and the element-wise Add / Mul / Requant of sequence tensors (a per-channel requant only
// along the last axis). It is tiled as the 2-D view [rows, last axis] with the last axis whole
// (compiler/tiler, compiler/schedule).
#pragma once
#include <vector>

#include "kernels/ir/graph.h"

namespace edgesim {

struct LayoutDomains {
  std::vector<bool> image;      // by tensor id: stored HWC
  std::vector<bool> sequence;   // by tensor id: reached from a sequence op
};

LayoutDomains layout_domains(const Graph& g);
bool is_rows_layer(const Graph& g, int node, const LayoutDomains& d);
bool is_rows_layer(const Graph& g, int node);

}  // namespace edgesim
