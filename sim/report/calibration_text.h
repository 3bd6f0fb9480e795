// The calibration status (sim/stats/calibration.h) as one sentence, for `run`'s header, its JSON
// and its HTML page.
#pragma once
#include <string>

#include "sim/stats/calibration.h"

namespace edgesim::report {

// "gap9: 14 validation cases, 12 within tolerance; worst timing error -14.5 %
// (vww_pw_only-gap9_ne16-8cores) ... Cases: ...", "uncalibrated: no validation case runs on
// diana ...", or "unknown (...)". Empty when the status was not looked up.
std::string calibration_text(const Calibration& c);

}  // namespace edgesim::report
