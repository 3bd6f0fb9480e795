// Reading validation cases (validate.h). The YAML is flattened by the platform loader's strict
// reader (dotted keys with their line, duplicate keys rejected), then checked key by key.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/yaml_tree.h"
#include "sim/validate/validate.h"

namespace edgesim::validate {

namespace {

namespace fs = std::filesystem;

const std::set<std::string> kMeasured = {"gvsoc", "rtl", "silicon"};
const std::set<std::string> kMetrics = {"accounted_cycles", "cycles", "mac_per_cycle", "pj_per_mac", "top_per_joule",
                                        "energy_ratio"};

[[noreturn]] void fail(const std::string& file, int line, const std::string& msg) {
  throw ValidationError(line > 0 ? fmt::format("{}:{}: {}", file, line, msg) : fmt::format("{}: {}", file, msg));
}

double number(const std::string& file, int line, const std::string& key, const std::string& text) {
  try {
    size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  fail(file, line, fmt::format("{}: '{}' is not a number", key, text));
}

}  // namespace

Case read_case(const std::string& path) {
  detail::FlatDoc doc;
  try {
    doc = detail::read_flat_yaml(path, "validation case");
  } catch (const std::exception& e) {
    throw ValidationError(e.what());
  }
  Case c;
  c.file = path;
  std::map<std::string, int> line_of;   // key given -> its line (published.layers: the first)
  for (const auto& entry : doc.entries) {
    const std::string& key = entry.first;   // named, not bound: Clang 14 (the sanitize build) cannot
    const auto& v = entry.second;           // capture a structured binding in a lambda
    const int line = v.at.line;
    auto one = [&]() -> std::string {
      if (v.is_list || v.items.size() != 1) fail(path, line, key + " must be a single value");
      return v.items.front();
    };
    auto one_line = [&]() {
      std::string s = one();
      while (!s.empty() && s.back() == '\n') s.pop_back();   // a block scalar's final newline
      if (s.find('\n') != std::string::npos) fail(path, line, key + " must be one line");
      return s;
    };
    auto positive = [&](double x) {
      if (x <= 0) fail(path, line, key + " must be positive");
      return x;
    };
    auto list = [&]() {
      if (!v.is_list) return std::vector<std::string>{one()};
      return v.items;
    };
    line_of.emplace(key.rfind("published.layers.", 0) == 0 ? "published.layers" : key, line);
    if (key == "name") c.name = one();
    else if (key == "what") c.what = one_line();
    else if (key == "network") c.network = one();
    else if (key == "platform") c.platform = one();
    else if (key == "set") c.overrides = list();
    else if (key == "baseline_set") c.baseline_overrides = list();
    else if (key == "policy") c.policy = one();
    else if (key == "engines") c.engines = list();
    else if (key == "buffering") c.buffering = one();
    else if (key == "network_loop") c.network_loop = one();
    else if (key == "io_layout") c.io_layout = one();
    else if (key == "inputs") c.inputs = one();
    else if (key == "measured_on") c.measured_on = one();
    else if (key == "metric") c.metric = one();
    else if (key == "source") c.source = one_line();
    else if (key == "notes") c.notes = one();
    else if (key == "published.total") c.published = positive(number(path, line, key, one()));
    else if (key.rfind("published.layers.", 0) == 0)
      c.published_layers[key.substr(17)] = positive(number(path, line, key, one()));
    else if (key == "tolerance") c.tolerance = number(path, line, key, one());
    else if (key == "layer_tolerance") c.layer_tolerance = number(path, line, key, one());
    else if (key == "published" || key == "published.layers")
      fail(path, line, key + " must be a mapping (published: {total: N, layers: {LAYER: N, ...}})");
    else
      fail(path, line, fmt::format("unknown key '{}' (known: name, what, network, platform, set, baseline_set, policy, engines, "
                                   "buffering, network_loop, io_layout, inputs, measured_on, metric, published.total, "
                                   "published.layers, tolerance, layer_tolerance, source, notes)", key));
  }
  for (const char* k : {"name", "what", "network", "platform", "measured_on", "metric", "published.total", "tolerance",
                        "source"})
    if (!line_of.count(k)) fail(path, 0, fmt::format("missing key '{}'", k));
  auto bad = [&](const std::string& key, const std::string& msg) { fail(path, line_of.at(key), key + ": " + msg); };
  if (!std::regex_match(c.name, std::regex("[a-z0-9_.-]+")))
    bad("name", "'" + c.name + "' may use only a-z, 0-9, '_', '.' and '-'");
  if (fs::path(path).stem().string() != c.name)
    bad("name", fmt::format("'{}' differs from the file name '{}'", c.name, fs::path(path).filename().string()));
  if (!kMeasured.count(c.measured_on)) bad("measured_on", "'" + c.measured_on + "' (known: gvsoc, rtl, silicon)");
  if (!kMetrics.count(c.metric))
    bad("metric", "'" + c.metric + "' (known: accounted_cycles, cycles, mac_per_cycle, pj_per_mac, top_per_joule, energy_ratio)");
  if ((c.metric == "energy_ratio") != line_of.count("baseline_set"))
    bad("metric", "energy_ratio compares the run with a baseline: it needs baseline_set, and baseline_set needs it");
  if (c.network.rfind("model:", 0) != 0 && c.network.rfind("shared:", 0) != 0)
    bad("network", "'" + c.network + "' must be model:<name> or shared:<path>");
  if (line_of.count("inputs") && c.inputs.rfind("shared:", 0) != 0)
    bad("inputs", "'" + c.inputs + "' must be shared:<path>");
  if (line_of.count("policy")) {
    try {
      make_policy(c.policy);
    } catch (const std::invalid_argument& e) {
      bad("policy", e.what());
    }
  }
  if (c.io_layout != "hwc" && c.io_layout != "nchw") bad("io_layout", "'" + c.io_layout + "' (known: hwc, nchw)");
  if (c.tolerance <= 0 || c.tolerance >= 1) bad("tolerance", "must be a fraction in (0, 1)");
  if (line_of.count("layer_tolerance") && c.layer_tolerance <= 0) bad("layer_tolerance", "must be a positive fraction");
  return c;
}

std::vector<Case> read_cases(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw ValidationError(dir + ": no such folder of validation cases");
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".yaml") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw ValidationError(dir + ": no validation cases (*.yaml)");
  std::vector<Case> cases;
  for (const std::string& f : files) cases.push_back(read_case(f));
  return cases;
}

std::string network_path(const Case& c, const Paths& p) {
  std::vector<fs::path> tries;
  if (c.network.rfind("model:", 0) == 0) {
    const std::string m = c.network.substr(6);
    tries = {fs::path(p.build_dir) / "models" / m / "model.onnx", fs::path(p.source_dir) / "models" / m / "model.onnx"};
  } else {
    tries = {fs::path(p.shared_dir) / c.network.substr(7)};
  }
  std::error_code ec;
  for (const fs::path& t : tries)
    if (fs::is_regular_file(t, ec)) return t.string();
  throw ValidationError(fmt::format("{}: network {} not found (looked at {})", c.file, c.network, tries.front().string()));
}

std::string inputs_path(const Case& c, const Paths& p) {
  if (c.inputs.empty()) return "";
  const fs::path t = fs::path(p.shared_dir) / c.inputs.substr(7);
  std::error_code ec;
  if (!fs::is_regular_file(t, ec))
    throw ValidationError(fmt::format("{}: inputs {} not found (looked at {})", c.file, c.inputs, t.string()));
  return t.string();
}

std::string platform_path(const Case& c, const Paths& p) {
  std::error_code ec;
  for (const fs::path& t : {fs::path("platforms") / (c.platform + ".yaml"),
                            fs::path(p.source_dir) / "platforms" / (c.platform + ".yaml")})
    if (fs::is_regular_file(t, ec)) return t.string();
  throw ValidationError(fmt::format("{}: platform '{}' not found (platforms/{}.yaml)", c.file, c.platform, c.platform));
}

}  // namespace edgesim::validate
