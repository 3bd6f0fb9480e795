// L2->L1 tiles of layers assigned to the NPU (N-EUREKA / NE16), whatever the policy: the policy
// still makes the L3->L2 decision, then the NPU's own rules pick the L1 tile inside each L2 slab.
//
// Rules (TILING.md §2.1 "N-EUREKA convolutions", Deeploy's Neureka tile constraints [3]):
//  * all input channels in every tile (no partial sums); depthwise: a channel tile is a multiple
//    of the NPU's depthwise block (npu.tp_in_3x3 = 28 on N-EUREKA, tp_in = 16 on NE16) or the
//    whole slab, so a tile's encoded weight rows are its own;
//  * soft hints, most important first: dense and depthwise 3×3 keep the tile spatially whole;
//    1×1 output rows, then columns, a multiple of the PE array (6 × 6; 3 × 3 on NE16) or whole,
//    then Cout a multiple of tp_out (32) or whole; among tiles meeting the same hints the largest
//    output volume wins, then more rows, then more columns (deterministic).
//  * L1 footprint, ×db (the policy's buffering; a tile equal to its slab is sized once, as the
//    schedule then single-buffers it): input tile (upper bound (h−1)·s + k rows) + output tile +
//    the encoded weight rows of the tile unless the weights live in the weight memory + 4 B per
//    channel for each constant vector (bias, k, λ), each rounded up to 4 B.
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

int64_t c4(int64_t b) { return (b + 3) / 4 * 4; }
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// 1..5 (small tiles for tight budgets), multiples of `step` up to `full`, and `full`.
std::vector<int64_t> cands(int64_t full, int64_t step, bool small) {
  std::vector<int64_t> v;
  if (small)
    for (int64_t x = 1; x < std::min<int64_t>(step, full); ++x) v.push_back(x);
  for (int64_t x = step; x < full; x += step) v.push_back(x);
  v.push_back(full);
  return v;
}

}  // namespace

LayerTiling npu_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b) {
  const Graph& gr = *ctx.graph;
  const PlatformSpec& spec = *ctx.spec;
  const Node& n = gr.nodes.at(static_cast<size_t>(g.node));
  const NpuWeightGeom wg = npu_weight_geom_of(gr, g.node, spec);
  const bool dw = g.depthwise;
  const bool pointwise = g.kh == 1;
  const int64_t slab_n = base.l3.n_out > 0 ? base.l3.n_out : g.cout;
  const int64_t slab_h = base.l3.h_out > 0 ? base.l3.h_out : g.h_out;
  const int64_t W = g.w_out;
  const int64_t dwb = wg.channels_per_row;   // depthwise channel block
  const int64_t tp_out = spec.npu.tp_out > 0 ? spec.npu.tp_out : 32;
  const int64_t pe_h = spec.npu.pe_h > 0 ? spec.npu.pe_h : 6, pe_w = spec.npu.pe_w > 0 ? spec.npu.pe_w : 6;
  const int n_vec = (g.has_bias ? 1 : 0) + g.n_c;

  auto in_ext = [](int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
    return out >= full_out ? full_in : std::min(full_in, (out - 1) * s + k);
  };
  auto mem = [&](int64_t nc, int64_t h, int64_t w, int64_t db) {
    const int64_t nin = dw ? nc : g.cin;
    const int64_t x = c4(bits_to_bytes(nin * in_ext(h, g.h_out, g.h_in, g.kh, g.sh) * in_ext(w, g.w_out, g.w_in, g.kw, g.sw), g.bx));
    const int64_t y = c4(bits_to_bytes(nc * h * w, g.by));
    const int64_t wb = n.wmem_weights ? 0 : c4((dw ? cdiv(nc, dwb) + (nc % dwb ? 1 : 0) : nc) * wg.row_bytes);
    return db * (x + y + wb + n_vec * c4(4 * nc));
  };

  L1Tiling& l = base.l1;
  auto set = [&](int64_t nc, int64_t h, int64_t w, int64_t db, bool whole) {
    l.n_out = nc, l.h_out = h, l.w_out = w;
    l.n_in = dw ? nc : g.cin;
    l.h_in = in_ext(h, g.h_out, g.h_in, g.kh, g.sh);
    l.w_in = in_ext(w, g.w_out, g.w_in, g.kw, g.sw);
    l.db = static_cast<int>(db);
    l.whole = whole;
    l.l1_bytes = mem(nc, h, w, db);
  };
  if (mem(slab_n, slab_h, W, 1) <= b.l1) {   // the slab in one tile (single-buffered)
    set(slab_n, slab_h, W, 1, true);
    return base;
  }
  const int64_t db = std::max(1, b.db);
  const auto nc = dw ? cands(slab_n, dwb, false) : cands(slab_n, tp_out, true);
  const auto hc = cands(slab_h, pe_h, true), wc = cands(W, pe_w, true);
  using Key = std::tuple<int, int64_t, int64_t, int64_t>;
  Key best{-1, 0, 0, 0};
  int64_t bn = 0, bh = 0, bw = 0;
  for (int64_t c : nc)
    for (int64_t h : hc)
      for (int64_t w : wc) {
        if (mem(c, h, w, db) > b.l1) continue;
        const bool hn = c % tp_out == 0 || c == slab_n, hh = h % pe_h == 0 || h == slab_h, hw = w % pe_w == 0 || w == W;
        const int hint = pointwise ? (hh ? 4 : 0) + (hw ? 2 : 0) + (hn ? 1 : 0) : (h == slab_h && w == W ? 1 : 0);
        const Key k{hint, c * h * w, h, w};
        if (k > best) best = k, bn = c, bh = h, bw = w;
      }
  if (std::get<0>(best) < 0) {
    const int64_t need = mem(dw ? std::min(dwb, slab_n) : 1, 1, 1, db);
    throw TilingError(fmt::format("{}: no NPU L2->L1 tile fits the L1 budget of {} B; needs at least {} B",
                                  layer_label(ctx.graph, g), b.l1, need),
                      g.node, "L1", need);
  }
  set(bn, bh, bw, db, false);
  return base;
}

}  // namespace edgesim
