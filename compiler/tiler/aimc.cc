// L2->L1 tiles of layers assigned to DIANA's analog core (aimc), whatever the policy: the policy
// keeps its L3 decision, then DORY-Diana's analog rules pick the tile ([71] Diana/Diana_TVM
// Tiler/tiler_conv2d.py, the weight_bits == 2 branches):
//  * all input channels in every tile (the rules admit C·kh·kw ≤ aimc.rows only); at most
//    aimc.cols (512) output channels per tile: a wider layer is split into output-channel tiles,
//    each programmed into the array in turn;
//  * footprints, each buffer rounded up to 8 B: activation L1 (the policy's L1 budget) input
//    C·h_in·w_in + output n·h·w bytes; the analog weight memory (l1_wana.size): the tile's
//    ternary cells, 2 bits each, ⌈C·kh·kw·n·2/8⌉ B;
//  * the whole slab in one tile when it fits (DORY's early exit: n ≤ 512 and C ≤ 128), else
//    single buffering and the tile maximising 10⁸·((n − 1) mod 512) + bytes (the analog
//    heuristic; no spatial round constraints apply to 2-bit weights); ties go to the smallest
//    (n, h, w).
// aimc_candidates lists every feasible tile of these rules (the autotuner's search space).
#include <algorithm>

#include <fmt/format.h>

#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

int64_t c8(int64_t b) { return (b + 7) / 8 * 8; }

struct AimcRules {
  const LayerGeom& g;
  int64_t slab_n, slab_h, W, cols, wana, l1;

  AimcRules(const LayerGeom& geom, const TilingContext& ctx, const LayerTiling& base, const Budgets& b)
      : g(geom), slab_n(base.l3.n_out > 0 ? base.l3.n_out : g.cout),
        slab_h(base.l3.h_out > 0 ? base.l3.h_out : g.h_out), W(g.w_out),
        cols(ctx.spec->aimc.cols > 0 ? ctx.spec->aimc.cols : 512),
        wana(ctx.spec->l1_wana.present ? ctx.spec->l1_wana.size : INT64_MAX), l1(b.l1) {}
  static int64_t in_ext(int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
    return out >= full_out ? full_in : std::min(full_in, (out - 1) * s + k);
  }
  int64_t act(int64_t n, int64_t h, int64_t w) const {
    return c8(g.cin * in_ext(h, g.h_out, g.h_in, g.kh, g.sh) * in_ext(w, g.w_out, g.w_in, g.kw, g.sw)) + c8(n * h * w);
  }
  int64_t w_bytes(int64_t n) const { return (g.cin * g.kh * g.kw * n * 2 + 7) / 8; }
  bool whole_fits() const { return slab_n <= cols && act(slab_n, slab_h, W) <= l1 && w_bytes(slab_n) <= wana; }
  L1Tiling tile(int64_t n, int64_t h, int64_t w, bool whole) const {
    L1Tiling l;
    l.n_out = n, l.h_out = h, l.w_out = w;
    l.n_in = g.cin;
    l.h_in = in_ext(h, g.h_out, g.h_in, g.kh, g.sh);
    l.w_in = in_ext(w, g.w_out, g.w_in, g.kw, g.sw);
    l.db = 1;
    l.whole = whole;
    l.l1_bytes = act(n, h, w);
    return l;
  }
};

}  // namespace

LayerTiling aimc_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b) {
  const AimcRules r(g, ctx, base, b);
  if (r.whole_fits()) {
    base.l1 = r.tile(r.slab_n, r.slab_h, r.W, true);
    return base;
  }
  bool found = false;
  int64_t best = 0, bn = 0, bh = 0, bw = 0;
  for (int64_t n = 1; n <= std::min(r.slab_n, r.cols); ++n) {
    if (r.w_bytes(n) > r.wana) break;
    for (int64_t h = 1; h <= r.slab_h; ++h)
      for (int64_t w = 1; w <= r.W; ++w) {
        const int64_t a = r.act(n, h, w);
        if (a > r.l1) break;
        const int64_t J = 100000000 * ((n - 1) % r.cols) + a + r.w_bytes(n);
        if (!found || J > best) best = J, bn = n, bh = h, bw = w, found = true;
      }
  }
  if (!found) {
    const int64_t need = r.act(1, 1, 1);
    throw TilingError(fmt::format("{}: no analog L2->L1 tile fits the L1 budget of {} B and the analog weight memory "
                                  "of {} B; needs at least {} B of L1",
                                  layer_label(ctx.graph, g), r.l1, r.wana, need),
                      g.node, "L1", need);
  }
  base.l1 = r.tile(bn, bh, bw, false);
  return base;
}

std::vector<L1Tiling> aimc_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                      const Budgets& b) {
  const AimcRules r(g, ctx, base, b);
  std::vector<L1Tiling> out;
  if (r.whole_fits()) out.push_back(r.tile(r.slab_n, r.slab_h, r.W, true));
  // Output channels: divisors-like choices (every count up to 16, then multiples of 16) keep the
  // list short; all rows and columns.
  std::vector<int64_t> ns;
  for (int64_t n = 1; n <= std::min(r.slab_n, r.cols); n += n < 16 ? 1 : 16) ns.push_back(n);
  if (r.slab_n <= r.cols && ns.back() != r.slab_n) ns.push_back(r.slab_n);
  for (int64_t n : ns) {
    if (r.w_bytes(n) > r.wana) break;
    for (int64_t h = 1; h <= r.slab_h; ++h)
      for (int64_t w = 1; w <= r.W; ++w) {
        if (n == r.slab_n && h == r.slab_h && w == r.W) continue;
        if (r.act(n, h, w) > r.l1) break;
        out.push_back(r.tile(n, h, w, false));
      }
  }
  return out;
}

}  // namespace edgesim
