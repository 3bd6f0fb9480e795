// tune_npu_layer (tuner.h): NPU layers tuned like cluster layers (docs/tune.md "NPU layers").
// Candidates, per L3 decision (DORY's, the layer whole in L2, DORY's at the L1 sizes of the
// ladder below the platform's; one TunedOption each, so the network plans can choose among them
// and fall back when one does not fit the network's L2): every NPU tile npu.cc lists that fits
// the tuned L1 budget, single and double buffered; ranked by npu.cc's own estimate (the NPU job
// model and the DMA bytes at the cluster DMA's rate); the best K simulated (within the tuned L1
// budget and within each L1 size of the ladder below the platform's, kL1Ladder), with both
// references: DORY's and Deeploy's NPU tiles as their flows choose and run them, and their tiles
// in the tuned flow, also as they choose them at the ladder's L1 sizes (monotone in memory).
#include <algorithm>
#include <limits>
#include <numeric>

#include "compiler/schedule/build.h"
#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/prefetch_plan.h"
#include "compiler/tune/tuner.h"

namespace edgesim {

namespace {

bool same_npu_tile(const LayerTiling& a, const LayerTiling& b) {
  return a.l3 == b.l3 && a.l1.n_out == b.l1.n_out && a.l1.h_out == b.l1.h_out && a.l1.w_out == b.l1.w_out &&
         a.l1.db == b.l1.db && a.l1.whole == b.l1.whole && a.policy == b.policy;
}

// The tuning of one NPU layer, stage by stage (tune_npu_layer): the references, the L3
// decisions, the candidates of the tuned flow with npu.cc's estimates, the simulated choice.
struct NpuTune {
  NpuTune(const Graph& graph, int nd, const TilingContext& c, const PlatformSpec& sp, const AnalyticContext& ac,
          const TuneOptions& o)
      : g(graph), node(nd), ctx(c), spec(sp), actx(ac), opt(o), geom(layer_geom(graph, nd)) {
    r.node = node;
    r.name = g.nodes.at(static_cast<size_t>(node)).name;
  }

  const Graph& g;
  const int node;
  const TilingContext& ctx;
  const PlatformSpec& spec;
  const AnalyticContext& actx;
  const TuneOptions& opt;
  const LayerGeom geom;
  LayerTuneResult r;
  LayerTiling base;              // the base L3 decision's tiling (DORY's, policy "tuned")
  Budgets tb;                    // the tuned flow's budgets
  std::vector<L3Option> options;
  // Candidates of the tuned flow: the references' tiles first (n_refs of them), then per
  // decision its NPU tiles by estimate (-1: none) and the tilings of the ladder.
  std::vector<Candidate> cands;
  std::vector<int64_t> est;
  std::vector<size_t> opt_of;    // candidate -> option
  size_t n_refs = 0;

  void add(const Candidate& c, int64_t estimate, size_t option) {
    cands.push_back(c);
    est.push_back(estimate);
    opt_of.push_back(option);
  }

  // The references as tile_graph gives them to their policies.
  void tile_references() {
    for (const char* policy : {"dory", "deeploy"}) {
      try {
        LayerTiling t = make_policy(policy)->tile(geom, ctx);
        t = npu_tile(geom, ctx, t, policy_budgets(spec, policy, ctx.buffering));
        (std::string(policy) == "dory" ? r.dory : r.deeploy) = t;
        (std::string(policy) == "dory" ? r.has_dory : r.has_deeploy) = true;
      } catch (const TilingError&) {
      }
    }
  }

  void choose_base() {
    try {
      base = make_policy("dory")->tile(geom, ctx);
    } catch (const TilingError&) {   // the cluster's L1 rules may fail where the NPU's tile fits
      base = LayerTiling{};
      base.node = node;
      base.l3.n_out = geom.cout, base.l3.h_out = geom.h_out, base.l3.h_in = geom.h_in;
    }
    base.policy = "tuned";
  }

