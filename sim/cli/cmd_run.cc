// `edgesim run`: the whole flow of docs/architecture.md on one network (sim/flow: import, assign
// engines (NPU / cluster), tile under a policy, build and allocate the schedule, execute it on the
// SystemC model of the platform), then check the simulated outputs bit-exactly against the
// untiled interpreter (and golden files with --expected) and report cycles per layer.
// Exit status: 0 verified (or --timing-only), 1 a verification mismatch, 2 an error.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/report/text_table.h"
#include "sim/cli/run_session.h"
#include "sim/report/report.h"

namespace edgesim::cli {
namespace {

int run_run(const RunOptions& a) {
  const RunSession session = run_session(a);
  const FlowOutcome& flow = session.flow;
  const Graph& g = flow.graph;
  const RunResult& r = flow.sim.result;
  print_platform_warnings(flow.spec);
  std::cout << report::wrap_lines(fmt::format("model:        {} ({}, {} nodes, {} layers)\ninputs:       {}\nengines:      {}",
                                              printable(a.model), g.dialect.empty() ? "?" : g.dialect, g.nodes.size(),
                                              g.layer_nodes().size(), printable(session.input_label),
                                              engine_summary(g, flow.engines)),
                                  a.wide ? 0 : report::kTerminalWidth, 14);
  print_run_table(std::cout, r, a.wide ? 0 : 100);
  for (const CheckResult& c : session.golden)
    if (!c.ok()) std::cout << format_check(c) << "\n";
  if (!a.json.empty()) write_run_json(a.json, r);
  if (!a.trace.empty()) write_run_trace(a.trace, r);
  if (!a.report.empty()) write_run_html(a.report, r);
  for (const auto& [flag, path] : {std::pair{"json", a.json}, {"trace", a.trace}, {"report", a.report}})
    if (!path.empty()) std::cout << fmt::format("{} written to {}\n", flag, path);
  return !session.request.sim.data || r.verified ? 0 : 1;
}

}  // namespace

void register_run(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("run", "Compile a network, simulate it on a platform, verify it, report cycles");
  auto args = std::make_shared<RunOptions>();
  sub->add_option("model", args->model, "ONNX network")->required();
  add_platform_option(sub, args->platform);
  add_policy_option(sub, args->policy);
  add_set_option(sub, args->overrides, "override a platform key, e.g. --set l1.size=128KiB (repeatable)");
  add_engines_option(sub, args->engines);
  add_memory_limit_option(sub);
  sub->add_flag("--reference-kernels", args->reference_kernels,
                "the golden model computes with the reference kernels only (the oracle of the optimised kernels the "
                "simulation uses)");
  sub->add_option("--network-loop", args->network_loop,
                  "how L3-homed weights reach L2: auto, dory (blocking read before the layer), dory-2020 (next "
                  "layer's weights read during the current one), deeploy (docs/schedule.md 4.6)")
      ->check(one_of({"auto", "dory", "dory-2020", "deeploy"}))->capture_default_str();
  sub->add_option("--buffering", args->buffering, "L1 buffering: auto (the platform's DORY db), single, double")
      ->check(one_of({"auto", "single", "double"}))->capture_default_str();
  sub->add_option("--io-layout", args->io_layout,
                  "graph I/O layout: hwc (inputs arrive HWC, as DORY's application takes them) or nchw (ONNX's "
                  "order, converted by tiled cluster transposes as Deeploy does; docs/schedule.md)")
      ->check(one_of({"hwc", "nchw"}))->capture_default_str();
  sub->add_option("--inputs", args->inputs, "input data (formats of `verify`); default: seeded random");
  sub->add_option("--expected", args->expected, "golden outputs to compare the simulated tensors with");
  sub->add_option("--layout", args->layout, "element order of DORY per-layer golden files")
      ->check(one_of({"hwc", "chw"}))->capture_default_str();
  sub->add_option("--seed", args->seed, "seed of the random inputs")->capture_default_str();
  sub->add_option("--arith", args->arith,
                  "requant arithmetic of kernels and golden model: exact divisor, or dory (DORY's shift, as `verify --arith`)")
      ->check(one_of({"exact", "dory"}))->capture_default_str();
  sub->add_flag("--timing-only", args->timing_only, "simulate timing without moving data (no verification)");
  sub->add_option("--json", args->json, "write the per-layer report as JSON");
  sub->add_option("--trace", args->trace, "write Chrome / Perfetto trace events (JSON)");
  sub->add_option("--report", args->report, "write a self-contained HTML report");
  sub->add_flag("--wide", args->wide, "print every table column (default: fit 100 columns)");
  sub->footer("Exit status: 0 verified (or --timing-only), 1 verification mismatch, 2 an error.");
  action = [args] { return run_run(*args); };
}

}  // namespace edgesim::cli
