// tune_network (network_tune.h).
#include "compiler/tune/network_tune.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "compiler/budget/memory.h"
#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
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
    if (tuned_on_deeploy_loop(t)) loops.push_back(name);
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

using EngineList = std::vector<std::pair<std::string, bool>>;

EngineList engines_of(const Graph& g) {
  EngineList e;
  for (const Node& n : g.nodes) e.emplace_back(n.engine, n.wmem_weights);
  return e;
}

std::vector<int> identity_order(const Graph& g) {
  std::vector<int> o;
  for (size_t k = 0; k < g.nodes.size(); ++k) o.push_back(static_cast<int>(k));
  return o;
}

// A plan is stored under the key of the graph it runs on (its order and engines applied: what
// tuning the graph as planned finds), and under g0's key with the engines layers may move to
// (key0). A plan under `plain` counts only when its engines and order are g0's own.
std::optional<NetworkTuneResult> find_cached_plan(const Graph& g0, const std::string& plain, const std::string& key0,
                                                  TuneCache& cache) {
  auto hit = cache.find_network(plain);
  if (hit && hit->engines.size() != g0.nodes.size()) hit.reset();
  for (size_t k = 0; hit && k < g0.nodes.size(); ++k)
    if (hit->engines[k].first != g0.nodes[k].engine || hit->engines[k].second != g0.nodes[k].wmem_weights ||
        hit->order.at(k) != static_cast<int>(k))
      hit.reset();
  if (!hit) hit = cache.find_network(key0);
  return hit;
}

// DORY's and Deeploy's plans, on the engines as given, and their simulated cycles.
struct References {
  NetPlan dory, deeploy;
  bool has_dory = true, has_deeploy = true;   // (a network without layer nodes has empty plans)
  std::vector<int64_t> cycles;                // as `tuned` would run them (-1: the flow fails)
};

// refs.cycles: the two plans as `tuned` would run them (the platform's cluster kernels; on g0:
// the plans index its nodes, so on an NE16 the schedule takes Deeploy's pointwise reshape per
// tile). r.dory / r.deeploy: as their flows run them, the figures `run --policy dory|deeploy`
// report: Deeploy's kernel library where the platform names one (flow_platform) and, on an NE16,
// Deeploy's pointwise reshape pass on a copy of g0, tiled again (compiler/passes/ne16_pw_reshape.h),
// as the flow does.
References reference_plans(const Graph& g0, const PlatformSpec& spec, NetworkEvaluator& net, NetworkTuneResult& r) {
  References ref;
  try {
    ref.dory = tile_graph(g0, spec, "dory");
  } catch (const TilingError&) {
    ref.has_dory = false;
  }
  try {
    ref.deeploy = tile_graph(g0, spec, "deeploy");
  } catch (const TilingError&) {
    ref.has_deeploy = false;
  }
  ref.cycles = net.evaluate(g0, {ref.dory, ref.deeploy}, spec);
  if (!ref.has_dory) ref.cycles[0] = -1;
  if (!ref.has_deeploy) ref.cycles[1] = -1;
  r.dory = ref.cycles[0], r.deeploy = ref.cycles[1];
  if (ref.has_deeploy) {
    const PlatformSpec dspec = flow_platform(spec, "deeploy");
    Graph g1 = g0;
    if (run_flow_graph_passes(g1, spec, "deeploy") > 0) {
      try {
        r.deeploy = net.evaluate(g1, {tile_graph(g1, dspec, "deeploy")}, dspec).at(0);
      } catch (const TilingError&) {
        r.deeploy = -1;   // as `run --policy deeploy` would fail
      }
    } else if (spec.budgets.deeploy.cost.present) {
      r.deeploy = net.evaluate(g0, {ref.deeploy}, dspec).at(0);
    }
  }
  return ref;
}

// Chains of per-layer results: as tuned (activations where each layer alone is fastest), with
// the activations kept in L2 wherever a layer can, and both with every NPU layer under DORY's
// L3 decision (its best option alone may not fit the network's L2: the plans fall back on
// what NPU layers had before they had options); each when it differs from those before.
std::vector<std::vector<LayerTuneResult>> layer_chains(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt,
                                                       TuneCache& cache, const std::vector<LayerTuneResult>& tuned) {
  std::vector<std::vector<LayerTuneResult>> chains{tuned};
  for (const auto& [act_l2, npu_base] : {std::pair{true, false}, std::pair{false, true}, std::pair{true, true}}) {
    std::vector<LayerTuneResult> b = tune_graph(g, spec, opt, cache, act_l2, npu_base);
    if (std::none_of(chains.begin(), chains.end(), [&](const auto& c) { return same_choices(c, b); }))
      chains.push_back(std::move(b));
  }
  return chains;
}

// The rounds of whole-network plans built from the chains (Variant), evaluated into `s`.
class PlanRounds {
 public:
  PlanRounds(const Graph& g, const PlatformSpec& spec, NetworkEvaluator& net, std::vector<std::vector<LayerChoices>> ch,
             size_t& fusion_sims)
      : s{g, spec, net, {}, {}, SIZE_MAX}, g_(g), spec_(spec), net_(net), ch_(std::move(ch)), fusion_sims_(fusion_sims) {}

