// What the autotuner is given when a network is compiled under policy `tuned` (the pipeline's
// tuned_plan stage, compiler/pipeline/compile.h): the tune cache, K, the objective of each
// layer's choice, the worker processes and the evaluators that simulate candidates and network
// plans. Nothing of it is process-wide: each command or Python call builds its own
// (sim/tune/context.h builds the one with the SystemC evaluators), so two calls in one process
// never see each other's settings.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "compiler/tune/evaluator.h"
#include "compiler/tune/net_evaluator.h"

namespace edgesim {

class TuneCache;

struct TuneContext {
  // The cache to look plans up in and store them to. Null: the tuned_plan stage opens one on
  // cache_path for the compile (a sweep passes one cache to all its points instead).
  TuneCache* cache = nullptr;
  std::string cache_path;   // "" = no cache file (default_tune_cache_path() is the CLI's)
  size_t top_k = 8;
  int jobs = 1;             // worker processes of the simulating evaluators
  std::string objective = "cycles";   // each layer's choice (objective.h); plans are chosen by cycles
  // Empty: the analytic model ranks and chooses the layers' candidates.
  std::function<std::unique_ptr<Evaluator>(int jobs)> make_simulator;
  // Empty: no network level (the isolated per-layer plan is used).
  std::function<std::unique_ptr<NetworkEvaluator>(int jobs)> make_network_simulator;
  std::function<void(const std::string&)> progress;   // TuneOptions::progress
};

// $EDGESIM_TUNE_CACHE, else $XDG_CACHE_HOME/edgesim/tune-cache.json, else
// $HOME/.cache/edgesim/tune-cache.json, else "" (no cache).
std::string default_tune_cache_path();

}  // namespace edgesim
