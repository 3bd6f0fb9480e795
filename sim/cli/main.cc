// edgesim: compile, simulate, verify and tune int8 networks on extreme-edge AI platforms.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "platforms/util/printable.h"
#include "sim/cli/args.h"
#include "sim/cli/commands.h"
#include "sim/cli/provenance.h"

// libsystemc.so defines main() and calls sc_main; this executable has its own main, and the
// stub keeps the link happy once sim/ links SystemC.
extern "C" int sc_main(int, char**) { return 0; }

int main(int argc, char** argv) {
  using namespace edgesim::cli;
  CLI::App app{"edgesim: cycle-approximate simulator with an integrated int8 deployment flow"};
  set_command_line(argc, argv);
  app.set_version_flag("--version", version_line());
  app.require_subcommand(1);
  // Each registrar adds one subcommand and its action; remember which action belongs to it.
  std::vector<std::pair<const CLI::App*, Action>> actions;
  for (auto reg : {register_describe, register_verify, register_compile, register_run, register_tune, register_sweep,
                   register_validate, register_codegen, register_compare}) {
    Action a;
    reg(app, a);
    actions.emplace_back(app.get_subcommands([](CLI::App*) { return true; }).back(), std::move(a));
  }
  // Parse errors follow edgesim's own contract (docs/cli.md): one "edgesim: error:" line, exit 2.
  // Every error line is printable ASCII: names from files are escaped (platforms/util/printable.h).
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    check_command_line(app, args);
    app.parse(argc, argv);
  } catch (const CliError& e) {
    std::cerr << "edgesim: error: " << edgesim::printable(e.what()) << "\n";
    return 2;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);   // --help, --version
    std::cerr << "edgesim: error: " << edgesim::printable(parse_error_line(app, e, args.empty() ? "" : args[0])) << "\n";
    return 2;
  }
  Action chosen;
  for (const auto& [sub, action] : actions)
    if (sub->parsed()) chosen = action;
  try {
    return chosen ? chosen() : 2;
  } catch (const CliError& e) {
    std::cerr << "edgesim: error: " << edgesim::printable(e.what()) << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "edgesim: error: " << edgesim::printable(e.what()) << "\n";
    return 2;
  }
}
