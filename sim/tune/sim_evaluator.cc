// SimulatingEvaluator (sim_evaluator.h).
#include "sim/tune/sim_evaluator.h"

#include <stdexcept>

#include "compiler/schedule/build.h"
#include "sim/exec/executor.h"
#include "sim/tune/fork_pool.h"
#include "sim/tune/subgraph.h"

namespace edgesim {

int64_t simulate_candidate(const Graph& layer, const Candidate& c, const PlatformSpec& spec,
                           const AnalyticContext& ctx) {
  LayerTiling t = c.tiling;
  t.node = 0;
  ScheduleOptions o;
  o.buffering = "per-layer";
  o.constants = ctx.consts_in_l3 ? "l3" : "auto";
  Schedule s;
  try {
    s = build_schedule(layer, spec, {t}, o);
  } catch (const std::runtime_error&) {   // TilingError or a level overflow: not feasible
    return -1;
  }
  SimOptions sim;
  sim.data = false;
  return simulate(layer, s, spec, {}, sim).result.total_cycles;
}

std::vector<int64_t> SimulatingEvaluator::cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                                                 const PlatformSpec& spec, const AnalyticContext& ctx) {
  const Graph layer = layer_subgraph(g, node);
  simulations_ += cands.size();
  return fork_map(cands.size(), jobs_, [&](size_t i) { return simulate_candidate(layer, cands[i], spec, ctx); });
}

}  // namespace edgesim
