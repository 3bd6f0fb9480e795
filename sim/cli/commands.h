// The edgesim command-line interface: one file per subcommand (cmd_<name>.cc), each
// registering itself on the CLI11 app. main.cc is the composition root.
//
// Convention for every subcommand: print results to stdout; on a user error throw
// edgesim::CliError (or any std::exception) with a one-line message naming the file / node /
// key; main prints "edgesim: error: <message>" to stderr and exits with the command's code.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim::cli {

class CliError : public std::runtime_error {
 public:
  explicit CliError(const std::string& msg, int code = 2) : std::runtime_error(msg), code_(code) {}
  int code() const { return code_; }
 private:
  int code_;
};

// Each registrar adds a subcommand and sets *action to the function to run when it was chosen.
using Action = std::function<int()>;
void register_describe(CLI::App& app, Action& action);
void register_verify(CLI::App& app, Action& action);
void register_compile(CLI::App& app, Action& action);
void register_run(CLI::App& app, Action& action);
void register_sweep(CLI::App& app, Action& action);
void register_tune(CLI::App& app, Action& action);
void register_validate(CLI::App& app, Action& action);

// Default platform used when a command needs one and none is given.
std::string default_platform_path();

// " (l1.size >= N B on gap8)" for an L1 tiling failure under dory, else "" (cli_shared.cc).
std::string tiling_size_hint(const PlatformSpec& spec, const std::string& policy, const TilingError& e);
// Engine assignment with --engines (empty: the platform's order); errors become CliErrors.
EngineAssignment assign_engines_cli(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines);
// "engines:      npu 13 layers (weights 1,081,344 B in WMEM), cluster 18 nodes"
std::string engine_summary(const Graph& g, const EngineAssignment& a);
// The inputs file an --expected directory holds (input.txt, inputs.npz, input_0.pb), or "".
std::string inputs_next_to(const std::string& expected);

}  // namespace edgesim::cli
