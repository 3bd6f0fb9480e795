// Depth-first fused pairs (NetTiling::fuse, docs/schedule.md §4.7; Stream's layer
// fusion [80]): a producer conv P and the conv C that alone consumes its output run as one step,
// tile by tile, the intermediate tensor kept in L1 and never stored in L2.
//
// The tiles are C's output rows × columns with all of C's channels (C's L1 tile: h_out, w_out,
// db). Per tile, C's input window (its rows / columns with the halo of C's kernel, clipped to the
// intermediate, all channels) is the part of P's output that P computes into the L1 buffer `mid`;
// P's own input window follows from it. Halo rows and columns shared by neighbouring tiles are
// recomputed (P's MACs count them again). Both layers' weights and constant vectors are loaded
// into L1 once, at the step's start; x (P's input window) is loaded per tile (every tile when
// double-buffered) and y stored per tile, as a layer step does (build_layer.cc).
//   per tile:  load x ─▶ compute P (x, wP, cP ─▶ mid) ─▶ compute C (mid, wC, cC ─▶ y) ─▶ store y
// Conditions (checked by check_fusion): both convs on the cluster, batch 1, 4-D; P's output read
// by C alone and not a graph output; P's input and C's output homed in L2 (no L3 slabs), neither
// layer streaming its weights. The pair computes exactly what the two layers compute (the same
// reference kernels on the same windows), so the schedule stays bit-exact.
#include <algorithm>
#include <stdexcept>

#include "compiler/schedule/build_internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/conv/cost_dw3x3_s1.h"

