// SimulatingEvaluator: the tuner's Evaluator backed by the SystemC model (docs/architecture.md
// "Contracts": the simulated evaluator lives in sim/, the compiler never links SystemC). A
// candidate's cycles are the total of a timing-only simulation of the layer alone (layer_subgraph)
// scheduled with the candidate's tiling and buffering ("per-layer"), its constants placed as the
// network places them (AnalyticContext::consts_in_l3), under the conventions of the candidate's
// policy (dory/tuned: DORY's loop; deeploy: Deeploy's). -1 when the schedule does not fit.
// With jobs > 1 the candidates are simulated by a pool of forked worker processes
// (sim/workers/process_pool.h), forked at the first call for a (graph, platform, context) and reused while
// those stay the same (a different graph, platform or context forks a new pool).
#pragma once
#include <memory>
#include <string>

#include "compiler/tune/evaluator.h"
#include "sim/workers/process_pool.h"

namespace edgesim {

class SimulatingEvaluator : public Evaluator {
 public:
  explicit SimulatingEvaluator(int jobs = 1) : jobs_(jobs) {}
  ~SimulatingEvaluator() override;
  std::string name() const override { return "systemc"; }
  std::vector<int64_t> cycles(const Graph& g, int node, const std::vector<Candidate>& cands,
                              const PlatformSpec& spec, const AnalyticContext& ctx) override;
  // Cycles and energy by block of the same simulation (empty without an energy model).
  std::vector<Score> scores(const Graph& g, int node, const std::vector<Candidate>& cands,
                            const PlatformSpec& spec, const AnalyticContext& ctx) override;
  size_t simulations() const { return simulations_; }

 private:
  int jobs_;
  size_t simulations_ = 0;
  std::unique_ptr<ProcessPool> pool_;
  std::string pool_key_;   // what the pool's workers were forked with
};

// Cycles and energy of one candidate on an already extracted single-layer graph (node 0).
Score simulate_candidate(const Graph& layer, const Candidate& c, const PlatformSpec& spec,
                         const AnalyticContext& ctx);

}  // namespace edgesim
