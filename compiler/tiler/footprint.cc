// The L1 footprint of a layer's tile (footprint.h).
//
// l1_footprint mirrors compiler/schedule/build_layer.cc and the first-fit planner
// (docs/schedule.md §4.2, §6): buffers x, x2 (Add), w (Conv / Gemm), c (constant vectors, 4 B
// per entry) and y, each sized for its largest tile (tiles are the product of the Cout, H and W
// tile lists, so the largest box is the product of the per-dimension maxima), `db` copies each
// when the step double-buffers (more than one tile per slab and not `whole`; w and c only when
// they are loaded more than once, i.e. more than one Cout tile), placed largest first at 8-byte
// aligned offsets: high water = Σ align8(all but the smallest) + the smallest. Exact for a
// layer that is not L3-tiled; on an L3 slab geometry (interior slab, no H padding) it is the
// interior slab's footprint. Not seen by the geometry: per-channel weight zero points (an extra
// constant vector) and broadcast Add operands (counted at full size).
//
#include "compiler/tiler/footprint.h"

#include <algorithm>
#include <functional>

#include "compiler/tiler/tile_walk.h"
#include "kernels/conv/cost_dw3x3_s1.h"

namespace edgesim {

namespace {

using tile_walk::dim_tiles;

int64_t pick_ext(int64_t v, int64_t full) { return v <= 0 ? full : std::min(v, full); }
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t align8(int64_t v) { return (v + 7) / 8 * 8; }

// Largest input window along one dimension over the tiles of [0, out) in tiles of t.
int64_t max_window(int64_t out, int64_t t, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in) {
  const tile_walk::DimTiles dt = dim_tiles(0, out, t, k, s, d, pad, in);
  int64_t m = 0;
  for (const tile_walk::Kind& kd : dt.kinds) m = std::max(m, kd.in_n);
  return m;
}

}  // namespace

// First-fit high water of buffers that all live for the same step.
int64_t l1_high_water(std::vector<int64_t> bytes) {
  bytes.erase(std::remove(bytes.begin(), bytes.end(), 0), bytes.end());
  if (bytes.empty()) return 0;
  std::sort(bytes.begin(), bytes.end(), std::greater<>());
  int64_t off = 0;
  for (size_t i = 0; i + 1 < bytes.size(); ++i) off = align8(off + bytes[i]);
  return off + bytes.back();
}

namespace {

// reloads_per_slab: the weights / constants are reloaded at every L2 slab (several Cout slabs of
// an L3-tiled layer), which the slab geometry alone cannot show.
int64_t footprint(const LayerGeom& s, const L1Tiling& t, int db, bool reloads_per_slab, bool dw3x3_s1) {
  const bool gemm = s.kind == OpKind::Gemm;
  const int64_t C = s.cout, H = s.h_out, W = gemm || s.rows ? 1 : s.w_out;
  const int64_t tc = t.whole ? C : pick_ext(t.n_out, C);
  const int64_t th = t.whole ? H : pick_ext(t.h_out, H);
  const int64_t tw = t.whole ? W : pick_ext(t.w_out, W);
  const int64_t nct = cdiv(C, tc), per_slab = nct * cdiv(H, th) * cdiv(W, tw);
  const bool dbl = db >= 2 && !t.whole && per_slab > 1;
  auto bytes = [](int64_t elems, int bits) { return (elems * bits + 7) / 8; };

  int64_t x = 0, x2 = 0, w = 0;
  if (s.rows) {   // whole rows: x (and x2) as the output tile
    x = bytes(tc * th, s.bx);
    if (s.inputs() > 1) x2 = bytes(tc * th, s.bx2);
  } else if (gemm) {
    x = bytes(th * s.cin, s.bx);
    w = bytes(tc * s.cin, s.bw);
  } else {
    const int64_t rows = max_window(H, th, s.kh, s.sh, s.dh, s.pt, s.h_in);
    const int64_t cols = max_window(W, tw, s.kw, s.sw, s.dw, s.pl, s.w_in);
    int64_t ch = tc;
    if (s.kind == OpKind::Conv && !s.depthwise) {
      const int64_t g = std::max<int64_t>(s.groups, 1);
      ch = g > 1 ? tc / std::max<int64_t>(s.cout / g, 1) * (s.cin / g) : s.cin;
    }
    if (s.eltwise()) {
      x = bytes(tc * th * tw, s.bx);
      if (s.inputs() > 1) x2 = bytes(tc * th * tw, s.bx2);
    } else {
      x = bytes(ch * rows * cols, s.bx);
      if (dw3x3_s1 && runs_dw3x3_s1(s, tw))   // its zero rows
        x = std::max(x, bytes(depthwise_3x3_s1_input_elements({1, ch, rows, cols}, {1, ch, th, tw}), s.bx));
    }
    if (s.kind == OpKind::Conv)
      w = bytes(tc * (s.cin / std::max<int64_t>(s.groups, 1)) * s.kh * s.kw, s.bw);
  }
  const int64_t y = bytes(tc * th * tw, s.by);
  const int64_t vecs = (s.has_bias && (s.kind == OpKind::Conv || gemm) && C > 1 ? 1 : 0) + s.n_c;
  const int64_t c = vecs * tc * 4;
  // w / c are reloaded per Cout tile (and per batch matrix for a runtime Gemm B).
  const bool w_many = nct > 1 || reloads_per_slab || (gemm && !s.weights_const && s.batch > 1);
  const int64_t nx = dbl ? 2 : 1, nw = dbl && w_many ? 2 : 1, nc = dbl && (nct > 1 || reloads_per_slab) ? 2 : 1;
  std::vector<int64_t> bufs;
  for (int64_t i = 0; i < nx; ++i) bufs.push_back(x);
  for (int64_t i = 0; i < nx && x2 > 0; ++i) bufs.push_back(x2);
  for (int64_t i = 0; i < nw && w > 0; ++i) bufs.push_back(w);
  for (int64_t i = 0; i < nx; ++i) bufs.push_back(y);
  for (int64_t i = 0; i < nc && c > 0; ++i) bufs.push_back(c);
  if (s.transient > 0) bufs.push_back(s.transient);   // not allocated by the builder; reserved
  return l1_high_water(std::move(bufs));
}

}  // namespace

int64_t l1_footprint(const LayerGeom& s, const L1Tiling& t, int db, bool dw3x3_s1, bool reloads_per_slab) {
  return footprint(s, t, db, reloads_per_slab, dw3x3_s1);
}

bool runs_dw3x3_s1(const LayerGeom& g, int64_t tile_w) {
  if (g.kind != OpKind::Conv || !g.depthwise) return false;
  ConvParams p;
  p.kh = g.kh, p.kw = g.kw, p.sh = g.sh, p.sw = g.sw, p.dh = g.dh, p.dw = g.dw;
  p.pad_t = g.pt, p.pad_l = g.pl, p.pad_b = g.pb, p.pad_r = g.pr;
  p.groups = g.groups;
  return depthwise_3x3_s1_applies(p, {1, g.cin, g.h_in, g.w_in}, {1, g.cout, g.h_out, tile_w});
}

}  // namespace edgesim
