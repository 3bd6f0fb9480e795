// `edgesim compare`: edgesim's predicted cycles next to those a generated program measured (its
// profiling lines, compiler/codegen/perf_log.h, from a board or any simulator), per step and in
// total, with the signed error (predicted - measured) / measured. The prediction is `edgesim
// run --timing-only` with the same options, so pass the options the program was generated
// with. Every step of the schedule is matched by index and must carry the same name; steps the
// log lacks are shown as not measured. Exit status: 0 table printed, 2 an error (a malformed
// log names the line).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "compiler/codegen/perf_log.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/flow_args.h"

namespace edgesim::cli {
namespace {

struct CompareArgs {
  FlowArgs flow;
  std::string log;
};

std::string error_pct(int64_t predicted, int64_t measured) {
  if (measured <= 0) return "-";
  return fmt::format("{:+.1f}%", 100.0 * static_cast<double>(predicted - measured) / static_cast<double>(measured));
}

int run_compare(const CompareArgs& a) {
  const codegen::PerfLog log = codegen::read_perf_log(a.log);
  FlowRequest req = flow_request(a.flow);
  req.sim.data = false;
  const FlowOutcome flow = run_flow_cli(req, a.flow);
  const std::vector<LayerStats>& layers = flow.sim.result.layers;
  std::vector<const codegen::PerfStep*> measured(layers.size(), nullptr);
  for (const codegen::PerfStep& s : log.steps) {
    if (s.step < 0 || static_cast<size_t>(s.step) >= layers.size())
      throw CliError(fmt::format("{}:{}: step {} is not a step of the schedule ({} steps)", a.log, s.line, s.step,
                                 layers.size()));
    if (layers[static_cast<size_t>(s.step)].name != s.name)
      throw CliError(fmt::format("{}:{}: step {} is '{}' in the log but '{}' in the schedule (same options as codegen?)",
                                 a.log, s.line, s.step, s.name, layers[static_cast<size_t>(s.step)].name));
    measured[static_cast<size_t>(s.step)] = &s;
  }
  std::cout << fmt::format("compare: {} on {} (policy {}), predicted by edgesim vs measured in {}\n",
                           flow.schedule.network, flow.spec.name, flow.schedule.policy, a.log);
  std::cout << fmt::format("{:>4}  {:<28} {:<14} {:>14} {:>14} {:>9}\n", "step", "name", "op", "predicted", "measured",
                           "error");
  int64_t sum_p = 0, sum_m = 0;
  size_t n_measured = 0;
  for (size_t k = 0; k < layers.size(); ++k) {
    const LayerStats& L = layers[k];
    const codegen::PerfStep* m = measured[k];
    std::string name = L.name.size() > 28 ? L.name.substr(0, 27) + "~" : L.name;
    std::cout << fmt::format("{:>4}  {:<28} {:<14} {:>14} {:>14} {:>9}\n", k, name, L.op, L.cycles,
                             m ? std::to_string(m->cycles) : "-", m ? error_pct(L.cycles, m->cycles) : "-");
    if (m) {
      sum_p += L.cycles;
      sum_m += m->cycles;
      ++n_measured;
    }
  }
  std::cout << fmt::format("{:>4}  {:<28} {:<14} {:>14} {:>14} {:>9}\n", "", "total (measured steps)", "", sum_p, sum_m,
                           error_pct(sum_p, sum_m));
  std::cout << fmt::format("{} of {} steps measured; predicted network total {} cycles", n_measured, layers.size(),
                           flow.sim.result.total_cycles);
  if (log.total) std::cout << fmt::format(", measured total {} ({})", *log.total, error_pct(flow.sim.result.total_cycles, *log.total));
  std::cout << "\n";
  return 0;
}

}  // namespace

void register_compare(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("compare", "Compare edgesim's predicted cycles with a generated program's measured log");
  auto args = std::make_shared<CompareArgs>();
  sub->add_option("model", args->flow.model, "ONNX network")->required();
  sub->add_option("log", args->log, "output of the generated program ([edgesim-perf] lines)")->required();
  add_flow_options(sub, args->flow);
  sub->footer("Exit status: 0 table printed, 2 an error (a malformed log names the line). docs/codegen.md");
  action = [args] { return run_compare(*args); };
}

}  // namespace edgesim::cli
