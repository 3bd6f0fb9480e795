// configs/calibration.yaml (calibration.h).
#include "sim/validate/calibration.h"

#include <map>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace edgesim::validate {

std::string calibration_yaml(const std::vector<Outcome>& outcomes) {
  std::map<std::string, std::vector<const Outcome*>> by_platform;
  for (const Outcome& o : outcomes) by_platform[o.c->platform].push_back(&o);
  std::string s =
      "# The calibration status of each platform: every validation case (configs/validation,\n"
      "# docs/validation.md) by the platform it runs on, with its metric, signed error and verdict.\n"
      "# Written by `edgesim validate --calibration configs/calibration.yaml`; `edgesim run` prints\n"
      "# the status of its platform, and the ctest calibration_current fails when this file is not\n"
      "# what validate gives today.\n";
  for (const auto& [platform, cases] : by_platform) {
    s += platform + ":\n";
    for (const Outcome* o : cases)
      s += fmt::format("  - {{case: {}, metric: {}, error: {:.4f}, pass: {}}}\n", o->c->name, o->c->metric, o->error,
                       o->pass ? "true" : "false");
  }
  return s;
}

Calibration read_calibration(const std::string& path, const std::string& platform) {
  Calibration cal;
  cal.looked_up = true;
  cal.platform = platform;
  try {
    const YAML::Node root = YAML::LoadFile(path);
    if (!root.IsMap()) throw std::runtime_error("not a map of platforms");
    const YAML::Node list = root[platform];
    if (!list) return cal;
    if (!list.IsSequence()) throw std::runtime_error(platform + ": not a list of cases");
    for (const YAML::Node& n : list)
      cal.cases.push_back({n["case"].as<std::string>(), n["metric"].as<std::string>(), n["error"].as<double>(),
                           n["pass"].as<bool>()});
  } catch (const std::exception& e) {   // YAML::Exception, a conversion or the checks above
    cal.cases.clear();
    cal.unknown = fmt::format("{}: {}", path, e.what());
  }
  return cal;
}

}  // namespace edgesim::validate
