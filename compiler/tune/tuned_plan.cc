// Policy `tuned`: the autotuner's network plan (tuned_plan.h).
#include "compiler/flows/flow.h"
#include "compiler/tune/tuned_plan.h"

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "compiler/tune/cache.h"
#include "compiler/tune/network_tune.h"
#include "platforms/loader/budgets.h"

namespace edgesim {

std::string default_tune_cache_path() {
  if (const char* e = std::getenv("EDGESIM_TUNE_CACHE")) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/edgesim/tune-cache.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/edgesim/tune-cache.json";
  return "";
}

namespace {

NetworkTuneResult tune_with(const Graph& g, const PlatformSpec& spec, const TuneContext& ctx,
                            const std::vector<std::string>& allowed) {
  std::unique_ptr<Evaluator> sim = ctx.make_simulator ? ctx.make_simulator(ctx.jobs) : nullptr;
  std::unique_ptr<NetworkEvaluator> net = ctx.make_network_simulator ? ctx.make_network_simulator(ctx.jobs) : nullptr;
  TuneOptions opt;
  opt.top_k = ctx.top_k;
  opt.simulator = sim.get();
  opt.change_graph = true;
  opt.objective = ctx.objective;   // each layer's choice; the network plan itself is chosen by cycles
  opt.engines = allowed;
  opt.progress = ctx.progress;
  std::unique_ptr<TuneCache> own;
  TuneCache& cache = ctx.cache ? *ctx.cache : *(own = std::make_unique<TuneCache>(ctx.cache_path));
  return tune_network(g, spec, opt, net.get(), cache);
}

// Engine reasons follow their nodes into the new order; a layer the plan moved says why.
void note_engine_changes(EngineAssignment& a, const NetworkTuneResult& r) {
  if (r.order.size() == a.why_not.size()) {
    std::vector<std::string> why;
    for (int k : r.order) why.push_back(a.why_not[static_cast<size_t>(k)]);
    a.why_not = why;
  }
  for (const EngineChange& c : r.engine_changes)
    if (c.what == "engine" && static_cast<size_t>(c.node) < a.why_not.size())
      a.why_not[static_cast<size_t>(c.node)] =
          fmt::format("{}: tuned, the {} is faster alone ({} vs {} cycles)", c.from, c.to, c.to_cycles, c.from_cycles);
}

}  // namespace

TunedPlan plan_tuned_network(Graph& g, PlatformSpec& spec, const TuneContext& ctx, EngineAssignment* a) {
  NetworkTuneResult r = tune_with(g, spec, ctx, a ? a->preference : std::vector<std::string>{});
  if (a) note_engine_changes(*a, r);
  apply_network(g, r);
  if (!r.library.empty()) spec = flow_platform(spec, r.library);
  return TunedPlan{std::move(r.order), std::move(r.library), std::move(r.tilings)};
}

}  // namespace edgesim