  // The L3 decisions (l3_options.h): DORY's, the layer whole in L2 when its buffers fit the L2
  // level (weights homed in the weight memory take none of it), and DORY's decisions at the L1
  // sizes of the ladder below the platform's. No weight streaming: the NPU reads its weights
  // whole, from the weight memory or its L2 copy. (MobileNetV1-128's L26_pw on siracusa with
  // 1 MiB of L2: at 48 KiB of L1 DORY finds no tiling and the layer runs whole in L2, 99,829
  // cycles; at 64 KiB DORY streams its weights from L3 in 484-channel slabs, 229,089 — though
  // they live in the weight memory. With the "l2" option the layer keeps the 99,829 at 64 KiB.)
  void l3_decisions() {
    tb = policy_budgets(spec, "tuned");
    const bool wmem = g.nodes.at(static_cast<size_t>(node)).wmem_weights;
    options = l3_options(geom, base.l3, ctx.input_in_l3, std::max(tb.l2, tuned_l2_capacity(spec)), wmem);
    options.erase(std::remove_if(options.begin(), options.end(), [](const L3Option& o) { return o.kind == "stream"; }),
                  options.end());
    if (r.has_dory && base.l3.tiled()) add_dory_l3_below(options, geom, ctx, spec);
  }

  // Candidates: the references' tiles in the tuned flow (under the base decision), then per
  // decision its NPU tiles by estimate.
  void add_reference_tiles() {
    for (const LayerTiling* ref : {r.has_dory ? &r.dory : nullptr, r.has_deeploy ? &r.deeploy : nullptr}) {
      if (!ref) continue;
      Candidate c{*ref, ref == &r.dory ? "dory" : "deeploy"};
      c.tiling.policy = "tuned";
      add(c, -1, 0);
    }
    n_refs = cands.size();
  }

  void add_enumerated_tiles() {
    for (size_t o = 0; o < options.size(); ++o) {
      LayerTiling b = base;
      b.l3 = options[o].l3;
      int64_t need = 0;
      const std::vector<NpuTileCandidate> tiles = npu_tile_candidates(geom, ctx, b, tb, true, &need);
      r.ranked += tiles.size();
      std::vector<size_t> order(tiles.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return tiles[x].estimate < tiles[y].estimate; });
      const std::vector<bool> picked = pick_tiles(tiles, order);
      for (size_t i : order) {
        if (!picked[i]) continue;
        Candidate c{b, "enum"};
        c.tiling.l1 = tiles[i].l1;
        add(c, static_cast<int64_t>(tiles[i].estimate), o);
      }
    }
  }

  // The K best by estimate within the tuned L1 budget, and within the budget the tuned flow
  // has at each L1 size of the ladder below the platform's (kL1Ladder): npu.cc's estimate
  // favours large tiles that simulate slower (MobileNetV1-128's L14_pw on siracusa: 512x8x8
  // single buffered 105,781 cycles, 512x5x4 double buffered 101,090), so without them a larger
  // L1 could push the faster small tiles out of the K and cost cycles. Every decision gets
  // the same K: the one DORY takes at one L1 size may be another option at the next.
  std::vector<bool> pick_tiles(const std::vector<NpuTileCandidate>& tiles, const std::vector<size_t>& order) const {
    std::vector<bool> picked(tiles.size(), false);
    auto pick_top = [&](int64_t l1_budget) {
      size_t n = 0;
      for (size_t i = 0; i < order.size() && n < opt.top_k; ++i)
        if (tiles[order[i]].l1.l1_bytes <= l1_budget) picked[order[i]] = true, ++n;
    };
    pick_top(std::numeric_limits<int64_t>::max());
    for_each_ladder_l1_below(spec, [&](const PlatformSpec& s) {
      pick_top(policy_budgets(s, "tuned").l1);
      pick_top(s.l1.size);   // and the tiles that would fit an L1 budget of that size
    });
    return picked;
  }

  // DORY's and Deeploy's NPU tilings at the L1 sizes of the ladder below the platform's, in the
  // tuned flow, under the option of their L3 decision (else the base option, as the references):
  // a reference's tile at a smaller L1 stays a candidate with more L1 (MobileNetV1-128's L25_dw
  // on siracusa: DORY's 224x4x4 tile at 48 KiB, 15,462 cycles; its 448x4x4 at 64 KiB, 16,492).
  void add_ladder_references() {
    for_each_ladder_l1_below(spec, [&](const PlatformSpec& s) {
      TilingContext c = ctx;
      c.spec = &s;
      for (const char* policy : {"dory", "deeploy"}) {
        LayerTiling t;
        try {
          t = npu_tile(geom, c, make_policy(policy)->tile(geom, c), policy_budgets(s, policy, ctx.buffering));
        } catch (const TilingError&) {
          continue;
        }
        t.policy = "tuned";
        if (t.l1.l1_bytes > tb.l1) continue;
        bool seen = false;
        for (size_t i = 0; i < cands.size() && !seen; ++i) seen = same_npu_tile(cands[i].tiling, t);
        if (seen) continue;
        size_t o = 0;
        for (size_t k = 0; k < options.size(); ++k)
          if (options[k].l3 == t.l3) o = k;
        add({t, std::string(policy) + "@" + std::to_string(s.l1.size)}, -1, o);
      }
    });
  }

