// Policy `deeploy` (docs/tiling.md "Policy `deeploy`"): largest tiles that fit, decided greedily in
// Deeploy's declaration order (input tile dims first — rows, then columns — then the weight /
// output channel tile), each value largest-first with a feasibility look-ahead (the remaining
// variables at their smallest legal values). Memory per level: Σ ceil4(bytes)·coefficient,
// coefficient db for every tile buffer and 1 for transient buffers (im2col): db is the schedule's
// L1 buffering when it is given (TilingContext::buffering — Deeploy's SBTiler sizes every buffer
// once, its DBTiler tile buffers twice, [9] testUtils/tilingUtils.py), else 2 (the double-buffer
// loop; 1 on platforms whose DMA only single-buffers). For the first layer of the network the
// pattern objective (total tile bytes) is maximised over all legal tiles; ties go to the greedy
// order (larger rows, columns, channels).
//
// Operator constraints: conv — all input channels, Cout tile and its remainder ≥ 8 when
// Cout ≥ 8; depthwise — output tile ≥ 1 + max pad per spatial dim, channel tile a multiple of
// 4 when its input is in L3; GEMM/MatMul — K never split, N tile a multiple of 16 when N ≥ 16;
// rows layers (softmax, norms, activations on sequences) — the last axis whole, iSoftmax's row
// scratch with coefficient 1 (kernels/softmax/constraints.h).
// Deviation (docs/tiling.md): input tiles are exactly (h_out − 1)·sh + keh rows (clipped to the
// input); Deeploy's "input tile divisible by the stride" rounding is not applied.
// L3->L2: the whole layer in L2 when Σ ceil4 of its tensors fits; otherwise output rows and
// then output channels, largest first, with coefficient 2 for every buffer.
#include <array>

#include <fmt/format.h>

#include "kernels/conv/constraints.h"
#include "kernels/gemm/constraints.h"
#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

int64_t c4(int64_t bytes) { return (bytes + 3) / 4 * 4; }

// Tile space of one layer in declaration order: rows (h_out), columns (w_out), channels (n_out).
struct Space {
  std::vector<int64_t> h, w, n;
  std::function<int64_t(int64_t, int64_t, int64_t)> mem;   // on values
  bool empty() const { return h.empty() || w.empty() || n.empty(); }
  int64_t min_mem() const { return empty() ? -1 : mem(h.front(), w.front(), n.front()); }
};

std::vector<int64_t> range(int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t x = std::max<int64_t>(lo, 1); x <= hi; ++x) v.push_back(x);
  return v;
}

int64_t in_rows(int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t d, int64_t s) {
  if (out >= full_out) return full_in;
  return std::min(full_in, (out - 1) * s + keff(k, d));
}

