// Test support: a whole-network tune with the simulating evaluators, as `edgesim tune` runs it
// (layer candidates and network plans simulated on the SystemC model, two worker processes each,
// top K 4, a tune cache of its own in memory).
#pragma once
#include "compiler/tune/network_tune.h"
#include "sim/tune/net_sim_evaluator.h"
#include "sim/tune/sim_evaluator.h"

namespace edgesim::test {

inline NetworkTuneResult tune_simulated(const Graph& g, const PlatformSpec& spec) {
  SimulatingEvaluator sim(2);
  NetSimEvaluator net(2);
  TuneOptions opt;
  opt.top_k = 4;
  opt.simulator = &sim;
  TuneCache cache("");
  return tune_network(g, spec, opt, &net, cache);
}

}  // namespace edgesim::test
