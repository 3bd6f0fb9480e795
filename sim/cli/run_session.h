// One `edgesim run` without its printing: the flow (sim/flow), the verification against the
// untiled interpreter and, with `expected`, the golden files, and the provenance. cmd_run.cc
// prints and writes what it returns; the Python module (python/) returns it as Python objects,
// so both run the same code and throw the same one-line errors.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/golden/golden.h"
#include "kernels/core/tensor.h"
#include "sim/cli/flow_args.h"
#include "sim/flow/flow.h"

namespace edgesim::cli {

// The flow's options (model, platform, policy, --set, engines, buffering, network loop) and run's own.
struct RunOptions : FlowArgs {
  std::string inputs, expected, layout = "hwc", io_layout = "hwc", arith = "exact";
  std::string json, trace, report;   // output files (checked before the run; written by the caller)
  bool timing_only = false, wide = false;
  bool reference_kernels = false;   // the golden model computes with the reference kernels only
  bool provenance = false;          // compute the provenance (file hashes) even without an output file
  uint64_t seed = 1;
  // The graph inputs from the caller (the Python module), asked for with the imported graph; unset:
  // the `inputs` file, the inputs next to `expected`, or seeded random inputs.
  std::function<std::vector<Tensor>(Graph&)> input_source;
};

struct RunSession {
  FlowRequest request;
  FlowOutcome flow;                  // flow.sim.result is verified and carries the provenance
  std::vector<CheckResult> golden;   // per golden tensor with `expected`
  std::string input_label;           // "random, seed 1", the inputs file, or "none (timing only)"
};

// Throws CliError for bad options, the flow's errors otherwise.
RunSession run_session(const RunOptions& a);

}  // namespace edgesim::cli
