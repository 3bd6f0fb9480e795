// The deployment flow of one network on one platform, as `edgesim run` and `edgesim validate`
// drive it: load_platform (with overrides) -> import_onnx -> assign_engines -> tile_graph
// (policy) -> build_schedule (ScheduleOptions) -> check_allocation -> simulate (SystemC).
// It only runs the stages; verification against the interpreter and golden data, printing and
// the choice of defaults (platform path, inputs) stay with the caller.
//
// Errors: every stage throws its own exception type with its own message, unchanged
// (PlatformError, ImportError, std::runtime_error naming the node no engine runs, TilingError,
// std::runtime_error from the schedule builder or the allocation check, SimError), so callers
// word them as before. Two additions: an engine in `engines` that is unknown or not on the
// platform throws EngineListError (a std::invalid_argument, the assigner's message), so a caller
// can name its own option; a TilingError of the tiler carries `tiling_hint`'s text appended.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/schedule.h"
#include "compiler/tiler/tiling.h"
#include "kernels/core/tensor.h"
#include "platforms/loader/spec.h"
#include "sim/exec/executor.h"

namespace edgesim {

class EngineListError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Appended to a TilingError's message (e.g. the CLI's " (l1.size >= N B on gap8)").
using FlowTilingHint = std::function<std::string(const PlatformSpec&, const std::string& policy, const TilingError&)>;

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
  // With sim.data: the graph inputs, asked for once the graph is imported and its engines are
  // assigned (before tiling); none given means seeded random inputs (seed 1).
  std::function<std::vector<Tensor>(Graph&)> inputs;
  // Without sim.data: still ask `inputs` for the data (and drop it), so that a given input file
  // types the graph's inferred inputs as it does in a run with data (same graph, same cycles).
  bool inputs_type_only = false;
  FlowTilingHint tiling_hint;             // optional
};

struct FlowOutcome {
  PlatformSpec spec;
  Graph graph;                            // imported, engines assigned
  EngineAssignment engines;
  // Policy `tuned` may run the nodes in another order (branches, compiler/tune/branch_order.h):
  // node i of `graph` is node node_order[i] of the imported graph (empty: the imported order).
  std::vector<int> node_order;
  std::vector<Tensor> inputs;             // empty without data
  std::vector<LayerTiling> tilings;
  Schedule schedule;                      // allocated and checked; network = network_label(model)
  SimOutcome sim;                         // RunResult (verified = false) and, with data, the values
                                          // (empty when !simulate)
};

// The label of a network in reports: the file stem, or the folder for the generic names of
// models/*/model.onnx, Deeploy's network.onnx and DORY's model_int.onnx.
std::string network_label(const std::string& model_path);

FlowOutcome run_flow(const FlowRequest& req);

}  // namespace edgesim
