// Sibling pairs (NetTiling::sibling, docs/schedule.md §4.7; horizontal fusion, e.g. an
// inception block's "3x3 reduce" and "5x5 reduce" 1x1 convs, which read the same input): a conv A
// and its sibling B — the next layer node that reads the same input tensor, a conv with the same
// kernel, stride, dilation and padding, so that every output tile reads the same input
// window — run as one step. The tiles are A's output rows x columns with all channels of both
// layers (A's L1 tile: h_out, w_out, db). Both layers' weights and constant vectors are loaded
// into L1 once, at the step's start; per tile the input window is loaded once and both layers
// compute on it:
//   per tile:  load x ─▶ compute A (x, wA, cA ─▶ yA) ─▶ compute B (x, wB, cB ─▶ yB) ─▶ store yA, yB
// Apart, each layer loads the window itself. B's step is empty: it runs at A's step, so its
// output lives from there (BuildContext::run_step). Each layer computes exactly what it computes
// alone (the same kernels on the same windows), so the schedule stays bit-exact.
#include <algorithm>
#include <stdexcept>

#include "compiler/schedule/build.h"
#include "compiler/schedule/build_internal.h"

namespace edgesim {

namespace {

bool same_window(const ConvParams& a, const ConvParams& b) {
  return a.kh == b.kh && a.kw == b.kw && a.sh == b.sh && a.sw == b.sw && a.dh == b.dh && a.dw == b.dw &&
         a.pad_t == b.pad_t && a.pad_l == b.pad_l && a.pad_b == b.pad_b && a.pad_r == b.pad_r;
}

}  // namespace

int sibling_of(const Graph& g, int a) {
  const Node& A = g.nodes.at(static_cast<size_t>(a));
  if (A.inputs.empty()) return -1;
  for (size_t k = static_cast<size_t>(a) + 1; k < g.nodes.size(); ++k)
    if (Graph::is_layer(g.nodes[k]) && !g.nodes[k].inputs.empty() && g.nodes[k].inputs[0] == A.inputs[0])
      return static_cast<int>(k);
  return -1;
}

std::string check_siblings(const Graph& g, int a, const std::map<int, const LayerTiling*>& tiling_of) {
  const int b = sibling_of(g, a);
  if (b < 0) return "no later layer reads its input";
  for (const int n : {a, b}) {
    const Node& x = g.nodes.at(static_cast<size_t>(n));
    if (x.kind() != OpKind::Conv || x.engine != "cluster") return sched::node_label(g, n) + " is not a cluster conv";
    if (x.outputs.size() != 1) return sched::node_label(g, n) + " has several outputs";
    if (g.tensor(x.inputs[0]).shape.size() != 4 || g.tensor(x.inputs[0]).shape[0] != 1) return "not a 4-D conv of batch 1";
    if (x.inputs.size() < 2 || !g.tensor(x.inputs[1]).is_const()) return "weights are not constant";
    for (size_t k = 1; k < x.inputs.size(); ++k)
      if (x.inputs[k] == x.inputs[0]) return sched::node_label(g, n) + " reads its input twice";
    const auto t = tiling_of.find(n);
    if (t == tiling_of.end()) return "a layer has no tiling";
    if (t->second->l3.input_in_l3 || t->second->l3.output_in_l3 || t->second->l3.weights_in_l3)
      return "a layer of the pair is L3-tiled";
    if (t->second->net.fuse) return sched::node_label(g, n) + " is fused with its consumer";
  }
  const Node& A = g.nodes[static_cast<size_t>(a)];
  const Node& B = g.nodes[static_cast<size_t>(b)];
  if (!same_window(A.as<ConvParams>(), B.as<ConvParams>()))
    return "the sibling reads other windows (kernel, stride, dilation or padding differ)";
  const Shape& ya = g.tensor(A.outputs[0]).shape;
  const Shape& yb = g.tensor(B.outputs[0]).shape;
  if (ya.size() != 4 || yb.size() != 4 || ya[2] != yb[2] || ya[3] != yb[3]) return "the outputs differ in rows or columns";
  if (tiling_of.at(b)->net.sibling) return "the sibling runs with a sibling of its own (pairs only)";
  return "";
}

namespace sched {

void build_sibling_step(BuildContext& ctx, int a, const LayerTiling& ta, int b, const LayerTiling& tb) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  const Node& A = g.nodes.at(static_cast<size_t>(a));
  const Node& B = g.nodes.at(static_cast<size_t>(b));
  const std::string who = node_label(g, a) + " with its sibling " + node_label(g, b);
  const Region x_home = home_region(ctx, A.inputs[0], true);
  const Region wa_home = loop_weights_home(ctx, a, home_region(ctx, A.inputs[1], true));
  const Region wb_home = loop_weights_home(ctx, b, home_region(ctx, B.inputs[1], true));
  const Region ya_home = home_region(ctx, A.outputs[0], true), yb_home = home_region(ctx, B.outputs[0], true);
  const Shape& ys = ya_home.shape;

