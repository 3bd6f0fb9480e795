// The deployment flow of one network on one platform (flow.h): the stages in order, nothing
// more. Stage errors pass through untouched but for the two additions of flow.h.
#include "sim/flow/flow.h"

#include <filesystem>
#include <utility>

#include "compiler/budget/memory.h"
#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/passes/io_layout.h"
#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/tuned_policy.h"
#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"

namespace edgesim {

std::string network_label(const std::string& model_path) {
  const std::filesystem::path p(model_path);
  const std::string stem = p.stem().string();
  if ((stem == "model" || stem == "network" || stem == "model_int") && !p.parent_path().filename().empty())
    return p.parent_path().filename().string();
  return stem;
}

FlowOutcome run_flow(const FlowRequest& req) {
  FlowOutcome o;
  o.spec = flow_platform(load_platform(req.platform, req.overrides), req.policy);
  o.graph = import_onnx(req.model);
  // The network's memory, checked before anything is allocated for it and again with the
  // schedule's size once the tiling is known (compiler/budget/memory.h).
  MemoryEstimate mem = estimate_memory(o.graph, req.simulate && req.sim.data ? 2 : 1);
  check_memory(mem, o.graph, req.model);
  // Inputs first: golden data may re-type inferred graph inputs (and so simplify the graph,
  // retype_from_inputs) before engines are assigned.
  if (req.sim.data) o.inputs = req.inputs ? req.inputs(o.graph) : random_inputs(o.graph, 1);
  else if (req.inputs_type_only && req.inputs) req.inputs(o.graph);   // types only, values dropped
  try {
    o.engines = assign_engines(o.graph, o.spec, policy_engines(req.policy, req.engines));
  } catch (const std::invalid_argument& e) {
    throw EngineListError(e.what());
  }
  apply_io_layout(o.graph, req.io_layout, &o.engines);
  // Deeploy re-shapes its NE16 pointwise convs before it tiles them (ne16_pw_reshape.h).
  apply_ne16_pw_reshape(o.graph, o.spec, req.policy, &o.engines);
  // Policy tuned: branch order, engines and NPU weight homes by simulation (graph inputs and
  // their types are kept, so the inputs drawn above stay valid).
  if (req.policy == "tuned") o.node_order = prepare_tuned_graph(o.graph, o.spec, &o.engines);
  try {
    o.tilings = tile_graph(o.graph, o.spec, req.policy, tiling_buffering(req.schedule.buffering));
  } catch (const TilingError& e) {
    if (!req.tiling_hint) throw;
    throw TilingError(e.what() + req.tiling_hint(o.spec, req.policy, e), e.node(), e.level(), e.min_budget());
  }
  add_schedule_estimate(mem, o.graph, o.tilings);
  check_memory(mem, o.graph, req.model);
  o.schedule = build_schedule(o.graph, o.spec, o.tilings, req.schedule);
  check_allocation(o.schedule);
  o.schedule.network = network_label(req.model);
  if (req.simulate) {
    o.sim = simulate(o.graph, o.schedule, o.spec, o.inputs, req.sim);
    // DIANA's offload warnings (one per layer an accelerator refused) lead the run's warnings.
    auto& w = o.sim.result.warnings;
    w.insert(w.begin(), o.engines.warnings.begin(), o.engines.warnings.end());
    for (LayerStats& L : o.sim.result.layers)
      if (L.step >= 0 && static_cast<size_t>(L.step) < o.schedule.steps.size())
        L.engine_reason = engine_reason(o.graph, o.engines, o.schedule.steps[static_cast<size_t>(L.step)].node);
  }
  return o;
}

}  // namespace edgesim
