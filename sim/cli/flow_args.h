// The options and the flow call shared by the commands that take a network through the
// deployment flow without their own run options (codegen, compare): platform, policy, --set,
// engines, buffering and network loop, turned into a FlowRequest (sim/flow) the same way.
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sim/flow/flow.h"

namespace edgesim::cli {

struct FlowArgs {
  std::string model, platform, policy = "dory", buffering = "auto", network_loop = "auto";
  std::vector<std::string> overrides, engines;
};

// -p/--platform, --policy, --set, --engines, --buffering, --network-loop.
void add_flow_options(CLI::App* sub, FlowArgs& a);
// Checks the policy, resolves the platform and fills the request (with the CLI's tiling hint).
FlowRequest flow_request(const FlowArgs& a);
// run_flow, with an engine list error worded for --engines.
FlowOutcome run_flow_cli(const FlowRequest& req, const FlowArgs& a);

}  // namespace edgesim::cli
