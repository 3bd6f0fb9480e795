// Evaluation of one sweep point (evaluate.h): platform, tiling, schedule, timing-only simulation.
#include "sim/sweep/evaluate.h"

#include <set>

#include "compiler/frontend/import.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/flow/flow.h"

namespace edgesim::sweep {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

}  // namespace

std::string network_name(const std::string& path) { return network_label(path); }

std::vector<SweepNetwork> import_networks(const std::vector<std::string>& paths) {
  std::vector<SweepNetwork> nets;
  std::set<std::string> names;
  for (const std::string& p : paths) {
    SweepNetwork n{p, network_name(p), import_onnx(p)};
    if (!names.insert(n.name).second)
      throw SweepError("two networks are named '" + n.name + "' (" + p + "): sweep networks need distinct names");
    nets.push_back(std::move(n));
  }
  return nets;
}

size_t point_count(const SweepSpec& s) { return s.networks.size() * grid_size(s.axes); }

PointRef point_at(const SweepSpec& s, size_t index) {
  const size_t g = grid_size(s.axes);
  return {index / g, grid_point(s.axes, index % g)};
}

std::vector<std::string> axis_keys(const SweepSpec& s) {
  std::vector<std::string> k;
  for (const Axis& a : s.axes) k.push_back(a.key);
  return k;
}

PointRecord point_identity(const SweepSpec& s, const std::string& network, const std::vector<std::string>& values) {
  PointRecord r;
  r.network = network;
  r.platform = s.platform;
  r.policy = s.policy;
  r.values = values;
  return r;
}

PointRecord evaluate_point(const SweepSpec& s, const SweepNetwork& net, const std::vector<std::string>& values,
                           const TilingHint& hint) {
  PointRecord r = point_identity(s, net.name, values);
  r.has_layers = true;
  auto fail = [&](const char* status, const std::string& why) {
    r.status = status;
    r.reason = one_line(why);
    return r;
  };
  try {
    PlatformSpec spec;
    try {
      spec = load_platform(s.platform, point_overrides(s.axes, values));
    } catch (const PlatformError& e) {
      return fail("infeasible", e.what());
    }
    // Engines follow the point's platform (its `engines:` key and NPU).
    Graph graph = net.graph;
    try {
      assign_engines(graph, spec);
    } catch (const std::exception& e) {
      return fail("infeasible", e.what());
    }
    std::vector<LayerTiling> tilings;
    try {
      tilings = tile_graph(graph, spec, s.policy);
    } catch (const TilingError& e) {
      return fail("infeasible", e.what() + (hint ? hint(spec, s.policy, e) : std::string()));
    }
    Schedule sched;
    try {
      sched = build_schedule(graph, spec, tilings);
    } catch (const TilingError& e) {
      return fail("infeasible", e.what());
    } catch (const std::runtime_error& e) {
      return fail("infeasible", e.what());
    }
    sched.network = net.name;
    SimOptions opt;
    opt.data = false;
    const RunResult res = simulate(graph, sched, spec, {}, opt).result;
    r.status = "ok";
    r.total_cycles = res.total_cycles;
    r.macs = res.total_macs;
    r.time_ms = res.freq_hz > 0 ? round4(static_cast<double>(res.total_cycles) * 1e3 / static_cast<double>(res.freq_hz)) : 0;
    r.mac_per_cycle =
        res.total_cycles > 0 ? round4(static_cast<double>(res.total_macs) / static_cast<double>(res.total_cycles)) : 0;
    for (const LayerStats& l : res.layers)
      r.layers.push_back({l.name, l.op, l.cycles, l.compute_cycles, l.dma_wait_cycles, l.overhead_cycles});
    return r;
  } catch (const std::exception& e) {
    r.layers.clear();
    return fail("error", e.what());
  }
}

}  // namespace edgesim::sweep