namespace edgesim::sched {

namespace {

struct FusedTile {
  Box y, mid, x;                 // C's output, P's output (= C's input window), P's input window
  TileParams tp, tc;             // P's and C's tile params
};

}  // namespace

std::string check_fusion(const Graph& g, int p, const std::map<int, const LayerTiling*>& tiling_of) {
  const Node& P = g.nodes.at(static_cast<size_t>(p));
  if (P.kind() != OpKind::Conv || P.engine != "cluster") return "the producer is not a cluster conv";
  if (P.outputs.size() != 1) return "the producer has several outputs";
  const int mid = P.outputs[0];
  if (std::find(g.outputs.begin(), g.outputs.end(), mid) != g.outputs.end()) return "its output is a graph output";
  int c = -1;
  for (size_t k = 0; k < g.nodes.size(); ++k)
    for (int t : g.nodes[k].inputs)
      if (t == mid) {
        if (c >= 0 && c != static_cast<int>(k)) return "its output has several consumers";
        c = static_cast<int>(k);
      }
  if (c < 0) return "its output has no consumer";
  const Node& C = g.nodes[static_cast<size_t>(c)];
  if (C.kind() != OpKind::Conv || C.engine != "cluster" || C.inputs.at(0) != mid) return "the consumer is not a cluster conv of it";
  for (size_t k = 1; k < C.inputs.size(); ++k)
    if (C.inputs[k] == mid) return "the consumer reads it twice";
  for (const int n : {p, c}) {
    const Node& x = g.nodes[static_cast<size_t>(n)];
    if (g.tensor(x.inputs[0]).shape.size() != 4 || g.tensor(x.inputs[0]).shape[0] != 1) return "not a 4-D conv of batch 1";
    if (x.inputs.size() < 2 || !g.tensor(x.inputs[1]).is_const()) return "weights are not constant";
    const auto t = tiling_of.find(n);
    if (t == tiling_of.end()) return "a layer has no tiling";
    if (t->second->l3.input_in_l3 || t->second->l3.output_in_l3 || t->second->l3.weights_in_l3)
      return "a layer of the pair is L3-tiled";
  }
  if (tiling_of.at(c)->net.fuse) return "the consumer is itself fused with its consumer (pairs only)";
  return "";
}

std::vector<int> add_l1_buffers(Schedule& s, const std::string& tag, int64_t bytes, int n, const std::string& name, int step) {
  std::vector<int> ids;
  for (int i = 0; i < n; ++i)
    ids.push_back(add_buffer(s, Level::L1, bytes, tag + "[" + std::to_string(i) + "] L1 " + name, step, step));
  return ids;
}

void load_const_vectors(StepEmitter& em, const ConstHome& h, int buf, const std::string& layer) {
  int64_t off = 0;
  for (const Region& r : h.regions) {
    Region dst = r;
    dst.buffer = buf, dst.offset = off;
    em.copy(r, dst, Box{Shape(r.shape.size(), 0), r.shape}, "cluster_dma", "load " + layer + " constants");
    off += shape_numel(r.shape) * 4;
  }
}

void emit_conv_tile(StepEmitter& em, int node, const Node& n, const TileParams& tp, const std::string& tile,
                    const ConvTileIo& io) {
  const ConvParams& cv = n.as<ConvParams>();
  const Box w_box{Shape(4, 0), io.w_home.shape};
  Command k;
  k.kind = Command::Kind::Compute;
  k.engine = "cluster";
  k.node = node;
  k.params = tp.params;
  k.note = "compute " + n.name + " tile " + tile;
  k.inputs = {view_of(io.in), view_of(sub_region(packed(io.w_l1, 0, io.w_home, w_box), tp.in_boxes[1]))};
  k.outputs = {view_of(io.out)};
  k.macs = io.out_box.numel() * (io.cin / cv.groups) * cv.kh * cv.kw;
  std::vector<int> reads{io.in_buf, io.w_l1};
  if (io.c_l1 >= 0) reads.push_back(io.c_l1);
  em.emit(std::move(k), reads, {io.out_buf});
}

int fused_consumer(const Graph& g, int p) {
  const int mid = g.nodes.at(static_cast<size_t>(p)).outputs.at(0);
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (!g.nodes[k].inputs.empty() && g.nodes[k].inputs[0] == mid) return static_cast<int>(k);
  return -1;
}

void build_fused_step(BuildContext& ctx, int p, const LayerTiling& tp, int c, const LayerTiling& tc) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  const Node& P = g.nodes.at(static_cast<size_t>(p));
  const Node& C = g.nodes.at(static_cast<size_t>(c));
  const std::string who = node_label(g, p) + " fused with " + node_label(g, c);
  const Region x_home = home_region(ctx, P.inputs[0], true);
  const Region wp_home = loop_weights_home(ctx, p, home_region(ctx, P.inputs[1], true));
  const Region wc_home = loop_weights_home(ctx, c, home_region(ctx, C.inputs[1], true));
  const Region y_home = home_region(ctx, C.outputs[0], true);
  const Shape mid_shape = to4d_shape(g.tensor(P.outputs[0]).shape);
  Region mid_like = x_home;   // P's output in L1: x's layout, its own dtype (i8 or u8)
  mid_like.dtype = g.tensor(P.outputs[0]).dtype;
  const Shape& ys = y_home.shape;

  // Tiles: C's output rows x columns, all channels.
  const int64_t th = tile_extent(tc.l1.h_out, ys[2]), tw = tile_extent(tc.l1.w_out, ys[3]);
  std::vector<FusedTile> tiles;
  for (int64_t r = 0; r < ys[2]; r += th)
    for (int64_t q = 0; q < ys[3]; q += tw) {
      FusedTile f;
      f.y = Box{{0, 0, r, q}, {1, ys[1], std::min(th, ys[2] - r), std::min(tw, ys[3] - q)}};
      try {
        f.tc = tile_params(g, C, {mid_shape, wc_home.shape}, ys, f.y);
        f.mid = f.tc.in_boxes[0];
        f.tp = tile_params(g, P, {x_home.shape, wp_home.shape}, mid_shape, f.mid);
      } catch (const std::exception& e) {
        throw std::runtime_error(who + ": " + e.what());
      }
      f.x = f.tp.in_boxes[0];
      tiles.push_back(std::move(f));
    }
  const bool dbl = tc.l1.db >= 2 && tiles.size() > 1;
  Step& step = s.steps.at(static_cast<size_t>(p));
  step.tiled = true;
  step.tiling = tp;
  step.buffering = dbl ? 2 : 1;

