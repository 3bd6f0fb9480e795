// configs/calibration.yaml (calibration.h). One line per case under its platform,
// `<case>: [<metric>, <signed error>, pass|fail]`, read by the loader's strict YAML reader (file
// and line in every message; a case name may hold dots, a platform name does not).
#include "sim/validate/calibration.h"

#include <map>

#include <fmt/format.h>

#include "platforms/loader/yaml_tree.h"

namespace edgesim::validate {

std::string calibration_yaml(const std::vector<Outcome>& outcomes) {
  std::map<std::string, std::vector<const Outcome*>> by_platform;
  for (const Outcome& o : outcomes) by_platform[o.c->platform].push_back(&o);
  std::string s =
      "# The calibration status of each platform: every validation case (configs/validation,\n"
      "# docs/validation.md) by the platform it runs on: its metric, signed error and verdict.\n"
      "# Written by `edgesim validate --calibration configs/calibration.yaml`; `edgesim run` prints\n"
      "# the status of its platform, and the ctest calibration_current fails when this file is not\n"
      "# what validate gives today.\n";
  for (const auto& [platform, cases] : by_platform) {
    s += platform + ":\n";
    for (const Outcome* o : cases)
      s += fmt::format("  {}: [{}, {:.4f}, {}]\n", o->c->name, o->c->metric, o->error, o->pass ? "pass" : "fail");
  }
  return s;
}

namespace {

CalibrationCase parse_case(const std::string& name, const detail::RawValue& v) {
  const auto bad = [&] { detail::fail_at(v.at, name + ": expected [metric, signed error, pass|fail]"); };
  if (!v.is_list || v.items.size() != 3 || (v.items[2] != "pass" && v.items[2] != "fail")) bad();
  size_t used = 0;
  double error = 0;
  try {
    error = std::stod(v.items[1], &used);
  } catch (const std::exception&) {
    bad();
  }
  if (used != v.items[1].size()) bad();
  return {name, v.items[0], energy_metric(v.items[0]), error, v.items[2] == "pass"};
}

}  // namespace

Calibration read_calibration(const std::string& path, const std::string& platform) {
  Calibration cal;
  cal.looked_up = true;
  cal.platform = platform;
  if (path.empty()) {
    cal.unknown = "configs/calibration.yaml not found";
    return cal;
  }
  try {
    for (const auto& [key, v] : detail::read_flat_yaml(path, "calibration file").entries) {
      const size_t dot = key.find('.');
      if (dot == std::string::npos) detail::fail_at(v.at, key + ": expected <platform>: {<case>: [...]}");
      if (key.compare(0, dot, platform) == 0 && dot == platform.size()) cal.cases.push_back(parse_case(key.substr(dot + 1), v));
    }
  } catch (const std::exception& e) {   // the reader's PlatformError (file:line) or a malformed entry
    cal.cases.clear();
    cal.unknown = e.what();
  }
  return cal;
}

}  // namespace edgesim::validate
