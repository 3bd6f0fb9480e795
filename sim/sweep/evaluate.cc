// Evaluation of one sweep point (evaluate.h): the point's platform, the compile pipeline
// (compiler/pipeline/compile.h), a timing-only simulation.
#include "sim/sweep/evaluate.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "compiler/flows/flow.h"
#include "compiler/budget/memory.h"
#include "compiler/frontend/import.h"
#include "compiler/pipeline/compile.h"
#include "compiler/schedule/json.h"
#include "platforms/loader/loader.h"
#include "platforms/util/printable.h"
#include "sim/exec/executor.h"
#include "sim/flow/flow.h"
#include "sim/tune/context.h"

namespace edgesim::sweep {

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return s;
}

}  // namespace

std::string network_name(const std::string& path) { return network_label(path); }

void name_networks(SweepSpec& s, const std::vector<std::string>& args) {
  s.networks.clear();
  s.network_names.clear();
  std::vector<bool> explicit_name;
  for (const std::string& a : args) {
    // NAME=path, unless the whole argument is an existing file (a path may contain '=').
    const size_t eq = a.find('=');
    std::error_code ec;
    if (eq != std::string::npos && !std::filesystem::exists(a, ec)) {
      if (eq == 0) throw SweepError("network " + a + ": empty NAME in NAME=path");
      s.network_names.push_back(a.substr(0, eq));
      s.networks.push_back(a.substr(eq + 1));
      explicit_name.push_back(true);
    } else {
      s.network_names.push_back(network_name(a));
      s.networks.push_back(a);
      explicit_name.push_back(false);
    }
  }
  for (size_t i = 0; i < args.size(); ++i)
    for (size_t j = i + 1; j < args.size(); ++j)
      if (explicit_name[i] && explicit_name[j] && s.network_names[i] == s.network_names[j])
        throw SweepError("two networks are named '" + s.network_names[i] + "' (NAME=path): names must differ");
  // Qualify colliding derived names by more and more parent folders until all differ.
  auto qualified = [&](size_t i, int depth) {
    std::filesystem::path dir = std::filesystem::path(s.networks[i]).parent_path();
    if (network_name(s.networks[i]) == dir.filename().string()) dir = dir.parent_path();   // model.onnx: the folder is the name
    std::string prefix;
    for (int d = 0; d < depth && !dir.empty() && dir.filename() != ".." && dir.filename() != "."; ++d, dir = dir.parent_path())
      prefix = dir.filename().string() + (prefix.empty() ? "" : "/" + prefix);
    return (prefix.empty() ? "" : prefix + "/") + network_name(s.networks[i]);
  };
  for (int depth = 1; depth <= 8; ++depth) {
    std::vector<size_t> clashing;
    for (size_t i = 0; i < args.size(); ++i)
      for (size_t j = 0; j < args.size(); ++j)
        if (i != j && !explicit_name[i] && s.network_names[i] == s.network_names[j]) {
          clashing.push_back(i);
          break;
        }
    if (clashing.empty()) return;
    for (size_t i : clashing) s.network_names[i] = qualified(i, depth);
  }
  for (size_t i = 0; i < args.size(); ++i)
    for (size_t j = i + 1; j < args.size(); ++j)
      if (s.network_names[i] == s.network_names[j])
        throw SweepError("two networks are named '" + s.network_names[i] + "' (" + s.networks[j] +
                         "): give one a name with NAME=path");
}

std::string spec_network_name(const SweepSpec& s, size_t n) {
  return n < s.network_names.size() ? s.network_names[n] : network_name(s.networks.at(n));
}

std::vector<SweepNetwork> import_networks(const SweepSpec& s) {
  std::vector<SweepNetwork> nets;
  for (size_t i = 0; i < s.networks.size(); ++i) {
    nets.push_back({s.networks[i], spec_network_name(s, i), import_onnx(s.networks[i])});
    check_memory(estimate_memory(nets.back().graph), nets.back().graph, s.networks[i]);
  }
  return nets;
}

std::string engines_label(const std::vector<std::string>& engines) {
  std::string l;
  for (const std::string& e : engines) l += (l.empty() ? "" : ",") + e;
  return l;
}

size_t point_count(const SweepSpec& s) {
  return s.networks.size() * s.policies.size() * s.engine_sets.size() * grid_size(s.axes);
}

PointRef point_at(const SweepSpec& s, size_t index) {
  const size_t g = grid_size(s.axes);
  PointRef p;
  p.values = grid_point(s.axes, index % g);
  index /= g;
  p.engines = s.engine_sets.at(index % s.engine_sets.size());
  index /= s.engine_sets.size();
  p.policy = s.policies.at(index % s.policies.size());
  p.network = index / s.policies.size();
  return p;
}

std::vector<std::string> axis_keys(const SweepSpec& s) {
  std::vector<std::string> k;
  for (const Axis& a : s.axes) k.push_back(a.key);
  return k;
}

PointRecord point_identity(const SweepSpec& s, const PointRef& p) {
  PointRecord r;
  r.network = spec_network_name(s, p.network);
  r.platform = s.platform;
  r.policy = p.policy;
  r.engines = engines_label(p.engines);
  r.values = p.values;
  return r;
}

