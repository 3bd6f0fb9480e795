// NetworkEvaluator: the tuner's source of whole-network figures (the network level of
// docs/tune.md). A plan is one LayerTiling per layer node (as tile_graph
// returns them, cross-layer decisions included); its value is the tuning objective of the whole
// network scheduled with the default ScheduleOptions and simulated (timing only), or -1 when
// the plan does not fit the platform (a level overflows). Deterministic. The simulating
// implementation lives in sim/tune (the compiler never links SystemC) and reaches the tuner
// through TuneContext::make_network_simulator (compiler/tune/context.h, sim/tune/context.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

using NetPlan = std::vector<LayerTiling>;

class NetworkEvaluator {
 public:
  virtual ~NetworkEvaluator() = default;
  virtual std::string name() const = 0;
  virtual std::vector<int64_t> evaluate(const Graph& g, const std::vector<NetPlan>& plans, const PlatformSpec& spec) = 0;
};

}  // namespace edgesim
