// `edgesim tune`: the autotuner on one network (compiler/tune, docs/tune.md). Per layer it
// prints the cycles of DORY's and Deeploy's tilings as their flows run them and of the tuned
// choice, the chosen tile, how many candidates were ranked analytically and simulated, and
// Kendall's tau between analytic and simulated cycles; then the network level (network_tune.h):
// how many whole-network plans were simulated, what the chosen plan changes beyond tiles
// (prefetch depths, streamed weights, activations kept in L2) and the whole network under dory,
// deeploy and tuned — the same plan and cycles `run --policy tuned` gets. Results go to the tune
// cache, so `--policy tuned` elsewhere (compile, run, sweep) reuses them. Engines are assigned
// as `run` assigns them (the platform's preference).
// --objective energy|edp chooses each layer's tiling by simulated energy (or energy x cycles)
// instead (compiler/tune/objective.h): the table gains the energy of the choice and of the
// fastest candidate, and every layer whose choice is not the fastest gets a line saying why
// (the network plan itself is still chosen by whole-network cycles).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/flows/flow.h"
#include "compiler/golden/golden.h"
#include "compiler/ir/op_label.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/context.h"
#include "platforms/loader/loader.h"
#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/report/text_table.h"
#include "sim/tune/tune_flow.h"

namespace edgesim::cli {
namespace {

struct TuneArgs {
  std::string model, platform, cache, objective = "cycles", inputs;
  std::vector<std::string> overrides;
  int jobs = 1;
  size_t top_k = 8;
  bool no_cache = false, analytic_only = false, wide = false;
};

std::string tile_label(const LayerTiling& t) {
  auto dim = [](int64_t v) { return v > 0 ? std::to_string(v) : std::string("*"); };
  std::string s = fmt::format("{}x{}x{} {}", dim(t.l1.n_out), dim(t.l1.h_out), dim(t.l1.w_out), t.l1.db >= 2 ? "db" : "sb");
  if (t.l3.tiled()) s += " L3";
  if (tuned_on_deeploy_loop(t)) s += " dpl";   // Deeploy's loop (a fork per tile)
  return s;
}

std::string cyc(int64_t c) { return c < 0 ? std::string("-") : fmt::format("{}", c); }

std::string uj(double pj) { return pj < 0 ? std::string("-") : fmt::format("{:.2f}", pj * 1e-6); }

// Objective energy: each layer's choice against its fastest simulated candidate, and why.
void print_energy_choices(report::TextTable& energy, double e_fastest, int64_t st, double e_tuned,
                          const std::string& why, const TuneArgs& a) {
  energy.add_rule();
  energy.add_row({"", "sum of layer steps", "", uj(e_fastest), cyc(st), uj(e_tuned)});
  std::cout << fmt::format("objective {}: each layer's choice against its fastest simulated candidate "
                           "(energy of the layer alone, leakage over its cycles included)\n",
                           a.objective);
  std::cout << energy.render(a.wide ? 0 : report::kTerminalWidth);
  std::cout << (why.empty() ? std::string("every layer's choice is also its fastest candidate\n")
                            : "why each other choice (its energy and cycles against the fastest, the blocks that "
                              "moved most):\n" + why)
            << "\n";
}

// The lines after the per-layer tables: the host's untiled layers, the whole-network plan and what
// it changed, the network's cycles against the reference flows, and (objective energy) its energy.
void print_network_plan(const TuneOutcome& t, bool by_energy, bool wide) {
  const Graph& g = t.graph;
  const NetworkTuneResult& nr = t.result;
  const bool host_platform = t.host_platform;
  const double secs = t.seconds;
  if (host_platform) {
    int64_t host = 0;
    for (int n : g.layer_nodes()) host += g.nodes[static_cast<size_t>(n)].engine == "cluster";
    std::cout << fmt::format("host layers: {} run on whole tensors in L2 (untiled, not tuned)\n", host);
  }
  if (nr.evaluator.empty()) {
    std::cout << fmt::format("network plan: none (no network evaluator); {:.2f} s\n", secs);
    return;
  }
  std::cout << fmt::format("network plan: {} whole-network plans simulated{}; {}\n", nr.plans, nr.cached ? " (from the cache)" : "",
                           nr.chosen == "tuned" ? "the tuned plan"
                           : nr.library.empty() ? "no tuned plan beat " + nr.chosen + "'s: its plan is used"
                                                : "no plan beat Deeploy's flow: its plan and kernel library are used");
  for (const std::string& c : nr.changes) std::cout << "  " << printable(c) << "\n";   // node names from the file
  for (const EngineChange& c : nr.engine_changes)
    std::cout << fmt::format("  {} {}: {} -> {} ({} -> {} cycles alone)\n", printable(g.nodes[static_cast<size_t>(c.node)].name),
                             c.what == "engine" ? "engine" : "weights", c.from, c.to, c.from_cycles, c.to_cycles);
  const int64_t ref = std::min(nr.dory < 0 ? INT64_MAX : nr.dory, nr.deeploy < 0 ? INT64_MAX : nr.deeploy);
  std::string whole = fmt::format("whole network (timing-only simulation): dory {}, deeploy {}, tuned {} cycles",
                                  cyc(nr.dory), cyc(nr.deeploy), cyc(nr.tuned));
  if (nr.tuned > 0 && ref != INT64_MAX)
    whole += fmt::format(" -> {:.2f}x fewer than dory, {:.1f}% fewer than the faster reference",
                         nr.dory > 0 ? static_cast<double>(nr.dory) / static_cast<double>(nr.tuned) : 0.0,
                         100.0 * static_cast<double>(ref - nr.tuned) / static_cast<double>(ref));
  std::cout << "\n" << report::wrap_lines(whole, wide ? 0 : report::kTerminalWidth, 2)
            << fmt::format("  each layer's choice alone, no cross-layer decision: {} cycles; tuning took {:.2f} s\n",
                           cyc(nr.isolated), secs);
  if (by_energy) {
    // The whole network's energy under each policy (the tuned plan's layers chosen by the objective).
    const Score &nd = t.dory, &np = t.deeploy, &nt = t.tuned;
    const auto e = [](const Score& x) { return x.cycles < 0 || !x.has_energy() ? -1.0 : x.total_pj(); };
    if (nt.has_energy())
      std::cout << fmt::format("whole network energy: dory {} uJ, deeploy {} uJ, tuned {} uJ\n", uj(e(nd)), uj(e(np)),
                               uj(e(nt)));
  }
}

int run_tune(const TuneArgs& a) {
  const std::string platform = resolve_platform(a.platform);
  TuneRequest req;
  req.model = a.model;
  req.platform = load_platform(platform, a.overrides);
  print_platform_warnings(req.platform);
  req.top_k = a.top_k;
  req.jobs = a.jobs;
  req.cache_path = a.no_cache ? "" : a.cache.empty() ? default_tune_cache_path() : a.cache;
  req.analytic_only = a.analytic_only;
  req.objective = a.objective;
  // Progress on stderr for the work not taken from the cache ("[3/29] layer 'L02_pw' on cluster").
  req.progress = [](const std::string& line) { std::cerr << "edgesim: tuning: " << line << std::endl; };
  check_input_path("--inputs", a.inputs);
  req.inputs = [&](Graph& g) {
    if (!a.inputs.empty()) (void)load_inputs(g, a.inputs);
    else if (const std::string w = guessed_input_types_note(g); !w.empty()) std::cerr << "edgesim: warning: " << w << "\n";
  };
  const bool by_energy = a.objective != "cycles";
  TuneOutcome t;
  try {
    t = run_tune_flow(req, [&](const TuneOutcome& o) {
      std::cout << report::wrap_lines(fmt::format("network:  {} ({} layers)\nplatform: {} ({}), evaluator {}, top {} "
                                                  "simulated per layer, -j {}, objective {}\ncache:    {}",
                                                  printable(a.model), o.graph.layer_nodes().size(), printable(o.spec.name),
                                                  printable(platform), o.evaluator, a.top_k, o.jobs, a.objective,
                                                  req.cache_path.empty() ? "none" : req.cache_path),
                                      a.wide ? 0 : report::kTerminalWidth, 10)
                << "\n";
    });
  } catch (const TilingError& e) {
    throw CliError(e.what(), 2);
  }
  const Graph& g = t.graph;
  const NetworkTuneResult& nr = t.result;
  const std::vector<LayerTuneResult>& res = nr.layers;

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
  report::TextTable energy({{"#"},
                            {"layer", true, 12},
                            {"fastest cyc"},
                            {"fastest uJ"},
                            {"tuned cyc"},
                            {"tuned uJ"},
                            {"tuned tile (CxHxW)", true, 12}});
  double e_tuned = 0, e_fastest = 0;
  std::string why;   // one line per layer whose choice is not its fastest candidate
  int64_t sd = 0, sp = 0, st = 0, best_sum = 0;
  size_t ranked = 0, simulated = 0, hits = 0;
  double tau_sum = 0, tau_l3_sum = 0;
  int tau_n = 0, tau_l3_n = 0;
  for (size_t i = 0; i < res.size(); ++i) {
    const LayerTuneResult& r = res[i];
    const std::string op = layer_label(g, g.nodes[static_cast<size_t>(r.node)]);
    const bool npu = g.nodes[static_cast<size_t>(r.node)].engine == "npu";
    if (r.tuned_cycles < 0) {   // not evaluated (no simulator): the NPU's own tile
      table.add_row({std::to_string(i), printable(r.name), op, "-", "-", "-", "-", tile_label(r.tuned) + (npu ? " npu" : ""), "-", "-", "-", ""});
      continue;
    }
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
    if (r.options.size() > 2 && !npu) tau_l3_sum += r.tau_l3, ++tau_l3_n;   // (NPU estimates: per slab)
    table.add_row({std::to_string(i), printable(r.name), op, cyc(r.dory_cycles), cyc(r.deeploy_cycles), cyc(r.tuned_cycles),
                   fmt::format("{:.1f}%", 100.0 * static_cast<double>(best - r.tuned_cycles) / static_cast<double>(best)),
                   tile_label(r.tuned) + (npu ? " npu" : ""), std::to_string(r.ranked), std::to_string(r.simulated), fmt::format("{:.2f}", r.tau),
                   !r.cached ? "" : a.no_cache ? "earlier" : "cached"});   // --no-cache: tuned earlier in this run
    if (by_energy) {
      e_tuned += r.tuned_energy_pj;
      e_fastest += r.fastest_energy_pj;
      if (!r.why.empty()) why += fmt::format("  {} {}: {}\n", i, printable(r.name), r.why);
      energy.add_row({std::to_string(i), printable(r.name), cyc(r.fastest_cycles), uj(r.fastest_energy_pj), cyc(r.tuned_cycles),
                      uj(r.tuned_energy_pj), r.why.empty() ? "= the fastest" : tile_label(r.tuned)});
    }
  }
  table.add_rule();
  table.add_row({"", "sum of layer steps", "", cyc(sd), cyc(sp), cyc(st),
                 best_sum > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(best_sum - st) / static_cast<double>(best_sum)) : "-",
                 "each layer alone"});
  std::cout << table.render(a.wide ? 0 : report::kTerminalWidth);
  // Kendall tau over the layers where it was measured (an L3 decision only where one was made).
  const std::string l3_tau =
      tau_l3_n > 0 ? fmt::format(", {:.2f} over {} layers (L3 decision)", tau_l3_sum / tau_l3_n, tau_l3_n) : "";
  std::cout << report::wrap_lines(fmt::format("candidates: {} ranked analytically, {} simulated; mean Kendall tau {:.2f} "
                                              "over {} layers (L1 tile){}; {} of {} layers {}",
                                              ranked, simulated, tau_n ? tau_sum / tau_n : 1.0, tau_n, l3_tau, hits,
                                              res.size(),
                                              // --no-cache: the cache lives in memory, for this run only
                                              a.no_cache ? "already tuned earlier in this run (engine choice, identical layers)" : "from the cache"),
                                  a.wide ? 0 : report::kTerminalWidth, 12)
            << "\n";

  if (by_energy) print_energy_choices(energy, e_fastest, st, e_tuned, why, a);

  print_network_plan(t, by_energy, a.wide);
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
  sub->add_option("--objective", args->objective,
                  "what each layer's choice minimises among the simulated candidates: cycles, energy or edp")
      ->check(one_of({"cycles", "energy", "edp"}, "objective"))->capture_default_str();
  sub->add_option("--inputs", args->inputs,
                  "input data (formats of `verify`): types the graph's inferred inputs as `run --inputs` does "
                  "(Deeploy networks), so the network tuned is the one run verifies");
  sub->add_flag("--analytic-only", args->analytic_only, "rank and choose with the analytic cost alone");
  sub->add_flag("--wide", args->wide, "print every table column (default: fit 100 columns)");
  action = [args] { return run_tune(*args); };
}

}  // namespace edgesim::cli
