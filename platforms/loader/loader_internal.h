// Internal interfaces between the loader's parts: key checking with suggestions
// (check_key.cc) and the consistency rules applied after all keys are parsed (validate.cc).
#pragma once
#include <functional>
#include <string>

#include "platforms/loader/spec.h"
#include "platforms/loader/yaml_tree.h"

namespace edgesim::detail {

// Throws PlatformError at `at` unless `key` is a leaf key of the schema. The message says
// whether the key names a section, sits below a leaf, or is unknown (then with the closest key).
void check_known_key(const std::string& key, const Origin& at);

// Closest schema key by edit distance (also matching a missing prefix such as "dma.impl" ->
// "cluster.dma.impl"); "" when nothing is reasonably close.
std::string closest_key(const std::string& key);

// Where a key's value came from (for error messages); defaulted keys map to the platform file.
using Locator = std::function<Origin(const std::string& key)>;

// Cross-key rules: positivity, powers of two, budgets > 0, reserved space < memory size, ...
void validate_spec(const PlatformSpec& spec, const Locator& where);

}  // namespace edgesim::detail