  // L2 homes of the constant vectors (resident, or staged from L3 for the step).
  const ConstHome cp = const_home(ctx, p, tp, mid_shape, p), cc = const_home(ctx, c, tc, ys, p);

  // L1 buffers, sized for the largest tile.
  int64_t x_max = 0, mid_max = 0, y_max = 0;
  const bool dw3x3_s1 = policy_calls_dw3x3_s1(tp.policy, *ctx.spec);   // as build_layer.cc: its zero rows
  for (const FusedTile& f : tiles) {
    x_max = std::max(x_max, region_bytes(x_home, f.x));
    if (dw3x3_s1 && std::holds_alternative<ConvParams>(f.tp.params) &&
        depthwise_3x3_s1_applies(std::get<ConvParams>(f.tp.params), f.x.ext, f.mid.ext))
      x_max = std::max(x_max, depthwise_3x3_s1_input_elements(f.x.ext, f.mid.ext) *
                                  static_cast<int64_t>(dtype_size(x_home.dtype)));
    mid_max = std::max(mid_max, region_bytes(mid_like, f.mid));
    y_max = std::max(y_max, region_bytes(y_home, f.y));
  }
  const std::string nm = P.name + "+" + C.name;
  auto l1 = [&](const std::string& tag, int64_t bytes, int n) { return add_l1_buffers(s, tag, bytes, n, nm, p); };
  const std::vector<int> x_l1 = l1("x", x_max, dbl ? 2 : 1), y_l1 = l1("y", y_max, dbl ? 2 : 1);
  const int mid_l1 = l1("mid", mid_max, 1)[0];
  const Box wp_box{Shape(4, 0), wp_home.shape}, wc_box{Shape(4, 0), wc_home.shape};
  const int wp_l1 = l1("wP", region_bytes(wp_home, wp_box), 1)[0], wc_l1 = l1("wC", region_bytes(wc_home, wc_box), 1)[0];
  const int cp_l1 = cp.bytes > 0 ? l1("cP", cp.bytes, 1)[0] : -1, cc_l1 = cc.bytes > 0 ? l1("cC", cc.bytes, 1)[0] : -1;

  StepEmitter em(ctx, step, !dbl);
  emit_const_stage(ctx, em, cp, P.name);
  emit_const_stage(ctx, em, cc, C.name);
  // Once: both weights and both layers' constant vectors into L1.
  em.copy(wp_home, packed(wp_l1, 0, wp_home, wp_box), wp_box, "cluster_dma", "load wP");
  em.copy(wc_home, packed(wc_l1, 0, wc_home, wc_box), wc_box, "cluster_dma", "load wC");
  if (cp_l1 >= 0) load_const_vectors(em, cp, cp_l1, P.name);
  if (cc_l1 >= 0) load_const_vectors(em, cc, cc_l1, C.name);
  const int64_t cin_p = x_home.shape[1], cin_c = mid_shape[1];
  Box x_prev;
  for (size_t i = 0; i < tiles.size(); ++i) {
    const FusedTile& f = tiles[i];
    const std::string ts = std::to_string(i) + "/" + std::to_string(tiles.size());
    const int xb = x_l1[i % x_l1.size()], yb = y_l1[i % y_l1.size()];
    const Region xd = packed(xb, 0, x_home, f.x);
    if (dbl || i == 0 || f.x != x_prev) em.copy(x_home, xd, f.x, "cluster_dma", "load x tile " + ts);
    x_prev = f.x;
    const Region md = packed(mid_l1, 0, mid_like, f.mid);
    emit_conv_tile(em, p, P, f.tp, ts, {xd, xb, wp_l1, wp_home, cp_l1, md, f.mid, mid_l1, cin_p});
    const Region yd = packed(yb, 0, y_home, f.y);
    emit_conv_tile(em, c, C, f.tc, ts, {md, mid_l1, wc_l1, wc_home, cc_l1, yd, f.y, yb, cin_c});
    em.copy(yd, y_home, f.y, "cluster_dma", "store y tile " + ts);
  }
  em.finish();
}

}  // namespace edgesim::sched
