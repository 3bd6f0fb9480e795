// The autotuner on one network (tune_flow.h).
#include "sim/tune/tune_flow.h"

#include <chrono>
#include <memory>
#include <utility>

#include "compiler/frontend/import.h"
#include "compiler/pipeline/compile.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/cache.h"
#include "compiler/tiler/plan_policy.h"
#include "platforms/loader/budgets.h"
#include "sim/exec/executor.h"
#include "sim/tune/context.h"
#include "sim/workers/process_pool.h"

namespace edgesim {
namespace {

// The whole network under a policy, timing-only: its cycles and energy per block. `plan`: the
// tuned plan's tilings (policy tuned).
Score network_score(const Graph& g, const PlatformSpec& platform, const std::string& policy,
                    const std::vector<LayerTiling>* plan = nullptr) {
  try {
    const PlatformSpec spec = flow_platform(platform, policy);   // the policy's kernel library
    const std::vector<LayerTiling> tilings =
        plan ? tile_graph(g, spec, *make_plan_policy(policy, *plan)) : tile_graph(g, spec, policy);
    const Schedule s = build_schedule(g, spec, tilings, {});
    SimOptions o;
    o.data = false;
    const RunResult r = simulate(g, s, spec, {}, o).result;
    return Score{r.total_cycles, r.energy.by_block()};
  } catch (const std::runtime_error&) {
    return Score{};   // not feasible under that policy
  }
}

// The tuner's context for one request: the SystemC evaluators unless analytic_only.
TuneContext request_context(const TuneRequest& req, int jobs) {
  TuneContext c = simulating_tune_context();
  c.top_k = req.top_k;
  c.jobs = jobs;
  c.cache_path = req.cache_path;
  c.objective = req.objective;
  if (req.analytic_only) c.make_simulator = nullptr;
  return c;
}

}  // namespace

TuneOutcome run_tune_flow(const TuneRequest& req, const std::function<void(const TuneOutcome&)>& before_tuning) {
  TuneOutcome o;
  // Engines as `run` assigns them (the platform's preference), the platform as given: the tuner
  // applies each flow's own (network_tune.h).
  CompileOptions c;
  c.policy = "tuned";
  c.model = req.model;
  c.inputs = req.inputs;
  c.platform_as_given = true;
  c.last = CompileStage::graph_passes;
  CompiledNetwork n = compile_network(import_onnx(req.model), req.platform, c);
  o.spec = std::move(n.spec);
  o.graph = std::move(n.graph);
  // On a platform whose cores are a RISC-V host (DIANA) the host's layers run untiled: the
  // accelerators' layers are tuned (compiler/tune/accel_tuner.h).
  o.host_platform = o.spec.cluster.present && o.spec.cluster.impl == "riscv_host";
  o.jobs = cap_jobs(req.jobs, req.jobs_option);
  const TuneContext ctx = request_context(req, o.jobs);
  require_energy(req.objective, o.spec.name, o.spec.energy.present, static_cast<bool>(ctx.make_simulator));
  std::unique_ptr<Evaluator> sim = ctx.make_simulator ? ctx.make_simulator(o.jobs) : nullptr;
  std::unique_ptr<NetworkEvaluator> net = ctx.make_network_simulator ? ctx.make_network_simulator(o.jobs) : nullptr;
  o.evaluator = sim ? sim->name() : "analytic";
  if (before_tuning) before_tuning(o);
  TuneOptions opt;
  opt.top_k = req.top_k;
  opt.simulator = sim.get();
  opt.engines = n.engines.preference;
  opt.objective = req.objective;
  opt.progress = req.progress;
  TuneCache cache(ctx.cache_path);
  const auto t0 = std::chrono::steady_clock::now();
  o.result = tune_network(o.graph, o.spec, opt, net.get(), cache);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  apply_network(o.graph, o.result);   // the order and engines the plan runs with
  if (req.objective != "cycles") {
    // The whole network's energy under each policy (the tuned plan's layers chosen by the objective).
    o.dory = network_score(o.graph, o.spec, "dory");
    o.deeploy = network_score(o.graph, o.spec, "deeploy");
    o.tuned = network_score(o.graph, o.spec, "tuned", &o.result.tilings);
  }
  return o;
}

}  // namespace edgesim
