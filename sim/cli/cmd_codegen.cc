// `edgesim codegen`: C99 deployment code from the schedule `edgesim run` simulates (sim/flow up
// to the allocated schedule, then compiler/codegen). The graph inputs (seeded random, or
// --inputs) and the interpreter's outputs for them go into the program's data files; the
// program checks itself against them. Exit status: 0 written, 2 an error (nothing written).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/codegen/codegen.h"
#include "compiler/golden/golden.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/flow_args.h"

namespace edgesim::cli {
namespace {

struct CodegenArgs {
  FlowArgs flow;
  std::string hal = "host", inputs, output;
  uint64_t seed = 1;
};

int run_codegen(const CodegenArgs& a) {
  FlowRequest req = flow_request(a.flow);
  req.sim.data = true;   // asks for the inputs
  req.simulate = false;
  req.inputs = [&](Graph& g) { return a.inputs.empty() ? random_inputs(g, a.seed) : load_inputs(g, a.inputs); };
  const FlowOutcome flow = run_flow_cli(req, a.flow);
  codegen::ProgramRequest p;
  p.graph = &flow.graph;
  p.schedule = &flow.schedule;
  p.platform = flow.spec.name;
  p.n_cores = static_cast<int>(std::max<int64_t>(1, flow.spec.cluster.n_cores));
  p.hal = a.hal;
  p.inputs = flow.inputs;
  p.golden = interpret(flow.graph, flow.inputs).outputs;
  const std::vector<codegen::ProgramFile> files = codegen::generate_program(p);
  const std::vector<std::string> kept = codegen::write_program(a.output, files);
  size_t layers = 0;
  for (const auto& f : files) layers += f.path.rfind("layer_", 0) == 0;
  std::cout << fmt::format("codegen: {} on {} (policy {}, {} buffering): {} files, {} layer files, HAL {} -> {}\n",
                           flow.schedule.network, flow.spec.name, flow.schedule.policy, flow.schedule.buffering,
                           files.size(), layers, a.hal, a.output);
  if (!kept.empty()) {
    std::vector<std::string> names;
    for (const std::string& k : kept) names.push_back(printable(k));
    std::cout << fmt::format("kept {} file{} in {} that edgesim did not write: {}\n", kept.size(),
                             kept.size() == 1 ? "" : "s", printable(a.output), fmt::join(names, ", "));
  }
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
  sub->add_option("model", args->flow.model, "ONNX network")->required();
  add_flow_options(sub, args->flow);
  sub->add_option("--hal", args->hal, "target HAL: host, rv32 (QEMU) or pulp (PMSIS)")
      ->check(one_of(codegen::hal_names(), "HAL"))->capture_default_str();
  sub->add_option("--inputs", args->inputs, "input data (formats of `verify`); default: seeded random");
  sub->add_option("--seed", args->seed, "seed of the random inputs")->capture_default_str();
  sub->add_option("-o,--output", args->output, "output directory (created; replaced if it holds an edgesim program, keeping the files you added)")
      ->required();
  sub->footer("Exit status: 0 program written, 2 an error (nothing written). docs/codegen.md");
  action = [args] { return run_codegen(*args); };
}

}  // namespace edgesim::cli
