// Engine choice and NPU weight placement in the tuned flow (docs/tune.md "NPU layers"), made on
// a copy of the graph by the network level (network_tune.h), which keeps it when a tuned plan
// wins; the flows apply it before tiling (prepare_tuned_graph, tuned_policy.h):
//   engine   every layer that both the NPU and the cluster run exactly goes to the engine whose
//            tuned layer (tune_layer on each engine, simulated alone) takes fewer cycles;
//   weights  when the weight memory cannot hold every NPU layer's weights, it goes to the NPU
//            layers whose weights there save the most simulated cycles per byte (each tuned
//            with its weights in WMEM and in L2), while they fit the budget the engine pass
//            uses; when it holds them all, every NPU layer keeps them there.
// Layers are looked up in / written to the tune cache like tune_layer's (tune_settings()).
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

// `engines`: the engines a layer may move to (the preference the engine pass used).
std::vector<EngineChange> tune_engines(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines,
                                       const TuneOptions& opt, TuneCache& cache);

}  // namespace edgesim
