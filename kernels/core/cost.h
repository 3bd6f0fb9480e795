// KernelCost: what a kernel cost model returns for one call of a kernel on one engine.
// Cost models are pure functions `cost = f(params, tile shapes, engine spec)` (docs/timing.md): no
// hidden state, no SystemC, so the simulator and the analytic evaluator of the autotuner use the
// very same numbers. One cost file per op family and engine, beside the reference kernel
// (kernels/<family>/cost_cluster.{h,cc}); each names the loop nest it models and its
// calibration point (docs/timing.md "Calibration").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace edgesim {

struct KernelCost {
  int64_t cycles = 0;                 // cycles from the call's start to its end (incl. the final barrier)
  std::vector<int64_t> core_cycles;   // busy cycles of each core (size n_cores); max <= cycles
  int64_t overhead = 0;               // the part of `cycles` that is fixed overhead (barrier,
                                      // call set-up), reported apart from compute
  std::string kernel;                 // modelled kernel, e.g. "conv_Ho_parallel", "pointwise_HoWo_parallel"
};

}  // namespace edgesim
