// Platforms by name: `-p gap8` means the bundled platforms/gap8.yaml, looked up the way the
// default platform is (platforms/ in the working directory, then the installation's, then the
// source tree's: sim/cli/resources.h), and
// `edgesim describe --list` prints what is bundled (declared in commands.h).
#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "platforms/loader/loader.h"
#include "sim/cli/commands.h"
#include "sim/cli/resources.h"
#include "sim/cli/suggest.h"

namespace edgesim::cli {
namespace {

namespace fs = std::filesystem;

// The folders of bundled platforms, in lookup order, each once.
std::vector<fs::path> platform_dirs() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (const fs::path& root : data_roots()) {
    const fs::path d = root == "." ? fs::path("platforms") : root / "platforms";
    if (!fs::is_directory(d, ec)) continue;
    bool seen = false;
    for (const fs::path& e : dirs) seen = seen || fs::equivalent(e, d, ec);
    if (!seen) dirs.push_back(d);
  }
  return dirs;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string find_bundled(const std::string& name) {
  std::error_code ec;
  for (const fs::path& d : platform_dirs())
    if (fs::is_regular_file(d / (name + ".yaml"), ec)) return (d / (name + ".yaml")).string();
  return "";
}

std::vector<BundledPlatform> bundled_platforms() {
  std::vector<BundledPlatform> all;
  std::error_code ec;
  for (const fs::path& d : platform_dirs())
    for (const fs::directory_entry& e : fs::directory_iterator(d, ec)) {
      if (!e.is_regular_file(ec) || e.path().extension() != ".yaml") continue;
      const std::string name = e.path().stem().string();
      if (std::none_of(all.begin(), all.end(), [&](const BundledPlatform& p) { return p.name == name; }))
        all.push_back({name, e.path().string()});
    }
  std::sort(all.begin(), all.end(), [](const BundledPlatform& a, const BundledPlatform& b) { return a.name < b.name; });
  return all;
}

bool is_platform_name(const std::string& value) {
  return !value.empty() && value.find('/') == std::string::npos && !ends_with(value, ".yaml") &&
         !ends_with(value, ".yml");
}

std::string resolve_platform(const std::string& value, const std::string& what) {
  if (value.empty()) return default_platform_path();
  std::error_code ec;
  if (fs::exists(value, ec) || !is_platform_name(value)) return value;   // a path: the loader reports a missing file
  if (std::string path = find_bundled(value); !path.empty()) return path;
  std::vector<std::string> names;
  for (const BundledPlatform& p : bundled_platforms()) names.push_back(p.name);
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  throw CliError(fmt::format("{} {}: no such file and no bundled platform of that name{}; bundled: {}", what, value,
                             did_you_mean(value, names), list.empty() ? "none found" : list));
}

std::string default_platform_path() {
  if (const char* e = std::getenv("EDGESIM_PLATFORM"); e != nullptr && *e != '\0')
    return resolve_platform(e, "$EDGESIM_PLATFORM");
  const std::string path = find_bundled("siracusa");
  return path.empty() ? "platforms/siracusa.yaml" : path;
}

std::string platform_list() {
  std::string out;
  const std::vector<BundledPlatform> all = bundled_platforms();
  size_t width = 0;
  for (const BundledPlatform& p : all) width = std::max(width, p.name.size());
  for (const BundledPlatform& p : all) {
    std::string what;
    try {
      what = load_platform(p.path).description;
    } catch (const std::exception& e) {
      what = std::string("(does not load: ") + e.what() + ")";
    }
    out += fmt::format("{:<{}}  {}\n", p.name, width, what);
  }
  return out;
}

}  // namespace edgesim::cli
