// What each --set override changed (loader.h describe_overrides): the platform is loaded with the
// first i overrides for i = 0..n and consecutive results are compared on every key in effect and
// on the usable deployment budgets, so a derived value that follows the hardware (`auto`,
// derived.h) or a DORY budget computed from a memory size shows up under the override that moved
// it. A warning the override added (an explicit value that does not follow, a key the run does not
// read under the current fidelity) is listed with it, and so is a Deeploy budget that stays put.
#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "platforms/loader/budgets.h"
#include "platforms/loader/loader.h"
#include "platforms/loader/schema.h"

namespace edgesim {
namespace {

using Facts = std::vector<std::pair<std::string, std::string>>;

Facts facts(const PlatformSpec& s) {
  Facts f;
  for (const auto& d : schema::keys()) {
    if (!schema::key_applies(d, s)) continue;
    std::string v = schema::format_value(d, s);
    if (auto it = s.follows.find(d.key); it != s.follows.end()) v += " (auto = " + it->second + ")";
    f.emplace_back(d.key, v);
  }
  if (s.budgets.dory.present) {
    const DoryBudgets b = dory_budgets(s);
    f.emplace_back("usable dory L1", fmt::format("{} B", b.l1));
    f.emplace_back("usable dory L2", fmt::format("{} B", b.l2));
    f.emplace_back("usable dory L3", fmt::format("{} B", b.l3));
    if (s.cluster.present)
      f.emplace_back("dory worker cores", std::to_string(std::min(s.budgets.dory.n_cores, s.cluster.n_cores)));
  }
  if (s.budgets.deeploy.present) {
    const DeeployBudgets b = deeploy_budgets(s);
    f.emplace_back("usable deeploy L1", fmt::format("{} B", b.l1));
    f.emplace_back("usable deeploy L2", fmt::format("{} B", b.l2));
    f.emplace_back("usable deeploy L3", fmt::format("{} B", b.l3));
    if (s.wmem.present) f.emplace_back("usable deeploy WMEM", fmt::format("{} B", b.wmem));
  }
  return f;
}

// Explicit budgets (Deeploy's, and DORY's when given) are absolute numbers: an override of a
// memory size leaves one where it was (only that flow reads it, so this is a note of `describe`,
// not a loader warning).
std::vector<std::string> budget_notes(const PlatformSpec& prev, const PlatformSpec& cur) {
  std::vector<std::string> out;
  const struct {
    bool present;
    const char *policy, *budget, *size;
    int64_t value, before, after;
  } levels[] = {
      {cur.budgets.dory.present, "dory", "budgets.dory.l1", "l1.size", cur.budgets.dory.l1, prev.l1.size, cur.l1.size},
      {cur.budgets.dory.present, "dory", "budgets.dory.l2", "l2.size", cur.budgets.dory.l2, prev.l2.size, cur.l2.size},
      {cur.budgets.deeploy.present, "deeploy", "budgets.deeploy.l1", "l1.size", cur.budgets.deeploy.l1, prev.l1.size,
       cur.l1.size},
      {cur.budgets.deeploy.present, "deeploy", "budgets.deeploy.l2", "l2.size", cur.budgets.deeploy.l2, prev.l2.size,
       cur.l2.size},
      {cur.budgets.deeploy.present, "deeploy", "budgets.deeploy.l3", "l3.size", cur.budgets.deeploy.l3, prev.l3.size,
       cur.l3.size},
      {cur.budgets.deeploy.present, "deeploy", "budgets.deeploy.wmem", "wmem.size", cur.budgets.deeploy.wmem,
       prev.wmem.size, cur.wmem.size}};
  for (const auto& l : levels)
    if (l.present && l.before != l.after && l.value != kAutoBudget && l.value != 0)
      out.push_back(fmt::format("policy {} keeps {} = {} B; write {}=auto to follow {}", l.policy, l.budget, l.value,
                                l.budget, l.size));
  return out;
}

std::string value_of(const Facts& f, const std::string& name) {
  for (const auto& [k, v] : f)
    if (k == name) return v;
  return "(not in effect)";
}

}  // namespace

std::string describe_overrides(const std::string& path, const std::vector<std::string>& overrides) {
  if (overrides.empty()) return "";
  std::string out = "\nOverrides (what each --set changed, in order)\n";
  PlatformSpec prev = load_platform(path);
  for (size_t i = 0; i < overrides.size(); ++i) {
    const std::vector<std::string> upto(overrides.begin(), overrides.begin() + static_cast<long>(i) + 1);
    PlatformSpec cur = load_platform(path, upto);
    const Facts a = facts(prev), b = facts(cur);
    out += fmt::format("  --set {}\n", overrides[i]);
    std::vector<std::string> names;
    for (const auto& [k, v] : a) names.push_back(k);
    for (const auto& [k, v] : b)
      if (std::find(names.begin(), names.end(), k) == names.end()) names.push_back(k);
    bool any = false;
    for (const std::string& n : names) {
      const std::string x = value_of(a, n), y = value_of(b, n);
      if (x == y) continue;
      out += fmt::format("      {:<30} {} -> {}\n", n, x, y);
      any = true;
    }
    if (!any) out += "      (no value changed)\n";
    for (const std::string& w : cur.warnings)
      if (std::find(prev.warnings.begin(), prev.warnings.end(), w) == prev.warnings.end())
        out += "      note: " + w + "\n";
    for (const std::string& n : budget_notes(prev, cur)) out += "      note: " + n + "\n";
    prev = std::move(cur);
  }
  return out;
}

}  // namespace edgesim
