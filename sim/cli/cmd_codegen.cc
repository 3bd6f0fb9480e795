// `edgesim codegen`: C99 deployment code from the schedule `edgesim run` simulates (sim/flow up
// to the allocated schedule, then compiler/codegen). The graph inputs (seeded random, or
// --inputs) and the interpreter's outputs for them go into the program's data files; the
// program checks itself against them. Exit status: 0 written, 2 an error (nothing written).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/codegen/codegen.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/flow/flow.h"

namespace edgesim::cli {
namespace {

struct CodegenArgs {
  std::string model, platform, policy = "dory", buffering = "auto", network_loop = "auto", hal = "host", inputs, output;
  std::vector<std::string> overrides, engines;
  uint64_t seed = 1;
};

int run_codegen(const CodegenArgs& a) {
  check_policy(a.policy);
  FlowRequest req;
  req.model = a.model;
  req.platform = resolve_platform(a.platform);
  req.overrides = a.overrides;
  req.policy = a.policy;
  req.engines = a.engines;
  req.schedule.buffering = a.buffering;
  req.schedule.network_loop = a.network_loop;
  req.sim.data = true;   // asks for the inputs
  req.simulate = false;
  req.inputs = [&](Graph& g) { return a.inputs.empty() ? random_inputs(g, a.seed) : load_inputs(g, a.inputs); };
  req.tiling_hint = tiling_size_hint;
  FlowOutcome flow;
  try {
    flow = run_flow(req);
  } catch (const EngineListError& e) {
    throw CliError(std::string(a.engines.empty() ? "" : "--engines: ") + e.what());
  }
  codegen::ProgramRequest p;
  p.graph = &flow.graph;
  p.schedule = &flow.schedule;
  p.platform = flow.spec.name;
  p.n_cores = static_cast<int>(std::max<int64_t>(1, flow.spec.cluster.n_cores));
  p.hal = a.hal;
  p.inputs = flow.inputs;
  p.golden = interpret(flow.graph, flow.inputs).outputs;
  const std::vector<codegen::ProgramFile> files = codegen::generate_program(p);
  codegen::write_program(a.output, files);
  size_t layers = 0;
  for (const auto& f : files) layers += f.path.rfind("layer_", 0) == 0;
  std::cout << fmt::format("codegen: {} on {} (policy {}, {} buffering): {} files, {} layer files, HAL {} -> {}\n",
                           flow.schedule.network, flow.spec.name, flow.schedule.policy, flow.schedule.buffering,
                           files.size(), layers, a.hal, a.output);
  if (a.hal == "pulp")
    std::cout << fmt::format("build: make -C {} (PULP/GAP SDK sourced); API check: make -C {} -f Makefile.check\n",
                             a.output, a.output);
  else
    std::cout << fmt::format("build and run: make -C {} run\n", a.output);
  return 0;
}

}  // namespace

void register_codegen(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("codegen", "Generate a C program from the simulated schedule (host, rv32 or pulp HAL)");
  auto args = std::make_shared<CodegenArgs>();
  sub->add_option("model", args->model, "ONNX network")->required();
  add_platform_option(sub, args->platform);
  add_policy_option(sub, args->policy);
  add_set_option(sub, args->overrides);
  add_engines_option(sub, args->engines);
  sub->add_option("--buffering", args->buffering, "auto (platform default), single or double")
      ->check(one_of({"auto", "single", "double"}))->capture_default_str();
  sub->add_option("--network-loop", args->network_loop, "auto, dory, dory-2020, deeploy (docs/schedule.md 4.6)")
      ->check(one_of({"auto", "dory", "dory-2020", "deeploy"}))->capture_default_str();
  sub->add_option("--hal", args->hal, "target HAL: host, rv32 (QEMU) or pulp (PMSIS)")
      ->check(one_of(codegen::hal_names(), "HAL"))->capture_default_str();
  sub->add_option("--inputs", args->inputs, "input data (formats of `verify`); default: seeded random");
  sub->add_option("--seed", args->seed, "seed of the random inputs")->capture_default_str();
  sub->add_option("-o,--output", args->output, "output directory (created; replaced if it holds an edgesim program)")
      ->required();
  sub->footer("Exit status: 0 program written, 2 an error (nothing written). docs/codegen.md");
  action = [args] { return run_codegen(*args); };
}

}  // namespace edgesim::cli
