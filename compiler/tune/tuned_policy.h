// The `tuned` tiling policy: the autotuner behind the TilingPolicy interface, so `--policy tuned`
// works wherever a policy is accepted (compile, run, sweep). At the first layer of a graph the
// whole network is tuned (network_tune.h: every layer alone, then the network plans); each
// layer then gets its tiling from that plan. Layers and plans are looked up in the tune cache
// (cache.h) first; a miss is tuned and written back.
// Process-wide settings (tune_settings()) choose the cache file, K and the simulating
// evaluators: the CLI installs the SystemC ones (sim/tune); without a layer simulator the
// analytic evaluator decides, without a network simulator the isolated per-layer plan is used.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "compiler/tiler/policy.h"
#include "compiler/tune/engine_tune.h"
#include "compiler/tune/evaluator.h"
#include "compiler/tune/net_evaluator.h"

namespace edgesim {

struct TuneSettings {
  std::string cache_path;   // "" = no cache file (default: default_tune_cache_path())
  size_t top_k = 8;
  int jobs = 1;             // worker processes of the simulating evaluator
  std::string objective = "cycles";   // objective.h (`edgesim tune --objective`)
  std::function<std::unique_ptr<Evaluator>(int jobs)> make_simulator;   // empty: analytic only
  std::function<std::unique_ptr<NetworkEvaluator>(int jobs)> make_network_simulator;   // empty: none
};
TuneSettings& tune_settings();

// $EDGESIM_TUNE_CACHE, else $XDG_CACHE_HOME/edgesim/tune-cache.json, else
// $HOME/.cache/edgesim/tune-cache.json, else "" (no cache).
std::string default_tune_cache_path();

std::unique_ptr<TilingPolicy> make_tuned_policy();

// Policy `tuned` also decides the order of parallel branches, which engine runs each layer and
// where NPU weights live (the network level, network_tune.h): the flows call this on the graph
// they will tile and schedule, after assign_engines and before tile_graph(g, spec, "tuned"). It
// tunes the network (or finds it in the tune cache), puts the nodes in its order, sets the
// engines its plan runs with and notes each moved layer in a->why_not (kept with its node); when
// the plan is Deeploy's flow with its own kernel library (NetworkTuneResult::library), spec
// becomes flow_platform(spec, "deeploy"), the platform the flow then tiles and times with.
// Returns the order: node i of g now is node order[i] of g as given. `library`, when given, is set
// to the plan's NetworkTuneResult::library ("" the platform's kernels).
std::vector<int> prepare_tuned_graph(Graph& g, PlatformSpec& spec, EngineAssignment* a = nullptr,
                                     std::string* library = nullptr);

// The tune cache of tune_settings().cache_path, one per process (kept while the path stays the
// same), so a plan found by prepare_tuned_graph is the one the policy then uses, also without a
// cache file.
TuneCache& tune_cache();

}  // namespace edgesim
