// NetSimEvaluator: the NetworkEvaluator (compiler/tune/net_evaluator.h) backed by the SystemC
// model: each plan is scheduled with the default ScheduleOptions (as `edgesim run` schedules a
// policy's tilings) and simulated timing-only; its value is tune_objective() of the result, -1
// when the schedule does not fit. With jobs > 1 the plans are simulated by a pool of forked
// worker processes (sim/workers/process_pool.h), forked per evaluate() call (the graph and
// platform are the caller's, alive for the call).
#pragma once
#include "compiler/tune/net_evaluator.h"
#include "sim/stats/run_result.h"

namespace edgesim {

// The one objective of the tuner, a function of a simulated whole-network result: its total
// (wall) cycles, the figure `edgesim run` reports. (A future `--objective` chooses among such
// functions here.)
int64_t tune_objective(const RunResult& r);

class NetSimEvaluator : public NetworkEvaluator {
 public:
  explicit NetSimEvaluator(int jobs = 1) : jobs_(jobs) {}
  std::string name() const override { return "systemc"; }
  std::vector<int64_t> evaluate(const Graph& g, const std::vector<NetPlan>& plans, const PlatformSpec& spec) override;
  size_t simulations() const { return simulations_; }

 private:
  int jobs_;
  size_t simulations_ = 0;
};

// The objective of one plan (the work of one evaluation).
int64_t simulate_plan(const Graph& g, const NetPlan& plan, const PlatformSpec& spec);

}  // namespace edgesim
