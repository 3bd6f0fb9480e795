// The `edgesim` Python module (docs/python.md): the CLI's own code (library edgesim_cli and
// below) behind functions that take Python values and return plain Python objects — dicts and
// lists shaped like the CLI's JSON documents, NumPy arrays for tensors. Every error is raised as
// edgesim.Error whose text is the one line the CLI prints after "edgesim: error: ".
//   platforms()                       bundled platforms
//   platform(platform, overrides)     resolved keys, derived values, warnings
//   describe(platform, overrides)     `edgesim describe` text (with what each override changed)
//   import_network(path)              the imported graph
//   compile(model, ...)               engines, tilings and the schedule (`compile -o` JSON)
//   run(model, ..., data, inputs)     `run --json` document (+ outputs as arrays with data)
//   sweep(networks, sets, ...)        the sweep's point records and Pareto front
//   tune(model, ..., objective)       `edgesim tune`'s per-layer results (tune cache as the CLI's)
// The GIL is released while a flow runs; functions are safe to call repeatedly (each run has its
// own SystemC context) and from several threads: the core is not reentrant (SystemC's current
// simulation context is a process global), so every call into it
// holds one process-wide mutex (`on_core`), and threads run one after another.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "compiler/frontend/import.h"
#include "compiler/ir/op_label.h"
#include "compiler/ir/printer.h"
#include "compiler/schedule/json.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/context.h"
#include "platforms/loader/loader.h"
#include "python/convert.h"
#include "sim/workers/process_pool.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/flow_args.h"
#include "sim/cli/run_session.h"
#include "sim/report/report.h"
#include "sim/sweep/carry.h"
#include "sim/sweep/evaluate.h"
#include "sim/sweep/grid.h"
#include "sim/sweep/pareto.h"
#include "sim/tune/tune_flow.h"

namespace py = pybind11;
using namespace edgesim;

// libsystemc.so defines main() calling sc_main; the module must resolve that symbol when loaded.
extern "C" __attribute__((visibility("default"))) int sc_main(int, char**) { return 0; }

