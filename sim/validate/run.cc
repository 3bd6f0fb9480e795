// Running a validation case (validate.h): the flow of `edgesim run --timing-only` (sim/flow) with
// the case's platform, overrides, policy, engines and schedule options, then the metric and the
// verdict.
#include <cmath>

#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "sim/flow/flow.h"
#include "sim/validate/validate.h"

namespace edgesim::validate {

double signed_error(double predicted, double published) { return predicted / published - 1.0; }

// A tolerance is met when |error| does not exceed it; the 1e-12 absorbs the rounding of a
// published figure that is exactly at the boundary.
bool within(double error, double tolerance) { return std::fabs(error) <= tolerance + 1e-12; }

namespace {

double metric_of(const std::string& metric, int64_t wall, int64_t accounted, int64_t macs, double energy_pj) {
  if (metric == "cycles") return static_cast<double>(wall);
  if (metric == "accounted_cycles") return static_cast<double>(accounted);
  if (metric == "pj_per_mac") return macs > 0 ? energy_pj / static_cast<double>(macs) : 0.0;
  if (metric == "top_per_joule") return energy_pj > 0 ? 2.0 * static_cast<double>(macs) / energy_pj : 0.0;   // ops per pJ
  return accounted > 0 ? static_cast<double>(macs) / static_cast<double>(accounted) : 0.0;   // mac_per_cycle
}

}  // namespace

bool energy_metric(const std::string& metric) {
  return metric == "pj_per_mac" || metric == "top_per_joule" || metric == "energy_ratio";
}

Outcome run_case(const Case& c, const Paths& p) {
  Outcome o;
  o.c = &c;
  const std::string net = network_path(c, p);
  const std::string plat = platform_path(c, p);
  try {
    FlowRequest req;
    req.model = net;
    req.platform = plat;
    req.overrides = c.overrides;
    req.policy = c.policy;
    req.engines = c.engines;
    req.schedule.buffering = c.buffering;
    req.schedule.network_loop = c.network_loop;
    req.io_layout = c.io_layout;
    req.sim.data = false;   // timing-only runs give the same cycles and energy
    // The input data types the graph's inputs as a run with data does (Deeploy's graphs declare
    // FLOAT inputs); its values are dropped.
    if (const std::string in = inputs_path(c, p); !in.empty()) {
      req.inputs = [in](Graph& g) { return load_inputs(g, in); };
      req.inputs_type_only = true;
    }
    const RunResult r = run_flow(req).sim.result;
    if (energy_metric(c.metric) && !r.energy_modelled)
      throw ValidationError(fmt::format("{}: metric {}: platform {} has no energy model", c.file, c.metric, r.platform));
    o.wall_cycles = r.total_cycles;
    o.accounted_cycles = r.accounted_cycles;
    o.total_macs = r.total_macs;
    o.energy_pj = r.energy.total_pj();
    if (c.metric == "energy_ratio") {
      req.overrides = c.baseline_overrides;
      o.baseline_energy_pj = run_flow(req).sim.result.energy.total_pj();
      o.predicted = o.energy_pj > 0 ? o.baseline_energy_pj / o.energy_pj : 0.0;
    } else {
      o.predicted = metric_of(c.metric, r.total_cycles, r.accounted_cycles, r.total_macs, o.energy_pj);
    }
    o.error = signed_error(o.predicted, c.published);
    o.pass = within(o.error, c.tolerance);
    for (const auto& [name, published] : c.published_layers) {
      const LayerStats* L = nullptr;
      for (const LayerStats& l : r.layers)
        if (l.name == name) L = &l;
      if (!L) throw ValidationError(fmt::format("{}: published.layers.{}: no layer of that name in {}", c.file, name, net));
      LayerOutcome lo{name, published, metric_of(c.metric, L->cycles, L->accounted_cycles, L->macs, L->energy.total_pj()), 0};
      lo.error = signed_error(lo.predicted, published);
      if (!within(lo.error, c.layer_limit())) o.pass = false;
      o.layers.push_back(lo);
    }
  } catch (const ValidationError&) {
    throw;
  } catch (const EngineListError& e) {
    throw ValidationError(fmt::format("{}: engines: {}", c.file, e.what()));
  } catch (const std::exception& e) {
    throw ValidationError(fmt::format("{}: {}", c.file, e.what()));
  }
  return o;
}

}  // namespace edgesim::validate
