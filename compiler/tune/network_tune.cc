// tune_network (network_tune.h).
#include "compiler/budget/memory.h"
#include "compiler/tune/network_tune.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "compiler/tiler/internal.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/branch_order.h"
#include "compiler/tune/candidate.h"
#include "compiler/tune/fusion.h"
#include "compiler/tune/prefetch_gain.h"
#include "compiler/tune/prefetch_plan.h"
#include "compiler/tune/siblings.h"
#include "platforms/loader/budgets.h"

namespace edgesim {

namespace {

constexpr int kMaxPrefetch = 8;       // layer nodes ahead at most (greedy)
constexpr int kMaxGainPrefetch = 16;  // layer nodes ahead at most (by gain)

// Per layer: the options a plan may give it (the tuned choice's output placement kept).
struct LayerChoices {
  std::vector<const TunedOption*> keep;              // no weight streaming, best first
  std::map<int64_t, const TunedOption*> stream;      // slab bytes -> option
  LayerTiling isolated;
};

std::vector<LayerChoices> choices_of(const std::vector<LayerTuneResult>& layers) {
  std::vector<LayerChoices> out;
  for (const LayerTuneResult& r : layers) {
    LayerChoices c;
    c.isolated = r.tuned;
    for (const TunedOption& o : r.options) {
      if (o.tiling.l3.output_in_l3 != r.tuned.l3.output_in_l3) continue;
      if (o.option.kind == "stream") c.stream[o.option.slab_bytes] = &o;
      else c.keep.push_back(&o);
    }
    std::stable_sort(c.keep.begin(), c.keep.end(), [](const TunedOption* a, const TunedOption* b) { return a->cycles < b->cycles; });
    out.push_back(std::move(c));
  }
  return out;
}

// Whether two chains of per-layer results give the plans the same choices.
bool same_choices(const std::vector<LayerTuneResult>& a, const std::vector<LayerTuneResult>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (tiling_to_json(a[i].tuned) != tiling_to_json(b[i].tuned) || a[i].options.size() != b[i].options.size())
      return false;
    for (size_t k = 0; k < a[i].options.size(); ++k)
      if (tiling_to_json(a[i].options[k].tiling) != tiling_to_json(b[i].options[k].tiling)) return false;
  }
  return true;
}

// Each layer's pick: -1 keep (its best non-streaming option), else the slab size it streams.
NetPlan plan_of(const std::vector<LayerChoices>& ch, const std::vector<int64_t>& pick) {
  NetPlan p;
  for (size_t i = 0; i < ch.size(); ++i) {
    const auto s = pick[i] > 0 ? ch[i].stream.find(pick[i]) : ch[i].stream.end();
    if (s != ch[i].stream.end()) p.push_back(s->second->tiling);
    else if (!ch[i].keep.empty()) p.push_back(ch[i].keep.front()->tiling);
    else p.push_back(ch[i].isolated);
  }
  return p;
}

// How a plan's prefetch is planned: PrefetchPlanner::greedy in layer order or backwards, or by
// estimated gain per byte-layer of L2 (prefetch_gain.h).
enum class Prefetch { forward, backwards, gain };
constexpr Prefetch kPlanners[] = {Prefetch::forward, Prefetch::backwards, Prefetch::gain};

// The plan with its prefetch planned; the plan unchanged when it does not even fit without
// prefetch (the evaluator then says -1).
NetPlan prefetched(const Graph& g, const PlatformSpec& spec, const NetPlan& p, Prefetch how) {
  try {
    const PrefetchPlanner pp(g, spec, p);
    if (how == Prefetch::gain) return prefetch_by_gain(g, spec, pp, kMaxGainPrefetch, PrefetchPlanner::kMaxRing);
    return pp.greedy(kMaxPrefetch, how == Prefetch::backwards);
  } catch (const std::runtime_error&) {
    return p;
  }
}

int fused_consumer_of(const Graph& g, int p) {
  const int mid = g.nodes.at(static_cast<size_t>(p)).outputs.at(0);
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (!g.nodes[k].inputs.empty() && g.nodes[k].inputs[0] == mid) return static_cast<int>(k);
  return p;
}

// What `plan` changes beyond L1 tiles, against DORY's decisions (dory: per layer node, may be
// shorter when DORY could not tile the network).
std::vector<std::string> describe(const Graph& g, const PlatformSpec& spec, const NetPlan& plan, const NetPlan& dory) {
  std::vector<std::string> out;
  std::map<int, const LayerTiling*> ref;
  for (const LayerTiling& t : dory) ref[t.node] = &t;
  std::vector<std::string> pf, streams, kept, whole, loops, staged, fused, siblings, dw_s1;
  for (const LayerTiling& t : plan) {
    const std::string& name = g.nodes.at(static_cast<size_t>(t.node)).name;
    if (t.net.consts_l3) staged.push_back(name);
    if (t.net.prefetch > 0) pf.push_back(fmt::format("{} {}", name, t.net.prefetch));
    const LayerGeom geom = layer_geom(g, t.node);
    const auto r = ref.find(t.node);
    if (t.l3.weights_in_l3) {
      const bool same = r != ref.end() && r->second->l3.weights_in_l3 && r->second->l3.n_out == t.l3.n_out;
      if (!same || t.l3.db_w > 2)   // DORY's slabs with a deeper ring are a change too
        streams.push_back(fmt::format("{} {}{}", name, l3_label(geom, t.l3),
                                      t.l3.db_w > 2 ? fmt::format(" ({} buffers)", t.l3.db_w) : ""));
    }
    if (r != ref.end() && (r->second->l3.output_in_l3 || r->second->l3.input_in_l3) && !t.l3.output_in_l3 &&
        !t.l3.input_in_l3)
      kept.push_back(name);
    else if (r != ref.end() && r->second->l3.weights_in_l3 && !t.l3.tiled())
      whole.push_back(name);
    if (t.policy == "tuned-deeploy") loops.push_back(name);
    if (policy_calls_dw3x3_s1(t.policy, spec) && g.nodes.at(static_cast<size_t>(t.node)).engine == "cluster" &&
        runs_dw3x3_s1(geom, t.l1.whole || t.l1.w_out <= 0 ? geom.w_out : t.l1.w_out))
      dw_s1.push_back(name);
    if (t.net.fuse) fused.push_back(name + " -> " + g.nodes.at(static_cast<size_t>(fused_consumer_of(g, t.node))).name);
    if (const int b = t.net.sibling ? sibling_of(g, t.node) : -1; b >= 0)
      siblings.push_back(name + " | " + g.nodes.at(static_cast<size_t>(b)).name);
  }
  auto line = [&](const std::string& what, const std::vector<std::string>& v) {
    if (!v.empty()) out.push_back(fmt::format("{} ({}): {}", what, v.size(), fmt::join(v, ", ")));
  };
  line("fused depth-first, intermediate kept in L1", fused);
  line("siblings in one step, each input tile loaded once", siblings);
  line("weights prefetched, layers ahead", pf);
  line("weights streamed in Cout slabs (slabs x bytes)", streams);
  line("activations kept in L2 where DORY spills them to L3", kept);
  line("layers whole in L2 where DORY reads their weights from L3 in slabs", whole);
  line("Deeploy's loop (a fork per tile)", loops);
  line("depthwise on pulp_nn_depthwise_3x3_s1 (whole-width tiles) instead of DORY's generic kernel", dw_s1);
  if (!staged.empty())
    out.push_back(fmt::format("constants homed in L3 and staged per layer with its weights: {} layers", staged.size()));
  return out;
}

}  // namespace

