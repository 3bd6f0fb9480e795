// tune_layer (tuner.h).
#include "compiler/tune/tuner.h"

#include <algorithm>
#include <numeric>

#include "compiler/schedule/build.h"
#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/prefetch_plan.h"

namespace edgesim {

namespace {

bool same_tile(const LayerTiling& a, const LayerTiling& b) {
  return a.l3.input_in_l3 == b.l3.input_in_l3 && a.l3.output_in_l3 == b.l3.output_in_l3 &&
         a.l3.weights_in_l3 == b.l3.weights_in_l3 && a.l3.n_out == b.l3.n_out && a.l3.h_out == b.l3.h_out &&
         a.l1.n_out == b.l1.n_out && a.l1.h_out == b.l1.h_out && a.l1.w_out == b.l1.w_out && a.l1.db == b.l1.db &&
         a.l1.whole == b.l1.whole && a.policy == b.policy;
}

// The tuned-flow form of a tiling with L1 buffering db (if its footprint fits); loop "tuned" is
// DORY's loop, "tuned-deeploy" Deeploy's (a tuned network chooses the loop per layer too).
void add_tuned_form(std::vector<Candidate>& out, const LayerTiling& t, const std::string& origin, int db,
                    const LayerGeom& geom, const PlatformSpec& spec, int64_t l1_budget, const char* loop = "tuned") {
  Candidate c{t, origin};
  c.tiling.policy = loop;
  c.tiling.l1.db = db;
  const LayerGeom slab = slab_geom(geom, t.l3);
  if (l1_footprint(slab, c.tiling.l1, db, policy_calls_dw3x3_s1(loop, spec)) > l1_budget) return;
  for (const Candidate& o : out)
    if (same_tile(o.tiling, c.tiling)) return;
  out.push_back(std::move(c));
}

}  // namespace

void add_dory_l3_below(std::vector<L3Option>& options, const LayerGeom& geom, const TilingContext& ctx,
                       const PlatformSpec& spec) {
  // E.g. MobileNetV1-128's L10_pw on gap8 with 256 KiB of L2, input in L3: DORY's slabs are 2
  // rows at 96 KiB of L1 and 1 row at 112 KiB, which the tuned flow runs far slower (the tuned
  // layer 2,499,599 -> 4,661,791 cycles without this).
  for_each_ladder_l1_below(spec, [&](const PlatformSpec& s) {
    TilingContext c = ctx;
    c.spec = &s;
    L3Tiling t;
    try {
      t = make_policy("dory")->tile(geom, c).l3;
    } catch (const TilingError&) {
      return;
    }
    if (std::none_of(options.begin(), options.end(), [&](const L3Option& o) { return o.l3 == t; }))
      options.push_back({"ladder", t, 0, 0});
  });
}

double kendall_tau(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  if (n < 2) return 1.0;
  int64_t s = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) {
      const int64_t x = (a[i] > a[j]) - (a[i] < a[j]);
      const int64_t y = (b[i] > b[j]) - (b[i] < b[j]);
      s += x * y;
    }
  return static_cast<double>(s) / (static_cast<double>(n) * static_cast<double>(n - 1) / 2.0);
}

AnalyticContext network_context(const Graph& g, const PlatformSpec& spec) {
  AnalyticContext c;
  c.conventions = "dory";
  if (spec.l3.size <= 0) return c;
  int64_t consts = 0, acts = 0;
  std::vector<bool> in_wmem(g.tensors.size(), false);   // NPU weights homed in the weight memory
  for (const Node& n : g.nodes)
    if (n.wmem_weights && n.inputs.size() > 1) in_wmem[static_cast<size_t>(n.inputs[1])] = true;
  for (size_t i = 0; i < g.tensors.size(); ++i) {
    const TensorDesc& t = g.tensors[i];
    if (t.is_const() && !in_wmem[i]) consts += shape_numel(t.shape) * static_cast<int64_t>(dtype_size(t.dtype));
  }
  for (const Node& n : g.nodes) {
    int64_t live = 0;
    for (int t : n.inputs)
      if (!g.tensor(t).is_const()) live += shape_numel(g.tensor(t).shape) * static_cast<int64_t>(dtype_size(g.tensor(t).dtype));
    for (int t : n.outputs) live += shape_numel(g.tensor(t).shape) * static_cast<int64_t>(dtype_size(g.tensor(t).dtype));
    acts = std::max(acts, live);
  }
  c.consts_in_l3 = consts + acts > spec.l2.size;
  return c;
}

