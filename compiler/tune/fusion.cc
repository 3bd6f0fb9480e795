// Fusion candidates and their evaluation (fusion.h).
#include "compiler/budget/memory.h"
#include "platforms/util/printable.h"
#include "compiler/tune/fusion.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/conv/cost_dw3x3_s1.h"

namespace edgesim {

namespace {

bool cluster_conv(const Node& n) { return n.kind() == OpKind::Conv && n.engine == "cluster"; }

// The consumer of p's output when that is a single cluster conv reading it as its input.
int pair_consumer(const Graph& g, int p) {
  const Node& P = g.nodes.at(static_cast<size_t>(p));
  if (!cluster_conv(P) || P.outputs.size() != 1) return -1;
  const int mid = P.outputs[0];
  if (std::find(g.outputs.begin(), g.outputs.end(), mid) != g.outputs.end()) return -1;
  int c = -1;
  for (size_t k = 0; k < g.nodes.size(); ++k)
    for (int t : g.nodes[k].inputs)
      if (t == mid) {
        if (c >= 0) return -1;
        c = static_cast<int>(k);
      }
  if (c < 0 || !cluster_conv(g.nodes[static_cast<size_t>(c)]) || g.nodes[static_cast<size_t>(c)].inputs[0] != mid) return -1;
  for (int n : {p, c}) {
    const Node& x = g.nodes[static_cast<size_t>(n)];
    const Shape& s = g.tensor(x.inputs[0]).shape;
    if (s.size() != 4 || s[0] != 1 || x.inputs.size() < 2 || !g.tensor(x.inputs[1]).is_const()) return -1;
  }
  return c;
}

int64_t bytes(const TensorDesc& t, int64_t elems) { return elems * static_cast<int64_t>(dtype_size(t.dtype)); }

}  // namespace

std::pair<int64_t, int64_t> input_window(int64_t o0, int64_t no, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in) {
  const int64_t is = o0 * s - pad, ie = (o0 + no - 1) * s - pad + (k - 1) * d + 1;
  const int64_t lo = std::max<int64_t>(is, 0), hi = std::min(ie, in);
  return {lo, std::max<int64_t>(hi - lo, 0)};
}

int64_t conv_const_bytes(const ConvParams& p) {
  int64_t b = 0;
  for (size_t n : {p.bias.size(), p.w_zp.size(), p.rq.k.size(), p.rq.lambda.size(), p.rq.scale.size()})
    if (n > 1) b += static_cast<int64_t>(n) * 4;
  return b;
}

std::vector<PairTile> pair_tiles(const Shape& ys, const std::function<int64_t(int64_t, int64_t, int)>& footprint,
                                 int64_t budget) {
  std::set<int64_t> rows;
  for (int64_t h = 1; h <= std::min<int64_t>(ys[2], 16); ++h) rows.insert(h);
  for (int64_t k = 1; k <= ys[2]; ++k)
    if (ys[2] % k == 0) rows.insert(k);
  std::vector<PairTile> tiles;
  for (auto h = rows.rbegin(); h != rows.rend(); ++h)
    for (int64_t d : {1, 2, 4, 8}) {
      const int64_t w = (ys[3] + d - 1) / d;
      if (d > 1 && w == (ys[3] + d / 2 - 1) / (d / 2)) continue;   // the same width again
      for (int db : {2, 1})
        if (footprint(*h, w, db) <= budget) tiles.push_back({*h, w, db});
    }
  // Largest tiles first (fewer halo rows recomputed, fewer per-tile costs), double buffering first.
  std::stable_sort(tiles.begin(), tiles.end(), [](const PairTile& a, const PairTile& b) {
    return std::tuple(a.h * a.w, a.db, a.h) > std::tuple(b.h * b.w, b.db, b.h);
  });
  return tiles;
}

bool evaluate_pair(FusionChoice& f, const Graph& pair, const std::vector<NetPlan>& plans,
                   const std::vector<PairTile>& tiles, const PlatformSpec& spec, NetworkEvaluator& net) {
  const std::vector<int64_t> v = net.evaluate(pair, plans, spec);
  f.apart = v[0];
  f.simulated = plans.size();
  for (size_t k = 1; k < plans.size(); ++k) {
    f.est.push_back(-tiles[k - 1].h * tiles[k - 1].w);
    f.sim.push_back(v[k]);
    if (v[k] >= 0 && (f.fused < 0 || v[k] < f.fused)) {
      f.fused = v[k];
      f.p = plans[k][0], f.c = plans[k][1];
      f.p.node = f.producer, f.c.node = f.consumer;
    }
  }
  return f.fused >= 0 && (f.apart < 0 || f.fused < f.apart);
}

int64_t fused_l1_footprint(const Graph& g, const PlatformSpec& spec, int p, int c, int64_t h, int64_t w, int db) {
  const Node& P = g.nodes.at(static_cast<size_t>(p));
  const Node& C = g.nodes.at(static_cast<size_t>(c));
  const ConvParams& pp = P.as<ConvParams>();
  const ConvParams& cp = C.as<ConvParams>();
  const TensorDesc& x = g.tensor(P.inputs[0]);
  const TensorDesc& mid = g.tensor(P.outputs[0]);
  const TensorDesc& y = g.tensor(C.outputs[0]);
  const int64_t Hx = x.shape[2], Wx = x.shape[3], Cx = x.shape[1];
  const int64_t Hm = mid.shape[2], Wm = mid.shape[3], Cm = mid.shape[1];
  const int64_t Hy = y.shape[2], Wy = y.shape[3], Cy = y.shape[1];
  h = std::min(h, Hy), w = std::min(w, Wy);
  const bool s1 = policy_calls_dw3x3_s1("tuned", spec);
  int64_t x_max = 0, m_max = 0, y_max = 0, tiles = 0;
  for (int64_t r = 0; r < Hy; r += h)
    for (int64_t q = 0; q < Wy; q += w) {
      const int64_t nh = std::min(h, Hy - r), nw = std::min(w, Wy - q);
      const auto mr = input_window(r, nh, cp.kh, cp.sh, cp.dh, cp.pad_t, Hm);
      const auto mc = input_window(q, nw, cp.kw, cp.sw, cp.dw, cp.pad_l, Wm);
      const auto xr = input_window(mr.first, mr.second, pp.kh, pp.sh, pp.dh, pp.pad_t, Hx);
      const auto xc = input_window(mc.first, mc.second, pp.kw, pp.sw, pp.dw, pp.pad_l, Wx);
      x_max = std::max(x_max, bytes(x, Cx * xr.second * xc.second));
      if (s1 && depthwise_3x3_s1_applies(pp, {1, Cx, Hx, Wx}, {1, Cm, Hm, mc.second}))   // the tuned flow's kernel
        x_max = std::max(x_max, bytes(x, depthwise_3x3_s1_input_elements({1, Cx, xr.second, Wx}, {1, Cm, mr.second, Wx})));
      m_max = std::max(m_max, bytes(mid, Cm * mr.second * mc.second));
      y_max = std::max(y_max, bytes(y, Cy * nh * nw));
      ++tiles;
    }
  const int n = db >= 2 && tiles > 1 ? 2 : 1;
  std::vector<int64_t> bufs;
  for (int i = 0; i < n; ++i) bufs.push_back(x_max), bufs.push_back(y_max);
  bufs.push_back(m_max);
  bufs.push_back(bytes(g.tensor(P.inputs[1]), shape_numel(g.tensor(P.inputs[1]).shape)));
  bufs.push_back(bytes(g.tensor(C.inputs[1]), shape_numel(g.tensor(C.inputs[1]).shape)));
  bufs.push_back(conv_const_bytes(pp));
  bufs.push_back(conv_const_bytes(cp));
  return l1_high_water(std::move(bufs));
}

Graph chain_subgraph(const Graph& g, const std::vector<int>& nodes) {
  Graph s;
  s.name = g.name + ":chain";
  s.dialect = g.dialect;
  std::map<int, int> id;
  std::set<int> written, read;
  for (int n : nodes)
    for (int t : g.nodes.at(static_cast<size_t>(n)).outputs) written.insert(t);
  auto take = [&](int t) {
    const auto it = id.find(t);
    if (it != id.end()) return it->second;
    return id[t] = s.add_tensor(g.tensor(t));
  };
  for (int n : nodes) {
    Node m = g.nodes.at(static_cast<size_t>(n));
    for (int& t : m.inputs) {
      const bool fresh = !id.count(t);
      read.insert(t);
      const int old = t;
      t = take(t);
      if (fresh && !written.count(old) && !g.tensor(old).is_const()) s.inputs.push_back(t);
    }
    for (int& t : m.outputs) t = take(t);
    s.nodes.push_back(std::move(m));
  }
  for (int t : written)
    if (!read.count(t) || std::find(g.outputs.begin(), g.outputs.end(), t) != g.outputs.end()) s.outputs.push_back(id.at(t));
  s.validate();
  return s;
}

std::vector<FusionChoice> tune_fusion(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& chain,
                                      bool consts_l3, NetworkEvaluator& net, size_t per_pair) {
  std::map<int, size_t> at;
  for (size_t i = 0; i < chain.size(); ++i) at[chain[i].node] = i;
  const int64_t l1_budget = policy_budgets(spec, "tuned").l1;
  std::vector<FusionChoice> out;
  for (size_t i = 0; i < chain.size(); ++i) {
    const int p = chain[i].node;
    const int c = pair_consumer(g, p);
    if (c < 0 || !at.count(c)) continue;
    const LayerTiling& tp = chain[i];
    const LayerTiling& tc = chain[at.at(c)];
    if (tp.l3.weights_in_l3 || tc.l3.weights_in_l3 || tp.l3.input_in_l3 || tc.l3.output_in_l3) continue;
    check_resident("tune: fusing '" + printable(g.nodes[static_cast<size_t>(p)].name) + "'");
    FusionChoice f;
    f.producer = p, f.consumer = c, f.p_index = i, f.c_index = at.at(c);
    const Shape& ys = g.tensor(g.nodes[static_cast<size_t>(c)].outputs[0]).shape;
    std::vector<PairTile> tiles = pair_tiles(
        ys, [&](int64_t h, int64_t w, int db) { return fused_l1_footprint(g, spec, p, c, h, w, db); }, l1_budget);
    f.candidates = tiles.size();
    if (tiles.empty()) continue;
    if (tiles.size() > per_pair) tiles.resize(per_pair);
    const Graph pair = chain_subgraph(g, {p, c});
    auto local = [&](LayerTiling t, int node) {
      t.node = node;
      t.net = NetTiling{};
      t.net.consts_l3 = consts_l3;
      return t;
    };
    std::vector<NetPlan> plans{{local(tp, 0), local(tc, 1)}};
    for (const PairTile& t : tiles) {
      LayerTiling a = local(tp, 0), b = local(tc, 1);
      a.l3 = L3Tiling{}, b.l3 = L3Tiling{};
      a.l3.n_out = layer_geom(g, p).cout, b.l3.n_out = ys[1];
      a.net.fuse = true;
      b.l1.n_out = ys[1], b.l1.h_out = t.h, b.l1.w_out = t.w, b.l1.db = t.db, b.l1.whole = false;
      b.l1.l1_bytes = fused_l1_footprint(g, spec, p, c, t.h, t.w, t.db);
      plans.push_back({a, b});
    }
    if (evaluate_pair(f, pair, plans, tiles, spec, net)) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace edgesim
