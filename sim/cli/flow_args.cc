// Shared flow options (flow_args.h).
#include "sim/cli/flow_args.h"

#include "sim/cli/args.h"
#include "sim/cli/commands.h"

namespace edgesim::cli {

void add_flow_options(CLI::App* sub, FlowArgs& a) {
  add_platform_option(sub, a.platform);
  add_policy_option(sub, a.policy);
  add_set_option(sub, a.overrides);
  add_engines_option(sub, a.engines);
  add_memory_limit_option(sub);
  sub->add_option("--buffering", a.buffering, "auto (platform default), single or double")
      ->check(one_of({"auto", "single", "double"}))->capture_default_str();
  sub->add_option("--network-loop", a.network_loop, "auto, dory, dory-2020, deeploy (docs/schedule.md 4.6)")
      ->check(one_of({"auto", "dory", "dory-2020", "deeploy"}))->capture_default_str();
}

FlowRequest flow_request(const FlowArgs& a) {
  check_policy(a.policy);
  FlowRequest req;
  req.model = a.model;
  req.platform = resolve_platform(a.platform);
  req.overrides = a.overrides;
  req.policy = a.policy;
  req.engines = a.engines;
  req.schedule.buffering = a.buffering;
  req.schedule.network_loop = a.network_loop;
  req.tiling_hint = tiling_size_hint;
  return req;
}

FlowOutcome run_flow_cli(const FlowRequest& req, const FlowArgs& a) {
  try {
    return run_flow(req);
  } catch (const EngineListError& e) {
    throw CliError(std::string(a.engines.empty() ? "" : "--engines: ") + e.what());
  }
}

}  // namespace edgesim::cli
