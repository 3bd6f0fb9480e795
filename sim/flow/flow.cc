// The deployment flow of one network on one platform (flow.h): load, import, compile, simulate.
#include "sim/flow/flow.h"

#include <filesystem>
#include <utility>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/pipeline/compile.h"
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
  CompileOptions c;
  c.policy = req.policy;
  c.engines = req.engines;
  c.io_layout = req.io_layout;
  c.schedule = req.schedule;
  c.model = req.model;
  c.tune = req.tune;
  c.network = network_label(req.model);
  c.data_copies = req.simulate && req.sim.data ? 2 : 1;
  c.tiling_hint = req.tiling_hint;
  if (req.sim.data)
    c.inputs = [&](Graph& g) { o.inputs = req.inputs ? req.inputs(g) : random_inputs(g, 1); };
  else if (req.inputs_type_only && req.inputs)
    c.inputs = [&](Graph& g) { req.inputs(g); };   // types only, values dropped
  PlatformSpec spec = load_platform(req.platform, req.overrides);   // a platform error comes first
  static_cast<CompiledNetwork&>(o) = compile_network(import_onnx(req.model), std::move(spec), c);
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