namespace {

// Whole-network plans under evaluation: every plan evaluated so far and its value.
struct Search {
  const Graph& g;
  const PlatformSpec& spec;
  NetworkEvaluator& net;
  std::vector<NetPlan> plans;
  std::vector<int64_t> val;
  size_t best = SIZE_MAX;

  static bool better(int64_t a, int64_t b) { return a >= 0 && (b < 0 || a < b); }
  // Evaluates the batch; returns the index of the first.
  size_t run(std::vector<NetPlan> batch) {
    check_resident("tune: the network search");
    const size_t first = plans.size();
    const std::vector<int64_t> v = net.evaluate(g, batch, spec);
    for (size_t i = 0; i < batch.size(); ++i) {
      plans.push_back(std::move(batch[i]));
      val.push_back(v[i]);
    }
    return first;
  }
  void consider(size_t from) {
    for (size_t i = from; i < plans.size(); ++i)
      if (best == SIZE_MAX || better(val[i], val[best])) best = i;
  }
};

// A plan of one chain of per-layer results: picks as in plan_of, every layer's constants homed in
// L3 (consts_l3) or as the network decides, then the deepest prefetch that fits.
struct Variant {
  size_t chain = 0;
  bool consts_l3 = false;
  Prefetch prefetch = Prefetch::forward;
  bool fused = false;       // the chain's worthwhile fused pairs applied
  std::vector<int64_t> pick;
};

// The fused pairs of `f` applied to plan p, the largest gains first, pairs that share a layer or
// involve a layer that streams its weights in p left out.
NetPlan with_fusion(NetPlan p, std::vector<FusionChoice> f) {
  std::stable_sort(f.begin(), f.end(), [](const FusionChoice& a, const FusionChoice& b) {
    return a.apart - a.fused > b.apart - b.fused;
  });
  std::vector<bool> used(p.size(), false);
  for (const FusionChoice& c : f) {
    if (used[c.p_index] || used[c.c_index] || p[c.p_index].l3.weights_in_l3 || p[c.c_index].l3.weights_in_l3) continue;
    const bool l3 = p[c.p_index].net.consts_l3;
    p[c.p_index] = c.p, p[c.c_index] = c.c;
    p[c.p_index].net.consts_l3 = p[c.c_index].net.consts_l3 = l3;
    used[c.p_index] = used[c.c_index] = true;
  }
  return p;
}

}  // namespace

