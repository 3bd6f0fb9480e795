// Policy `tuned`: the autotuner's plan for a whole network (network_tune.h: every layer alone,
// then the network plans), looked up in the tune cache first (cache.h), a miss tuned and written
// back. The compile pipeline's tuned_plan stage (compiler/pipeline/compile.h) calls it after the
// engines are assigned and the graph passes ran; its tiling stage then tiles the layers with the
// plan's tilings (compiler/tiler/plan_policy.h). Everything the tuner needs comes in the
// TuneContext (context.h): there is no process-wide state.
#pragma once
#include <string>
#include <vector>

#include "compiler/flows/flow.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/tiling.h"
#include "compiler/tune/context.h"
#include "kernels/ir/graph.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct TunedPlan {
  // Node i of the graph as planned is node order[i] of the graph as given (branch_order.h).
  std::vector<int> order;
  std::string library;                  // the plan's kernel library ("" the platform's)
  std::vector<LayerTiling> tilings;     // one per layer node of the graph as planned
};

// Tunes g under ctx (or finds its plan in the cache), then puts g's nodes in the plan's order,
// sets the engines and weight homes it runs with and notes each moved layer in a->why_not (kept
// with its node). When the plan is Deeploy's flow with its own kernel library
// (NetworkTuneResult::library), spec becomes flow_platform(spec, "deeploy"), the platform the
// flow then tiles and times with. `a`, when given: the engine assignment, whose preference
// bounds the engines the tuner may choose.
TunedPlan plan_tuned_network(Graph& g, PlatformSpec& spec, const TuneContext& ctx, EngineAssignment* a = nullptr);

}  // namespace edgesim
