// The `tuned` tiling policy: the autotuner (tuner.h) behind the TilingPolicy interface, so
// `--policy tuned` works wherever a policy is accepted (compile, run, sweep). Each layer is
// looked up in the tune cache (cache.h) first; a miss is tuned and written back.
// Process-wide settings (tune_settings()) choose the cache file, K and the simulating evaluator:
// the CLI installs the SystemC evaluator (sim/tune); without one, the analytic evaluator decides.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "compiler/tiler/policy.h"
#include "compiler/tune/evaluator.h"

namespace edgesim {

struct TuneSettings {
  std::string cache_path;   // "" = no cache file (default: default_tune_cache_path())
  size_t top_k = 8;
  int jobs = 1;             // worker processes of the simulating evaluator
  std::string objective = "cycles";   // objective.h (`edgesim tune --objective`)
  std::function<std::unique_ptr<Evaluator>(int jobs)> make_simulator;   // empty: analytic only
};
TuneSettings& tune_settings();

// $EDGESIM_TUNE_CACHE, else $XDG_CACHE_HOME/edgesim/tune-cache.json, else
// $HOME/.cache/edgesim/tune-cache.json, else "" (no cache).
std::string default_tune_cache_path();

std::unique_ptr<TilingPolicy> make_tuned_policy();

}  // namespace edgesim
