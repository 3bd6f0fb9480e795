// Reader of sweep presets (preset.h). The file is read by the platform loader's YAML walk
// (platforms/loader/yaml_tree.h), so a preset's syntax errors, duplicate keys and non-scalar keys
// are reported as "<file>:<line>: ..." exactly like a platform file's.
#include "sim/sweep/preset.h"

#include <filesystem>

#include "platforms/loader/yaml_tree.h"

namespace edgesim::sweep {

namespace {

namespace fs = std::filesystem;

std::string resolve(const std::string& path, const fs::path& preset) {
  std::error_code ec;
  if (path.empty() || fs::path(path).is_absolute() || fs::exists(path, ec)) return path;
  const fs::path alt = preset.parent_path().parent_path() / path;
  return fs::exists(alt, ec) ? alt.lexically_normal().string() : path;
}

[[noreturn]] void fail(const detail::RawValue& v, const std::string& msg) {
  throw SweepError(detail::located(v.at, msg));
}

const std::string& scalar(const detail::RawValue& v, const std::string& what) {
  if (v.is_list || v.items.size() != 1) fail(v, what + " must be a single value");
  return v.items.front();
}

}  // namespace

Preset read_preset(const std::string& path) {
  detail::FlatDoc doc;
  try {
    doc = detail::read_flat_yaml(path, "sweep preset");
  } catch (const std::exception& e) {
    throw SweepError(e.what());
  }
  Preset p;
  for (const auto& [key, v] : doc.entries) {
    if (key == "platform") {
      p.platform = resolve(scalar(v, "platform"), path);
    } else if (key == "policy") {   // one policy or a list of them (a sweep axis)
      for (size_t i = 0; i < v.items.size(); ++i) p.policy += (i ? "," : "") + v.items[i];
      if (p.policy.empty()) fail(v, "policy is empty");
    } else if (key == "description") {
      // free text for the reader
    } else if (key == "networks") {
      if (!v.is_list) fail(v, "networks must be a list of ONNX paths");
      for (const auto& n : v.items) p.networks.push_back(resolve(n, path));
    } else if (key == "set") {
      fail(v, "set must map platform keys to a value or a list of values");
    } else if (key.rfind("set.", 0) == 0) {   // set: {l1.size: [..]} or set: {l1: {size: [..]}}
      const std::string k = key.substr(4);
      if (v.is_list && v.items.empty()) fail(v, key + ": empty list");
      std::string option = k + "=";
      for (size_t i = 0; i < v.items.size(); ++i) option += (i ? "," : "") + v.items[i];
      try {
        merge_axis(p.axes, parse_axis(option));
      } catch (const SweepError& e) {
        fail(v, e.what());
      }
    } else {
      fail(v, "unknown key '" + key + "' (known: platform, policy, networks, set, description)");
    }
  }
  return p;
}

}  // namespace edgesim::sweep
