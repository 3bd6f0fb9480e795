// STUB
#include "sim/cli/commands.h"
namespace edgesim::cli {
void register_describe(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("describe", "Print a resolved platform spec or an imported network graph");
  action = [] { throw CliError("describe: not implemented"); return 0; };
  (void)sub;
}
}  // namespace edgesim::cli
