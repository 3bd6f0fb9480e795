// The compile pipeline (compile.h): a named list of stages, run in order.
#include "compiler/pipeline/compile.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "compiler/budget/memory.h"
#include "compiler/flows/flow.h"
#include "compiler/passes/io_layout.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/plan_policy.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/tuned_plan.h"

namespace edgesim {
namespace {

struct State {
  CompiledNetwork net;
  MemoryEstimate mem;
  // The flow plans the network (Flow::plans_network): the tiling stage tiles the plan's tilings.
  bool planned = false;
  std::vector<LayerTiling> tuned;
};

void platform_stage(State& s, const CompileOptions& o) {
  if (!o.platform_as_given) s.net.spec = flow_platform(s.net.spec, o.policy);
}

// Checked before anything is allocated for the network, and again with the schedule's size once
// the tiling is known (schedule_stage).
void memory_stage(State& s, const CompileOptions& o) {
  s.mem = estimate_memory(s.net.graph, o.data_copies);
  check_memory(s.mem, s.net.graph, o.model);
}

// Before engines: golden data may re-type inferred graph inputs (and so simplify the graph,
// retype_from_inputs).
void inputs_stage(State& s, const CompileOptions& o) {
  if (o.inputs) o.inputs(s.net.graph);
}

void engines_stage(State& s, const CompileOptions& o) {
  try {
    s.net.engines = assign_engines(s.net.graph, s.net.spec, policy_engines(o.policy, o.engines));
  } catch (const std::invalid_argument& e) {
    throw EngineListError(e.what());
  }
}

void io_layout_stage(State& s, const CompileOptions& o) { apply_io_layout(s.net.graph, o.io_layout, &s.net.engines); }

// The flow's graph passes (Deeploy re-shapes its NE16 pointwise convs before it tiles them).
void graph_passes_stage(State& s, const CompileOptions& o) {
  run_flow_graph_passes(s.net.graph, s.net.spec, o.policy, &s.net.engines);
}

// A given plan: its order and engines on the graph, its kernel library on the platform.
void apply_given_plan(State& s, const GivenPlan& plan) {
  Graph& graph = s.net.graph;
  NetworkTuneResult as_planned;   // what apply_network needs: the order and the engines
  as_planned.order = plan.order;
  as_planned.engines = plan.engines;
  std::vector<int> sorted = as_planned.order;
  std::sort(sorted.begin(), sorted.end());
  for (size_t k = 0; k < sorted.size(); ++k)
    if (sorted[k] != static_cast<int>(k)) sorted.clear();
  if (sorted.size() != graph.nodes.size() || as_planned.engines.size() != graph.nodes.size())
    throw std::runtime_error("the plan is not one of this network's (" + std::to_string(graph.nodes.size()) +
                             " nodes; its order has " + std::to_string(as_planned.order.size()) + ")");
  apply_network(graph, as_planned);
  if (!plan.library.empty()) s.net.spec = flow_platform(s.net.spec, plan.library);
  s.net.node_order = plan.order;
  s.net.library = plan.library;
}

// Graph inputs and their types are kept, so inputs drawn before stay valid.
void tuned_plan_stage(State& s, const CompileOptions& o) {
  if (o.plan)
    apply_given_plan(s, *o.plan);
  else if (const Flow* f = find_flow(o.policy); f && f->plans_network()) {
    TunedPlan p = plan_tuned_network(s.net.graph, s.net.spec, o.tune, &s.net.engines);
    s.net.node_order = std::move(p.order);
    s.net.library = std::move(p.library);
    s.tuned = std::move(p.tilings);
    s.planned = true;
  }
}

void tiling_stage(State& s, const CompileOptions& o) {
  if (o.plan) {
    for (const LayerTiling& t : o.plan->tilings)
      if (t.node < 0 || static_cast<size_t>(t.node) >= s.net.graph.nodes.size())
        throw std::runtime_error("the plan tiles node " + std::to_string(t.node) + ", not in the network");
    s.net.tilings = o.plan->tilings;
    return;
  }
  try {
    const int buffering = tiling_buffering(o.schedule.buffering);
    s.net.tilings = s.planned
                        ? tile_graph(s.net.graph, s.net.spec, *make_plan_policy(o.policy, std::move(s.tuned)), buffering)
                        : tile_graph(s.net.graph, s.net.spec, o.policy, buffering);
  } catch (const TilingError& e) {
    if (!o.tiling_hint) throw;
    throw TilingError(e.what() + o.tiling_hint(s.net.spec, o.policy, e), e.node(), e.level(), e.min_budget());
  }
}

void schedule_stage(State& s, const CompileOptions& o) {
  add_schedule_estimate(s.mem, s.net.graph, s.net.tilings);
  check_memory(s.mem, s.net.graph, o.model);
  s.net.schedule = build_schedule(s.net.graph, s.net.spec, s.net.tilings, o.schedule);
  s.net.schedule.network = o.network;
}

void allocation_stage(State& s, const CompileOptions&) { check_allocation(s.net.schedule); }

struct StageDef {
  CompileStage stage;
  const char* name;
  void (*run)(State&, const CompileOptions&);
};

// The pipeline, in order.
constexpr StageDef kStages[] = {
    {CompileStage::platform, "platform", platform_stage},
    {CompileStage::memory, "memory", memory_stage},
    {CompileStage::inputs, "inputs", inputs_stage},
    {CompileStage::engines, "engines", engines_stage},
    {CompileStage::io_layout, "io_layout", io_layout_stage},
    {CompileStage::graph_passes, "graph_passes", graph_passes_stage},
    {CompileStage::tuned_plan, "tuned_plan", tuned_plan_stage},
    {CompileStage::tiling, "tiling", tiling_stage},
    {CompileStage::schedule, "schedule", schedule_stage},
    {CompileStage::allocation, "allocation", allocation_stage},
};

}  // namespace

const char* stage_name(CompileStage s) {
  for (const StageDef& d : kStages)
    if (d.stage == s) return d.name;
  return "?";
}

CompiledNetwork compile_network(Graph graph, PlatformSpec spec, const CompileOptions& opt) {
  State s;
  s.net.graph = std::move(graph);
  s.net.spec = std::move(spec);
  for (const StageDef& d : kStages) {
    if (opt.progress) *opt.progress = d.stage;
    d.run(s, opt);
    if (opt.after_stage) opt.after_stage(d.stage, s.net);
    if (d.stage == opt.last) break;
  }
  return std::move(s.net);
}

}  // namespace edgesim
