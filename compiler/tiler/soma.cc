// L2->L1 tiles of layers assigned to DIANA's digital accelerator (SOMA, npu.impl soma), whatever
// the policy: the policy keeps its L3 decision (DIANA has no L3), then DORY-Diana's rules pick
// the tile ([71]: Diana/Diana_TVM Tiler/tiler_conv2d.py, tiler_add.py, HW_Parser.py
// `adjust_dimensions`, Diana_SoC conv template):
//  * conv / dense: all input channels in every tile; depthwise: input tile = output tile channels;
//    dense (1×1 spatial): at most 16 output channels per tile when tiled;
//  * footprints, each buffer rounded up to 8 B as the allocator aligns L1 buffers:
//      activation L1 (budget: the policy's L1)  input n_in·h_in·⌈w_in⌉₁₆ + output ⌈n⌉₁₆·h·⌈w⌉₁₆
//        (the template rounds tile widths and output channels up to 16; dense: ⌈K⌉₁₆ per row)
//      digital weight memory (l1_wdig.size)     conv ⌈n⌉₁₆·Cin·kh·kw, dense ⌈n⌉₁₆·⌈K⌉₁₆,
//        depthwise 16·n·kh·kw (weights take ×16 space), plus 4 B of bias per (⌈n⌉₁₆ | 16·n) channel
//    add: both inputs and the output, all channels, full width, rows tiled (tiler_add.py);
//  * the whole slab in one tile when it fits (DORY's early exit), else single buffering (the
//    tiler sets db = 1; the template waits for every transfer) — add: db = 2 as tiler_add.py;
//  * objective, maximised over three rounds (full H and W, then full W, then free; the first
//    round with a feasible tile wins): 10⁶·((w−1) mod 16) + 10⁶·((n−1) mod 16) [not depthwise]
//    + 10⁶·[w·h ≥ 16] + 10⁶·w + 10⁵·n + bytes; ties go to the smallest (n, h, w). Add: the
//    most bytes.
// soma_candidates lists every feasible tile of these rules (the autotuner's search space).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

int64_t c8(int64_t b) { return (b + 7) / 8 * 8; }
int64_t r16(int64_t v) { return (v + 15) / 16 * 16; }

// 1..15 (and up to full when smaller), multiples of 16 up to full, and full.
std::vector<int64_t> cands16(int64_t full) {
  std::vector<int64_t> v;
  for (int64_t x = 1; x < std::min<int64_t>(16, full); ++x) v.push_back(x);
  for (int64_t x = 16; x < full; x += 16) v.push_back(x);
  v.push_back(full);
  return v;
}

// The rules of one L2 slab of a SOMA layer.
struct SomaRules {
  const LayerGeom& g;
  bool gemm, add, pool, dw, chan_wise, fc;
  int64_t slab_n, slab_h, W, wdig, l1;
  int db;
  std::vector<int64_t> ns, hs, ws;