namespace {

// Runs `f` on the core, which is not reentrant: with the GIL released, under one process-wide
// mutex. The mutex is only ever taken without the GIL (a thread waiting for it holds nothing
// Python needs), and the GIL only re-acquired under it (an input callback), so the lock order is
// always mutex, then GIL, and two threads cannot wait on each other. `f` returns C++ values; the
// caller converts them to Python objects after, with the GIL held.
std::mutex& core_mutex() {   // one for the process (not one per instantiation of on_core)
  static std::mutex m;
  return m;
}

template <class F>
auto on_core(F&& f) -> decltype(f()) {
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(core_mutex());
  return f();
}

std::string platform_path(const std::string& platform) { return cli::resolve_platform(platform); }

py::dict platform_dict(const std::string& platform, const std::vector<std::string>& overrides) {
  std::string path;
  PlatformSpec s;
  std::vector<std::pair<std::string, std::string>> values;   // keys in effect, in known_platform_keys order
  on_core([&] {
    path = platform_path(platform);
    s = load_platform(path, overrides);
    for (const std::string& k : known_platform_keys()) {
      try {
        values.emplace_back(k, platform_value(s, k));
      } catch (const PlatformError&) {   // not in effect on this platform
      }
    }
  });
  py::dict keys, origin;
  for (const auto& [k, v] : values) {
    keys[py::str(k)] = v;
    if (auto it = s.origin.find(k); it != s.origin.end()) origin[py::str(k)] = it->second;
  }
  py::dict d;
  d["name"] = s.name;
  d["description"] = s.description;
  d["path"] = path;
  d["files"] = s.files;
  d["hash"] = fmt::format("{:016x}", platform_hash(s));
  d["keys"] = keys;
  d["origin"] = origin;
  d["follows"] = s.follows;
  d["warnings"] = s.warnings;
  d["energy_modelled"] = s.energy.present;
  return d;
}

py::dict network_dict(const std::string& path) {
  Graph g;
  std::string text;
  on_core([&] {
    g = import_onnx(path);
    text = print_graph(g);
  });
  auto tensors = [&](const std::vector<int>& ids) {
    py::list out;
    for (int id : ids) {
      const TensorDesc& t = g.tensor(id);
      py::dict d;
      d["name"] = t.name;
      d["dtype"] = dtype_name(t.dtype);
      d["shape"] = t.shape;
      out.append(d);
    }
    return out;
  };
  py::list nodes;
  for (const Node& n : g.nodes) {
    py::dict d;
    d["name"] = n.name;
    d["op"] = layer_label(g, n);
    d["macs"] = g.macs(n);
    d["layer"] = Graph::is_layer(n);
    nodes.append(d);
  }
  py::dict d;
  d["name"] = g.name;
  d["dialect"] = g.dialect;
  d["inputs"] = tensors(g.inputs);
  d["outputs"] = tensors(g.outputs);
  d["nodes"] = nodes;
  d["layers"] = g.layer_nodes().size();
  d["macs"] = g.total_macs();
  d["text"] = text;
  return d;
}

// The flow arguments both compile() and run() take.
void set_flow_args(cli::FlowArgs& a, const std::string& model, const std::string& platform,
                   const std::vector<std::string>& overrides, const std::string& policy,
                   const std::vector<std::string>& engines, const std::string& buffering, const std::string& network_loop) {
  a.model = model;
  a.platform = platform;
  a.overrides = overrides;
  a.policy = policy;
  a.engines = engines;
  a.buffering = buffering;
  a.network_loop = network_loop;
}

py::dict compile_dict(const std::string& model, const std::string& platform, const std::vector<std::string>& overrides,
                      const std::string& policy, const std::vector<std::string>& engines, const std::string& buffering,
                      const std::string& network_loop, const std::string& io_layout) {
  cli::FlowArgs a;
  set_flow_args(a, model, platform, overrides, policy, engines, buffering, network_loop);
  const FlowOutcome o = on_core([&] {
    FlowRequest req = cli::flow_request(a);
    req.io_layout = io_layout;
    req.simulate = false;
    req.sim.data = false;
    return cli::run_flow_cli(req, a);
  });
  py::list layers;
  for (const LayerTiling& t : o.tilings) {
    py::dict d;
    const Node& n = o.graph.nodes.at(static_cast<size_t>(t.node));
    d["name"] = n.name;
    d["op"] = layer_label(o.graph, n);
    d["engine"] = n.engine;
    d["tiling"] = python::from_json(tiling_to_json(t));
    layers.append(d);
  }
  py::dict d;
  d["network"] = o.schedule.network;
  d["platform"] = o.spec.name;
  d["policy"] = policy;
  d["layers"] = layers;
  d["schedule"] = python::from_json(schedule_to_json(o.schedule));
  d["warnings"] = o.spec.warnings;
  return d;
}

py::dict run_dict(const std::string& model, const std::string& platform, const std::vector<std::string>& overrides,
                  const std::string& policy, const std::vector<std::string>& engines, const std::string& buffering,
                  const std::string& network_loop, const std::string& io_layout, bool data, const py::object& inputs,
                  const std::string& expected, uint64_t seed, const std::string& arith) {
  cli::RunOptions a;
  a.provenance = true;   // the result dict carries it, as run --json does
  set_flow_args(a, model, platform, overrides, policy, engines, buffering, network_loop);
  a.io_layout = io_layout;
  a.timing_only = !data;
  a.expected = expected;
  a.seed = seed;
  a.arith = arith;
  if (py::isinstance<py::str>(inputs)) {
    a.inputs = inputs.cast<std::string>();
  } else if (!inputs.is_none()) {   // arrays: a list in graph-input order, or a dict by input name
    a.input_source = [&inputs](Graph& g) {
      py::gil_scoped_acquire gil;
      std::vector<Tensor> out;
      const bool by_name = py::isinstance<py::dict>(inputs);
      const py::list seq = by_name ? py::list() : py::list(inputs);
      if (!by_name && seq.size() != g.inputs.size())
        throw std::invalid_argument(fmt::format("inputs: the network takes {} input(s), {} given", g.inputs.size(),
                                                seq.size()));
      for (size_t i = 0; i < g.inputs.size(); ++i) {
        const TensorDesc& t = g.tensor(g.inputs[i]);
        if (by_name && !inputs.contains(py::str(t.name)))
          throw std::invalid_argument(fmt::format("inputs: no array for input '{}'", t.name));
        const py::object value = by_name ? py::object(inputs[py::str(t.name)]) : py::object(seq[i]);
        out.push_back(python::to_tensor(value, t));
      }
      return out;
    };
  }
  std::string json;
  const cli::RunSession session = on_core([&] {
    cli::RunSession s = cli::run_session(a);
    json = run_to_json(s.flow.sim.result);
    return s;
  });
  py::dict d = python::from_json_text(json);
  d["input_label"] = session.input_label;
  if (session.flow.sim.values) {
    py::dict outs, ins;
    const Graph& g = session.flow.graph;
    for (size_t i = 0; i < g.outputs.size() && i < session.flow.sim.values->outputs.size(); ++i)
      outs[py::str(g.tensor(g.outputs[i]).name)] = python::to_numpy(session.flow.sim.values->outputs[i]);
    for (size_t i = 0; i < g.inputs.size() && i < session.flow.inputs.size(); ++i)
      ins[py::str(g.tensor(g.inputs[i]).name)] = python::to_numpy(session.flow.inputs[i]);
    d["outputs"] = outs;
    d["inputs"] = ins;
  }
  return d;
}

py::dict sweep_dict(const std::vector<std::string>& networks, const std::string& platform, const py::dict& sets,
                    const std::vector<std::string>& policies, const std::vector<std::vector<std::string>>& engine_sets,
                    const std::string& objective) {
  std::vector<std::string> options;   // the sets as `--set key=v1,v2` values
  for (const auto& [key, values] : sets) {
    std::string option = key.cast<std::string>() + "=";
    if (py::isinstance<py::str>(values)) {
      option += values.cast<std::string>();
    } else {
      std::string list;
      for (const py::handle v : values) {   // appended piecewise: GCC 12 warns (-Wrestrict) on "," + str here
        if (!list.empty()) list += ',';
        list += py::str(v).cast<std::string>();
      }
      option += list;
    }
    options.push_back(option);
  }
  sweep::SweepSpec s;
  std::vector<sweep::PointRecord> records;
  on_core([&] {
    s.platform = platform_path(platform);
    s.policies = policies;
    for (const std::string& p : policies) cli::check_policy(p);
    if (!engine_sets.empty()) s.engine_sets = engine_sets;
    for (const std::string& option : options) sweep::merge_axis(s.axes, sweep::parse_axis(option));
    if (objective != "cycles" && objective != "energy" && objective != "edp")
      throw cli::CliError("--objective: " + cli::not_one_of(objective, {"cycles", "energy", "edp"}, "objective"));
    s.objective = objective;
    const PlatformSpec base = load_platform(s.platform);
    if (objective != "cycles" && !base.energy.present)
      throw cli::CliError("sweep --objective " + objective + ": platform '" + base.name +
                          "' has no energy model (no energy section; docs/energy.md)");
    sweep::name_networks(s, networks);
    const std::vector<sweep::SweepNetwork> nets = sweep::import_networks(s);
    for (size_t i = 0; i < sweep::point_count(s); ++i) {
      const sweep::PointRef p = sweep::point_at(s, i);
      records.push_back(sweep::evaluate_point(s, nets.at(p.network), p, cli::tiling_size_hint));
    }
    // Tuned plans carried to the points with more memory, as `edgesim sweep` does (sim/sweep/carry.h).
    sweep::carry_tuned_plans(s, records, [&](size_t i, const nlohmann::json& plan) {
      const sweep::PointRef p = sweep::point_at(s, i);
      return sweep::evaluate_plan(s, nets.at(p.network), p, plan);
    });
  });
  const std::vector<std::string> keys = sweep::axis_keys(s);
  py::list points, front;
  for (const sweep::PointRecord& r : records) points.append(python::from_json(sweep::record_to_json(r, keys)));
  // The Pareto front of (cycles, energy) over the feasible points of each network, policy and engine set.
  std::vector<bool> on(records.size(), false);
  for (size_t i = 0; i < records.size(); ++i) {
    std::vector<size_t> block;
    std::vector<std::pair<double, double>> pts;
    for (size_t j = 0; j < records.size(); ++j) {
      const auto& a = records[i];
      const auto& b = records[j];
      if (a.network == b.network && a.policy == b.policy && a.engines == b.engines && b.status == "ok" && b.energy_uj >= 0) {
        block.push_back(j);
        pts.emplace_back(static_cast<double>(b.total_cycles), b.energy_uj);
      }
    }
    for (size_t k : sweep::pareto_front(pts)) on[block[k]] = true;
  }
  for (size_t i = 0; i < records.size(); ++i)
    if (on[i]) front.append(i);
  py::dict d;
  d["platform"] = s.platform;
  d["keys"] = keys;
  d["objective"] = objective;
  d["points"] = points;
  d["pareto"] = front;
  return d;
}

// `edgesim tune` as data (the same tune flow, sim/tune/tune_flow.h): per layer the references'
// cycles, the choice under the objective with its cycles and energy, the fastest candidate's,
// and why they differ; then the whole network under dory, deeploy and the tuned plan.
py::dict tune_dict(const std::string& model, const std::string& platform, const std::vector<std::string>& overrides,
                   const std::string& objective, size_t top_k, int jobs, const std::string& inputs) {
  TuneOutcome t;
  on_core([&] {
    if (jobs < 1) throw std::invalid_argument("jobs: must be at least 1");
    TuneRequest req;
    req.model = model;
    req.platform = load_platform(platform_path(platform), overrides);
    req.top_k = top_k;
    req.jobs = jobs;
    req.jobs_option = "jobs";
    req.cache_path = default_tune_cache_path();
    req.objective = objective;
    if (!inputs.empty()) req.inputs = [&inputs](Graph& g) { (void)load_inputs(g, inputs); };
    t = run_tune_flow(req);
  });
  const std::vector<LayerTuneResult>& res = t.result.layers;
  py::list layers;
  for (const LayerTuneResult& r : res) {
    py::dict d;
    d["node"] = r.node;
    d["name"] = r.name;
    d["dory_cycles"] = r.dory_cycles;
    d["deeploy_cycles"] = r.deeploy_cycles;
    d["tuned_cycles"] = r.tuned_cycles;
    d["tuned_energy_pj"] = r.tuned_energy_pj;
    d["fastest_cycles"] = r.fastest_cycles;
    d["fastest_energy_pj"] = r.fastest_energy_pj;
    d["why"] = r.why;
    d["tiling"] = python::from_json(tiling_to_json(r.tuned));
    d["cached"] = r.cached;
    layers.append(d);
  }
  const NetworkTuneResult& nr = t.result;
  py::dict net;
  net["dory_cycles"] = nr.dory;
  net["deeploy_cycles"] = nr.deeploy;
  net["tuned_cycles"] = nr.tuned;
  net["isolated_cycles"] = nr.isolated;
  net["plans"] = nr.plans;
  net["chosen"] = nr.chosen;
  net["changes"] = nr.changes;
  py::dict d;
  d["platform"] = t.spec.name;
  d["objective"] = objective;
  d["evaluator"] = t.evaluator;
  d["layers"] = layers;
  d["network"] = net;
  return d;
}

py::list platforms_list() {
  py::list out;
  for (const cli::BundledPlatform& p : on_core([] { return cli::bundled_platforms(); })) {
    py::dict d;
    d["name"] = p.name;
    d["path"] = p.path;
    out.append(d);
  }
  return out;
}

}  // namespace

