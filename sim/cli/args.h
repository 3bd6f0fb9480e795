// The shape of a command line and the values of enumerated options, checked the same way for
// every subcommand, so that a parse error is one "edgesim: error:" line with exit status 2 and,
// for a misspelled name, a suggestion (sim/cli/suggest.h). CLI11 parses what these let through.
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace edgesim::cli {

// Checks argv[1..] against the subcommands and options registered on `app` before CLI11 parses
// it: a known subcommand comes first, every option of it is known, an option that takes a value
// has one (the next argument, "--opt=value" or "-pVALUE"; an argument naming another option is not a
// value), and the number of positional arguments fits the subcommand's. Options and positional
// arguments may come in any order; "--" ends the options. Throws CliError with a one-line
// message such as "run: unknown option '--polcy' (did you mean '--policy'?)". Does nothing when
// help (-h, --help) or --version is asked for, which CLI11 then handles.
void check_command_line(const CLI::App& app, const std::vector<std::string>& args);

// The one line edgesim prints for a CLI11 parse error that passed check_command_line (a value
// that does not convert or validate, options that exclude each other), naming the subcommand.
std::string parse_error_line(const CLI::App& app, const CLI::ParseError& e, const std::string& subcommand);

// "<noun> 'x' is not one of a, b, c (did you mean 'a'?)" (without a noun: "'x' is not one of ...").
std::string not_one_of(const std::string& value, const std::vector<std::string>& names, const std::string& noun = "");
// A CLI11 validator accepting exactly `names` (each element of a delimited option), rejecting
// anything else with not_one_of's message; CLI11 prefixes the option ("--layout: 'x' is ...").
CLI::Validator one_of(std::vector<std::string> names, std::string noun = "");

// Options several subcommands share, registered alike everywhere. Vector options take one value
// per occurrence (`--set a=1 --set b=2`), so they never swallow the network that follows them;
// --engines also splits at commas.
CLI::Option* add_platform_option(CLI::App* sub, std::string& platform);   // -p, --platform FILE|NAME
CLI::Option* add_set_option(CLI::App* sub, std::vector<std::string>& overrides,
                            const std::string& help = "override a platform key: --set key=value (repeatable)");
CLI::Option* add_policy_option(CLI::App* sub, std::string& policy);       // --policy, checked against the policies
CLI::Option* add_engines_option(CLI::App* sub, std::vector<std::string>& engines);
// --memory-limit SIZE (4GiB, 512MiB, bytes; 0: none): sets the process-wide limit of
// compiler/budget/memory.h that a network's estimated memory must stay under.
CLI::Option* add_memory_limit_option(CLI::App* sub);

// Throws CliError("--policy: tiling policy 'x' is not one of ...") unless `policy` is a tiling
// policy: for a policy that did not come from --policy (a sweep preset's).
void check_policy(const std::string& policy);

// The engines `--engines` accepts (platforms/loader/engine_names.h: the built-in and registered
// engines, DIANA's role names); whether the platform has them is the engine assigner's check.
std::vector<std::string> engine_names();

}  // namespace edgesim::cli
