// `edgesim sweep`: a design-space sweep. The grid is the cartesian product of the --set lists
// (platform keys, the `--set` syntax of `describe`, several values separated by commas); every
// point of every network is compiled under a policy and simulated timing-only. Infeasible
// points are results with a reason, never errors. Results go to a CSV (-o), a JSON with
// per-layer detail (--json) and an HTML page with heatmaps / line plots (--report), written
// atomically in point order; a journal next to them makes an interrupted sweep resumable.
// Points run in this process (-j 1), in forked worker processes (-j N) or over MPI ranks
// (`mpirun -n N edgesim sweep ...`, or --mpi). The library is sim/sweep; docs/sweep.md.
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/sweep/dispatch.h"
#include "sim/sweep/mpi_sweep.h"
#include "sim/sweep/preset.h"
#include "sim/sweep/runner.h"

namespace edgesim::cli {
namespace {

using namespace edgesim::sweep;

struct SweepArgs {
  std::vector<std::string> networks, sets;
  std::string platform, policy = "dory", preset, csv, json, report;
  int jobs = 1;
  bool fresh = false, mpi = false;
  CLI::Option* policy_opt = nullptr;
};

SweepSpec build_spec(const SweepArgs& a) {
  SweepSpec s;
  if (!a.preset.empty()) {
    const Preset p = read_preset(a.preset);
    s.platform = p.platform;
    if (!p.policy.empty()) s.policy = p.policy;
    s.networks = p.networks;
    s.axes = p.axes;
  }
  if (!a.platform.empty()) s.platform = resolve_platform(a.platform);
  if (s.platform.empty()) s.platform = default_platform_path();
  if (a.policy_opt->count() > 0 || a.preset.empty()) s.policy = a.policy;
  if (!a.networks.empty()) s.networks = a.networks;
  for (const std::string& opt : a.sets) merge_axis(s.axes, parse_axis(opt));

  check_policy(s.policy);   // the preset's policy, too
  if (s.networks.empty()) throw CliError("sweep: no network given (NET.onnx ... or networks: in the preset)");
  const std::vector<std::string> known = known_platform_keys();
  for (const Axis& ax : s.axes)
    if (std::find(known.begin(), known.end(), ax.key) == known.end())
      throw CliError("--set " + ax.key + ": unknown platform key (edgesim describe --platform P lists them)");
  load_platform(s.platform);   // the base platform itself must be valid (PlatformError otherwise)
  return s;
}

int run_sweep_command(const SweepArgs& a) {
  if (a.jobs < 1) throw CliError("-j: must be at least 1");
  const SweepSpec spec = build_spec(a);
  const std::vector<SweepNetwork> nets = import_networks(spec.networks);
  const Evaluate evaluate = make_evaluate(spec, nets, tiling_size_hint);
  const SweepOutputs out{a.csv, a.json, a.report, a.fresh};
  const bool tty = ::isatty(STDOUT_FILENO) == 1;

  if (a.mpi || launched_under_mpi()) {
    MpiSweep mpi;
    if (mpi.rank() != 0) {
      mpi.work(evaluate);
      return 0;
    }
    try {
      return run_sweep(spec, out, [&](const std::vector<size_t>& pending, const Sink& sink) {
        mpi.serve(pending, evaluate, sink);
      }, std::cout, tty);
    } catch (...) {
      if (!mpi.served()) mpi.serve({}, evaluate, [](size_t, const std::string&) {});   // release the workers
      throw;
    }
  }
  auto on_crash = [&spec](size_t index, const std::string& why) { return error_message(spec, index, why); };
  const Dispatch dispatch = [&](const std::vector<size_t>& pending, const Sink& sink) {
    if (a.jobs > 1) dispatch_workers(a.jobs, pending, evaluate, sink, on_crash);
    else dispatch_in_process(pending, evaluate, sink);
  };
  return run_sweep(spec, out, dispatch, std::cout, tty);
}

}  // namespace

void register_sweep(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("sweep", "Compile and simulate networks over a grid of platform keys (CSV, JSON, HTML)");
  auto args = std::make_shared<SweepArgs>();
  sub->add_option("networks", args->networks, "ONNX networks (default: the preset's)");
  add_platform_option(sub, args->platform)->description("platform YAML file or bundled platform name (default: the "
                                                        "preset's, else siracusa)");
  args->policy_opt = add_policy_option(sub, args->policy);
  add_set_option(sub, args->sets, "KEY=V1,V2,...: values of a platform key to sweep (repeatable; one value = fixed)");
  sub->add_option("--preset", args->preset, "grid preset (configs/*.yaml); command-line options override it");
  sub->add_option("-o,--output", args->csv, "results as CSV (resumed from if it exists)");
  sub->add_option("--json", args->json, "results as JSON with per-layer cycles");
  sub->add_option("--report", args->report, "self-contained HTML page: heatmap / line plot of total cycles");
  sub->add_option("-j,--jobs", args->jobs, "local worker processes")->capture_default_str();
  sub->add_flag("--fresh", args->fresh, "ignore earlier results and the journal; evaluate every point");
  sub->add_flag("--mpi", args->mpi, "spread points over MPI ranks (automatic under mpirun)");
  sub->footer("Exit status: 0 complete (infeasible points included), 130 interrupted (rerun to resume), 2 an error.");
  action = [args] { return run_sweep_command(*args); };
}

}  // namespace edgesim::cli
