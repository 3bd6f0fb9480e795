// Platform loader: the only place edgesim reads YAML. A platform file (platforms/*.yaml) is
// resolved in three layers — its preset chain (`preset: <name>` = presets/<name>.yaml next to
// the file, or `extends: <path>` relative to it), then the file itself, then command-line
// overrides `key=value` (`--set`, dotted leaf keys) — checked strictly against the schema, and
// returned as an immutable PlatformSpec. docs/platforms.md is the user reference.
//
// Every failure throws PlatformError with exactly one line:
//   "<file>:<line>: <message>"                     for problems in a YAML file
//   "<file>: <key>=<value>: <message> (from --set)" for problems caused by an override
// Covered: unreadable file, YAML syntax, duplicate key, unknown key (with the closest known key),
// a key for another implementation, bad unit, missing required key, inconsistent values
// (non-power-of-two banks, usable budget <= 0, reserved space exceeding a memory, ...).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "platforms/loader/spec.h"

namespace edgesim {

class PlatformError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

PlatformSpec load_platform(const std::string& path, const std::vector<std::string>& overrides = {});

// The resolved spec as text: every key in effect with value, unit and origin, grouped by
// section; then the derived usable budgets and the selected implementations.
std::string describe_platform(const PlatformSpec& spec);

// What each override changed, in order (platform key, derived `auto` values, usable budgets) and
// the report of an override that does not take effect; "" without overrides (override_effects.cc).
std::string describe_overrides(const std::string& path, const std::vector<std::string>& overrides);

// Stable 64-bit FNV-1a hash of every key in effect and its exact value (description and
// provenance excluded). Equal specs hash equally across runs and machines; for cache keys.
uint64_t platform_hash(const PlatformSpec& spec);

// Every key the schema knows, in schema order ("name", "cluster.impl", ...).
std::vector<std::string> known_platform_keys();

// The value of one key in effect, formatted with its unit as `describe` shows it
// ("65536 B (64 KiB)"). Throws PlatformError for an unknown key or one not in effect.
std::string platform_value(const PlatformSpec& spec, const std::string& key);

}  // namespace edgesim