Space make_space(const LayerGeom& s, const Budgets& b, bool input_in_l3) {
  Space sp;
  const int64_t db = b.db;
  sp.w = range(1, s.w_out);
  if (s.kind == OpKind::Gemm) {
    sp.h = range(1, s.h_out);
    sp.w = {1};
    const GemmTileRules rules = cluster_gemm_rules();
    for (int64_t n = 1; n <= s.cout; ++n)
      if (gemm_n_tile_ok(rules, s.cout, n)) sp.n.push_back(n);
    const int64_t consts = (s.has_bias ? 1 : 0) + s.n_c;
    sp.mem = [&s, db, consts](int64_t h, int64_t, int64_t n) {
      return db * (c4(bits_to_bytes(h * s.cin, s.bx)) + c4(bits_to_bytes(s.cin * n, s.bw)) +
                   c4(bits_to_bytes(h * n, s.by)) + consts * c4(bits_to_bytes(n, s.cb)));
    };
    return sp;
  }
  if (s.rows) {   // whole rows of the last axis (softmax / norm tile constraints), scratch coefficient 1
    sp.h = range(1, s.h_out);
    sp.w = {1};
    sp.n = {s.cout};
    sp.mem = [&s, db](int64_t h, int64_t, int64_t n) {
      return db * (c4(bits_to_bytes(n * h, s.bx)) + (s.inputs() > 1 ? c4(bits_to_bytes(n * h, s.bx2)) : 0) +
                   c4(bits_to_bytes(n * h, s.by)) + s.n_c * c4(bits_to_bytes(n, s.cb))) +
             c4(s.transient);
    };
    return sp;
  }
  if (s.eltwise()) {
    sp.h = range(1, s.h_out);
    sp.n = range(1, s.cout);
    sp.mem = [&s, db](int64_t h, int64_t w, int64_t n) {
      return db * (c4(bits_to_bytes(n * h * w, s.bx)) + (s.inputs() > 1 ? c4(bits_to_bytes(n * h * w, s.bx2)) : 0) +
                   c4(bits_to_bytes(n * h * w, s.by)));
    };
    return sp;
  }
  const bool conv = s.kind == OpKind::Conv;
  const bool dw = s.depthwise;
  // The kernels' own tile rules (kernels/conv/constraints.h).
  const ConvTileRules rules = cluster_conv_rules();
  const int64_t hmin = conv && dw ? dw_min_extent(rules, s.h_out, s.pt, s.pb) : 1;
  const int64_t wmin = conv && dw ? dw_min_extent(rules, s.w_out, s.pl, s.pr) : 1;
  sp.h = range(hmin, s.h_out);
  sp.w = range(wmin, s.w_out);
  const int64_t dw_mult = rules.dw_l3_channel_multiple;
  if (conv && !dw) {
    for (int64_t n = 1; n <= s.cout; ++n)
      if (conv_cout_tile_ok(rules, s.cout, n)) sp.n.push_back(n);
  } else if (conv && dw && input_in_l3 && s.cout >= dw_mult) {
    for (int64_t n = dw_mult; n <= s.cout; n += dw_mult) sp.n.push_back(n);
  } else {
    sp.n = range(1, s.cout);
  }
  const int64_t per_out = dw ? 1 : s.cin / std::max<int64_t>(1, s.groups);
  const int64_t nc = b.nc;
  sp.mem = [&s, db, conv, dw, per_out, nc](int64_t h, int64_t w, int64_t n) {
    const int64_t hi = in_rows(h, s.h_out, s.h_in, s.kh, s.dh, s.sh);
    const int64_t wi = in_rows(w, s.w_out, s.w_in, s.kw, s.dw, s.sw);
    const int64_t nin = dw ? n : s.cin;
    int64_t m = db * (c4(bits_to_bytes(nin * hi * wi, s.bx)) + c4(bits_to_bytes(n * h * w, s.by)) +
                      s.n_c * c4(bits_to_bytes(n, s.cb)));
    if (!conv) return m;
    m += db * (c4(bits_to_bytes(n * per_out * s.kh * s.kw, s.bw)) + (s.has_bias ? c4(bits_to_bytes(n, s.bb)) : 0));
    if (dw) m += c4(nc * (s.kh * (hi + s.pt + s.pb) + s.kh));         // transient, coefficient 1
    else if (!s.fc) m += c4(2 * nc * s.kh * s.kw * s.cin);            // PULP-NN int8 im2col
    return m;
  };
  return sp;
}

// Greedy largest-first with look-ahead; optionally the max-total-bytes tile (first pattern).
std::optional<std::array<int64_t, 3>> solve(const Space& sp, int64_t budget, bool maximise) {
  if (sp.empty() || sp.min_mem() > budget) return std::nullopt;
  std::array<int64_t, 3> r{sp.h.front(), sp.w.front(), sp.n.front()};
  for (auto it = sp.h.rbegin(); it != sp.h.rend(); ++it)
    if (sp.mem(*it, sp.w.front(), sp.n.front()) <= budget) { r[0] = *it; break; }
  for (auto it = sp.w.rbegin(); it != sp.w.rend(); ++it)
    if (sp.mem(r[0], *it, sp.n.front()) <= budget) { r[1] = *it; break; }
  for (auto it = sp.n.rbegin(); it != sp.n.rend(); ++it)
    if (sp.mem(r[0], r[1], *it) <= budget) { r[2] = *it; break; }
  if (!maximise) return r;
  int64_t best = sp.mem(r[0], r[1], r[2]);
  for (int64_t h : sp.h)
    for (int64_t w : sp.w) {
      if (sp.mem(h, w, sp.n.front()) > budget) break;
      for (auto it = sp.n.rbegin(); it != sp.n.rend(); ++it) {
        const int64_t m = sp.mem(h, w, *it);
        if (m > budget) continue;
        const std::array<int64_t, 3> c{h, w, *it};
        if (m > best || (m == best && c > r)) { best = m; r = c; }
        break;   // smaller channel counts of this (h, w) use less memory
      }
    }
  return r;
}

class DeeployPolicy : public TilingPolicy {
 public:
  std::string name() const override { return "deeploy"; }

