// The simulating tune context (context.h).
#include "sim/tune/context.h"

#include <memory>

#include "sim/tune/net_sim_evaluator.h"
#include "sim/tune/sim_evaluator.h"

namespace edgesim {

TuneContext simulating_tune_context() {
  TuneContext c;
  c.cache_path = default_tune_cache_path();
  c.make_simulator = [](int jobs) { return std::make_unique<SimulatingEvaluator>(jobs); };
  c.make_network_simulator = [](int jobs) { return std::make_unique<NetSimEvaluator>(jobs); };
  return c;
}

}  // namespace edgesim
