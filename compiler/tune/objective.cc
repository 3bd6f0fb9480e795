// Tuning objectives (objective.h).
#include "compiler/tune/objective.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace edgesim {

double Score::total_pj() const {
  double t = 0;
  for (const auto& [b, v] : energy_pj) t += v;
  return t;
}

void check_objective(const std::string& objective) {
  if (objective != "cycles" && objective != "energy" && objective != "edp")
    throw std::invalid_argument("objective '" + objective + "': expected cycles, energy or edp");
}

void require_energy(const std::string& objective, const std::string& platform, bool platform_has_energy,
                    bool simulator) {
  check_objective(objective);
  if (objective == "cycles") return;
  if (!platform_has_energy)
    throw std::invalid_argument("tune --objective " + objective + ": platform '" + platform +
                                "' has no energy section (docs/energy.md); use --objective cycles");
  if (!simulator)
    throw std::invalid_argument("tune --objective " + objective + ": energy comes from the simulator; drop --analytic-only");
}

double objective_value(const Score& s, const std::string& objective) {
  if (s.cycles < 0) return -1;
  if (objective == "cycles") return static_cast<double>(s.cycles);
  if (!s.has_energy()) return -1;
  if (objective == "energy") return s.total_pj();
  return s.total_pj() * static_cast<double>(s.cycles);   // edp (pJ x cycles; only the order matters)
}

bool better(const Score& a, const Score& b, const std::string& objective) {
  const double x = objective_value(a, objective), y = objective_value(b, objective);
  if (x < 0) return false;
  if (y < 0) return true;
  if (x != y) return x < y;
  return a.cycles < b.cycles;
}

std::string explain_choice(const Score& chosen, const Score& fastest) {
  const double e0 = fastest.total_pj(), e1 = chosen.total_pj();
  std::string s = fmt::format("{:+.2f} % energy for {:+.2f} % cycles", e0 > 0 ? 100.0 * (e1 - e0) / e0 : 0.0,
                              fastest.cycles > 0 ? 100.0 * static_cast<double>(chosen.cycles - fastest.cycles) /
                                                       static_cast<double>(fastest.cycles)
                                                 : 0.0);
  std::map<std::string, double> delta;
  for (const auto& [b, v] : chosen.energy_pj) delta[b] += v;
  for (const auto& [b, v] : fastest.energy_pj) delta[b] -= v;
  std::vector<std::pair<std::string, double>> moved(delta.begin(), delta.end());
  std::stable_sort(moved.begin(), moved.end(),
                   [](const auto& a, const auto& b) { return std::fabs(a.second) > std::fabs(b.second); });
  std::string blocks;
  for (size_t i = 0; i < moved.size() && i < 3; ++i) {
    if (std::fabs(moved[i].second) < 5000.0) break;   // below 5 nJ: not worth naming
    blocks += fmt::format("{}{} {:+.3f} uJ", blocks.empty() ? "" : ", ", moved[i].first, moved[i].second * 1e-6);
  }
  return blocks.empty() ? s : s + ": " + blocks;
}

}  // namespace edgesim
