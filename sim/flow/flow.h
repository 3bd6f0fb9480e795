// The deployment flow of one network on one platform, as `edgesim run`, `validate`, `codegen`,
// `compare` and Python's compile() and run() drive it: load_platform (with overrides) ->
// import_onnx -> compile_network (the compile pipeline, compiler/pipeline/compile.h) -> simulate
// (SystemC). It only runs the stages; verification against the interpreter and golden data,
// printing and the choice of defaults (platform path, inputs) stay with the caller.
//
// Errors: every stage throws its own exception type with its own message, unchanged
// (PlatformError, ImportError, the pipeline's (compile.h), SimError), so callers word them as
// before.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/pipeline/compile.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"
#include "sim/exec/executor.h"
#include "sim/tune/context.h"

namespace edgesim {

struct FlowRequest {
  std::string model;                      // ONNX file
  std::string platform;                   // platform YAML file (resolved by the caller)
  std::vector<std::string> overrides;     // `--set key=value` platform overrides
  std::string policy = "dory";            // tiling policy (compiler/tiler/policy.h)
  std::vector<std::string> engines;       // engine preference; empty: the platform's
  std::string io_layout = "hwc";          // graph I/O layout (compiler/passes/io_layout.h)
  ScheduleOptions schedule;               // buffering, network loop
  SimOptions sim;                         // data (move bytes, needed to verify), trace
  bool simulate = true;                   // false: stop after the allocated, checked schedule
  // With sim.data: the graph inputs, asked for once the graph is imported and its memory checked
  // (before engines are assigned); none given means seeded random inputs (seed 1).
  std::function<std::vector<Tensor>(Graph&)> inputs;
  // Without sim.data: still ask `inputs` for the data (and drop it), so that a given input file
  // types the graph's inferred inputs as it does in a run with data (same graph, same cycles).
  bool inputs_type_only = false;
  TilingHint tiling_hint;                 // optional
  // Policy tuned: the tuner's context (the SystemC evaluators and the default tune cache).
  TuneContext tune = simulating_tune_context();
};

// The compiled network (spec, graph, engines, node order, tilings, allocated schedule) and what
// the simulation adds.
struct FlowOutcome : CompiledNetwork {
  std::vector<Tensor> inputs;             // empty without data
  SimOutcome sim;                         // RunResult (verified = false) and, with data, the values
                                          // (empty when !simulate)
};

// The label of a network in reports: the file stem, or the folder for the generic names of
// models/*/model.onnx, Deeploy's network.onnx and DORY's model_int.onnx.
std::string network_label(const std::string& model_path);

FlowOutcome run_flow(const FlowRequest& req);

}  // namespace edgesim
