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

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/workers/process_pool.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/provenance.h"
#include "sim/cli/suggest.h"
#include "sim/sweep/dispatch.h"
#include "sim/sweep/mpi_sweep.h"
#include "sim/sweep/preset.h"
#include "sim/sweep/runner.h"

namespace edgesim::cli {
namespace {

using namespace edgesim::sweep;

struct SweepArgs {
  std::vector<std::string> networks, sets, links, policies, engines;
  std::string platform, preset, csv, json, report, objective = "cycles";
  int jobs = 1;
  double point_timeout = 600;   // seconds per point (0: none)
  bool fresh = false, mpi = false;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t c = s.find(',', start);
    out.push_back(s.substr(start, c == std::string::npos ? std::string::npos : c - start));
    if (c == std::string::npos) return out;
    start = c + 1;
  }
}

// Each --engines occurrence is one engine set ("npu,cluster"); "[npu,cluster],[cluster]" gives
// several in one occurrence. Every name is checked.
std::vector<std::vector<std::string>> engine_sets(const std::vector<std::string>& args) {
  std::vector<std::vector<std::string>> sets;
  for (const std::string& a : args) {
    std::vector<std::string> groups;
    if (!a.empty() && a.front() == '[') {
      size_t at = 0;
      while (at < a.size()) {
        const size_t close = a.find(']', at);
        if (a[at] != '[' || close == std::string::npos)
          throw CliError("--engines " + a + ": expected [e1,e2],[e3] (sets in brackets, separated by commas)");
        groups.push_back(a.substr(at + 1, close - at - 1));
        at = close + 1;
        if (at < a.size() && a[at] == ',') ++at;
      }
    } else {
      groups.push_back(a);
    }
    for (const std::string& g : groups) {
      std::vector<std::string> set = split_commas(g);
      const std::vector<std::string> known = engine_names();
      for (const std::string& e : set)
        if (std::find(known.begin(), known.end(), e) == known.end())
          throw CliError("--engines: " + not_one_of(e, known, "engine"));
      sets.push_back(std::move(set));
    }
  }
  return sets;
}

SweepSpec build_spec(const SweepArgs& a) {
  SweepSpec s;
  std::vector<std::string> networks;
  std::string policy_list;
  if (!a.preset.empty()) {
    const Preset p = read_preset(a.preset);
    s.platform = p.platform;
    policy_list = p.policy;
    networks = p.networks;
    s.axes = p.axes;
  }
  if (!a.platform.empty()) s.platform = resolve_platform(a.platform);
  if (s.platform.empty()) s.platform = default_platform_path();
  if (!a.policies.empty()) s.policies = a.policies;
  else if (!policy_list.empty()) s.policies = split_commas(policy_list);
  if (!a.networks.empty()) networks = a.networks;
  for (const std::string& opt : a.sets) merge_axis(s.axes, parse_axis(opt));
  int link = 0;
  for (const Axis& ax : s.axes) link = std::max(link, ax.link + 1);
  for (const std::string& opt : a.links)
    for (const Axis& ax : parse_link(opt, link++)) merge_axis(s.axes, ax);
  if (!a.engines.empty()) s.engine_sets = engine_sets(a.engines);

  for (const std::string& p : s.policies) check_policy(p);   // the preset's policies, too
  for (size_t i = 0; i < s.policies.size(); ++i)
    for (size_t j = i + 1; j < s.policies.size(); ++j)
      if (s.policies[i] == s.policies[j]) throw CliError("--policy: " + s.policies[i] + " given twice");
  if (networks.empty()) throw CliError("sweep: no network given (NET.onnx ... or networks: in the preset)");
  name_networks(s, networks);
  const std::vector<std::string> known = known_platform_keys();
  for (const Axis& ax : s.axes)
    if (std::find(known.begin(), known.end(), ax.key) == known.end())
      throw CliError((ax.link >= 0 ? "--link " : "--set ") + ax.key + ": unknown platform key" +
                     did_you_mean(ax.key, known) + " (edgesim describe --platform P lists them)");
  const PlatformSpec base = load_platform(s.platform);   // the base platform must be valid (PlatformError otherwise)
  print_platform_warnings(base);
  s.objective = a.objective;
  if (s.objective != "cycles" && !base.energy.present)
    throw CliError("sweep --objective " + s.objective + ": platform '" + base.name +
                   "' has no energy model (no energy section; docs/energy.md)");
  for (const Axis& ax : s.axes)   // implausible axis values (250 Hz, 64KB) are warned about once each
    for (const std::string& v : ax.values) {
      try {
        print_platform_warnings(load_platform(s.platform, {ax.key + "=" + v}));
      } catch (const std::exception&) {
        // an invalid value is an infeasible point of the sweep, reported there
      }
    }
  return s;
}

// The sweep's provenance. The recorded command line leaves out the options that only decide where
// the results go and how the points are spread (-o, --json, --report, -j, --fresh, --mpi), so a
// resumed, differently parallel or relocated sweep writes the same bytes (--point-timeout too:
// it decides only how long a point may take).
Provenance sweep_provenance(const SweepSpec& s, const SweepArgs& a) {
  std::vector<std::string> overrides;
  for (const std::string& o : a.sets) overrides.push_back("--set " + o);
  for (const std::string& o : a.links) overrides.push_back("--link " + o);
  std::string policies;
  for (const std::string& x : s.policies) policies += (policies.empty() ? "" : ",") + x;
  const PlatformSpec base = load_platform(s.platform);
  ProvenanceBuilder pb(&base, s.platform, overrides);
  pb.option("policies", policies).option("objective", s.objective == "cycles" ? "" : s.objective).file("preset", a.preset);
  for (size_t n = 0; n < s.networks.size(); ++n) pb.file("network " + spec_network_name(s, n), s.networks[n]);
  Provenance p = pb.build();
  p.command_line = command_line_without({"-j", "--jobs", "-o", "--output", "--json", "--report", "--point-timeout"},
                                        {"--fresh", "--mpi"});
  return p;
}

int run_sweep_command(const SweepArgs& a) {
  if (a.jobs < 1) throw CliError("-j: must be at least 1");
  if (!(a.point_timeout >= 0)) throw CliError("--point-timeout: must be a number of seconds >= 0 (0: no limit)");
  for (const auto& [flag, path] : {std::pair{"-o", a.csv}, {"--json", a.json}, {"--report", a.report}})
    check_output_path(flag, path);
  const SweepSpec spec = build_spec(a);
  const std::vector<SweepNetwork> nets = import_networks(spec);
  const Evaluate evaluate = make_evaluate(spec, nets, tiling_size_hint);
  const EvaluatePlan carry = make_evaluate_plan(spec, nets);   // tuned plans to more memory (carry.h)
  const SweepOutputs out{a.csv, a.json, a.report, a.fresh, sweep_provenance(spec, a)};
  const bool tty = ::isatty(STDOUT_FILENO) == 1;

  const OnCrash on_crash = [&spec](size_t index, const std::string& why) { return error_message(spec, index, why); };
  if (a.mpi || launched_under_mpi()) {
    MpiSweep mpi;
    // Each rank evaluates its points in a child process (IsolatedEvaluate).
    IsolatedEvaluate isolated(evaluate, on_crash, a.point_timeout);
    const Evaluate rank_evaluate = [&isolated](size_t index) { return isolated(index); };
    if (mpi.rank() != 0) {
      mpi.work(rank_evaluate);
      return 0;
    }
    try {
      return run_sweep(spec, out, [&](const std::vector<size_t>& pending, const Sink& sink) {
        mpi.serve(pending, rank_evaluate, sink);
      }, std::cout, tty, nullptr, carry);
    } catch (...) {
      if (!mpi.served()) mpi.serve({}, rank_evaluate, [](size_t, const std::string&) {});   // release the workers
      throw;
    }
  }
  const Dispatch dispatch = [&](const std::vector<size_t>& pending, const Sink& sink) {
    // Worker processes (crash isolation, the point timeout); in this process only for -j 1
    // without a timeout.
    const int jobs = cap_jobs(a.jobs, "-j");
    if (jobs > 1 || a.point_timeout > 0) dispatch_workers(jobs, pending, evaluate, sink, on_crash, a.point_timeout);
    else dispatch_in_process(pending, evaluate, sink);
  };
  return run_sweep(spec, out, dispatch, std::cout, tty, nullptr, carry);
}

}  // namespace

