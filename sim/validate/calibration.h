// configs/calibration.yaml: the calibration status of every platform (sim/stats/calibration.h),
// written by `edgesim validate --calibration FILE` from a run of every case and read by `edgesim
// run` for its header, JSON and HTML. The ctest `calibration_current` re-runs validate and fails
// when the shipped file differs, so the status a run prints is the one validate gives today.
#pragma once
#include <string>
#include <vector>

#include "sim/stats/calibration.h"
#include "sim/validate/validate.h"

namespace edgesim::validate {

// The file's text: each platform (sorted) with its cases (in the order given).
std::string calibration_yaml(const std::vector<Outcome>& outcomes);

// The status of `platform` from that file. Never throws: no file (path ""), an unreadable or
// malformed one gives `unknown` with the reason (file:line); a platform the file does not name
// has no cases (uncalibrated).
Calibration read_calibration(const std::string& path, const std::string& platform);

}  // namespace edgesim::validate
