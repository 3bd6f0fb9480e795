// Sweep presets (configs/*.yaml, data only): a named grid that `edgesim sweep --preset F` starts
// from, e.g.
//     platform: platforms/siracusa.yaml
//     policy: dory
//     networks: [models/resnet8/model.onnx]          # optional
//     set:
//       l1.size: [64KiB, 128KiB, 256KiB]
//       l2.size: 1MiB                                 # one value: a fixed override
// Keys of `set` keep the file's order (the grid's lexical order). Relative paths are taken from
// the working directory when they exist there, else from the folder above the preset's folder
// (the repository root for configs/). Command-line options override the preset (cmd_sweep.cc).
#pragma once
#include <string>
#include <vector>

#include "sim/sweep/grid.h"

namespace edgesim::sweep {

struct Preset {
  std::string platform, policy;     // empty when absent
  std::vector<std::string> networks;
  std::vector<Axis> axes;
};

// Throws SweepError "<file>: <problem>" for an unreadable file, YAML syntax, an unknown key or
// a malformed value.
Preset read_preset(const std::string& path);

}  // namespace edgesim::sweep