void register_sweep(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("sweep", "Compile and simulate networks over a grid of platform keys (CSV, JSON, HTML)");
  auto args = std::make_shared<SweepArgs>();
  sub->add_option("networks", args->networks, "ONNX networks, or NAME=path to name one (default: the preset's)");
  add_platform_option(sub, args->platform)->description("platform YAML file or bundled platform name (default: the "
                                                        "preset's, else siracusa)");
  sub->add_option("--policy", args->policies, "tiling policies to sweep, e.g. dory,deeploy,tuned (default: dory)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(one_of(policy_names(), "tiling policy"));
  sub->add_option("--engines", args->engines,
                  "an engine set to sweep, in preference order (repeatable: --engines npu,cluster --engines cluster, or "
                  "[npu,cluster],[cluster]); default: the platform's")
      ->allow_extra_args(false);
  add_set_option(sub, args->sets, "KEY=V1,V2,...: values of a platform key to sweep (repeatable; one value = fixed)");
  add_memory_limit_option(sub);
  sub->add_option("--link", args->links,
                  "K1=V1,V2:K2=W1,W2: keys varied together, one grid axis (repeatable)")
      ->allow_extra_args(false);
  sub->add_option("--preset", args->preset, "grid preset (configs/*.yaml); command-line options override it");
  sub->add_option("-o,--output", args->csv, "results as CSV (resumed from if it exists)");
  sub->add_option("--json", args->json, "results as JSON with per-layer cycles");
  sub->add_option("--report", args->report, "self-contained HTML page: heatmap / line plot of total cycles, the "
                                            "cycles-energy Pareto front when the platform has an energy model");
  sub->add_option("--objective", args->objective, "what the best point minimises: cycles, energy or edp")
      ->check(one_of({"cycles", "energy", "edp"}, "objective"))
      ->capture_default_str();
  sub->add_option("-j,--jobs", args->jobs, "local worker processes")->capture_default_str();
  sub->add_option("--point-timeout", args->point_timeout,
                  "seconds one point may take before its worker is killed and the point recorded as an error "
                  "(0: no limit)")
      ->capture_default_str();
  sub->add_flag("--fresh", args->fresh, "ignore earlier results and the journal; evaluate every point");
  sub->add_flag("--mpi", args->mpi, "spread points over MPI ranks (automatic under mpirun)");
  sub->footer("Exit status: 0 complete (infeasible points included), 1 no point could be evaluated, 130 interrupted "
              "(rerun to resume), 2 an error.");
  action = [args] { return run_sweep_command(*args); };
}

}  // namespace edgesim::cli
