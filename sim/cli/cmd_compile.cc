// `edgesim compile`: the compile pipeline (compiler/pipeline/compile.h) on a network and a
// platform: imports the ONNX network, tiles every layer under a named policy, builds and
// allocates the Schedule, asserts the allocation, and prints a per-layer tiling table (in the
// spirit of DORY's tiling profile) followed by the per-level high-water marks. Options
// (docs/cli.md):
//   --check   run the schedule with the functional executor on seeded random inputs and compare
//             every graph output and every placed tensor with the interpreter (bit-exact)
//   -o FILE   write the schedule JSON atomically (temporary file in the same directory, then
//             rename), so an interrupted run never leaves a half-written schedule
// Exit status: 0 success, 1 --check found a mismatch, 2 an error (e.g. a layer with no feasible
// tiling: main prints the TilingError message as one "edgesim: error:" line).
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/ir/op_label.h"
#include "compiler/io/write_file.h"
#include "compiler/pipeline/compile.h"
#include "compiler/schedule/functional.h"
#include "compiler/schedule/json.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling_label.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/flow/flow.h"
#include "sim/report/text_table.h"
#include "sim/tune/context.h"

namespace edgesim::cli {
namespace {

struct CompileArgs {
  std::string model, platform, policy = "dory", buffering = "auto", output, network_loop = "auto", io_layout = "hwc";
  std::string inputs;   // input data: types the graph's inferred inputs (and feeds --check)
  std::vector<std::string> overrides, engines;
  bool check = false, wide = false;
  uint64_t seed = 1;
};

// The L1 budget the occupancy column is relative to: the policy's usable L1.
int64_t l1_budget(const PlatformSpec& spec, const std::string& policy) {
  return policy_budgets(spec, policy).l1;
}

// L2 footprint of the layer: the whole layer, or its L3 slabs with their buffering
// (docs/tiling.md "L3 slab (`L3Tiling`)").
int64_t l2_bytes(const LayerGeom& g, const L3Tiling& t) {
  if (!t.tiled()) {
    const int64_t second = g.kind == OpKind::Add ? g.cin * g.h_in * g.w_in * g.bx2 / 8 : 0;   // Add's 2nd input
    return (g.in_bytes() + second + g.out_bytes()) * g.batch + g.weight_bytes() + g.const_bytes();
  }
  const int64_t cin_g = g.depthwise ? 1 : g.cin / std::max<int64_t>(g.groups, 1);
  const int64_t x = t.db_x * g.cin * t.h_in * g.w_in * g.bx / 8;
  const int64_t y = t.db_o * t.n_out * t.h_out * g.w_out * g.by / 8;
  const int64_t per_cout = cin_g * g.kh * g.kw * g.bw / 8 + (g.has_bias ? g.bb / 8 : 0) + g.n_c * g.cb / 8;
  return x + y + t.db_w * t.n_out * per_cout;
}

void print_table(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& tilings,
                 const std::string& policy, const EngineAssignment& engines, size_t width) {
  const int64_t budget = l1_budget(spec, policy);
  const Flow* flow = find_flow(policy);
  const bool reported = flow && flow->reports_l1_per_layer();
  bool l3 = false, reasons = false;   // columns that would say nothing are left out
  for (const LayerTiling& t : tilings) {
    l3 = l3 || t.l3.tiled();
    reasons = reasons || engine_reason(g, engines, t.node) != "the only engine";   // single-engine platform
  }
  std::vector<report::TableColumn> cols = {{"#"}, {"layer", true, 12}, {"op", true, 13}, {"engine", true}};
  if (l3) cols.push_back({"L3->L2 slab", true, 14, 2});
  for (report::TableColumn c : std::vector<report::TableColumn>{
           {"L2->L1 tile (out / in)", true, 14}, {"tiles"}, {"L1 B (%)"}, {"L2 B", false, 0, 1}})
    cols.push_back(c);
  if (reasons) cols.push_back({"why this engine", true, 16, 3});
  if (reported) cols.push_back({"rep. L1", false, 0, 1});
  report::TextTable table(cols);
  const std::vector<int> layers = g.layer_nodes();
  for (size_t k = 0; k < tilings.size(); ++k) {
    const LayerTiling& t = tilings[k];
    const LayerGeom geom = layer_geom(g, t.node);
    const L1Tiling& l1 = t.l1;
    const double pct = budget > 0 ? 100.0 * static_cast<double>(l1.l1_bytes) / static_cast<double>(budget) : 0;
    const Node& node = g.nodes.at(static_cast<size_t>(t.node));
    const size_t index = k < layers.size() && layers[k] == t.node ? k : static_cast<size_t>(t.node);
    std::vector<std::string> row = {std::to_string(index), printable(node.name), layer_label(g, node),
                                    engine_role(spec, node.engine)};   // names from the file escaped
    if (l3) row.push_back(l3_slab_label(geom, t.l3));
    for (std::string cell : {l1_tile_label(l1), std::to_string(tile_count(geom, t)),
                             fmt::format("{} ({:.1f}%)", l1.l1_bytes, pct), std::to_string(l2_bytes(geom, t.l3))})
      row.push_back(std::move(cell));
    if (reasons) row.push_back(engine_reason(g, engines, t.node));
    if (reported) row.push_back(t.reported_l1 >= 0 ? std::to_string(t.reported_l1) : "-");
    table.add_row(std::move(row));
  }
  std::cout << table.render(width);
  std::cout << fmt::format("L1 B (%): the tile's L1 bytes and their share of the policy's L1 budget, {} B.\n", budget);
  if (l3)
    std::cout << "L3->L2 slab: Cout x rows x cols of one L2 slab and the input rows it reads; L3:x/w/y = input,\n"
                 "weights, output streamed from/to L3.\n";
  else
    std::cout << "Every layer is whole in L2 (no L3->L2 slab column).\n";
  std::cout << "Tiles: Cout x rows x cols (output / input).\n";
}

void print_high_water(const Schedule& s, const PlatformSpec& spec) {
  const int64_t sizes[4] = {spec.l3.size, spec.l2.size, spec.l1.size, spec.wmem.present ? spec.wmem.size : 0};
  std::string line = "high water:";
  for (int l = 0; l < 4; ++l) {
    if (s.high_water[l] == 0 && l != static_cast<int>(Level::L1) && l != static_cast<int>(Level::L2)) continue;
    line += fmt::format("  {} {} B", level_name(static_cast<Level>(l)), s.high_water[l]);
    if (sizes[l] > 0)
      line += fmt::format(" ({:.1f}% of {})", 100.0 * static_cast<double>(s.high_water[l]) / sizes[l], sizes[l]);
  }
  std::cout << report::wrap_lines(line, report::kTerminalWidth, 13);
}

// First element where two tensors differ, or -1.
int64_t first_difference(const Tensor& want, const Tensor& got) {
  if (want.numel() != got.numel()) return 0;
  for (int64_t i = 0; i < want.numel(); ++i)
    if (want.get_f64(i) != got.get_f64(i)) return i;
  return -1;
}

// in: the given inputs (--inputs), labelled `what`; empty: seeded random ones.
int run_check(const Graph& g, const Schedule& s, std::vector<Tensor> in, std::string what, uint64_t seed) {
  if (in.empty()) {
    in = random_inputs(g, seed);
    what = fmt::format("random inputs seed {}", seed);
  }
  InterpreterOptions iopt;
  iopt.keep_all = true;
  const InterpreterResult want = interpret(g, in, iopt);
  const FunctionalResult got = execute_functional(g, s, in);
  int64_t n = 0;
  auto compare = [&](const Tensor& w, const Tensor& t, const std::string& what) {
    ++n;
    const int64_t i = first_difference(w, t);
    if (i < 0) return true;
    std::cout << fmt::format("check: MISMATCH {} at flat index {}: expected {}, got {}\n", what, i,
                             i < w.numel() ? w.get_f64(i) : 0.0, i < t.numel() ? t.get_f64(i) : 0.0);
    return false;
  };
  for (size_t j = 0; j < g.outputs.size(); ++j)
    if (!compare(want.outputs.at(j), got.outputs.at(j),
                 fmt::format("output {} '{}'", j, printable(g.tensor(g.outputs[j]).name))))
      return 1;
  for (size_t t = 0; t < g.tensors.size() && t < got.values.size(); ++t) {
    if (!got.values[t] || !want.values[t]) continue;
    if (!compare(*want.values[t], *got.values[t], fmt::format("tensor %{} '{}'", t, printable(g.tensors[t].name)))) return 1;
  }
  std::cout << fmt::format("check: tiled execution bit-exact ({} tensors, {})\n", n, what);
  return 0;
}


// The header lines, once the engines are assigned and the graph passes (and the tuned plan) ran.
void print_header(const CompileArgs& a, const std::string& platform, const CompiledNetwork& n) {
  const Graph& g = n.graph;
  // Wrapped under the value column: a long model path or engine list never runs past the terminal.
  std::cout << report::wrap_lines(
      fmt::format("network:  {} ({}, {} nodes, {} layers)\nengines:  {}\nplatform: {} ({}), policy {}", printable(a.model),
                  g.dialect.empty() ? "?" : g.dialect, g.nodes.size(), g.layer_nodes().size(), engine_summary(g, n.engines),
                  printable(n.spec.name), printable(platform), a.policy),
      report::kTerminalWidth, 10);
}

int run_compile(const CompileArgs& a) {
  check_policy(a.policy);
  check_output_path("-o", a.output);
  check_input_path("--inputs", a.inputs);
  const std::string platform = resolve_platform(a.platform);
  PlatformSpec spec = load_platform(platform, a.overrides);
  print_platform_warnings(spec);
  CompileOptions c;
  c.policy = a.policy;
  c.engines = a.engines;
  c.io_layout = a.io_layout;
  c.schedule.buffering = a.buffering;
  c.schedule.network_loop = a.network_loop;
  c.model = a.model;
  c.tune = simulating_tune_context();
  c.tune.progress = tuning_progress(c.tune.cache_path);
  c.network = network_label(a.model);
  c.data_copies = a.check ? 2 : 1;
  c.tiling_hint = tiling_size_hint;
  // Given input data types the graph's inferred inputs as `run --inputs` does (same graph, same
  // schedule); without it a guessed type is warned about.
  std::vector<Tensor> given;
  c.inputs = [&](Graph& g) {
    if (!a.inputs.empty()) given = load_inputs(g, a.inputs);
    else if (const std::string w = guessed_input_types_note(g); !w.empty()) std::cerr << "edgesim: warning: " << w << "\n";
  };
  // Printed as the stages pass, so a layer with no tiling still shows the network and engines.
  c.after_stage = [&](CompileStage st, const CompiledNetwork& n) {
    if (st == CompileStage::tuned_plan) print_header(a, platform, n);
    if (st == CompileStage::tiling) print_table(n.graph, n.spec, n.tilings, a.policy, n.engines, a.wide ? 0 : report::kTerminalWidth);
  };
  CompiledNetwork n;
  try {
    n = compile_network(import_onnx(a.model), std::move(spec), c);
  } catch (const EngineListError& e) {
    throw CliError(std::string(a.engines.empty() ? "" : "--engines: ") + e.what());
  }
  const Schedule& s = n.schedule;
  size_t commands = 0;
  for (const Step& st : s.steps) commands += st.commands.size();
  std::cout << fmt::format("schedule: {} steps, {} commands, {} buffers, {} buffering\n", s.steps.size(), commands,
                           s.buffers.size(), s.buffering);
  print_high_water(s, n.spec);

  if (!a.output.empty()) {
    write_file_atomically(a.output, schedule_to_json(s).dump(1) + "\n");
    std::cout << "schedule written to " << a.output << "\n";
  }
  return a.check ? run_check(n.graph, s, std::move(given), printable(a.inputs), a.seed) : 0;
}

}  // namespace

void register_compile(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("compile", "Tile a network for a platform and build its schedule");
  auto args = std::make_shared<CompileArgs>();
  sub->add_option("model", args->model, "ONNX network")->required();
  add_platform_option(sub, args->platform);
  add_policy_option(sub, args->policy);
  add_set_option(sub, args->overrides);
  add_engines_option(sub, args->engines);
  add_memory_limit_option(sub);
  sub->add_option("--network-loop", args->network_loop,
                  "how L3-homed weights reach L2: auto, dory (blocking read before the layer), dory-2020 (next "
                  "layer's weights read during the current one), deeploy (docs/schedule.md 4.6)")
      ->check(one_of({"auto", "dory", "dory-2020", "deeploy"}))->capture_default_str();
  sub->add_option("--buffering", args->buffering, "auto (platform default), single or double")
      ->check(one_of({"auto", "single", "double"}))->capture_default_str();
  sub->add_option("--io-layout", args->io_layout,
                  "graph I/O layout: hwc (inputs arrive HWC, as DORY's application takes them) or nchw (ONNX's "
                  "order, converted by tiled cluster transposes as Deeploy does; docs/schedule.md)")
      ->check(one_of({"hwc", "nchw"}))->capture_default_str();
  sub->add_flag("--check", args->check, "run the schedule functionally and compare with the interpreter");
  sub->add_option("--inputs", args->inputs,
                  "input data (formats of `verify`): types the graph's inferred inputs as `run --inputs` does "
                  "(Deeploy networks), and is what --check runs on");
  sub->add_option("--seed", args->seed, "seed of the random inputs of --check")->capture_default_str();
  sub->add_option("-o,--output", args->output, "write the schedule JSON to FILE");
  sub->add_flag("--wide", args->wide, "print every table column (default: fit 100 columns)");
  sub->footer("Exit status: 0 success, 1 --check mismatch, 2 an error (e.g. a layer with no feasible tiling).");
  action = [args] { return run_compile(*args); };
}

}  // namespace edgesim::cli
