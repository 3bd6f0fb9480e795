// tune_npu_layer (tuner.h): NPU layers tuned like cluster layers (docs/tune.md "NPU layers").
// Candidates: DORY's L3 decision with every NPU tile npu.cc lists that fits the tuned L1 budget,
// single and double buffered; ranked by npu.cc's own estimate (the NPU job model and the DMA
// bytes at the cluster DMA's rate); the best K simulated (within the tuned L1 budget and within
// each L1 size of the ladder below the platform's, kL1Ladder), with both references: DORY's and
// Deeploy's NPU tiles as their flows choose and run them, and their tiles in the tuned flow.
#include <algorithm>
#include <limits>
#include <numeric>

#include "compiler/schedule/build.h"
#include "compiler/tiler/internal.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/tuner.h"

namespace edgesim {

LayerTuneResult tune_npu_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                               const AnalyticContext& actx, const TuneOptions& opt) {
  LayerTuneResult r;
  r.node = node;
  r.name = g.nodes.at(static_cast<size_t>(node)).name;
  const LayerGeom geom = layer_geom(g, node);
  // The references as tile_graph gives them to their policies.
  for (const char* policy : {"dory", "deeploy"}) {
    try {
      LayerTiling t = make_policy(policy)->tile(geom, ctx);
      t = npu_tile(geom, ctx, t, policy_budgets(spec, policy, ctx.buffering));
      (std::string(policy) == "dory" ? r.dory : r.deeploy) = t;
      (std::string(policy) == "dory" ? r.has_dory : r.has_deeploy) = true;
    } catch (const TilingError&) {
    }
  }
  LayerTiling base;
  try {
    base = make_policy("dory")->tile(geom, ctx);
  } catch (const TilingError&) {   // the cluster's L1 rules may fail where the NPU's tile fits
    base = LayerTiling{};
    base.node = node;
    base.l3.n_out = geom.cout, base.l3.h_out = geom.h_out, base.l3.h_in = geom.h_in;
  }
  base.policy = "tuned";
  int64_t need = 0;
  const std::vector<NpuTileCandidate> tiles =
      npu_tile_candidates(geom, ctx, base, policy_budgets(spec, "tuned"), true, &need);
  // Candidates: the references' tiles in the tuned flow, then the enumeration by estimate.
  std::vector<Candidate> cands;
  std::vector<int64_t> est;
  for (const LayerTiling* ref : {r.has_dory ? &r.dory : nullptr, r.has_deeploy ? &r.deeploy : nullptr}) {
    if (!ref) continue;
    Candidate c{*ref, ref == &r.dory ? "dory" : "deeploy"};
    c.tiling.policy = "tuned";
    cands.push_back(c);
    est.push_back(-1);
  }
  const size_t n_refs = cands.size();
  std::vector<size_t> order(tiles.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return tiles[a].estimate < tiles[b].estimate; });
  // The K best by estimate within the tuned L1 budget, and within the budget the tuned flow has
  // at each L1 size of the ladder below the platform's (kL1Ladder): npu.cc's estimate favours
  // large tiles that simulate slower (MobileNetV1-128's L14_pw on siracusa: 512x8x8 single
  // buffered 105,781 cycles, 512x5x4 double buffered 101,090), so without them a larger L1
  // could push the faster small tiles out of the K and cost cycles.
  std::vector<bool> picked(tiles.size(), false);
  auto pick_top = [&](int64_t l1_budget) {
    size_t n = 0;
    for (size_t i = 0; i < order.size() && n < opt.top_k; ++i)
      if (tiles[order[i]].l1.l1_bytes <= l1_budget) picked[order[i]] = true, ++n;
  };
  pick_top(std::numeric_limits<int64_t>::max());
  {
    PlatformSpec s = spec;
    for (int64_t l1 : kL1Ladder) {
      if (l1 >= spec.l1.size) break;
      s.l1.size = l1;
      pick_top(policy_budgets(s, "tuned").l1);
      pick_top(l1);   // and the tiles that would fit an L1 budget of that size
    }
  }
  for (size_t i : order) {
    if (!picked[i]) continue;
    Candidate c{base, "enum"};
    c.tiling.l1 = tiles[i].l1;
    cands.push_back(c);
    est.push_back(static_cast<int64_t>(tiles[i].estimate));
  }
  // NE16 pointwise convs: each candidate also with Deeploy's conventions (tuned-deeploy), under
  // which the schedule re-shapes the conv's spatial extent as Deeploy's flow does
  // (ne16_reshape.h; build_layer.cc) — the same outputs, other NE16 subtiles.
  if (spec.npu.impl == "ne16" && geom.kind == OpKind::Conv && geom.kh == 1 && geom.kw == 1 && !geom.depthwise) {
    const size_t n = cands.size();
    for (size_t i = 0; i < n; ++i) {
      Candidate c = cands[i];
      c.tiling.policy = "tuned-deeploy";
      cands.push_back(c);
      est.push_back(i < n_refs ? -1 : est[i]);
    }
  }
  r.ranked = tiles.size();
  if (!opt.simulator) {   // the analytic cost models cluster kernels only: npu.cc's own choice
    r.tuned = npu_tile(geom, ctx, base, policy_budgets(spec, "tuned"));
    r.evaluator = "npu";
    return r;
  }
  std::vector<Candidate> batch;
  if (r.has_dory) batch.push_back({r.dory, "dory"});
  if (r.has_deeploy) batch.push_back({r.deeploy, "deeploy"});
  const size_t n_flow = batch.size();
  batch.insert(batch.end(), cands.begin(), cands.end());
  Evaluator& ev = *opt.simulator;
  r.evaluator = ev.name();
  const std::vector<int64_t> cyc = ev.cycles(g, node, batch, spec, actx);
  r.simulated = batch.size();
  size_t k = 0;
  if (r.has_dory) r.dory_cycles = cyc[k++];
  if (r.has_deeploy) r.deeploy_cycles = cyc[k++];
  size_t best = SIZE_MAX;
  std::vector<int64_t> a, s;
  for (size_t i = n_flow; i < batch.size(); ++i) {
    if (cyc[i] < 0) continue;
    if (i - n_flow >= n_refs && est[i - n_flow] >= 0) a.push_back(est[i - n_flow]), s.push_back(cyc[i]);
    if (best == SIZE_MAX || cyc[i] < cyc[best]) best = i;
  }
  r.tau = kendall_tau(a, s);
  if (best == SIZE_MAX) {
    // Nothing evaluated (no simulator can time the NPU, or nothing fits): npu_tile's choice.
    r.tuned = npu_tile(geom, ctx, base, policy_budgets(spec, "tuned"));
    return r;
  }
  r.tuned = batch[best].tiling;
  r.tuned_cycles = cyc[best];
  TunedOption o;
  o.option.kind = "npu";
  o.option.l3 = r.tuned.l3;
  o.tiling = r.tuned;
  o.cycles = r.tuned_cycles;
  r.options.push_back(o);
  return r;
}

}  // namespace edgesim
