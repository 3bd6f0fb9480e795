// Deeploy's NE16 tile rules (ne16_deeploy.h).
#include "compiler/tiler/ne16_deeploy.h"

#include <algorithm>

#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/tiler/npu_footprint.h"

namespace edgesim {

namespace {

// The model's variables as output extents (rows h, columns w, channels c) with their bounds.
struct Range {
  int64_t lo = 1, hi = 1;   // feasible values: lo..hi in steps of step (from hi down)
  int64_t step = 1;
  bool fixed = false;       // a kept hint pins it to hi
  int64_t min() const { return fixed ? hi : lo; }
};

// Deeploy's pointwise rules (NE16PWConv2DTileConstraint; ne16_deeploy.h). The layer's extent is
// already the re-shaped one (compiler/passes/ne16_pw_reshape.h), as in Deeploy.
std::optional<L1Tiling> pointwise_tile(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                       const Budgets& b) {
  if (g.sh != 1 || g.sw != 1 || g.depthwise || g.h_in != g.h_out || g.w_in != g.w_out) return std::nullopt;
  // Only on the extent Deeploy tiles: a graph the pass did not re-shape keeps npu.cc's objective.
  if (!is_deeploy_ne16_pointwise_extent(g.h_out, g.w_out)) return std::nullopt;
  const NpuFootprint fp(g, ctx);
  const int64_t slab_n = base.l3.n_out > 0 ? base.l3.n_out : g.cout;
  const int64_t slab_h = base.l3.h_out > 0 ? base.l3.h_out : g.h_out;
  const int64_t W = g.w_out;
  const int64_t db = std::max(1, b.db);
  const int64_t a = std::max<int64_t>(1, ctx.spec->budgets.deeploy.ne16_pw_align);
  auto bytes = [&](int64_t nc, int64_t hh, int64_t ww) {
    const bool whole = nc == slab_n && hh == slab_h && ww == W;
    return fp.bytes(nc, hh, ww, whole ? 1 : db);
  };
  auto fits = [&](int64_t nc, int64_t hh, int64_t ww) { return bytes(nc, hh, ww) <= b.l1; };
  Range h{1, slab_h}, w{1, W}, c{1, slab_n};
  if (!fits(c.min(), h.min(), w.min())) return std::nullopt;
  // Hints in priority order (rows 3, columns 2, output channels 1), each kept only if the model
  // stays feasible with those kept before it: an extent above the alignment takes a tile that is
  // a multiple of it (TilerModel.addTileSizeDivisibleConstraint: the tile a multiple, the last
  // tile what remains), one at most the alignment stays whole.
  auto keep = [&](Range& v, int64_t align, auto&& ok) {
    const Range t = v.hi > align ? Range{align, v.hi / align * align, align} : Range{v.hi, v.hi, 1, true};
    if (ok(t)) v = t;
  };
  keep(h, a, [&](const Range& t) { return fits(c.min(), t.min(), w.min()); });
  keep(w, a, [&](const Range& t) { return fits(c.min(), h.min(), t.min()); });
  keep(c, 32, [&](const Range& t) { return fits(t.min(), h.min(), w.min()); });
  // Largest feasible values in declaration order (the input's rows and columns, then the
  // weights' output channels), the others at their least.
  auto largest = [](const Range& v, auto&& ok) -> int64_t {
    for (int64_t x = v.hi; x >= v.min(); x -= v.step)
      if (ok(x)) return x;
    return 0;
  };
  const int64_t hh = largest(h, [&](int64_t x) { return fits(c.min(), x, w.min()); });
  const int64_t ww = hh ? largest(w, [&](int64_t x) { return fits(c.min(), hh, x); }) : 0;
  const int64_t cc = ww ? largest(c, [&](int64_t x) { return fits(x, hh, ww); }) : 0;
  if (cc == 0) return std::nullopt;
  L1Tiling l;
  l.n_out = cc, l.h_out = hh, l.w_out = ww;
  l.n_in = g.cin;
  l.h_in = hh;
  l.w_in = ww;
  l.whole = cc == slab_n && hh == slab_h && ww == W;
  l.db = l.whole ? 1 : static_cast<int>(db);
  l.l1_bytes = bytes(cc, hh, ww);
  return l;
}

}  // namespace

std::optional<L1Tiling> ne16_deeploy_tile(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                          const Budgets& b) {
  if (g.kind == OpKind::Conv && g.kh == 1 && g.kw == 1) return pointwise_tile(g, ctx, base, b);
  if (g.kh != 3 || g.kw != 3) return std::nullopt;
  const NpuFootprint fp(g, ctx);
  const int64_t slab_n = base.l3.n_out > 0 ? base.l3.n_out : g.cout;
  const int64_t slab_h = base.l3.h_out > 0 ? base.l3.h_out : g.h_out;
  const int64_t W = g.w_out;
  const int64_t db = std::max(1, b.db);
  // Output extent of a non-whole input tile: at most in − 1 rows, no padding.
  auto part_max = [](int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
    return full_in - 1 >= k ? std::min(full_out - 1, (full_in - 1 - k) / s + 1) : 0;
  };
  const int64_t h_part = slab_h < g.h_out ? slab_h : part_max(g.h_out, g.h_in, g.kh, g.sh);
  const int64_t w_part = part_max(W, g.w_in, g.kw, g.sw);
  // Depthwise channel tiles stay a multiple of the weight rows' channel block (or the slab), as
  // the encoded depthwise weights are stored in blocks (kernels/npu/weights.h).
  const int64_t c_step = g.depthwise ? std::min(fp.wg.channels_per_row, slab_n) : 1;
  Range h{1, slab_h}, w{1, W}, c{c_step, slab_n, c_step};
  // A tile equal to the slab is sized once (the schedule single-buffers it, as npu.cc).
  auto bytes = [&](int64_t nc, int64_t hh, int64_t ww) {
    const bool whole = nc == slab_n && hh == slab_h && ww == W;
    return fp.bytes(nc, hh, ww, whole ? 1 : db);
  };
  auto fits = [&](int64_t nc, int64_t hh, int64_t ww) { return bytes(nc, hh, ww) <= b.l1; };
  // Rows and columns: the whole extent, or at most the non-whole maximum.
  auto best_extent = [&](const Range& r, int64_t part, auto&& fits_at) -> int64_t {
    if (r.fixed) return r.hi;
    if (fits_at(r.hi)) return r.hi;
    for (int64_t x = std::min(part, r.hi); x >= r.lo; --x)
      if (fits_at(x)) return x;
    return 0;
  };
  if (!fits(c.min(), h.min(), w.min())) return std::nullopt;
  // Hints, highest priority first, each kept while the model stays feasible.
  if (slab_n >= 32 && fits(32, h.min(), w.min())) c = Range{32, slab_n / 32 * 32, 32};
  if (fits(c.min(), slab_h, w.min())) h.fixed = true;
  if (fits(c.min(), h.min(), W)) w.fixed = true;
  // Largest feasible values in declaration order: rows, columns, then channels.
  const int64_t hh = best_extent(h, h_part, [&](int64_t x) { return fits(c.min(), x, w.min()); });
  if (hh == 0) return std::nullopt;
  const int64_t ww = best_extent(w, w_part, [&](int64_t x) { return fits(c.min(), hh, x); });
  if (ww == 0) return std::nullopt;
  // Channels: the range's top (the slab, or its largest multiple of 32 under that hint), then
  // multiples of the step below it.
  int64_t cc = fits(c.hi, hh, ww) ? c.hi : 0;
  for (int64_t x = (c.hi - 1) / c.step * c.step; cc == 0 && x >= c.lo; x -= c.step)
    if (fits(x, hh, ww)) cc = x;
  if (cc == 0) return std::nullopt;
  L1Tiling l;
  l.n_out = cc, l.h_out = hh, l.w_out = ww;
  l.n_in = g.depthwise ? cc : g.cin;
  l.h_in = fp.in_h(hh);
  l.w_in = fp.in_w(ww);
  l.whole = cc == slab_n && hh == slab_h && ww == W;
  l.db = l.whole ? 1 : static_cast<int>(db);
  l.l1_bytes = bytes(cc, hh, ww);
  return l;
}

}  // namespace edgesim