namespace {

// A compiled point's schedule simulated timing-only, into r.
PointRecord simulate_point(PointRecord r, const CompiledNetwork& n) {
  SimOptions opt;
  opt.data = false;
  const RunResult res = simulate(n.graph, n.schedule, n.spec, {}, opt).result;
  r.status = "ok";
  r.schedule_hash = schedule_hash(n.schedule);
  r.total_cycles = res.total_cycles;
  r.macs = res.total_macs;
  r.time_ms = res.freq_hz > 0 ? round4(static_cast<double>(res.total_cycles) * 1e3 / static_cast<double>(res.freq_hz)) : 0;
  r.mac_per_cycle =
      res.total_cycles > 0 ? round4(static_cast<double>(res.total_macs) / static_cast<double>(res.total_cycles)) : 0;
  r.energy_uj = res.energy_modelled ? round4(res.energy.total_pj() * 1e-6) : -1;
  for (const LayerStats& l : res.layers)
    r.layers.push_back({l.name, l.op, l.cycles, l.compute_cycles, l.dma_wait_cycles, l.overhead_cycles,
                        res.energy_modelled ? round4(l.energy.total_pj() * 1e-6) : -1});
  return r;
}

// Whether an exception of the compile pipeline, thrown in stage `at`, makes the point infeasible
// (the platform variant cannot run the network under the policy) rather than an error: every
// failure of the engine assignment and the graph passes, a TilingError, and a runtime error of
// the schedule and its memory.
bool infeasible(CompileStage at, const std::exception& e) {
  switch (at) {
    case CompileStage::platform:
    case CompileStage::memory:
    case CompileStage::inputs: return false;
    case CompileStage::engines:
    case CompileStage::io_layout:
    case CompileStage::graph_passes:
    case CompileStage::tuned_plan: return true;
    case CompileStage::tiling: return dynamic_cast<const TilingError*>(&e) != nullptr;
    case CompileStage::schedule:
    case CompileStage::allocation: return dynamic_cast<const std::runtime_error*>(&e) != nullptr;
  }
  return false;
}

// A tuned point's plan as a record carries it (record.h): the node order against the network as
// imported, each node's engine and weight home, the kernel library and the tilings.
nlohmann::json plan_to_json(const std::vector<int>& order, const Graph& graph, const std::string& library,
                            const std::vector<LayerTiling>& tilings) {
  nlohmann::json engines = nlohmann::json::array(), ts = nlohmann::json::array();
  for (const Node& n : graph.nodes) engines.push_back({n.engine, n.wmem_weights});
  for (const LayerTiling& t : tilings) ts.push_back(tiling_to_json(t));
  return {{"order", order}, {"engines", engines}, {"library", library}, {"tilings", ts}};
}

// The record of a point that failed: its status and the reason, on one printable line.
PointRecord failed(PointRecord r, const char* status, const std::string& why) {
  r.layers.clear();
  r.status = status;
  r.reason = printable(one_line(why));
  return r;
}

// The point's platform variant into `spec`; false with r failed when it does not load (a
// PlatformError is infeasible: the variant is not a platform; anything else an error).
bool load_point_platform(const SweepSpec& s, const PointRef& p, PlatformSpec& spec, PointRecord& r) {
  try {
    spec = load_platform(s.platform, point_overrides(s.axes, p.values));
    return true;
  } catch (const PlatformError& e) {
    r = failed(std::move(r), "infeasible", e.what());
  } catch (const std::exception& e) {
    r = failed(std::move(r), "error", e.what());
  }
  return false;
}

// The compile options of a point: its policy and engine set, the network's file and label, the
// stage reached reported in *at.
CompileOptions point_options(const SweepNetwork& net, const PointRef& p, CompileStage* at) {
  CompileOptions c;
  c.policy = p.policy;
  c.engines = p.engines;
  c.model = net.path;
  c.network = net.name;
  c.progress = at;
  return c;
}

}  // namespace

PointRecord evaluate_point(const SweepSpec& s, const SweepNetwork& net, const PointRef& p, const TilingHint& hint) {
  PointRecord r = point_identity(s, p);
  r.has_layers = true;
  PlatformSpec spec;
  if (!load_point_platform(s, p, spec, r)) return r;
  // Engines follow the point's platform (its `engines:` key and NPU) or the point's engine set.
  CompileStage at = CompileStage::platform;
  CompileOptions c = point_options(net, p, &at);
  c.tune = simulating_tune_context();
  c.tiling_hint = hint;
  try {
    const CompiledNetwork n = compile_network(net.graph, std::move(spec), c);
    r = simulate_point(std::move(r), n);
    if (const Flow* f = find_flow(p.policy); f && f->plans_network())
      r.plan = plan_to_json(n.node_order, n.graph, n.library, n.tilings);
    return r;
  } catch (const std::exception& e) {
    return failed(std::move(r), infeasible(at, e) ? "infeasible" : "error", e.what());
  }
}

PointRecord evaluate_plan(const SweepSpec& s, const SweepNetwork& net, const PointRef& p, const nlohmann::json& plan) {
  PointRecord r = point_identity(s, p);
  r.has_layers = true;
  PlatformSpec spec;
  if (!load_point_platform(s, p, spec, r)) return r;
  GivenPlan given;
  CompileStage at = CompileStage::platform;
  CompileOptions c = point_options(net, p, &at);
  c.plan = &given;
  try {
    given.order = plan.at("order").get<std::vector<int>>();
    for (const nlohmann::json& e : plan.at("engines")) given.engines.emplace_back(e.at(0).get<std::string>(), e.at(1).get<bool>());
    given.library = plan.at("library").get<std::string>();
    for (const nlohmann::json& t : plan.at("tilings")) given.tilings.push_back(tiling_from_json(t));
    r = simulate_point(std::move(r), compile_network(net.graph, std::move(spec), c));
    r.plan = plan;
    return r;
  } catch (const std::exception& e) {
    // The plan is this network's: only its schedule may not fit the point's memories.
    const bool schedule = at == CompileStage::schedule || at == CompileStage::allocation;
    return failed(std::move(r), schedule && infeasible(at, e) ? "infeasible" : "error", e.what());
  }
}

}  // namespace edgesim::sweep
