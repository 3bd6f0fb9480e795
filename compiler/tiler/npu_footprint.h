// The L1 footprint of an NPU layer's L2->L1 tile, shared by the NPU tilers (npu.cc: edgesim's
// cycle objective; ne16_deeploy.cc: Deeploy's NE16 rules): input tile (upper bound (h−1)·s + k
// rows, the whole input when the tile spans the whole output) + output tile + the encoded weight
// rows of the tile unless the weights live in the weight memory + 4 B per channel for each
// constant vector (bias, k, λ, one buffer), each buffer rounded up to 8 B as the allocator
// aligns L1 buffers, times the buffering.
#pragma once
#include <algorithm>
#include <cstdint>

#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/internal.h"

namespace edgesim {

struct NpuFootprint {
  const LayerGeom& g;
  const Node& n;
  NpuWeightGeom wg;
  int n_vec = 0;

  NpuFootprint(const LayerGeom& geom, const TilingContext& ctx)
      : g(geom), n(ctx.graph->nodes.at(static_cast<size_t>(geom.node))),
        wg(npu_weight_geom_of(*ctx.graph, geom.node, *ctx.spec)), n_vec((geom.has_bias ? 1 : 0) + geom.n_c) {}

  static int64_t c8(int64_t b) { return (b + 7) / 8 * 8; }
  static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
  // Input extent of `out` output rows (columns): the whole input for the whole output.
  static int64_t in_ext(int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
    return out >= full_out ? full_in : std::min(full_in, (out - 1) * s + k);
  }
  int64_t in_h(int64_t h) const { return in_ext(h, g.h_out, g.h_in, g.kh, g.sh); }
  int64_t in_w(int64_t w) const { return in_ext(w, g.w_out, g.w_in, g.kw, g.sw); }
  int64_t weight_bytes(int64_t nc) const {
    const int64_t dwb = wg.channels_per_row;
    return n.wmem_weights ? 0 : c8((g.depthwise ? cdiv(nc, dwb) + (nc % dwb ? 1 : 0) : nc) * wg.row_bytes);
  }
  int64_t act_bytes(int64_t nc, int64_t h, int64_t w) const {   // input + output tile
    const int64_t nin = g.depthwise ? nc : g.cin;
    return c8(bits_to_bytes(nin * in_h(h) * in_w(w), g.bx)) + c8(bits_to_bytes(nc * h * w, g.by));
  }
  int64_t const_bytes(int64_t nc) const { return c8(n_vec * 4 * nc); }
  int64_t bytes(int64_t nc, int64_t h, int64_t w, int64_t db) const {
    return db * (act_bytes(nc, h, w) + weight_bytes(nc) + const_bytes(nc));
  }
};

}  // namespace edgesim
