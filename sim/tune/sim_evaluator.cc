// SimulatingEvaluator (sim_evaluator.h).
#include "sim/tune/sim_evaluator.h"

#include <stdexcept>

#include <map>

#include <fmt/format.h>

#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "compiler/tune/cache.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/workers/process_pool.h"
#include "sim/tune/subgraph.h"

namespace edgesim {

Score simulate_candidate(const Graph& layer, const Candidate& c, const PlatformSpec& spec,
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
    return Score{};
  }
  SimOptions sim;
  sim.data = false;
  const RunResult r = simulate(layer, s, spec, {}, sim).result;
  return Score{r.total_cycles, r.energy.by_block()};
}

namespace {

// A score through the worker pool's text frames.
std::string score_to_text(const Score& s) { return nlohmann::json{{"cycles", s.cycles}, {"energy_pj", s.energy_pj}}.dump(); }

Score score_from_text(const std::string& t) {
  const nlohmann::json j = nlohmann::json::parse(t);
  return Score{j.at("cycles").get<int64_t>(), j.at("energy_pj").get<std::map<std::string, double>>()};
}

}  // namespace

SimulatingEvaluator::~SimulatingEvaluator() = default;

std::vector<int64_t> SimulatingEvaluator::cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                                                 const PlatformSpec& spec, const AnalyticContext& ctx) {
  std::vector<int64_t> out;
  for (const Score& s : scores(g, node, cands, spec, ctx)) out.push_back(s.cycles);
  return out;
}

std::vector<Score> SimulatingEvaluator::scores(const Graph& g, int node, const std::vector<Candidate>& cands,
                                               const PlatformSpec& spec, const AnalyticContext& ctx) {
  simulations_ += cands.size();
  if (jobs_ <= 1 || cands.size() <= 1) {
    const Graph layer = layer_subgraph(g, node);
    std::vector<Score> out;
    for (const Candidate& c : cands) out.push_back(simulate_candidate(layer, c, spec, ctx));
    return out;
  }
  // The workers must have been forked with this graph, platform and context — the graph by
  // content too (network_key: nodes, engines, weight homes, shapes): a copy changed in place or
  // another graph allocated where the first was must not reuse workers forked with the first.
  const std::string key = fmt::format("{}|{}|{}|{}|{}|{:016x}|{}|{}|{}", static_cast<const void*>(&g), g.name,
                                      g.nodes.size(), g.tensors.size(), static_cast<const void*>(&spec),
                                      platform_hash(spec), ctx.conventions, ctx.consts_in_l3,
                                      network_key(g, spec, TuneOptions{}, ""));
  if (!pool_ || key != pool_key_) {
    pool_.reset();
    auto layers = std::make_shared<std::map<int, Graph>>();   // per worker: extracted layers
    pool_ = std::make_unique<ProcessPool>(jobs_, [&g, &spec, ctx, layers](const std::string& req) {
      const size_t nl = req.find('\n');
      const int n = std::stoi(req.substr(0, nl));
      auto it = layers->find(n);
      if (it == layers->end()) it = layers->emplace(n, layer_subgraph(g, n)).first;
      Candidate c;
      c.tiling = tiling_from_json(nlohmann::json::parse(req.substr(nl + 1)));
      return score_to_text(simulate_candidate(it->second, c, spec, ctx));
    });
    pool_key_ = key;
  }
  std::vector<std::string> reqs;
  for (const Candidate& c : cands) reqs.push_back(std::to_string(node) + "\n" + tiling_to_json(c.tiling).dump());
  try {
    std::vector<Score> out;
    for (const std::string& a : pool_->run_ordered(reqs)) out.push_back(score_from_text(a));
    return out;
  } catch (...) {
    pool_.reset();   // answers may be pending: never reuse a pool after a failure
    throw;
  }
}

}  // namespace edgesim