PYBIND11_MODULE(edgesim, m) {
  m.doc() = "edgesim: compile, simulate and verify int8 networks on edge-AI platforms (docs/python.md)";
  static py::exception<std::runtime_error> error(m, "Error", PyExc_RuntimeError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::exception& e) {
      PyErr_SetString(error.ptr(), e.what());
    }
  });
  using py::arg;
  const std::vector<std::string> none;
  m.def("platforms", &platforms_list, "The bundled platforms: [{name, path}]");
  m.def("platform", &platform_dict, arg("platform") = "", arg("overrides") = none,
        "A platform (bundled name or YAML path) with `--set` overrides: its keys in effect, their origin, the derived "
        "values that follow the hardware (`auto`), warnings");
  m.def(
      "describe",
      [](const std::string& platform, const std::vector<std::string>& overrides) {
        return on_core([&] {
          const std::string path = platform_path(platform);
          return describe_platform(load_platform(path, overrides)) + describe_overrides(path, overrides);
        });
      },
      arg("platform") = "", arg("overrides") = none, "`edgesim describe` of a platform");
  m.def("import_network", &network_dict, arg("path"), "Import an ONNX network: inputs, outputs, nodes, MACs");
  m.def("compile", &compile_dict, arg("model"), arg("platform") = "", arg("overrides") = none, arg("policy") = "dory",
        arg("engines") = none, arg("buffering") = "auto", arg("network_loop") = "auto", arg("io_layout") = "hwc",
        "Engines, tilings and the allocated schedule of a network (no simulation)");
  m.def("run", &run_dict, arg("model"), arg("platform") = "", arg("overrides") = none, arg("policy") = "dory",
        arg("engines") = none, arg("buffering") = "auto", arg("network_loop") = "auto", arg("io_layout") = "hwc",
        arg("data") = true, arg("inputs") = py::none(), arg("expected") = "", arg("seed") = 1, arg("arith") = "exact",
        "Run a network as `edgesim run --json` does: the JSON document as a dict (+ 'outputs' and 'inputs' arrays "
        "with data)");
  m.def("sweep", &sweep_dict, arg("networks"), arg("platform") = "", arg("sets") = py::dict(),
        arg("policies") = std::vector<std::string>{"dory"}, arg("engines") = std::vector<std::vector<std::string>>{},
        arg("objective") = "cycles",
        "Sweep platform keys ({key: [values]}) over networks: point records as `sweep --json` and the cycles-energy "
        "Pareto front (indices into points)");
  m.def("tune", &tune_dict, arg("model"), arg("platform") = "", arg("overrides") = none, arg("objective") = "cycles",
        arg("top_k") = 8, arg("jobs") = 1, arg("inputs") = "",
        "Autotune a network as `edgesim tune` does (inputs: a data file typing a Deeploy graph's inputs, as "
        "`tune --inputs`): per layer the references' cycles, the choice under the objective "
        "(cycles, energy, edp) with its cycles and energy, the fastest candidate's, and why they differ");
}
