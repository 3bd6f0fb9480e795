// Command-line shape checks and enumerated-value validators (args.h). The checks read the
// options CLI11 has registered, so each subcommand's registrar stays the one description of its
// options; nothing here lists the options of a particular command.
#include "sim/cli/args.h"

#include "platforms/loader/engine_names.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/budget/memory.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/units.h"
#include "sim/cli/commands.h"
#include "sim/cli/suggest.h"

namespace edgesim::cli {
namespace {

// Every name an option answers to: "--policy", "-p".
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

bool is_help_or_version(const CLI::App& app, const CLI::Option* o) {
  return o != nullptr && (o == app.get_help_ptr() || o == app.get_help_all_ptr() || o == app.get_version_ptr());
}

// The option an argument names ("--set=a", "-pgap8" included), or nullptr. `name` receives the
// option part as the user typed it, `inline_value` whether a value came with it.
const CLI::Option* find_option(const CLI::App& app, const std::string& arg, std::string& name, bool& inline_value) {
  if (arg.rfind("--", 0) == 0) {
    const size_t eq = arg.find('=');
    name = arg.substr(0, eq);
    inline_value = eq != std::string::npos;
  } else {
    name = arg.substr(0, 2);
    inline_value = arg.size() > 2;
  }
  const CLI::Option* o = app.get_option_no_throw(name);
  if (o == nullptr) name = arg.substr(0, arg.find('='));   // report what was typed: "-timing-only"
  return o;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

bool is_option(const std::string& arg) { return arg.size() > 1 && arg[0] == '-'; }

std::vector<const CLI::App*> subcommands(const CLI::App& app) {
  return app.get_subcommands([](const CLI::App*) { return true; });
}

std::vector<std::string> command_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : subcommands(app)) names.push_back(sub->get_name());
  return names;
}

// The subcommand args[0] names. nullptr when args[0] asks for help or the version.
const CLI::App* find_command(const CLI::App& app, const std::vector<std::string>& args) {
  const std::vector<std::string> commands = command_names(app);
  if (args.empty()) throw CliError("no command given (commands: " + join(commands) + "; edgesim --help)");
  const std::string& first = args[0];
  if (is_option(first)) {
    std::string name;
    bool inline_value = false;
    if (is_help_or_version(app, find_option(app, first, name, inline_value))) return nullptr;
    // An option of a subcommand given before it: say where it goes, with the command given later.
    bool known = false;
    std::string command = "COMMAND";
    for (const CLI::App* s : subcommands(app)) {
      if (s->get_option_no_throw(name) == nullptr) continue;
      known = true;
      if (std::find(args.begin(), args.end(), s->get_name()) != args.end()) command = s->get_name();
    }
    if (known)
      throw CliError(fmt::format("option '{}' before the command: options follow it (edgesim {} {} ...)", name, command,
                                 first));
    const std::string hint = did_you_mean(name, option_names(app));
    throw CliError(fmt::format("unknown option '{}'{}", name,
                               hint.empty() ? " (a command comes first: " + join(commands) + ")" : hint));
  }
  for (const CLI::App* s : subcommands(app))
    if (s->get_name() == first) return s;
  const std::string hint = did_you_mean(first, commands);
  throw CliError(fmt::format("unknown command '{}'{}", first, hint.empty() ? " (commands: " + join(commands) + ")" : hint));
}

// Checks the options after the subcommand and their values; returns the positional arguments in
// order, or nothing (with `help` set) when help is asked for.
std::vector<std::string> positional_args(const CLI::App& sub, const std::vector<std::string>& args, bool& help) {
  const std::string& cmd = sub.get_name();
  std::vector<std::string> positional;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      positional.insert(positional.end(), args.begin() + static_cast<std::ptrdiff_t>(i) + 1, args.end());
      break;
    }
    if (!is_option(arg)) {
      positional.push_back(arg);
      continue;
    }
    std::string name;
    bool inline_value = false;
    const CLI::Option* o = find_option(sub, arg, name, inline_value);
    if (o == nullptr) {
      const std::string hint = did_you_mean(name, option_names(sub));
      throw CliError(fmt::format("{}: unknown option '{}'{}", cmd, name,
                                 hint.empty() ? fmt::format(" (edgesim {} --help lists the options)", cmd) : hint));
    }
    if (is_help_or_version(sub, o)) {
      help = true;
      return {};
    }
    if (o->get_items_expected_max() == 0 || inline_value) continue;   // a flag, or "--opt=value" / "-pVALUE"
    if (i + 1 == args.size()) throw CliError(fmt::format("{}: {} needs a value", cmd, name));
    std::string next_name;
    bool next_inline = false;
    if (args[i + 1] == "--" || (is_option(args[i + 1]) && find_option(sub, args[i + 1], next_name, next_inline)))
      throw CliError(fmt::format("{}: {} needs a value (got the option '{}')", cmd, name, args[i + 1]));
    ++i;
  }
  return positional;
}