namespace {

// DORY's and Deeploy's tilings of the layer as their flows run them (the platform's L1
// buffering); throws DORY's error (else Deeploy's) when neither can tile it.
void tile_references(LayerTuneResult& r, const LayerGeom& geom, const TilingContext& ctx, const PlatformSpec& spec) {
  const int db = auto_buffering(spec);
  TilingError first_error("");
  bool have_error = false;
  for (const char* policy : {"dory", "deeploy"}) {
    try {
      LayerTiling t = make_policy(policy)->tile(geom, ctx);
      t.l1.db = t.l1.whole ? t.l1.db : db;   // as the flow runs it: the platform's buffering
      (std::string(policy) == "dory" ? r.dory : r.deeploy) = t;
      (std::string(policy) == "dory" ? r.has_dory : r.has_deeploy) = true;
    } catch (const TilingError& e) {
      if (!have_error) first_error = e, have_error = true;
    }
  }
  if (!r.has_dory && !r.has_deeploy) throw first_error;
}

// The L3 decisions of a cluster layer (l3_options.h) around the base tiling's.
std::vector<L3Option> cluster_l3_options(const LayerGeom& geom, const LayerTiling& base, bool has_dory,
                                         const TilingContext& ctx, const PlatformSpec& spec,
                                         const AnalyticContext& actx, const Budgets& tb) {
  // The L2 an option may fill: the level (tuned_l2_capacity), as the network plans fill it.
  std::vector<L3Option> options = l3_options(geom, base.l3, ctx.input_in_l3, std::max(tb.l2, tuned_l2_capacity(spec)));
  if (!actx.consts_in_l3 || spec.l3.size <= 0)   // streaming only pays when the weights live in L3
    options.erase(std::remove_if(options.begin(), options.end(), [](const L3Option& o) { return o.kind == "stream"; }),
                  options.end());
  if (has_dory && base.l3.tiled() && !options.empty()) add_dory_l3_below(options, geom, ctx, spec);
  return options;
}

// The tuned flow's candidates of a cluster layer: the references' tiles (n_refs, option 0),
// then each L3 decision's enumeration from first_of[option]; their analytic estimates and the
// ones picked for evaluation.
struct ClusterCandidates {
  std::vector<Candidate> cands;
  std::vector<size_t> opt_of;     // candidate -> option
  std::vector<size_t> first_of;   // option -> its first candidate
  size_t n_refs = 0;
  std::vector<int64_t> est;       // analytic cycles (-1: infeasible)
  std::vector<size_t> pick;       // candidates evaluated, after the references' own flows
};

ClusterCandidates cluster_candidates(const Graph& g, int node, const LayerGeom& geom, const PlatformSpec& spec,
                                     const LayerTuneResult& r, const LayerTiling& base,
                                     const std::vector<L3Option>& options, int64_t l1_budget, const TuneOptions& opt) {
  ClusterCandidates cs;
  std::vector<Candidate>& cands = cs.cands;
  for (int d : {1, 2}) {
    if (r.has_dory) add_tuned_form(cands, r.dory, "dory", d, geom, spec, l1_budget);
    if (r.has_deeploy) add_tuned_form(cands, r.deeploy, "deeploy", d, geom, spec, l1_budget);
    if (r.has_deeploy) add_tuned_form(cands, r.deeploy, "deeploy", d, geom, spec, l1_budget, "tuned-deeploy");
  }
  cs.n_refs = cands.size();
  cs.opt_of.assign(cs.n_refs, 0);
  cs.first_of.resize(options.size());
  for (size_t o = 0; o < options.size(); ++o) {
    cs.first_of[o] = cands.size();
    LayerTiling b = base;
    b.l3 = options[o].l3;
    for (Candidate& c : enumerate_candidates(g, node, b, spec, l1_budget, opt.max_candidates))
      add_tuned_form(cands, c.tiling, "enum", c.tiling.l1.db, geom, spec, l1_budget);
    cs.opt_of.resize(cands.size(), o);
  }
  return cs;
}

// Picked: the references, the base decision's best K, every other decision's best K / 2.
std::vector<size_t> pick_candidates(const ClusterCandidates& cs, size_t n_options, size_t top_k) {
  const std::vector<int64_t>& est = cs.est;
  std::vector<size_t> pick(cs.n_refs);
  std::iota(pick.begin(), pick.end(), 0);
  for (size_t o = 0; o < n_options; ++o) {
    const size_t lo = cs.first_of[o], hi = o + 1 < n_options ? cs.first_of[o + 1] : cs.cands.size();
    std::vector<size_t> order(hi - lo);
    std::iota(order.begin(), order.end(), lo);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const int64_t x = est[a] < 0 ? INT64_MAX : est[a], y = est[b] < 0 ? INT64_MAX : est[b];
      return x < y;
    });
    const size_t k = o == 0 ? top_k : std::max<size_t>(2, top_k / 2);
    for (size_t i = 0; i < order.size() && i < k; ++i)
      if (est[order[i]] >= 0) pick.push_back(order[i]);
  }
  return pick;
}

