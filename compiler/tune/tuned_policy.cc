// The `tuned` policy (tuned_policy.h).
#include "compiler/tune/tuned_policy.h"

#include <cstdlib>

#include <fmt/format.h>

#include "compiler/tune/network_tune.h"
#include "platforms/loader/budgets.h"
#include "compiler/tune/accel_tuner.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/tuner.h"

namespace edgesim {

TuneSettings& tune_settings() {
  static TuneSettings s = [] {
    TuneSettings t;
    t.cache_path = default_tune_cache_path();
    return t;
  }();
  return s;
}

std::string default_tune_cache_path() {
  if (const char* e = std::getenv("EDGESIM_TUNE_CACHE")) return e;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/edgesim/tune-cache.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/edgesim/tune-cache.json";
  return "";
}

TuneCache& tune_cache() {
  static std::unique_ptr<TuneCache> cache;
  static std::string path;
  if (!cache || path != tune_settings().cache_path) {
    path = tune_settings().cache_path;
    cache = std::make_unique<TuneCache>(path);
  }
  return *cache;
}

namespace {

NetworkTuneResult tune_network_with_settings(const Graph& g, const PlatformSpec& spec, bool engines,
                                             const std::vector<std::string>& allowed = {}) {
  TuneSettings& ts = tune_settings();
  std::unique_ptr<Evaluator> sim = ts.make_simulator ? ts.make_simulator(ts.jobs) : nullptr;
  std::unique_ptr<NetworkEvaluator> net = ts.make_network_simulator ? ts.make_network_simulator(ts.jobs) : nullptr;
  TuneOptions opt;
  opt.top_k = ts.top_k;
  opt.simulator = sim.get();
  opt.change_graph = engines;
  opt.objective = ts.objective;   // each layer's choice; the network plan itself is chosen by cycles
  opt.engines = allowed;
  return tune_network(g, spec, opt, net.get(), tune_cache());
}

class TunedPolicy : public TilingPolicy {
 public:
  std::string name() const override { return "tuned"; }

  LayerTiling tile(const LayerGeom& geom, const TilingContext& ctx) const override {
    const Graph& g = *ctx.graph;
    const PlatformSpec& spec = *ctx.spec;
    // The plan is reused while the graph, the platform and the settings are the same — by
    // content (network_key), not by address: a flow may tile another graph or platform that
    // happens to live at the same address.
    const std::string key = plan_key(g, spec);
    if (key != key_) plan(g, spec, key);
    for (const LayerTiling& t : plan_)
      if (t.node == geom.node) return t;
    throw TilingError("layer " + std::to_string(geom.node) + ": not in the tuned network plan", geom.node);
  }

 private:
  static std::string plan_key(const Graph& g, const PlatformSpec& spec) {
    const TuneSettings& ts = tune_settings();
    TuneOptions opt;
    opt.top_k = ts.top_k;
    opt.objective = ts.objective;
    return fmt::format("{}|{}|{}", network_key(g, spec, opt, ""), ts.cache_path, static_cast<bool>(ts.make_simulator)) +
           (ts.make_network_simulator ? "|net" : "");
  }

  void plan(const Graph& g, const PlatformSpec& spec, const std::string& key) const {
    // The graph as the flow prepared it (prepare_tuned_graph): the plan for it. A graph nobody
    // prepared may get a plan for another order or other engines: then one for the graph as it is.
    NetworkTuneResult r = tune_network_with_settings(g, spec, true);
    bool same = r.engines.size() == g.nodes.size();
    for (size_t k = 0; same && k < g.nodes.size(); ++k)
      same = r.engines[k].first == g.nodes[k].engine && r.engines[k].second == g.nodes[k].wmem_weights &&
             r.order.at(k) == static_cast<int>(k);
    if (!same) r = tune_network_with_settings(g, spec, false);
    plan_ = r.tilings;
    key_ = key;
  }

  mutable NetPlan plan_;
  mutable std::string key_;   // plan_key of the graph and platform plan_ is for ("" none yet)
};

}  // namespace

std::unique_ptr<TilingPolicy> make_tuned_policy() { return std::make_unique<TunedPolicy>(); }

std::vector<int> prepare_tuned_graph(Graph& g, PlatformSpec& spec, EngineAssignment* a, std::string* library) {
  const NetworkTuneResult r = tune_network_with_settings(g, spec, true, a ? a->preference : std::vector<std::string>{});
  // Engine reasons follow their nodes into the new order.
  if (a && r.order.size() == a->why_not.size()) {
    std::vector<std::string> why;
    for (int k : r.order) why.push_back(a->why_not[static_cast<size_t>(k)]);
    a->why_not = why;
  }
  apply_network(g, r);
  if (!r.library.empty()) spec = flow_platform(spec, r.library);
  if (library) *library = r.library;
  if (a)
    for (const EngineChange& c : r.engine_changes)
      if (c.what == "engine" && static_cast<size_t>(c.node) < a->why_not.size())
        a->why_not[static_cast<size_t>(c.node)] =
            fmt::format("{}: tuned, the {} is faster alone ({} vs {} cycles)", c.from, c.to, c.to_cycles, c.from_cycles);
  return r.order;
}

}  // namespace edgesim
