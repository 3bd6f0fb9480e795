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
#include <vector>

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
void register_codegen(CLI::App& app, Action& action);
void register_compare(CLI::App& app, Action& action);

// Platforms by name (platforms.cc). The bundled platforms are the platforms/*.yaml of the
// working directory, then those of the source tree (a name found in both: the working
// directory's).
struct BundledPlatform {
  std::string name, path;
};
std::vector<BundledPlatform> bundled_platforms();   // sorted by name
// The bundled file of platform `name`, or "".
std::string find_bundled(const std::string& name);
// True for a value that can only be a platform name: no '/', no .yaml / .yml ending.
bool is_platform_name(const std::string& value);
// The platform file a --platform value means: an existing file as given; else a name (see
// is_platform_name) looked up among the bundled platforms; else the value (a path: the loader
// reports it missing). "" is the default platform. An unknown name throws a CliError naming
// `what`, listing the bundled platforms and suggesting the closest.
std::string resolve_platform(const std::string& value, const std::string& what = "--platform");
// Default platform used when a command needs one and none is given: $EDGESIM_PLATFORM (a file or
// a name), else the bundled siracusa.
std::string default_platform_path();
// One line per bundled platform: its name and the description: line of its YAML.
std::string platform_list();

// " (l1.size >= N B on gap8)" for an L1 tiling failure under dory, else "" (cli_shared.cc).
std::string tiling_size_hint(const PlatformSpec& spec, const std::string& policy, const TilingError& e);
// Graph inputs whose dtype the importer only guessed (Deeploy graphs declare FLOAT inputs,
// docs/dialects.md "Deeploy / QuantLib") are typed from the data's range when an input file is
// given (--inputs); without one the guess stands, and the graph (and its cycles) can differ from
// the verified run's. The warning to print then ("" when no input was guessed).
std::string guessed_input_types_note(const Graph& g);
// Engine assignment with --engines (empty: the platform's order); errors become CliErrors.
EngineAssignment assign_engines_cli(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines);
// "engines:      npu 13 layers (weights 1,081,344 B in WMEM), cluster 18 nodes"
std::string engine_summary(const Graph& g, const EngineAssignment& a);
// The tuner's progress lines (TuneOptions::progress) on stderr, for `run` and `compile` under
// --policy tuned: the first says the plan is not in the tune cache (`cache_path`, "" = none) and
// is being tuned, each then "edgesim: tuning: [3/29] layer 'L02_pw' on cluster". Nothing is
// printed when the plan comes from the cache.
std::function<void(const std::string&)> tuning_progress(const std::string& cache_path);
// Prints each of the platform's plausibility warnings (PlatformSpec::warnings) to stderr as
// "edgesim: warning: ..." lines.
void print_platform_warnings(const PlatformSpec& spec);
// Throws CliError("--report out/r.html: directory 'out' does not exist") when an output file
// could not be written (missing or non-writable directory, an existing directory as the path),
// so that a long simulation does not end in a failed write. "" passes.
void check_output_path(const std::string& flag, const std::string& path);
// Throws CliError("--inputs x.npz: no such file or directory") when an input file given with
// `flag` does not exist, before anything is loaded. "" passes.
void check_input_path(const std::string& flag, const std::string& path);
// The inputs file an --expected directory holds (input.txt, inputs.npz, input_0.pb), or "".
std::string inputs_next_to(const std::string& expected);

}  // namespace edgesim::cli