// The evaluated batch: the references as their own flows run them (n_flow), then the picked
// tuned-flow candidates; their scores.
struct Evaluated {
  std::vector<Candidate> batch;
  size_t n_flow = 0;
  std::vector<Score> sc;
};

Evaluated evaluate(LayerTuneResult& r, const Graph& g, int node, const ClusterCandidates& cs, Evaluator& ev,
                   const PlatformSpec& spec, const AnalyticContext& actx, const std::string& objective) {
  Evaluated e;
  if (r.has_dory) e.batch.push_back({r.dory, "dory"});
  if (r.has_deeploy) e.batch.push_back({r.deeploy, "deeploy"});
  e.n_flow = e.batch.size();
  for (size_t i : cs.pick) e.batch.push_back(cs.cands[i]);
  r.evaluator = ev.name();
  r.objective = objective;
  e.sc = ev.scores(g, node, e.batch, spec, actx);
  r.simulated = e.batch.size();
  size_t k = 0;
  if (r.has_dory) r.dory_cycles = e.sc[k++].cycles;
  if (r.has_deeploy) r.deeploy_cycles = e.sc[k++].cycles;
  return e;
}

// Per L3 decision its best evaluated candidate by the objective (r.options), the Kendall taus
// of the analytic estimates, and the layer's best and fastest (batch indices; SIZE_MAX: none).
void choose_per_option(LayerTuneResult& r, const ClusterCandidates& cs, const Evaluated& e,
                       const std::vector<L3Option>& options, const std::string& objective, int node, size_t& best,
                       size_t& fastest) {
  const std::vector<Score>& sc = e.sc;
  std::vector<int64_t> a, sv;
  r.options.resize(options.size());
  for (size_t o = 0; o < options.size(); ++o) r.options[o].option = options[o];
  std::vector<size_t> opt_best(options.size(), SIZE_MAX);   // option -> its best batch index by the objective
  for (size_t i = e.n_flow; i < e.batch.size(); ++i) {
    if (sc[i].cycles < 0) continue;
    if (objective != "cycles" && !sc[i].has_energy())
      throw TilingError("tune --objective " + objective + ": the evaluator '" + r.evaluator +
                            "' gives no energy (the platform needs an energy section and the simulator)",
                        node);
    const size_t c = cs.pick[i - e.n_flow];
    TunedOption& to = r.options[cs.opt_of[c]];
    if (cs.opt_of[c] == 0) a.push_back(cs.est[c]), sv.push_back(sc[i].cycles);
    size_t& ob = opt_best[cs.opt_of[c]];
    if (ob == SIZE_MAX || better(sc[i], sc[ob], objective)) {
      ob = i;
      to.tiling = e.batch[i].tiling, to.cycles = sc[i].cycles, to.analytic = cs.est[c];
      to.energy_pj = sc[i].has_energy() ? sc[i].total_pj() : -1;
    }
    if (fastest == SIZE_MAX || better(sc[i], sc[fastest], "cycles")) fastest = i;
    if (best == SIZE_MAX || better(sc[i], sc[best], objective)) best = i;
  }
  r.tau = kendall_tau(a, sv);
  std::vector<int64_t> oa, os;
  for (const TunedOption& to : r.options)
    if (to.cycles >= 0) oa.push_back(to.analytic), os.push_back(to.cycles);
  r.tau_l3 = kendall_tau(oa, os);
}

}  // namespace

