// Flattening of platform YAML into dotted leaf keys with their source location, and parsing of
// `--set key=value` overrides into the same form. yaml-cpp accepts duplicate keys silently, so
// the walk here rejects them itself: twice the same key in one mapping, or the same leaf reached
// twice (`l1: {size: ..}` and `l1.size: ..` in one file). Internal to platforms/loader.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace edgesim::detail {

struct Origin {
  std::string file;       // platform/preset file (for overrides: the platform file)
  int line = 0;           // 1-based; 0 for overrides
  bool from_set = false;
  std::string set_text;   // "key=value" as given on the command line
};

struct RawValue {
  std::vector<std::string> items;   // one item for a scalar
  bool is_list = false;
  Origin at;
};

struct FlatDoc {
  std::string file;
  std::vector<std::pair<std::string, RawValue>> entries;   // in file order
};

// "<file>:<line>: msg" or "<file>: key=value: msg (from --set)".
std::string located(const Origin& at, const std::string& msg);
[[noreturn]] void fail_at(const Origin& at, const std::string& msg);

// Reads and flattens one YAML file. Throws PlatformError (file:line) on any problem; `kind` names
// the file in messages ("cannot open <kind>", "empty <kind>").
FlatDoc read_flat_yaml(const std::string& path, const std::string& kind = "platform file");

// Parses one "key=value" override; `platform_file` is used for messages.
std::pair<std::string, RawValue> parse_override(const std::string& text,
                                                const std::string& platform_file);

}  // namespace edgesim::detail
