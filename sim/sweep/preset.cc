// Reader of sweep presets (preset.h).
#include "sim/sweep/preset.h"

#include <filesystem>

#include <yaml-cpp/yaml.h>

namespace edgesim::sweep {

namespace {

namespace fs = std::filesystem;

std::string resolve(const std::string& path, const fs::path& preset) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  const fs::path alt = preset.parent_path().parent_path() / path;
  return fs::exists(alt, ec) ? alt.lexically_normal().string() : path;
}

std::string scalar(const YAML::Node& n, const std::string& file, const std::string& what) {
  if (!n.IsScalar()) throw SweepError(file + ": " + what + " must be a single value");
  return n.as<std::string>();
}

}  // namespace

Preset read_preset(const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::BadFile&) {
    throw SweepError(path + ": cannot read the preset");
  } catch (const YAML::Exception& e) {
    throw SweepError(path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root.IsMap()) throw SweepError(path + ": a preset is a map with platform, policy, networks and set");
  Preset p;
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    const YAML::Node& v = kv.second;
    if (key == "platform") {
      p.platform = resolve(scalar(v, path, "platform"), path);
    } else if (key == "policy") {   // one policy or a list of them (a sweep axis)
      if (v.IsSequence()) {
        for (size_t i = 0; i < v.size(); ++i) {
          if (i) p.policy += ',';
          p.policy += scalar(v[i], path, "policy values");
        }
      } else {
        p.policy = scalar(v, path, "policy");
      }
    } else if (key == "description") {
      // free text for the reader
    } else if (key == "networks") {
      if (!v.IsSequence()) throw SweepError(path + ": networks must be a list of ONNX paths");
      for (const auto& n : v) p.networks.push_back(resolve(scalar(n, path, "a network"), path));
    } else if (key == "set") {
      if (!v.IsMap()) throw SweepError(path + ": set must map platform keys to a value or a list of values");
      for (const auto& axis : v) {
        const std::string k = axis.first.as<std::string>();
        std::string option = k + "=";
        if (axis.second.IsSequence()) {
          if (axis.second.size() == 0) throw SweepError(path + ": set." + k + ": empty list");
          for (size_t i = 0; i < axis.second.size(); ++i)
            option += (i ? "," : "") + scalar(axis.second[i], path, "set." + k + " values");
        } else {
          option += scalar(axis.second, path, "set." + k);
        }
        try {
          merge_axis(p.axes, parse_axis(option));
        } catch (const SweepError& e) {
          throw SweepError(path + ": " + e.what());
        }
      }
    } else {
      throw SweepError(path + ": unknown key '" + key + "' (known: platform, policy, networks, set, description)");
    }
  }
  return p;
}

}  // namespace edgesim::sweep
