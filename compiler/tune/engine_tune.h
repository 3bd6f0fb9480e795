// Engine choice and NPU weight placement in the tuned flow (docs/tune.md "NPU layers"), made on
// a copy of the graph by the network level (network_tune.h), which keeps it when a tuned plan
// wins; the flows apply it before tiling (plan_tuned_network, tuned_plan.h):
// engine and weight home decided together, per layer the NPU may run, from three tunings of
// the layer alone (tune_layer, simulated): on the NPU with its weights in the weight memory
// (when the platform has one and they fit it), on the NPU with its weights in L2, and on the
// cluster (when the cluster runs it exactly). The weight memory goes to the layers that gain from
// it against their best other choice, all of them when they fit the budget the engine pass uses,
// else all but those that lose the fewest cycles in all while the rest fit (wmem_keep); every
// other layer takes the faster of the NPU with weights in L2 and the cluster. (So a large layer
// the NPU runs far faster from the weight memory — the classifier of MobileNetV1-128 on
// siracusa — takes it from a small layer that loses little there.)
// Layers are looked up in / written to the tune cache like tune_layer's (the TuneContext's cache).
#pragma once
#include <string>
#include <vector>

#include "compiler/passes/assign_engine.h"
#include "compiler/tune/cache.h"

namespace edgesim {

struct EngineChange {
  int node = -1;
  std::string what;                  // "engine" or "weights"
  std::string from, to;              // engines ("npu", "cluster") or weight homes ("WMEM", "L2")
  int64_t from_cycles = -1, to_cycles = -1;   // the layer alone, simulated
};

// The weight memory's share-out: per layer its (rounded) weight bytes and the cycles it saves
// with them in the weight memory (<= 0: it does not gain). Returns which layers keep their
// weights there: every layer that gains when they all fit `budget`, else all but the set of
// least summed gain whose bytes make the rest fit (exact over bytes in units of at least 4 B,
// an item's bytes rounded down, so what is kept always fits).
struct WmemItem {
  int64_t bytes = 0, gain = 0;
};
std::vector<bool> wmem_keep(const std::vector<WmemItem>& items, int64_t budget);

// `engines`: the engines a layer may move to (the preference the engine pass used).
std::vector<EngineChange> tune_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines,
                                       const TuneOptions& opt, TuneCache& cache);

}  // namespace edgesim
