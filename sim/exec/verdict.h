// The verdict of a run with data, worded so that it says *what* failed. A run compares two pairs:
// the simulator's tensors with the golden model's (the untiled interpreter), and, with
// --expected, the golden model's outputs with the golden files. When the files disagree but the
// simulator agrees with the golden model, the fault is in the files or how they are read (often
// the element order of DORY's per-layer files), not in the simulation, and the message says so —
// with the layout under which the mismatching files do match, when there is one.
#pragma once
#include <cstdint>
#include <string>

#include "sim/exec/verify.h"

namespace edgesim {

struct GoldenSummary {
  std::string path;              // the --expected path
  int64_t tensors = 0, bit_exact = 0;
  std::string layout;            // the layout they were read in ("hwc", "chw"; "" when not a choice)
  std::string other_layout;      // the other one when every mismatching file matches under it, else ""
};

struct RunVerdict {
  bool ok = false;
  // "bit-exact: simulator = golden model on 61 tensors; golden files d/: 14/14 bit-exact"
  // "the simulator differs from the golden model: layer 7 'L7_dw' ..."
  // "the golden files differ from the golden model: 3/14 of d/ bit-exact read as --layout hwc (the
  //  simulator = golden model on 61 tensors); the 11 others match with --layout chw: rerun with it"
  std::string message;
};

RunVerdict run_verdict(const VerifyOutcome& sim_vs_model, const GoldenSummary* golden);

}  // namespace edgesim
