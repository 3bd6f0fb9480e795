// `edgesim tune`: the autotuner on one network (compiler/tune, docs/tune.md). Per layer it
// prints the cycles of DORY's and Deeploy's tilings as their flows run them and of the tuned
// choice, the chosen tile, how many candidates were ranked analytically and simulated, and
// Kendall's tau between analytic and simulated cycles; then the whole network simulated under
// dory, deeploy and tuned (timing only) and the improvement. Results go to the tune cache, so
// `--policy tuned` elsewhere (compile, run, sweep) reuses them.
#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/budget/memory.h"
#include "compiler/frontend/import.h"
#include "compiler/ir/op_label.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/tune/cache.h"
#include "compiler/tune/tuned_policy.h"
#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/exec/executor.h"
#include "sim/report/text_table.h"
#include "sim/tune/sim_evaluator.h"

namespace edgesim::cli {
namespace {

struct TuneArgs {
  std::string model, platform, cache;
  std::vector<std::string> overrides;
  int jobs = 1;
  size_t top_k = 8;
  bool no_cache = false, analytic_only = false, wide = false;
};

std::string tile_label(const LayerTiling& t) {
  auto dim = [](int64_t v) { return v > 0 ? std::to_string(v) : std::string("*"); };
  std::string s = fmt::format("{}x{}x{} {}", dim(t.l1.n_out), dim(t.l1.h_out), dim(t.l1.w_out), t.l1.db >= 2 ? "db" : "sb");
  if (t.l3.tiled()) s += " L3";
  if (t.policy == "tuned-deeploy") s += " dpl";   // Deeploy's loop (a fork per tile)
  return s;
}

std::string cyc(int64_t c) { return c < 0 ? std::string("-") : fmt::format("{}", c); }

int64_t network_cycles(const Graph& g, const PlatformSpec& platform, const std::string& policy) {
  try {
    const PlatformSpec spec = flow_platform(platform, policy);   // the policy's kernel library
    const Schedule s = build_schedule(g, spec, tile_graph(g, spec, policy), {});
    SimOptions o;
    o.data = false;
    return simulate(g, s, spec, {}, o).result.total_cycles;
  } catch (const std::runtime_error&) {
    return -1;   // not feasible under that policy
  }
}

int run_tune(const TuneArgs& a) {
  const std::string platform = resolve_platform(a.platform);
  const PlatformSpec spec = load_platform(platform, a.overrides);
  print_platform_warnings(spec);
  Graph g = import_onnx(a.model);
  check_memory(estimate_memory(g), g, a.model);
  // On a platform whose cores are a RISC-V host (DIANA) the host's layers run untiled: tune the
  // accelerators' layers, with the engines `run` gives them (compiler/tune/accel_tuner.h).
  const bool host_platform = spec.cluster.present && spec.cluster.impl == "riscv_host";
  if (host_platform) assign_engines(g, spec);
  TuneSettings& ts = tune_settings();
  ts.top_k = a.top_k;
  ts.jobs = a.jobs;
  if (!a.cache.empty()) ts.cache_path = a.cache;
  if (a.no_cache) ts.cache_path.clear();
  if (a.analytic_only) ts.make_simulator = nullptr;
  std::unique_ptr<Evaluator> sim = ts.make_simulator ? ts.make_simulator(a.jobs) : nullptr;
  TuneOptions opt;
  opt.top_k = a.top_k;
  opt.simulator = sim.get();
  TuneCache cache(ts.cache_path);

  std::cout << fmt::format("network:  {} ({} layers)\nplatform: {} ({}), evaluator {}, top {} simulated per layer, "
                           "-j {}\ncache:    {}\n\n",
                           a.model, g.layer_nodes().size(), spec.name, platform, sim ? sim->name() : "analytic",
                           a.top_k, a.jobs, ts.cache_path.empty() ? "none" : ts.cache_path);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<LayerTuneResult> res;
  try {
    res = tune_graph(g, spec, opt, cache);
  } catch (const TilingError& e) {
    throw CliError(e.what(), 2);
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  report::TextTable table({{"#"},
                           {"layer", true, 12},
                           {"op", true, 10},
                           {"dory"},
                           {"deeploy"},
                           {"tuned"},
                           {"gain"},
                           {"tuned tile (CxHxW)", true, 12},
                           {"ranked", false, 0, 2},
                           {"sim", false, 0, 2},
                           {"tau", false, 0, 1},
                           {"", true}});
  int64_t sd = 0, sp = 0, st = 0, best_sum = 0;
  size_t ranked = 0, simulated = 0, hits = 0;
  double tau_sum = 0;
  int tau_n = 0;
  for (size_t i = 0; i < res.size(); ++i) {
    const LayerTuneResult& r = res[i];
    const int64_t best = std::min(r.dory_cycles < 0 ? INT64_MAX : r.dory_cycles,
                                  r.deeploy_cycles < 0 ? INT64_MAX : r.deeploy_cycles);
    sd += std::max<int64_t>(0, r.dory_cycles);
    sp += std::max<int64_t>(0, r.deeploy_cycles);
    st += r.tuned_cycles;
    best_sum += best;
    ranked += r.ranked;
    simulated += r.simulated;
    hits += r.cached;
    if (r.simulated > 3) tau_sum += r.tau, ++tau_n;
    table.add_row({std::to_string(i), r.name, layer_label(g, g.nodes[static_cast<size_t>(r.node)]), cyc(r.dory_cycles),
                   cyc(r.deeploy_cycles), cyc(r.tuned_cycles),
                   fmt::format("{:.1f}%", 100.0 * static_cast<double>(best - r.tuned_cycles) / static_cast<double>(best)),
                   tile_label(r.tuned), std::to_string(r.ranked), std::to_string(r.simulated), fmt::format("{:.2f}", r.tau),
                   r.cached ? "cached" : ""});
  }
  table.add_rule();
  table.add_row({"", "sum of layer steps", "", cyc(sd), cyc(sp), cyc(st),
                 fmt::format("{:.1f}%", 100.0 * static_cast<double>(best_sum - st) / static_cast<double>(best_sum)),
                 "vs the faster reference per layer"});
  std::cout << table.render(a.wide ? 0 : report::kTerminalWidth);
  std::cout << fmt::format("candidates: {} ranked analytically, {} simulated; mean Kendall tau {:.2f} over {} layers; "
                           "{} of {} layers from the cache; {:.2f} s\n\n",
                           ranked, simulated, tau_n ? tau_sum / tau_n : 1.0, tau_n, hits, res.size(), secs);

  if (host_platform) {
    int64_t host = 0;
    for (int n : g.layer_nodes()) host += g.nodes[static_cast<size_t>(n)].engine == "cluster";
    std::cout << fmt::format("host layers: {} run on whole tensors in L2 (untiled, not tuned)\n", host);
  }
  const int64_t nd = network_cycles(g, spec, "dory"), np = network_cycles(g, spec, "deeploy");
  const int64_t nt = network_cycles(g, spec, "tuned");
  const int64_t ref = std::min(nd < 0 ? INT64_MAX : nd, np < 0 ? INT64_MAX : np);
  std::cout << fmt::format("whole network (timing-only simulation): dory {}, deeploy {}, tuned {} cycles", cyc(nd), cyc(np),
                           cyc(nt));
  if (nt > 0 && ref != INT64_MAX)
    std::cout << fmt::format(" -> {:.1f}% fewer than the faster reference", 100.0 * static_cast<double>(ref - nt) /
                                                                                 static_cast<double>(ref));
  std::cout << "\n";
  return 0;
}

}  // namespace

void register_tune(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("tune", "Autotune the tiling of a network with simulated cycles");
  auto args = std::make_shared<TuneArgs>();
  sub->add_option("model", args->model, "ONNX network")->required();
  add_platform_option(sub, args->platform);
  add_set_option(sub, args->overrides);
  add_memory_limit_option(sub);
  sub->add_option("-j,--jobs", args->jobs, "worker processes simulating candidates")
      ->check(CLI::Range(1, 256))->capture_default_str();
  sub->add_option("--top-k", args->top_k, "candidates simulated per layer besides DORY's and Deeploy's")
      ->check(CLI::Range(1, 1000))->capture_default_str();
  sub->add_option("--cache", args->cache, "tune cache file (default: $EDGESIM_TUNE_CACHE or ~/.cache/edgesim)");
  sub->add_flag("--no-cache", args->no_cache, "neither read nor write a cache file");
  sub->add_flag("--analytic-only", args->analytic_only, "rank and choose with the analytic cost alone");
  sub->add_flag("--wide", args->wide, "print every table column (default: fit 100 columns)");
  action = [args] { return run_tune(*args); };
}

}  // namespace edgesim::cli