  Search s;

  // Round 1: per chain, no streaming, the constants as the network places them or all in L3,
  // prefetch planned greedily in layer order or backwards, or by gain; the best with its fused
  // pairs; round 2: the best with every streaming slab size; round 3: each streaming layer of
  // the best alone moved to its neighbouring choices.
  void run(bool consts_in_l3) {
    std::vector<Variant> vars;
    for (size_t c = 0; c < ch_.size(); ++c)
      for (bool l3 : {false, true})
        for (Prefetch how : kPlanners)
          if (!l3 || consts_in_l3) vars.push_back({c, l3, how, false, std::vector<int64_t>(ch_[c].size(), -1)});
    auto [v1, c1] = round(vars);
    if (!fusions(v1.chain, v1.consts_l3).empty()) {   // when any pair gains
      Variant v = v1;
      v.fused = true;
      auto [vf, cf] = round({v});
      if (Search::better(cf, c1)) v1 = vf, c1 = cf;
    }
    Variant best = v1;
    if (const std::vector<Variant> slabs = slab_variants(v1); !slabs.empty()) {
      auto [v2, c2] = round(slabs);
      if (Search::better(c2, c1)) best = v2;
    }
    if (const std::vector<Variant> moves = neighbour_variants(best); !moves.empty()) round(moves);
  }

 private:
  // Fused pairs per (chain, constants placement), found once.
  const std::vector<FusionChoice>& fusions(size_t chain, bool l3) {
    const auto key = std::pair{chain, l3};
    if (!fusion_.count(key)) {
      const NetPlan base = plan_of(ch_[chain], std::vector<int64_t>(ch_[chain].size(), -1));
      fusion_[key] = tune_fusion(g_, spec_, base, l3, net_, 4);
      for (FusionChoice& f : tune_siblings(g_, spec_, base, l3, net_, 4)) fusion_[key].push_back(std::move(f));
      for (const FusionChoice& f : fusion_[key]) fusion_sims_ += f.simulated;
    }
    return fusion_.at(key);
  }
  NetPlan make(const Variant& v) {
    NetPlan p = plan_of(ch_[v.chain], v.pick);
    for (LayerTiling& t : p) t.net.consts_l3 = v.consts_l3;
    if (v.fused) p = with_fusion(std::move(p), fusions(v.chain, v.consts_l3));
    return prefetched(g_, spec_, p, v.prefetch);
  }
  // Evaluates the variants; returns the best of them and its value ({}, -1 when none has one).
  std::pair<Variant, int64_t> round(const std::vector<Variant>& vs) {
    std::vector<NetPlan> batch;
    for (const Variant& v : vs) batch.push_back(make(v));
    const size_t first = s.run(std::move(batch));
    size_t bv = SIZE_MAX;
    for (size_t i = 0; i < vs.size(); ++i)
      if (bv == SIZE_MAX || Search::better(s.val[first + i], s.val[first + bv])) bv = i;
    s.consider(first);
    return std::pair{bv == SIZE_MAX ? Variant{} : vs[bv], bv == SIZE_MAX ? int64_t{-1} : s.val[first + bv]};
  }
  std::vector<Variant> slab_variants(const Variant& v1) const {
    std::set<int64_t> sizes;
    for (const LayerChoices& c : ch_[v1.chain])
      for (const auto& [sz, o] : c.stream) sizes.insert(sz);
    std::vector<Variant> vars;
    for (int64_t sz : sizes)
      for (Prefetch how : kPlanners)
        vars.push_back({v1.chain, v1.consts_l3, how, v1.fused, std::vector<int64_t>(ch_[v1.chain].size(), sz)});
    return vars;
  }
  // Each streaming layer alone moved to its neighbouring choices (keep, or the next smaller /
  // larger slab).
  std::vector<Variant> neighbour_variants(const Variant& best) const {
    std::vector<Variant> vars;
    const std::vector<LayerChoices>& cb = ch_[best.chain];
    for (size_t i = 0; i < cb.size(); ++i) {
      if (cb[i].stream.empty()) continue;
      std::vector<int64_t> alts{-1};
      for (const auto& [sz, o] : cb[i].stream) alts.push_back(sz);
      const auto at = std::find(alts.begin(), alts.end(), best.pick[i]);
      const size_t k = at == alts.end() ? 0 : static_cast<size_t>(at - alts.begin());
      for (size_t j : {k - 1, k + 1}) {
        if (j >= alts.size()) continue;
        Variant v = best;
        v.pick[i] = alts[j];
        vars.push_back(v);
      }
    }
    return vars;
  }

  const Graph& g_;
  const PlatformSpec& spec_;
  NetworkEvaluator& net_;
  std::vector<std::vector<LayerChoices>> ch_;
  size_t& fusion_sims_;
  std::map<std::pair<size_t, bool>, std::vector<FusionChoice>> fusion_;
};

