// STUB
#include "sim/cli/commands.h"
namespace edgesim::cli {
void register_verify(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("verify", "Run the golden model on a network and compare with golden data");
  action = [] { throw CliError("verify: not implemented"); return 0; };
  (void)sub;
}
}  // namespace edgesim::cli