void apply_network(Graph& g, const NetworkTuneResult& r) {
  bool moved = false;
  for (size_t i = 0; i < r.order.size(); ++i) moved |= r.order[i] != static_cast<int>(i);
  if (moved && r.order.size() == g.nodes.size()) g = reorder_nodes(g, r.order);
  for (size_t k = 0; k < g.nodes.size() && k < r.engines.size(); ++k) {
    g.nodes[k].engine = r.engines[k].first;
    g.nodes[k].wmem_weights = r.engines[k].second;
  }
}

NetworkTuneResult tune_network(const Graph& g0, const PlatformSpec& spec, const TuneOptions& opt, NetworkEvaluator* net,
                               TuneCache& cache) {
  NetworkTuneResult r;
  auto engines_of = [](const Graph& x) {
    std::vector<std::pair<std::string, bool>> e;
    for (const Node& n : x.nodes) e.emplace_back(n.engine, n.wmem_weights);
    return e;
  };
  auto identity = [&] {
    std::vector<int> o;
    for (size_t k = 0; k < g0.nodes.size(); ++k) o.push_back(static_cast<int>(k));
    return o;
  };
  if (!net) {
    r.layers = tune_graph(g0, spec, opt, cache);
    for (const LayerTuneResult& l : r.layers) r.tilings.push_back(l.tuned);
    r.engines = engines_of(g0);
    r.order = identity();
    return r;
  }
  r.evaluator = net->name();
  // A plan is stored under the key of the graph it runs on (its order and engines applied: what
  // TunedPolicy finds after apply_network), and under g0's key with the engines layers may move to.
  const std::string plain = network_key(g0, spec, opt, net->name());
  std::string key0 = plain + "|engines";
  for (const std::string& e : opt.engines) key0 += ":" + e;
  auto hit = cache.find_network(plain);
  if (hit && hit->engines.size() != g0.nodes.size()) hit.reset();
  for (size_t k = 0; hit && k < g0.nodes.size(); ++k)
    if (hit->engines[k].first != g0.nodes[k].engine || hit->engines[k].second != g0.nodes[k].wmem_weights ||
        hit->order.at(k) != static_cast<int>(k))
      hit.reset();
  if (!hit) hit = cache.find_network(key0);
  if (hit) {   // the per-layer results again, on the plan's graph
    Graph g = g0;
    apply_network(g, *hit);
    hit->layers = tune_graph(g, spec, opt, cache);
    return *hit;
  }
  // The node order (branches), then the engines (and NPU weight homes) of the tuned plans.
  BranchOrder bo;
  if (opt.change_graph) {
    bo = choose_branch_order(g0);
  } else {
    bo.order = identity();
    bo.peak_before = bo.peak_after = activation_l2_peak(g0, bo.order);
  }
  r.branch_regions = bo.regions, r.branch_orders = bo.orders;
  r.peak_before = bo.peak_before, r.peak_after = bo.peak_after;
  Graph g = bo.changed() ? reorder_nodes(g0, bo.order) : g0;
  r.order = bo.order;
  if (opt.change_graph)
    r.engine_changes = tune_engines(g, spec, opt.engines.empty() ? engine_preference(spec) : opt.engines, opt, cache);
  r.layers = tune_graph(g, spec, opt, cache);
  for (const LayerTuneResult& l : r.layers) r.tilings.push_back(l.tuned);

  // DORY's and Deeploy's plans, on the engines as given.
  NetPlan dory, deeploy;
  bool has_dory = true, has_deeploy = true;   // (a network without layer nodes has empty plans)
  try {
    dory = tile_graph(g0, spec, "dory");
  } catch (const TilingError&) {
    has_dory = false;
  }
  try {
    deeploy = tile_graph(g0, spec, "deeploy");
  } catch (const TilingError&) {
    has_deeploy = false;
  }

  // Chains of per-layer results: as tuned (activations where each layer alone is fastest), with
  // the activations kept in L2 wherever a layer can, and both with every NPU layer under DORY's
  // L3 decision (its best option alone may not fit the network's L2: the plans fall back on
  // what NPU layers had before they had options); each when it differs from those before.
  std::vector<std::vector<LayerTuneResult>> chains{r.layers};
  for (const auto& [act_l2, npu_base] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    std::vector<LayerTuneResult> b = tune_graph(g, spec, opt, cache, act_l2, npu_base);
    if (std::none_of(chains.begin(), chains.end(), [&](const auto& c) { return same_choices(c, b); }))
      chains.push_back(std::move(b));
  }
  std::vector<std::vector<LayerChoices>> ch;
  for (const auto& c : chains) ch.push_back(choices_of(c));
  const bool consts_in_l3 = network_context(g, spec).consts_in_l3 && spec.l3.size > 0;
  // Fused pairs per (chain, constants placement), found once.
  std::map<std::pair<size_t, bool>, std::vector<FusionChoice>> fusion;
  auto fusions = [&](size_t chain, bool l3) -> const std::vector<FusionChoice>& {
    const auto key = std::pair{chain, l3};
    if (!fusion.count(key)) {
      const NetPlan base = plan_of(ch[chain], std::vector<int64_t>(ch[chain].size(), -1));
      fusion[key] = tune_fusion(g, spec, base, l3, *net, 4);
      for (FusionChoice& f : tune_siblings(g, spec, base, l3, *net, 4)) fusion[key].push_back(std::move(f));
      for (const FusionChoice& f : fusion[key]) r.fusion_sims += f.simulated;
    }
    return fusion.at(key);
  };
  auto make = [&](const Variant& v) {
    NetPlan p = plan_of(ch[v.chain], v.pick);
    for (LayerTiling& t : p) t.net.consts_l3 = v.consts_l3;
    if (v.fused) p = with_fusion(std::move(p), fusions(v.chain, v.consts_l3));
    return prefetched(g, spec, p, v.prefetch);
  };

  Search s{g, spec, *net, {}, {}, SIZE_MAX};
  // refs: the two plans as `tuned` would run them (the platform's cluster kernels), candidates
  // below (on g0: the plans index its nodes, so on an NE16 the schedule takes Deeploy's pointwise
  // reshape per tile). r.dory / r.deeploy: as their flows run them, the figures `run --policy
  // dory|deeploy` report: Deeploy's kernel library where the platform names one (flow_platform)
  // and, on an NE16, Deeploy's pointwise reshape pass on a copy of g0, tiled again
  // (compiler/passes/ne16_pw_reshape.h), as the flow does.
  std::vector<int64_t> refs = net->evaluate(g0, {dory, deeploy}, spec);
  if (!has_dory) refs[0] = -1;
  if (!has_deeploy) refs[1] = -1;
  r.dory = refs[0], r.deeploy = refs[1];
  if (has_deeploy) {
    const PlatformSpec dspec = flow_platform(spec, "deeploy");
    Graph g1 = g0;
    if (apply_ne16_pw_reshape(g1, spec, "deeploy") > 0) {
      try {
        r.deeploy = net->evaluate(g1, {tile_graph(g1, dspec, "deeploy")}, dspec).at(0);
      } catch (const TilingError&) {
        r.deeploy = -1;   // as `run --policy deeploy` would fail
      }
    } else if (spec.budgets.deeploy.cost.present) {
      r.deeploy = net->evaluate(g0, {deeploy}, dspec).at(0);
    }
  }
  s.run({r.tilings});   // the isolated plan
  r.isolated = s.val[0];
  s.consider(0);

  // Round 1: per chain, no streaming, the constants as the network places them or all in L3,
  // prefetch planned greedily in layer order or backwards, or by gain.
  std::vector<Variant> vars;
  for (size_t c = 0; c < ch.size(); ++c)
    for (bool l3 : {false, true})
      for (Prefetch how : kPlanners)
        if (!l3 || consts_in_l3) vars.push_back({c, l3, how, false, std::vector<int64_t>(ch[c].size(), -1)});
  auto round = [&](const std::vector<Variant>& vs) {
    std::vector<NetPlan> batch;
    for (const Variant& v : vs) batch.push_back(make(v));
    const size_t first = s.run(std::move(batch));
    size_t bv = SIZE_MAX;
    for (size_t i = 0; i < vs.size(); ++i)
      if (bv == SIZE_MAX || Search::better(s.val[first + i], s.val[first + bv])) bv = i;
    s.consider(first);
    return std::pair{bv == SIZE_MAX ? Variant{} : vs[bv], bv == SIZE_MAX ? int64_t{-1} : s.val[first + bv]};
  };
  auto [v1, c1] = round(vars);

  // The best of round 1 with its fused pairs (when any pair gains).
  if (!fusions(v1.chain, v1.consts_l3).empty()) {
    Variant v = v1;
    v.fused = true;
    auto [vf, cf] = round({v});
    if (Search::better(cf, c1)) v1 = vf, c1 = cf;
  }

  // Round 2: the best of round 1 with every streaming slab size.
  std::set<int64_t> sizes;
  for (const LayerChoices& c : ch[v1.chain])
    for (const auto& [sz, o] : c.stream) sizes.insert(sz);
  vars.clear();
  for (int64_t sz : sizes)
    for (Prefetch how : kPlanners)
      vars.push_back({v1.chain, v1.consts_l3, how, v1.fused, std::vector<int64_t>(ch[v1.chain].size(), sz)});
  Variant best_v = v1;
  if (!vars.empty()) {
    auto [v2, c2] = round(vars);
    if (Search::better(c2, c1)) best_v = v2;
  }

  // Round 3: from the best so far, each streaming layer alone moved to its neighbouring choices
  // (keep, or the next smaller / larger slab).
  vars.clear();
  const std::vector<LayerChoices>& cb = ch[best_v.chain];
  for (size_t i = 0; i < cb.size(); ++i) {
    if (cb[i].stream.empty()) continue;
    std::vector<int64_t> alts{-1};
    for (const auto& [sz, o] : cb[i].stream) alts.push_back(sz);
    const auto at = std::find(alts.begin(), alts.end(), best_v.pick[i]);
    const size_t k = at == alts.end() ? 0 : static_cast<size_t>(at - alts.begin());
    for (size_t j : {k - 1, k + 1}) {
      if (j >= alts.size()) continue;
      Variant v = best_v;
      v.pick[i] = alts[j];
      vars.push_back(v);
    }
  }
  if (!vars.empty()) round(vars);

  // The winner, references included (ties keep the tuned plan).
  r.plans = s.plans.size() + 2;
  r.tilings = s.plans[s.best];
  r.tuned = s.val[s.best];
  r.engines = engines_of(g);
  for (size_t i = 0; i < 2; ++i)
    if (Search::better(refs[i], r.tuned)) {
      r.tilings = i == 0 ? dory : deeploy;
      r.tuned = refs[i];
      r.chosen = i == 0 ? "dory" : "deeploy";
      r.engines = engines_of(g0);
      r.engine_changes.clear();
      r.order = identity();
      r.peak_after = r.peak_before;
    }
  // Deeploy's whole flow, its kernel library included, when that is faster still.
  const bool own_library = spec.budgets.deeploy.cost.present && has_deeploy;
  if (own_library && Search::better(r.deeploy, r.tuned)) {
    r.tilings = deeploy;
    r.tuned = r.deeploy;
    r.chosen = "deeploy";
    r.library = "deeploy";
    r.engines = engines_of(g0);
    r.engine_changes.clear();
    r.order = identity();
    r.peak_after = r.peak_before;
  }
  if (r.chosen == "tuned") {
    r.changes = describe(g, spec, r.tilings, dory);
    if (bo.changed())
      r.changes.insert(r.changes.begin(), fmt::format("branches reordered ({} regions, {} legal orders): activation peak "
                                                      "L2 {} -> {} B",
                                                      bo.regions, bo.orders, bo.peak_before, bo.peak_after));
  }
  cache.put_network(key0, r);
  Graph fin = g0;
  apply_network(fin, r);
  NetworkTuneResult as_run = r;   // for the graph as it runs: nothing left to reorder
  for (size_t k = 0; k < as_run.order.size(); ++k) as_run.order[k] = static_cast<int>(k);
  cache.put_network(network_key(fin, spec, opt, net->name()), as_run);
  // The flows time a plan on Deeploy's library with that platform: the policy finds it there too.
  if (!r.library.empty()) cache.put_network(network_key(fin, flow_platform(spec, r.library), opt, net->name()), as_run);
  if (r.chosen != "tuned") r.layers = tune_graph(g0, spec, opt, cache);
  return r;
}

}  // namespace edgesim