  // Tiles: A's output rows x columns, all channels of both layers.
  struct Tile {
    Box ya, yb, x;
    TileParams ta, tb;
  };
  const int64_t th = tile_extent(ta.l1.h_out, ys[2]), tw = tile_extent(ta.l1.w_out, ys[3]);
  std::vector<Tile> tiles;
  for (int64_t r = 0; r < ys[2]; r += th)
    for (int64_t q = 0; q < ys[3]; q += tw) {
      Tile t;
      const int64_t nh = std::min(th, ys[2] - r), nw = std::min(tw, ys[3] - q);
      t.ya = Box{{0, 0, r, q}, {1, ys[1], nh, nw}};
      t.yb = Box{{0, 0, r, q}, {1, yb_home.shape[1], nh, nw}};
      try {
        t.ta = tile_params(g, A, {x_home.shape, wa_home.shape}, ys, t.ya);
        t.tb = tile_params(g, B, {x_home.shape, wb_home.shape}, yb_home.shape, t.yb);
      } catch (const std::exception& e) {
        throw std::runtime_error(who + ": " + e.what());
      }
      t.x = t.ta.in_boxes[0];
      if (t.tb.in_boxes[0] != t.x) throw std::runtime_error(who + ": the two layers read different input windows");
      tiles.push_back(std::move(t));
    }
  const bool dbl = ta.l1.db >= 2 && tiles.size() > 1;
  Step& step = s.steps.at(static_cast<size_t>(a));
  step.tiled = true;
  step.tiling = ta;
  step.buffering = dbl ? 2 : 1;

  const ConstHome ca = const_home(ctx, a, ta, ys, a), cb = const_home(ctx, b, tb, yb_home.shape, a);

  // L1 buffers, sized for the largest tile.
  int64_t x_max = 0, ya_max = 0, yb_max = 0;
  for (const Tile& t : tiles) {
    x_max = std::max(x_max, region_bytes(x_home, t.x));
    ya_max = std::max(ya_max, region_bytes(ya_home, t.ya));
    yb_max = std::max(yb_max, region_bytes(yb_home, t.yb));
  }
  const std::string nm = A.name + "|" + B.name;
  auto l1 = [&](const std::string& tag, int64_t bytes, int n) { return add_l1_buffers(s, tag, bytes, n, nm, a); };
  const int nb = dbl ? 2 : 1;
  const std::vector<int> x_l1 = l1("x", x_max, nb), ya_l1 = l1("yA", ya_max, nb), yb_l1 = l1("yB", yb_max, nb);
  const Box wa_box{Shape(4, 0), wa_home.shape}, wb_box{Shape(4, 0), wb_home.shape};
  const int wa_l1 = l1("wA", region_bytes(wa_home, wa_box), 1)[0], wb_l1 = l1("wB", region_bytes(wb_home, wb_box), 1)[0];
  const int ca_l1 = ca.bytes > 0 ? l1("cA", ca.bytes, 1)[0] : -1, cb_l1 = cb.bytes > 0 ? l1("cB", cb.bytes, 1)[0] : -1;

  StepEmitter em(ctx, step, !dbl);
  emit_const_stage(ctx, em, ca, A.name);
  emit_const_stage(ctx, em, cb, B.name);
  em.copy(wa_home, packed(wa_l1, 0, wa_home, wa_box), wa_box, "cluster_dma", "load wA");
  em.copy(wb_home, packed(wb_l1, 0, wb_home, wb_box), wb_box, "cluster_dma", "load wB");
  if (ca_l1 >= 0) load_const_vectors(em, ca, ca_l1, A.name);
  if (cb_l1 >= 0) load_const_vectors(em, cb, cb_l1, B.name);
  Box x_prev;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const Tile& t = tiles[i];
    const std::string ts = std::to_string(i) + "/" + std::to_string(tiles.size());
    const int xb = x_l1[i % x_l1.size()], yab = ya_l1[i % ya_l1.size()], ybb = yb_l1[i % yb_l1.size()];
    const Region xd = packed(xb, 0, x_home, t.x);
    if (dbl || i == 0 || t.x != x_prev) em.copy(x_home, xd, t.x, "cluster_dma", "load x tile " + ts);
    x_prev = t.x;
    const Region yad = packed(yab, 0, ya_home, t.ya), ybd = packed(ybb, 0, yb_home, t.yb);
    const int64_t cin = x_home.shape[1];
    emit_conv_tile(em, a, A, t.ta, ts, {xd, xb, wa_l1, wa_home, ca_l1, yad, t.ya, yab, cin});
    emit_conv_tile(em, b, B, t.tb, ts, {xd, xb, wb_l1, wb_home, cb_l1, ybd, t.yb, ybb, cin});
    em.copy(yad, ya_home, t.ya, "cluster_dma", "store yA tile " + ts);
    em.copy(ybd, yb_home, t.yb, "cluster_dma", "store yB tile " + ts);
  }
  em.finish();
}

}  // namespace sched
}  // namespace edgesim
