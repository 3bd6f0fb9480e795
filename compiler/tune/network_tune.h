// The autotuner at the network level (docs/tune.md "Network decisions"): after every layer is
// tuned alone (tuner.h), whole-network plans are built from the layers' L3 options and the
// cross-layer weight prefetch (prefetch_plan.h), each simulated as a whole network through a
// NetworkEvaluator, and the plan with the best objective wins — DORY's and Deeploy's own plans
// included, so `tuned` is never slower than either on the whole network (when a combination of
// per-layer choices interacts badly, a reference or a plainer plan wins instead).
//
// Plans tried (each then given its cross-layer prefetch, net.prefetch: the deepest that fits L2
// greedily in layer order or backwards, or chosen by estimated gain per byte, prefetch_gain.h):
//   isolated       every layer's best choice alone (no prefetch);
//   keep           every layer's best option without weight streaming, prefetched;
//   stream S       every layer that can stream its weights in slabs of S bytes does, the others
//                  keep their best option; prefetched (S over l3_options.h's sizes);
//   + the best of those with each streaming layer alone moved to its neighbouring slab sizes.
// A layer only takes options whose output stays where its tuned choice put it (the next layer was
// tuned with that input).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/flows/flow.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/engine_tune.h"
#include "compiler/tune/net_evaluator.h"

namespace edgesim {

struct NetworkTuneResult {
  std::vector<LayerTuneResult> layers;   // per layer node, alone (on the graph the plan runs on)
  NetPlan tilings;                       // the plan `tuned` runs (one per layer node)
  std::string chosen = "tuned";          // "tuned", or "dory" / "deeploy" when a reference's plan won
  // The cluster kernel library the plan is timed with: "" the platform's (cluster.cost), or
  // "deeploy" when Deeploy's whole flow — its plan with the library it links (budgets.deeploy.cost,
  // flow_platform) — is faster than every plan on the platform's kernels. The flows then time the
  // network with flow_platform(spec, library) (plan_tuned_network does it).
  std::string library;
  std::string evaluator;                 // the network evaluator's name ("" none: the isolated plan)
  int64_t dory = -1, deeploy = -1;       // whole-network objective of the references (-1: infeasible)
  int64_t isolated = -1;                 // of the isolated plan
  int64_t tuned = -1;                    // of the chosen plan
  size_t plans = 0;                      // whole-network plans evaluated (references included)
  size_t fusion_sims = 0;                // two-layer networks simulated to choose fused pairs
  std::vector<std::string> changes;      // what the chosen plan changes beyond L1 tiles
  bool cached = false;                   // the plan came from the tune cache
  // The engines the plan runs with, per graph node (Node::engine and wmem_weights): the tuned
  // ones (engine_tune.h) when a tuned plan won, the graph's own when a reference's did; and the
  // changes that made them.
  std::vector<std::pair<std::string, bool>> engines;
  std::vector<EngineChange> engine_changes;
  // The node order the plan runs in (branch_order.h): order[i] = the index in the given graph of
  // the node that runs i-th (the identity when nothing moved). Tilings and engines index the
  // reordered graph.
  std::vector<int> order;
  int branch_regions = 0;
  size_t branch_orders = 0;
  int64_t peak_before = 0, peak_after = 0;   // activation_l2_peak, given and chosen order
};

// The graph tune_network was given, as the plan runs it: its nodes in the result's order, every
// node's engine and weight home the result's.
void apply_network(Graph& g, const NetworkTuneResult& r);

// Chooses the engines (engine_tune.h, when there is a simulator and a network evaluator), tunes
// every layer (through the cache) and then the network; DORY's and Deeploy's plans are evaluated
// on g as given (their flows do not tune engines). `net` null: no network level (the isolated
// plan on g's engines, references not evaluated). The plan is cached under g's key and under
// the key of the graph as it runs (what tuning the graph as planned finds).
NetworkTuneResult tune_network(const Graph& g, const PlatformSpec& spec, const TuneOptions& opt, NetworkEvaluator* net,
                               TuneCache& cache);

}  // namespace edgesim
