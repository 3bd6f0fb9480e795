// calibration_text.h
#include "sim/report/calibration_text.h"

#include <cmath>

#include <fmt/format.h>

namespace edgesim::report {

namespace {

// "; worst timing error -14.5 % (case)" over the cases of one kind, or "" when there are none.
std::string worst(const Calibration& c, bool energy) {
  const CalibrationCase* w = nullptr;
  for (const CalibrationCase& k : c.cases)
    if (k.energy == energy && (!w || std::fabs(k.error) > std::fabs(w->error))) w = &k;
  if (!w) return "";
  return fmt::format("; worst {} error {:+.1f} % ({})", energy ? "energy" : "timing", 100.0 * w->error, w->name);
}

}  // namespace

std::string calibration_text(const Calibration& c) {
  if (!c.looked_up) return "";
  if (!c.unknown.empty()) return "unknown (" + c.unknown + ")";
  if (c.cases.empty())
    return fmt::format("uncalibrated: no validation case runs on {}, so its cycles are the model's alone "
                       "(docs/validation.md)", c.platform);
  int within = 0;
  std::string names;
  for (const CalibrationCase& k : c.cases) {
    within += k.pass ? 1 : 0;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  std::string s = fmt::format("{}: {} validation case{}, {} within tolerance{}{}. Cases: {} (edgesim validate "
                              "--case NAME; docs/validation.md).",
                              c.platform, c.cases.size(), c.cases.size() == 1 ? "" : "s", within, worst(c, false),
                              worst(c, true), names);
  if (c.overridden) s += " This run's --set changes the platform the cases ran.";
  return s;
}

}  // namespace edgesim::report