LayerTuneResult tune_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                           const AnalyticContext& actx, const TuneOptions& opt) {
  LayerTuneResult r;
  r.node = node;
  r.name = g.nodes.at(static_cast<size_t>(node)).name;
  const LayerGeom geom = layer_geom(g, node);
  if (g.nodes.at(static_cast<size_t>(node)).engine == "npu") return tune_npu_layer(g, node, ctx, spec, actx, opt);
  tile_references(r, geom, ctx, spec);

  // Candidates of the tuned flow per L3 decision (l3_options.h): under the base decision the
  // two references' tiles (both bufferings) first, then the enumeration around it; under every
  // other decision its enumeration. All ranked by the analytic cost.
  const Budgets tb = policy_budgets(spec, "tuned");
  const LayerTiling& base = r.has_dory ? r.dory : r.deeploy;
  const std::vector<L3Option> options = cluster_l3_options(geom, base, r.has_dory, ctx, spec, actx, tb);
  ClusterCandidates cs = cluster_candidates(g, node, geom, spec, r, base, options, tb.l1, opt);
  AnalyticEvaluator analytic;
  cs.est = analytic.cycles(g, node, cs.cands, spec, actx);
  r.ranked = cs.cands.size();
  cs.pick = pick_candidates(cs, options.size(), opt.top_k);

  Evaluator& ev = opt.simulator ? *opt.simulator : static_cast<Evaluator&>(analytic);
  const Evaluated e = evaluate(r, g, node, cs, ev, spec, actx, opt.objective);
  size_t best = SIZE_MAX, fastest = SIZE_MAX;
  choose_per_option(r, cs, e, options, opt.objective, node, best, fastest);
  if (best == SIZE_MAX && r.has_dory && r.dory_cycles < 0 && r.deeploy_cycles < 0) {
    // Nothing could be evaluated (e.g. a platform without a cluster cost model): keep DORY's
    // choice in the tuned flow rather than guess.
    r.tuned = r.dory;
    r.tuned.policy = "tuned";
    r.options.clear();
    return r;
  }
  if (best == SIZE_MAX)
    throw TilingError("layer " + std::to_string(node) + " '" + r.name + "': no candidate tiling of the tuned flow is feasible",
                      node);
  r.tuned = e.batch[best].tiling;
  r.tuned_cycles = e.sc[best].cycles;
  r.tuned_energy_pj = e.sc[best].has_energy() ? e.sc[best].total_pj() : -1;
  r.fastest_cycles = e.sc[fastest].cycles;
  r.fastest_energy_pj = e.sc[fastest].has_energy() ? e.sc[fastest].total_pj() : -1;
  if (best != fastest) r.why = explain_choice(e.sc[best], e.sc[fastest]);
  r.options.erase(std::remove_if(r.options.begin(), r.options.end(), [](const TunedOption& o) { return o.cycles < 0; }),
                  r.options.end());
  return r;
}

}  // namespace edgesim
