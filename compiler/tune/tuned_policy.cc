// The `tuned` policy (tuned_policy.h).
#include "compiler/tune/tuned_policy.h"

#include <cstdlib>

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

namespace {

class TunedPolicy : public TilingPolicy {
 public:
  std::string name() const override { return "tuned"; }

  LayerTiling tile(const LayerGeom& geom, const TilingContext& ctx) const override {
    const Graph& g = *ctx.graph;
    const PlatformSpec& spec = *ctx.spec;
    // NPU layers are not tuned (the candidates are cluster tiles): DORY's L3 decision, and the
    // NPU's own L1 tile replaces the L1 part (tile_graph). DIANA's accelerator layers are tuned
    // over their own tiles (accel_tuner.h).
    const std::string& engine = g.nodes.at(static_cast<size_t>(geom.node)).engine;
    const bool diana = is_diana_accel_layer(g, geom.node, spec);   // tuned over the accelerator's own tiles
    if (!diana && (engine == "npu" || engine == "aimc")) {
      if (!dory_) dory_ = make_policy("dory");
      LayerTiling t = dory_->tile(geom, ctx);
      t.policy = "tuned";
      return t;
    }
    if (!cache_) cache_ = std::make_unique<TuneCache>(tune_settings().cache_path);
    if (!have_actx_) actx_ = network_context(g, spec), have_actx_ = true;
    if (!sim_ && tune_settings().make_simulator) sim_ = tune_settings().make_simulator(tune_settings().jobs);
    TuneOptions opt;
    opt.top_k = tune_settings().top_k;
    opt.simulator = sim_.get();
    opt.objective = tune_settings().objective;
    return tune_layer_cached(g, geom.node, ctx, spec, actx_, opt, *cache_).tuned;
  }

 private:
  mutable std::unique_ptr<TuneCache> cache_;
  mutable std::unique_ptr<TilingPolicy> dory_;
  mutable std::unique_ptr<Evaluator> sim_;
  mutable AnalyticContext actx_;
  mutable bool have_actx_ = false;
};

}  // namespace

std::unique_ptr<TilingPolicy> make_tuned_policy() { return std::make_unique<TunedPolicy>(); }

}  // namespace edgesim