  LayerTiling tile(const LayerGeom& g, const TilingContext& ctx) const override {
    if (!ctx.spec) throw TilingError("tiling needs a platform", g.node);
    Budgets b = deeploy_tiler_budgets(*ctx.spec, ctx.buffering);
    b.l1 -= ctx.l1_slack;
    LayerTiling t;
    t.node = g.node;
    t.policy = name();
    t.l3 = l3_decision(g, b, ctx);
    const LayerGeom s = slab_geom(g, t.l3);
    const Space sp = make_space(s, b, (ctx.input_in_l3 && b.l3 > 0) || t.l3.input_in_l3);
    const bool first = ctx.graph && !ctx.graph->layer_nodes().empty() && ctx.graph->layer_nodes().front() == g.node;
    const auto r = solve(sp, b.l1, first);
    if (!r) {
      const int64_t need = sp.min_mem();
      throw TilingError(fmt::format("{}: no L2->L1 tiling fits the L1 budget of {} B under policy deeploy{}",
                                    layer_label(ctx.graph, g), b.l1,
                                    need > 0 ? fmt::format("; minimal memory requirement violated, please "
                                                           "increase L1 to at least {} B", need) : ""),
                        g.node, "L1", need);
    }
    L1Tiling& l = t.l1;
    l.h_out = (*r)[0]; l.w_out = (*r)[1]; l.n_out = (*r)[2];
    const bool same = s.kind == OpKind::Gemm || s.rows || s.eltwise();   // input tile = output tile rows
    l.h_in = same ? l.h_out : in_rows(l.h_out, s.h_out, s.h_in, s.kh, s.dh, s.sh);
    l.w_in = same ? l.w_out : in_rows(l.w_out, s.w_out, s.w_in, s.kw, s.dw, s.sw);
    l.n_in = s.depthwise || s.rows || s.eltwise() ? l.n_out : s.cin;
    l.db = b.db;
    l.whole = l.h_out == s.h_out && l.w_out == s.w_out && l.n_out == s.cout;
    l.l1_bytes = sp.mem(l.h_out, l.w_out, l.n_out);
    return t;
  }

 private:
  L3Tiling l3_decision(const LayerGeom& g, const Budgets& b, const TilingContext& ctx) const {
    L3Tiling t;
    t.n_out = g.cout; t.h_out = g.h_out; t.h_in = g.h_in;
    const int64_t whole = g.batch * (c4(g.in_bytes()) + c4(g.out_bytes()) +
                                     (g.inputs() > 1 ? c4(bits_to_bytes(g.cin * g.h_in * g.w_in, g.bx2)) : 0)) +
                          c4(g.weight_bytes()) + (g.has_bias ? c4(bits_to_bytes(g.cout, g.bb)) : 0) +
                          g.n_c * c4(bits_to_bytes(g.cout, g.cb));
    if (whole <= b.l2) return t;
    // Rows first (input dims are declared first), then channels; coefficient 2 everywhere.
    Budgets l2b = b;
    l2b.db = 2;
    LayerGeom full = g;
    Space sp = make_space(full, l2b, ctx.input_in_l3);
    auto l2mem = [&](int64_t h, int64_t n) {   // without the L1-only transient buffers
      const int64_t hi = in_rows(h, g.h_out, g.h_in, g.kh, g.dh, g.sh);
      const int64_t per_out = g.depthwise ? 1 : g.cin / std::max<int64_t>(1, g.groups);
      const int64_t nin = g.depthwise ? n : g.cin;
      return 2 * (c4(bits_to_bytes(nin * hi * g.w_in, g.bx)) + c4(bits_to_bytes(n * h * g.w_out, g.by)) +
                  (g.kind == OpKind::Pool ? 0 : c4(bits_to_bytes(n * per_out * g.kh * g.kw, g.bw))) +
                  ((g.has_bias ? 1 : 0) + g.n_c) * c4(bits_to_bytes(n, g.cb)));
    };
    const int64_t nmin = sp.n.empty() ? 1 : sp.n.front();
    const bool whole_only = g.batch > 1 || g.rows || g.eltwise() || b.l3 <= 0;   // no L3: all in L2
    if (whole_only || l2mem(1, nmin) > b.l2) {
      const int64_t need = whole_only ? whole : l2mem(1, nmin);
      throw TilingError(fmt::format("{}: no L3->L2 tiling fits the L2 budget of {} B under policy deeploy; "
                                    "minimal memory requirement violated, please increase L2 to at least {} B",
                                    layer_label(ctx.graph, g), b.l2, need),
                        g.node, "L2", need);
    }
    int64_t h = 1, n = nmin;
    for (int64_t x = g.h_out; x >= 1; --x) if (l2mem(x, nmin) <= b.l2) { h = x; break; }
    for (auto it = sp.n.rbegin(); it != sp.n.rend(); ++it) if (l2mem(h, *it) <= b.l2) { n = *it; break; }
    t.n_out = n;
    t.h_out = h;
    t.h_in = in_rows(h, g.h_out, g.h_in, g.kh, g.dh, g.sh);
    t.weights_in_l3 = g.kind != OpKind::Pool && n < g.cout;
    t.input_in_l3 = ctx.input_in_l3 || h < g.h_out;   // (b.l3 > 0 here)
    t.output_in_l3 = h < g.h_out || n < g.cout;
    t.db_x = t.db_w = t.db_o = 2;
    return t;
  }
};

}  // namespace

std::unique_ptr<TilingPolicy> make_deeploy_policy() { return std::make_unique<DeeployPolicy>(); }

}  // namespace edgesim
