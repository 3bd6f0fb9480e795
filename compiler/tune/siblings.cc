// Sibling candidates and their evaluation (siblings.h).
#include "compiler/tune/siblings.h"

#include <algorithm>
#include <map>

#include "compiler/schedule/build.h"
#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"

namespace edgesim {

namespace {

int64_t bytes(const TensorDesc& t, int64_t elems) { return elems * static_cast<int64_t>(dtype_size(t.dtype)); }

}  // namespace

int64_t sibling_l1_footprint(const Graph& g, int a, int b, int64_t h, int64_t w, int db) {
  const Node& A = g.nodes.at(static_cast<size_t>(a));
  const Node& B = g.nodes.at(static_cast<size_t>(b));
  const ConvParams& p = A.as<ConvParams>();
  const TensorDesc& x = g.tensor(A.inputs[0]);
  const TensorDesc& ya = g.tensor(A.outputs[0]);
  const TensorDesc& yb = g.tensor(B.outputs[0]);
  const int64_t Hy = ya.shape[2], Wy = ya.shape[3];
  h = std::min(h, Hy), w = std::min(w, Wy);
  int64_t x_max = 0, a_max = 0, b_max = 0, tiles = 0;
  for (int64_t r = 0; r < Hy; r += h)
    for (int64_t q = 0; q < Wy; q += w) {
      const int64_t nh = std::min(h, Hy - r), nw = std::min(w, Wy - q);
      const int64_t xr = input_window(r, nh, p.kh, p.sh, p.dh, p.pad_t, x.shape[2]).second;
      const int64_t xc = input_window(q, nw, p.kw, p.sw, p.dw, p.pad_l, x.shape[3]).second;
      x_max = std::max(x_max, bytes(x, x.shape[1] * xr * xc));
      a_max = std::max(a_max, bytes(ya, ya.shape[1] * nh * nw));
      b_max = std::max(b_max, bytes(yb, yb.shape[1] * nh * nw));
      ++tiles;
    }
  const int n = db >= 2 && tiles > 1 ? 2 : 1;
  std::vector<int64_t> bufs;
  for (int i = 0; i < n; ++i) bufs.push_back(x_max), bufs.push_back(a_max), bufs.push_back(b_max);
  for (const Node* N : {&A, &B}) {
    bufs.push_back(bytes(g.tensor(N->inputs[1]), shape_numel(g.tensor(N->inputs[1]).shape)));
    bufs.push_back(conv_const_bytes(N->as<ConvParams>()));
  }
  return l1_high_water(std::move(bufs));
}

std::vector<FusionChoice> tune_siblings(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& chain,
                                        bool consts_l3, NetworkEvaluator& net, size_t per_pair) {
  std::map<int, size_t> at;
  std::map<int, const LayerTiling*> tiling_of;
  for (size_t i = 0; i < chain.size(); ++i) at[chain[i].node] = i, tiling_of[chain[i].node] = &chain[i];
  const int64_t l1_budget = policy_budgets(spec, "tuned").l1;
  std::vector<FusionChoice> out;
  for (size_t i = 0; i < chain.size(); ++i) {
    const int a = chain[i].node;
    const int b = sibling_of(g, a);
    if (b < 0 || !at.count(b) || !check_siblings(g, a, tiling_of).empty()) continue;
    const LayerTiling& ta = chain[i];
    const LayerTiling& tb = chain[at.at(b)];
    FusionChoice f;
    f.producer = a, f.consumer = b, f.p_index = i, f.c_index = at.at(b);
    const Shape& ya = g.tensor(g.nodes[static_cast<size_t>(a)].outputs[0]).shape;
    const Shape& yb = g.tensor(g.nodes[static_cast<size_t>(b)].outputs[0]).shape;
    std::vector<PairTile> tiles = pair_tiles(
        ya, [&](int64_t h, int64_t w, int db) { return sibling_l1_footprint(g, a, b, h, w, db); }, l1_budget);
    f.candidates = tiles.size();
    if (tiles.empty()) continue;
    if (tiles.size() > per_pair) tiles.resize(per_pair);
    // And the first layer's own tile of the chain (its rows x columns and buffering, all channels)
    // when it fits: about the tiles the pair runs apart, each input tile read once.
    const PairTile own{ta.l1.whole || ta.l1.h_out <= 0 ? ya[2] : ta.l1.h_out,
                       ta.l1.whole || ta.l1.w_out <= 0 ? ya[3] : ta.l1.w_out, std::max(ta.l1.db, 1)};
    const bool own_new = std::none_of(tiles.begin(), tiles.end(), [&](const PairTile& t) {
      return t.h == own.h && t.w == own.w && t.db == own.db;
    });
    if (own_new && sibling_l1_footprint(g, a, b, own.h, own.w, own.db) <= l1_budget) tiles.push_back(own);
    // The pair alone: a's and b's nodes, and whatever lies between them is left out (the
    // subgraph's order keeps b right after a).
    const Graph pair = chain_subgraph(g, {a, b});
    auto local = [&](LayerTiling t, int node) {
      t.node = node;
      t.net = NetTiling{};
      t.net.consts_l3 = consts_l3;
      return t;
    };
    std::vector<NetPlan> plans{{local(ta, 0), local(tb, 1)}};
    for (const PairTile& t : tiles) {
      LayerTiling x = local(ta, 0), y = local(tb, 1);
      x.l3 = L3Tiling{}, y.l3 = L3Tiling{};
      x.l3.n_out = ya[1], y.l3.n_out = yb[1];
      x.net.sibling = true;
      x.l1.n_out = ya[1], x.l1.h_out = t.h, x.l1.w_out = t.w, x.l1.db = t.db, x.l1.whole = false;
      x.l1.l1_bytes = sibling_l1_footprint(g, a, b, t.h, t.w, t.db);
      y.l1.n_out = yb[1], y.l1.h_out = t.h, y.l1.w_out = t.w, y.l1.db = t.db, y.l1.whole = false;
      y.l1.l1_bytes = x.l1.l1_bytes;
      plans.push_back({x, y});
    }
    if (evaluate_pair(f, pair, plans, tiles, spec, net)) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace edgesim
