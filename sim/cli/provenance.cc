// Provenance as the CLI records it (provenance.h).
#include "sim/cli/provenance.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include <fmt/format.h>

#include "edgesim_version.h"   // generated at build time by scripts/version.cmake
#include "platforms/loader/loader.h"
#include "platforms/util/hash.h"

namespace edgesim::cli {

namespace {

std::vector<std::string>& argv_store() {
  static std::vector<std::string> args;
  return args;
}

}  // namespace

void set_command_line(int argc, const char* const* argv) {
  argv_store().assign(argv, argv + argc);
  if (!argv_store().empty()) argv_store()[0] = "edgesim";   // not the build path of the binary
}

std::string shell_quote(const std::string& arg) {
  if (arg.empty()) return "''";
  bool plain = true, printable = true;
  for (unsigned char c : arg) {
    if (c < 0x20 || c >= 0x7f) printable = false;
    if (!(std::isalnum(c) || std::string_view("@%+=:,./-_").find(static_cast<char>(c)) != std::string_view::npos))
      plain = false;
  }
  if (plain) return arg;
  if (printable) {
    std::string s = "'";
    for (char c : arg) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return s + "'";
  }
  std::string s = "$'";
  for (unsigned char c : arg) {
    if (c == '\'' || c == '\\') s += std::string("\\") + static_cast<char>(c);
    else if (c < 0x20 || c >= 0x7f) s += fmt::format("\\x{:02x}", c);
    else s += static_cast<char>(c);
  }
  return s + "'";
}

std::string command_line() {
  std::string s;
  for (const std::string& a : argv_store()) {
    if (!s.empty()) s += ' ';
    s += shell_quote(a);
  }
  return s;
}

std::string command_line_without(const std::vector<std::string>& valued, const std::vector<std::string>& flags) {
  const std::vector<std::string>& args = argv_store();
  auto is = [](const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
  std::string s;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (is(flags, a)) continue;
    if (is(valued, a)) {
      ++i;   // and its value
      continue;
    }
    bool attached = false;   // "-j4", "--jobs=4"
    for (const std::string& v : valued)
      attached = attached || (a.rfind(v, 0) == 0 && a.size() > v.size() && (v.size() == 2 || a[v.size()] == '='));
    if (attached) continue;
    if (!s.empty()) s += ' ';
    s += shell_quote(a);
  }
  return s;
}

std::string version() { return EDGESIM_VERSION_STRING; }
std::string git_commit() { return EDGESIM_GIT_COMMIT; }
std::string version_line() { return "edgesim " + version() + " (commit " + git_commit() + ")"; }

ProvenanceBuilder::ProvenanceBuilder(const PlatformSpec* spec, const std::string& platform_file,
                                     const std::vector<std::string>& overrides) {
  p_.command_line = command_line();
  p_.version = version();
  p_.commit = git_commit();
  if (spec) {
    p_.platform = spec->name;
    p_.platform_spec_hash = hash_label(platform_hash(*spec));
  }
  p_.overrides = overrides;
  file("platform", platform_file);
}

ProvenanceBuilder& ProvenanceBuilder::option(const std::string& name, const std::string& value) {
  if (!value.empty()) p_.options.emplace_back(name, value);
  return *this;
}

ProvenanceBuilder& ProvenanceBuilder::file(const std::string& role, const std::string& path) {
  if (path.empty()) return *this;
  std::error_code ec;
  std::string hash;
  if (std::filesystem::is_regular_file(path, ec)) {
    try {
      hash = hash_label(fnv1a_file(path));
    } catch (const std::exception&) {
      hash = "unreadable";
    }
  }
  p_.files.push_back({role, path, hash});
  return *this;
}

}  // namespace edgesim::cli
