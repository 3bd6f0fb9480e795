// A platform's calibration status: the validation cases (configs/validation, docs/validation.md)
// that run on it, each with its metric, signed error and verdict, as `edgesim validate
// --calibration` last recorded them in configs/calibration.yaml (a ctest checks that the file is
// current). Plain data: the CLI fills it (sim/validate/calibration.h), the report writers print
// it (sim/report/calibration_text.h).
#pragma once
#include <string>
#include <vector>

namespace edgesim {

struct CalibrationCase {
  std::string name, metric;   // metric: the case's (cycles, accounted_cycles, pj_per_mac, ...)
  bool energy = false;        // an energy metric (else a timing one)
  double error = 0;           // predicted / published - 1
  bool pass = false;          // within the case's tolerance (and every published layer within its own)
};

struct Calibration {
  bool looked_up = false;               // false: not asked (library use); nothing is printed
  std::string platform;                 // the platform's name
  std::vector<CalibrationCase> cases;   // empty: uncalibrated
  std::string unknown;                  // why the status could not be read (no file, a bad file)
  bool overridden = false;              // the run changed the platform with --set
};

}  // namespace edgesim