  SomaRules(const LayerGeom& geom, const TilingContext& ctx, const LayerTiling& base, const Budgets& b)
      : g(geom), gemm(g.kind == OpKind::Gemm), add(g.kind == OpKind::Add), pool(g.kind == OpKind::Pool),
        dw(g.depthwise), chan_wise(dw || add || pool), fc(gemm || g.fc),
        slab_n(base.l3.n_out > 0 ? base.l3.n_out : g.cout), slab_h(base.l3.h_out > 0 ? base.l3.h_out : g.h_out),
        W(g.w_out), wdig(ctx.spec->l1_wdig.present ? ctx.spec->l1_wdig.size : INT64_MAX), l1(b.l1),
        db(add ? 2 : 1) {
    ns = add || pool ? std::vector<int64_t>{slab_n} : cands16(fc ? std::min<int64_t>(slab_n, 16) : slab_n);
    for (int64_t h = 1; h <= slab_h; ++h) hs.push_back(h);
    ws = add || pool || gemm ? std::vector<int64_t>{W} : cands16(W);
  }
  static int64_t in_ext(int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
    return out >= full_out ? full_in : std::min(full_in, (out - 1) * s + k);
  }
  int64_t x_bytes(int64_t n, int64_t h, int64_t w) const {
    if (gemm) return c8(h * r16(g.cin));
    const int64_t nin = chan_wise ? n : g.cin;
    const int64_t hin = add ? h : in_ext(h, g.h_out, g.h_in, g.kh, g.sh);
    const int64_t win = add ? w : in_ext(w, g.w_out, g.w_in, g.kw, g.sw);
    return c8(nin * hin * r16(win)) * (add ? 2 : 1);
  }
  int64_t y_bytes(int64_t n, int64_t h, int64_t w) const { return c8((chan_wise ? n : r16(n)) * h * (gemm ? 1 : r16(w))); }
  int64_t w_bytes(int64_t n) const {
    if (add || pool) return 0;
    if (dw) return c8(16 * n * g.kh * g.kw) + c8(16 * 4 * n);
    return c8(r16(n) * (gemm ? r16(g.cin) : g.cin * g.kh * g.kw)) + c8(4 * r16(n));
  }
  int64_t act(int64_t n, int64_t h, int64_t w, int d) const { return d * (x_bytes(n, h, w) + y_bytes(n, h, w)); }
  bool whole_fits() const {
    return act(slab_n, slab_h, W, 1) <= l1 && w_bytes(slab_n) <= wdig && (!fc || slab_n <= 16);
  }
  L1Tiling tile(int64_t n, int64_t h, int64_t w, int d, bool whole) const {
    L1Tiling l;
    l.n_out = n, l.h_out = h, l.w_out = w;
    l.n_in = chan_wise ? n : g.cin;
    l.h_in = gemm || add ? h : in_ext(h, g.h_out, g.h_in, g.kh, g.sh);
    l.w_in = gemm ? 1 : add ? w : in_ext(w, g.w_out, g.w_in, g.kw, g.sw);
    l.db = d;
    l.whole = whole;
    l.l1_bytes = act(n, h, w, d);
    return l;
  }
  int64_t objective(int64_t n, int64_t h, int64_t w) const {
    int64_t J = act(n, h, w, db) + w_bytes(n);
    if (!add && !pool)
      J += 1000000 * ((w - 1) % 16) + (dw ? 0 : 1000000 * ((n - 1) % 16)) + 1000000 * (w * h >= 16 ? 1 : 0) +
           1000000 * w + 100000 * n;
    return J;
  }
};

}  // namespace

LayerTiling soma_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b) {
  const SomaRules r(g, ctx, base, b);
  if (r.whole_fits()) {
    base.l1 = r.tile(r.slab_n, r.slab_h, r.W, 1, true);
    return base;
  }
  // The smallest output-channel tile must fit the digital weight memory (rounded up to 16 channels).
  if (const int64_t wmin = r.w_bytes(r.ns.front()); wmin > r.wdig)
    throw TilingError(fmt::format("{}: the smallest output-channel tile's weights and bias need {} B of the digital "
                                  "weight memory, which has {} B (l1_wdig.size; tiles hold whole multiples of 16 "
                                  "channels)",
                                  layer_label(ctx.graph, g), wmin, r.wdig),
                      g.node, "WMEM", wmin);
  for (int round = 0; round < 3; ++round) {
    bool found = false;
    int64_t best = 0, bn = 0, bh = 0, bw = 0;
    for (int64_t n : r.ns) {
      if (r.w_bytes(n) > r.wdig) continue;
      for (int64_t h : r.hs) {
        if (round == 0 && h != r.slab_h) continue;
        for (int64_t w : r.ws) {
          if (round <= 1 && w != r.W) continue;
          if (r.act(n, h, w, r.db) > r.l1) continue;
          const int64_t J = r.objective(n, h, w);
          if (!found || J > best) best = J, bn = n, bh = h, bw = w, found = true;
        }
      }
    }
    if (found) {
      base.l1 = r.tile(bn, bh, bw, r.db, false);
      return base;
    }
  }
  const int64_t need = r.act(r.ns.front(), 1, r.ws.front(), r.db);
  throw TilingError(fmt::format("{}: no SOMA L2->L1 tile fits the L1 budget of {} B and the digital weight memory of "
                                "{} B; needs at least {} B of L1",
                                layer_label(ctx.graph, g), r.l1, r.wdig, need),
                    g.node, "L1", need);
}

std::vector<L1Tiling> soma_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                      const Budgets& b) {
  const SomaRules r(g, ctx, base, b);
  std::vector<L1Tiling> out;
  if (r.whole_fits()) out.push_back(r.tile(r.slab_n, r.slab_h, r.W, 1, true));
  for (int64_t n : r.ns) {
    if (r.w_bytes(n) > r.wdig) continue;
    for (int64_t h : r.hs)
      for (int64_t w : r.ws) {
        if (n == r.slab_n && h == r.slab_h && w == r.W) continue;   // the whole slab: above
        if (r.act(n, h, w, r.db) <= r.l1) out.push_back(r.tile(n, h, w, r.db, false));
      }
  }
  return out;
}

}  // namespace edgesim
