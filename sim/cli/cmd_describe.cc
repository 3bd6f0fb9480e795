// `edgesim describe`: print what edgesim understood of its inputs.
//   edgesim describe [--platform FILE|NAME] [--set key=value ...]   resolved platform spec, usable
//                                                                   budgets, selected implementations
//   edgesim describe FILE.yaml|NAME [--set ...]                      same, platform given positionally
//   edgesim describe NET.onnx [--platform FILE|NAME]                 imported integer graph (and the
//                                                                   platform too if --platform is given)
//   edgesim describe --list                                          the bundled platforms
// With neither a network nor --platform, the default platform (default_platform_path) is shown.
// Errors (bad YAML, bad override, bad ONNX) propagate as one-line exceptions to main.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/import.h"
#include "compiler/ir/printer.h"
#include "kernels/ir/graph.h"
#include "platforms/loader/loader.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/report/text_table.h"
#include "sim/soc/soc.h"

namespace edgesim::cli {
namespace {

struct DescribeOptions {
  std::string target;                  // positional: .onnx network, .yaml platform or platform name
  std::string platform;
  std::vector<std::string> overrides;
  bool list = false;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_describe(const DescribeOptions& o) {
  if (o.list) {
    std::cout << platform_list();
    return 0;
  }
  std::string platform = o.platform.empty() ? "" : resolve_platform(o.platform);
  std::string network;
  if (!o.target.empty()) {
    if (ends_with(o.target, ".onnx")) {
      network = o.target;
    } else if (ends_with(o.target, ".yaml") || ends_with(o.target, ".yml") || is_platform_name(o.target)) {
      if (!platform.empty())
        throw CliError("describe: give the platform either positionally or with --platform, not both");
      platform = resolve_platform(o.target, "describe");
    } else {
      throw CliError("describe: '" + o.target + "' is neither a .onnx network nor a .yaml platform");
    }
  }
  if (network.empty() && platform.empty()) platform = default_platform_path();
  if (platform.empty() && !o.overrides.empty())
    throw CliError("describe: --set needs a platform (--platform FILE)");

  if (!platform.empty()) {
    const PlatformSpec spec = load_platform(platform, o.overrides);
    print_platform_warnings(spec);
    std::cout << report::wrap_lines(describe_platform(spec), report::kTerminalWidth, 37);   // under the value column
    std::cout << describe_overrides(platform, o.overrides);
    std::cout << "\nSimulator (impl values `edgesim run` models)\n";
    for (const std::string& line : simulator_components()) std::cout << "  " << line << "\n";
  }
  if (!network.empty()) {
    if (!platform.empty()) std::cout << "\n";
    std::cout << print_graph(import_onnx(network));
  }
  return 0;
}

}  // namespace

void register_describe(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DescribeOptions>();
  auto* sub = app.add_subcommand("describe",
                                 "Print a resolved platform spec or an imported network graph");
  auto* target = sub->add_option("target", opts->target, "network (.onnx), platform (.yaml) or bundled platform name");
  auto* platform = add_platform_option(sub, opts->platform);
  auto* set = add_set_option(sub, opts->overrides);
  sub->add_flag("--list", opts->list, "list the bundled platforms (name and description)")
      ->excludes(target)
      ->excludes(platform)
      ->excludes(set);
  action = [opts] { return run_describe(*opts); };
}

}  // namespace edgesim::cli