// Positional options take the arguments in order (CLI11's rule): are there enough, and not too many?
void check_positional_count(const CLI::App& sub, const std::vector<std::string>& positional) {
  const std::string& cmd = sub.get_name();
  size_t need = 0, room = 0;
  const CLI::Option* missing = nullptr;
  for (const CLI::Option* o : sub.get_options([](const CLI::Option* p) { return p->get_positional() && !p->nonpositional(); })) {
    const auto max = static_cast<size_t>(o->get_items_expected_max());
    if (o->get_required()) {
      need += static_cast<size_t>(o->get_items_expected_min());
      if (missing == nullptr && positional.size() < need) missing = o;
    }
    room = room + max < room ? SIZE_MAX : room + max;
  }
  if (missing != nullptr)
    throw CliError(fmt::format("{}: missing argument '{}' ({})", cmd, missing->get_name(true), missing->get_description()));
  if (positional.size() > room) {
    // `run gap8 NET`: a platform given where the network goes.
    std::string hint;
    if (sub.get_option_no_throw("--platform") != nullptr)
      for (const std::string& p : positional)
        if (p.ends_with(".yaml") || p.ends_with(".yml") || (is_platform_name(p) && !find_bundled(p).empty())) {
          hint = fmt::format("; '{}' is a platform: give it with -p {}", p, p);
          break;
        }
    throw CliError(room == 0 ? fmt::format("{}: unexpected argument '{}' ({} takes no positional arguments{})", cmd,
                                           positional[room], cmd, hint)
                             : fmt::format("{}: unexpected argument '{}' (after '{}'{})", cmd, positional[room],
                                           positional[room - 1], hint));
  }
}

}  // namespace

void check_command_line(const CLI::App& app, const std::vector<std::string>& args) {
  const CLI::App* sub = find_command(app, args);
  if (sub == nullptr) return;
  bool help = false;
  const std::vector<std::string> positional = positional_args(*sub, args, help);
  if (!help) check_positional_count(*sub, positional);
}

std::string parse_error_line(const CLI::App& app, const CLI::ParseError& e, const std::string& subcommand) {
  std::string msg = e.what();
  for (char& c : msg)
    if (c == '\n') c = ' ';
  while (!msg.empty() && msg.back() == ' ') msg.pop_back();
  // CLI11's "Could not convert: --seed = abc" becomes "--seed: 'abc' is not a non-negative integer".
  const std::string convert = "Could not convert: ";
  if (const size_t eq = msg.find(" = "); msg.rfind(convert, 0) == 0 && eq != std::string::npos) {
    const std::string name = msg.substr(convert.size(), eq - convert.size()), value = msg.substr(eq + 3);
    const CLI::Option* o = nullptr;
    for (const CLI::App* s : subcommands(app))
      if (s->get_name() == subcommand) o = s->get_option_no_throw(name);
    const std::string type = o != nullptr ? o->get_type_name() : "";
    const std::string what = type == "UINT" ? "a non-negative integer" : type == "INT" ? "an integer"
                             : type == "FLOAT" ? "a number" : "a valid value";
    return fmt::format("{}: '{}' is not {}", name, value, what);
  }
  // A validator's message already names the option ("--layout: ..."); others get the command.
  if (subcommand.empty() || msg.rfind("-", 0) == 0) return msg;
  return subcommand + ": " + msg;
}

std::string not_one_of(const std::string& value, const std::vector<std::string>& names, const std::string& noun) {
  return fmt::format("{}'{}' is not one of {}{}", noun.empty() ? "" : noun + " ", value, join(names),
                     did_you_mean(value, names));
}

CLI::Validator one_of(std::vector<std::string> names, std::string noun) {
  const std::string desc = "{" + join(names) + "}";
  return CLI::Validator(
      [names = std::move(names), noun = std::move(noun)](std::string& value) {
        for (const std::string& n : names)
          if (n == value) return std::string();
        return not_one_of(value, names, noun);
      },
      desc);
}

CLI::Option* add_platform_option(CLI::App* sub, std::string& platform) {
  return sub->add_option("-p,--platform", platform,
                         "platform YAML file or bundled platform name, e.g. gap8 (default: siracusa; "
                         "edgesim describe --list)");
}

CLI::Option* add_set_option(CLI::App* sub, std::vector<std::string>& overrides, const std::string& help) {
  return sub->add_option("--set", overrides, help)->allow_extra_args(false);
}

CLI::Option* add_memory_limit_option(CLI::App* sub) {
  return sub->add_option_function<std::string>(
      "--memory-limit",
      [](const std::string& v) {
        try {
          memory_limit() = parse_size(v);
        } catch (const UnitError& e) {
          throw CLI::ValidationError("--memory-limit", e.what());
        }
      },
      "refuse a network whose estimated memory exceeds SIZE (e.g. 8GiB; 0: no limit; default 4GiB)");
}

CLI::Option* add_policy_option(CLI::App* sub, std::string& policy) {
  return sub->add_option("--policy", policy, "tiling policy: " + join(policy_names()))
      ->check(one_of(policy_names(), "tiling policy"))
      ->capture_default_str();
}

CLI::Option* add_engines_option(CLI::App* sub, std::vector<std::string>& engines) {
  return sub->add_option("--engines", engines, "engines in preference order, e.g. npu,cluster (default: the platform's)")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->check(one_of(engine_names(), "engine"));
}

void check_policy(const std::string& policy) {
  const std::vector<std::string> names = policy_names();
  if (std::find(names.begin(), names.end(), policy) == names.end())
    throw CliError("--policy: " + not_one_of(policy, names, "tiling policy"));
}

std::vector<std::string> engine_names() { return engine_list_names(); }

}  // namespace edgesim::cli
