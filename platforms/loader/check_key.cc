// Unknown-key diagnosis: a typo in a platform key is an error naming the closest known key,
// never a silent default (docs/platforms.md §5 "Errors").
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "platforms/loader/loader_internal.h"
#include "platforms/loader/schema.h"

namespace edgesim::detail {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// The last n dot-separated components of `key`.
std::string tail(const std::string& key, size_t n) {
  size_t pos = key.size();
  for (size_t i = 0; i < n; ++i) {
    pos = key.rfind('.', pos == 0 ? 0 : pos - 1);
    if (pos == std::string::npos) return key;
  }
  return key.substr(pos + 1);
}

}  // namespace

std::string closest_key(const std::string& key) {
  const size_t parts = static_cast<size_t>(std::count(key.begin(), key.end(), '.')) + 1;
  std::string best;
  size_t best_score = SIZE_MAX;
  for (const auto& d : schema::keys()) {
    size_t score = edit_distance(key, d.key);
    size_t suffix = edit_distance(key, tail(d.key, parts)) + 1;   // missing leading sections
    score = std::min(score, suffix);
    if (score < best_score) best_score = score, best = d.key;
  }
  const size_t limit = std::max<size_t>(2, key.size() / 3);
  return best_score <= limit ? best : std::string();
}

void check_known_key(const std::string& key, const Origin& at) {
  if (schema::find_key(key)) return;
  if (key == "preset" || key == "extends")
    fail_at(at, fmt::format("'{}' is only allowed at the top level of a platform file", key));
  if (schema::is_map_prefix(key)) {
    std::string example;
    for (const auto& d : schema::keys())
      if (d.key.rfind(key + ".", 0) == 0) { example = d.key; break; }
    fail_at(at, fmt::format("'{}' is a section, not a value; give its keys, e.g. '{}'", key,
                            example));
  }
  for (size_t p = key.rfind('.'); p != std::string::npos && p > 0; p = key.rfind('.', p - 1)) {
    const std::string prefix = key.substr(0, p);
    if (schema::find_key(prefix))
      fail_at(at, fmt::format("'{}' takes a value, not a mapping (unknown key '{}')", prefix, key));
  }
  const std::string best = closest_key(key);
  if (!best.empty()) fail_at(at, fmt::format("unknown key '{}' (did you mean '{}'?)", key, best));
  fail_at(at, fmt::format("unknown key '{}' (docs/platforms.md lists the known keys)", key));
}

}  // namespace edgesim::detail