  // NE16 pointwise convs: each candidate also with Deeploy's conventions (tuned-deeploy), under
  // which the schedule re-shapes the conv's spatial extent as Deeploy's flow does
  // (compiler/passes/ne16_pw_reshape.h; build_layer.cc) — the same outputs, other NE16 subtiles.
  void add_deeploy_conventions() {
    if (!(spec.npu.impl == "ne16" && geom.kind == OpKind::Conv && geom.kh == 1 && geom.kw == 1 && !geom.depthwise))
      return;
    const size_t n = cands.size();
    for (size_t i = 0; i < n; ++i) {
      Candidate c = cands[i];
      c.tiling.policy = "tuned-deeploy";
      add(c, i < n_refs ? -1 : est[i], opt_of[i]);
    }
  }

  // The references as their flows run them and every candidate, simulated; per decision its
  // fastest candidate, the layer's the fastest of all.
  void simulate_and_choose(Evaluator& ev) {
    std::vector<Candidate> batch;
    if (r.has_dory) batch.push_back({r.dory, "dory"});
    if (r.has_deeploy) batch.push_back({r.deeploy, "deeploy"});
    const size_t n_flow = batch.size();
    batch.insert(batch.end(), cands.begin(), cands.end());
    r.evaluator = ev.name();
    const std::vector<int64_t> cyc = ev.cycles(g, node, batch, spec, actx);
    r.simulated = batch.size();
    size_t k = 0;
    if (r.has_dory) r.dory_cycles = cyc[k++];
    if (r.has_deeploy) r.deeploy_cycles = cyc[k++];
    // Per decision its fastest candidate; the layer's the fastest of all. Kendall tau over the
    // base decision's enumerated tiles (the choice of an L1 tile; npu.cc's estimates of other
    // decisions are of other slabs).
    size_t best = SIZE_MAX;
    std::vector<int64_t> a, s;
    std::vector<size_t> opt_best(options.size(), SIZE_MAX);
    for (size_t i = n_flow; i < batch.size(); ++i) {
      if (cyc[i] < 0) continue;
      const size_t c = i - n_flow;
      if (c >= n_refs && est[c] >= 0 && opt_of[c] == 0) a.push_back(est[c]), s.push_back(cyc[i]);
      size_t& ob = opt_best[opt_of[c]];
      if (ob == SIZE_MAX || cyc[i] < cyc[ob]) ob = i;
      if (best == SIZE_MAX || cyc[i] < cyc[best]) best = i;
    }
    r.tau = kendall_tau(a, s);
    if (best == SIZE_MAX) {
      // Nothing evaluated (no simulator can time the NPU, or nothing fits): npu_tile's choice.
      r.tuned = npu_tile(geom, ctx, base, tb);
      return;
    }
    r.tuned = batch[best].tiling;
    r.tuned_cycles = cyc[best];
    for (size_t o = 0; o < options.size(); ++o) {
      if (opt_best[o] == SIZE_MAX) continue;
      TunedOption t;
      t.option = options[o];
      t.option.l3 = batch[opt_best[o]].tiling.l3;   // the base decision's best may be a reference's
      t.tiling = batch[opt_best[o]].tiling;
      t.cycles = cyc[opt_best[o]];
      t.analytic = est[opt_best[o] - n_flow];
      r.options.push_back(t);
    }
  }
};

}  // namespace

LayerTuneResult tune_npu_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                               const AnalyticContext& actx, const TuneOptions& opt) {
  NpuTune nt(g, node, ctx, spec, actx, opt);
  nt.tile_references();
  nt.choose_base();
  nt.l3_decisions();
  nt.add_reference_tiles();
  nt.add_enumerated_tiles();
  nt.add_ladder_references();
  nt.add_deeploy_conventions();
  if (!opt.simulator) {   // the analytic cost models cluster kernels only: npu.cc's own choice
    nt.r.tuned = npu_tile(nt.geom, ctx, nt.base, policy_budgets(spec, "tuned"));
    nt.r.evaluator = "npu";
    return nt.r;
  }
  nt.simulate_and_choose(*opt.simulator);
  return nt.r;
}

}  // namespace edgesim
