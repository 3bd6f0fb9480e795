// The autotuner on one network, as `edgesim tune` and Python's tune() run it: on a loaded
// platform, import_onnx -> the compile pipeline up to the graph passes
// (compiler/pipeline/compile.h: engines assigned as `run` assigns them, on the platform as given)
// -> tune_network (compiler/tune/network_tune.h: every layer alone, then the whole-network plans)
// with the SystemC evaluators (sim/tune) unless analytic_only. Both callers print or convert the
// same outcome, so they report the same choices and cycles.
//
// Errors: the stages' own (ImportError, the pipeline's, TilingError from the
// tuner); an energy or edp objective without an energy model or a simulator is the
// std::invalid_argument of require_energy (compiler/tune/objective.h).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "compiler/tune/network_tune.h"
#include "compiler/tune/objective.h"
#include "kernels/ir/graph.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct TuneRequest {
  std::string model;                      // ONNX file
  PlatformSpec platform;                  // loaded, with the user's overrides
  size_t top_k = 8;                       // candidates simulated per layer besides the references'
  int jobs = 1;                           // worker processes (capped at the online CPUs)
  const char* jobs_option = "-j";         // the option named when jobs is capped
  std::string cache_path;                 // tune cache file; "" none
  bool analytic_only = false;             // rank and choose with the analytic cost alone
  std::string objective = "cycles";       // cycles, energy or edp (objective.h)
  // Input typing, as the pipeline's inputs stage (compiler/pipeline/compile.h): `--inputs` types
  // a Deeploy graph's inferred inputs from the data, so the network tuned is the one `run
  // --inputs` runs.
  std::function<void(Graph&)> inputs;
  std::function<void(const std::string&)> progress;   // TuneOptions::progress
};

struct TuneOutcome {
  PlatformSpec spec;
  Graph graph;                            // in the plan's order, with its engines (apply_network)
  NetworkTuneResult result;
  std::string evaluator;                  // the layer evaluator's name ("analytic" without one)
  int jobs = 1;                           // the worker processes used
  bool host_platform = false;             // the cores are a RISC-V host (DIANA): host layers untiled
  double seconds = 0;                     // wall time of tune_network
  // Objective energy or edp: the whole network under dory, deeploy and tuned (cycles < 0: not
  // feasible under that policy).
  Score dory, deeploy, tuned;
};

// before_tuning, when given, sees the outcome before the tuner runs (spec, graph with its engines,
// evaluator, jobs): `edgesim tune` prints its header then.
TuneOutcome run_tune_flow(const TuneRequest& req, const std::function<void(const TuneOutcome&)>& before_tuning = {});

}  // namespace edgesim
