// NetSimEvaluator (net_sim_evaluator.h).
#include "sim/tune/net_sim_evaluator.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "sim/exec/executor.h"
#include "sim/workers/process_pool.h"

namespace edgesim {

int64_t tune_objective(const RunResult& r) { return r.total_cycles; }

int64_t simulate_plan(const Graph& g, const NetPlan& plan, const PlatformSpec& spec) {
  Schedule s;
  try {
    s = build_schedule(g, spec, plan, {});
  } catch (const std::runtime_error&) {   // TilingError or a level overflow: not feasible
    return -1;
  }
  SimOptions o;
  o.data = false;
  return tune_objective(simulate(g, s, spec, {}, o).result);
}

std::vector<int64_t> NetSimEvaluator::evaluate(const Graph& g, const std::vector<NetPlan>& plans, const PlatformSpec& spec) {
  simulations_ += plans.size();
  std::vector<int64_t> out;
  if (jobs_ <= 1 || plans.size() <= 1) {
    for (const NetPlan& p : plans) out.push_back(simulate_plan(g, p, spec));
    return out;
  }
  ProcessPool pool(std::min<int>(jobs_, static_cast<int>(plans.size())), [&g, &spec](const std::string& req) {
    NetPlan p;
    for (const nlohmann::json& t : nlohmann::json::parse(req)) p.push_back(tiling_from_json(t));
    return std::to_string(simulate_plan(g, p, spec));
  });
  std::vector<std::string> reqs;
  for (const NetPlan& p : plans) {
    nlohmann::json j = nlohmann::json::array();
    for (const LayerTiling& t : p) j.push_back(tiling_to_json(t));
    reqs.push_back(j.dump());
  }
  for (const std::string& a : pool.run_ordered(reqs)) out.push_back(std::stoll(a));
  return out;
}

}  // namespace edgesim