// A reference flow's plan taken as the result: no engine moves, no reordering.
void take_reference(NetworkTuneResult& r, const Graph& g0, const NetPlan& plan, int64_t cycles, const char* flow) {
  r.tilings = plan;
  r.tuned = cycles;
  r.chosen = flow;
  r.engines = engines_of(g0);
  r.engine_changes.clear();
  r.order = identity_order(g0);
  r.peak_after = r.peak_before;
}

// The winner, references included (ties keep the tuned plan), then Deeploy's whole flow, its
// kernel library included, when that is faster still.
void choose_winner(NetworkTuneResult& r, const Search& s, const References& ref, const Graph& g, const Graph& g0,
                   const PlatformSpec& spec) {
  r.plans = s.plans.size() + 2;
  r.tilings = s.plans[s.best];
  r.tuned = s.val[s.best];
  r.engines = engines_of(g);
  if (Search::better(ref.cycles[0], r.tuned)) take_reference(r, g0, ref.dory, ref.cycles[0], "dory");
  if (Search::better(ref.cycles[1], r.tuned)) take_reference(r, g0, ref.deeploy, ref.cycles[1], "deeploy");
  const bool own_library = spec.budgets.deeploy.cost.present && ref.has_deeploy;
  if (own_library && Search::better(r.deeploy, r.tuned)) {
    take_reference(r, g0, ref.deeploy, r.deeploy, "deeploy");
    r.library = "deeploy";
  }
}

// The plan stored under g0's key with its engines (key0), under the key of the graph as it runs,
// and, on Deeploy's library, under that platform's key (the flows time such a plan there).
void store_plan(const NetworkTuneResult& r, const Graph& g0, const PlatformSpec& spec, const TuneOptions& opt,
                const std::string& evaluator, const std::string& key0, TuneCache& cache) {
  cache.put_network(key0, r);
  Graph fin = g0;
  apply_network(fin, r);
  NetworkTuneResult as_run = r;   // for the graph as it runs: nothing left to reorder
  for (size_t k = 0; k < as_run.order.size(); ++k) as_run.order[k] = static_cast<int>(k);
  cache.put_network(network_key(fin, spec, opt, evaluator), as_run);
  if (!r.library.empty()) cache.put_network(network_key(fin, flow_platform(spec, r.library), opt, evaluator), as_run);
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
  if (!net) {
    r.layers = tune_graph(g0, spec, opt, cache);
    for (const LayerTuneResult& l : r.layers) r.tilings.push_back(l.tuned);
    r.engines = engines_of(g0);
    r.order = identity_order(g0);
    return r;
  }
  r.evaluator = net->name();
  const std::string plain = network_key(g0, spec, opt, net->name());
  std::string key0 = plain + "|engines";
  for (const std::string& e : opt.engines) key0 += ":" + e;
  if (auto hit = find_cached_plan(g0, plain, key0, cache)) {   // the per-layer results again, on the plan's graph
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
    bo.order = identity_order(g0);
    bo.peak_before = bo.peak_after = activation_l2_peak(g0, bo.order);
  }
  r.branch_regions = bo.regions, r.branch_orders = bo.orders;
  r.peak_before = bo.peak_before, r.peak_after = bo.peak_after;
  Graph g = bo.changed() ? reorder_nodes(g0, bo.order) : g0;
  r.order = bo.order;
  if (opt.change_graph) {
    TuneOptions eo = opt;   // its progress lines say they choose the engines
    if (opt.progress) eo.progress = [&opt](const std::string& m) { opt.progress("engines: " + m); };
    r.engine_changes = tune_engines(g, spec, opt.engines.empty() ? engine_preference(spec) : opt.engines, eo, cache);
  }
  r.layers = tune_graph(g, spec, opt, cache);
  for (const LayerTuneResult& l : r.layers) r.tilings.push_back(l.tuned);

  const std::vector<std::vector<LayerTuneResult>> chains = layer_chains(g, spec, opt, cache, r.layers);
  std::vector<std::vector<LayerChoices>> ch;   // point into `chains`, which outlives the rounds
  for (const auto& c : chains) ch.push_back(choices_of(c));
  PlanRounds rounds(g, spec, *net, std::move(ch), r.fusion_sims);
  if (opt.progress) opt.progress("network: the references' and the tuned plans, simulated whole");
  const References ref = reference_plans(g0, spec, *net, r);
  rounds.s.run({r.tilings});   // the isolated plan
  r.isolated = rounds.s.val[0];
  rounds.s.consider(0);
  rounds.run(network_context(g, spec).consts_in_l3 && spec.l3.size > 0);

  choose_winner(r, rounds.s, ref, g, g0, spec);
  if (r.chosen == "tuned") {
    r.changes = describe(g, spec, r.tilings, ref.dory);
    if (bo.changed())
      r.changes.insert(r.changes.begin(), fmt::format("branches reordered ({} regions, {} legal orders): activation peak "
                                                      "L2 {} -> {} B",
                                                      bo.regions, bo.orders, bo.peak_before, bo.peak_after));
  }
  store_plan(r, g0, spec, opt, net->name(), key0, cache);
  if (r.chosen != "tuned") r.layers = tune_graph(g0, spec, opt, cache);
  return r;
}

}  // namespace edgesim
