// The compile pipeline: one imported network on one loaded platform under one deployment flow,
// to an allocated, checked Schedule. `edgesim run`, `compile`, `tune`, `sweep`, `validate`,
// `codegen`, `compare` and the Python module all compile through compile_network, so a network
// compiled for the same options gives the same schedule whichever command asks
// (docs/architecture.md "Compile pipeline").
//
// The stages, in order (kStages in compile.cc is the list):
//   platform      the platform as the flow sees it (flow_platform: the flow's kernel-library patch)
//   memory        the network's estimated memory against --memory-limit (compiler/budget/memory.h)
//   inputs        input typing: golden data may re-type inferred graph inputs (CompileOptions::inputs)
//   engines       engine assignment (compiler/passes/assign_engine.h)
//   io_layout     graph I/O layout conversions (compiler/passes/io_layout.h)
//   graph_passes  flow-specific graph passes (Deeploy's NE16 pointwise reshape, ne16_pw_reshape.h)
//   tuned_plan    policy tuned: branch order, engines and NPU weight homes by simulation (or a
//                 given plan's)
//   tiling        every layer's L3->L2 slab and L2->L1 tile under the policy (compiler/tiler), or
//                 a given plan's
//   schedule      the memory estimate with the tilings, then the Schedule (compiler/schedule)
//   allocation    the schedule's allocation checked against every level's size
//
// Errors: every stage throws its own exception, unchanged, with two additions: an engine in
// `engines` that is unknown or not on the platform throws EngineListError (a
// std::invalid_argument, the assigner's message), and a TilingError carries `tiling_hint`'s
// text appended. CompiledNetwork::reached (when the caller passes `progress`) says which stage
// threw, so a sweep can tell an infeasible point from an error.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/schedule.h"
#include "compiler/tiler/tiling.h"
#include "compiler/tune/context.h"
#include "kernels/ir/graph.h"
#include "platforms/loader/spec.h"

namespace edgesim {

class EngineListError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

enum class CompileStage { platform, memory, inputs, engines, io_layout, graph_passes, tuned_plan, tiling, schedule, allocation };

const char* stage_name(CompileStage s);

// Appended to a TilingError's message (e.g. the CLI's " (l1.size >= N B on gap8)").
using TilingHint = std::function<std::string(const PlatformSpec&, const std::string& policy, const TilingError&)>;

struct CompiledNetwork {
  PlatformSpec spec;                      // as the flow sees it (and, under tuned, its plan's library)
  Graph graph;                            // engines assigned, passes applied
  EngineAssignment engines;
  // Policy `tuned` may run the nodes in another order (branches, compiler/tune/branch_order.h):
  // node i of `graph` is node node_order[i] of the imported graph (empty: the imported order).
  std::vector<int> node_order;
  std::string library;                    // tuned: the plan's kernel library ("" the platform's)
  std::vector<LayerTiling> tilings;
  Schedule schedule;                      // allocated and checked; network = CompileOptions::network
};

// A network plan decided before (a sweep carries a tuned point's plan to the points with more
// memory, sim/sweep/carry.h): the tuned_plan stage applies it instead of tuning, the tiling
// stage takes its tilings. A plan that is not one of the network's is a std::runtime_error.
struct GivenPlan {
  std::vector<int> order;                                // node i runs node order[i] as imported
  std::vector<std::pair<std::string, bool>> engines;     // per node: engine, weights in WMEM
  std::string library;                                   // "" the platform's kernels
  std::vector<LayerTiling> tilings;
};

struct CompileOptions {
  std::string policy = "dory";            // tiling policy (compiler/tiler/policy.h)
  std::vector<std::string> engines;       // engine preference; empty: the platform's
  std::string io_layout = "hwc";          // graph I/O layout (compiler/passes/io_layout.h)
  ScheduleOptions schedule;               // buffering, network loop
  std::string model;                      // the network's file, named by the memory check
  std::string network;                    // the schedule's network label
  int data_copies = 1;                    // 2 when the caller also holds the values of a run with data
  // Input typing: called with the graph once imported and checked, before engines are assigned.
  std::function<void(Graph&)> inputs;
  TilingHint tiling_hint;                 // optional
  const GivenPlan* plan = nullptr;        // optional (any policy): the plan, not tuned or tiled here
  // Policy tuned: the tuner's cache, K, objective and evaluators (default: analytic, no cache file).
  TuneContext tune;
  // The platform is taken as given (no flow_platform): the tuner applies each flow's own.
  bool platform_as_given = false;
  CompileStage last = CompileStage::allocation;   // stop after this stage
  // Called after each stage with the network as it stands (e.g. `compile` prints its header once
  // the engines are known and its table once the layers are tiled).
  std::function<void(CompileStage, const CompiledNetwork&)> after_stage;
  CompileStage* progress = nullptr;       // when given: the stage running (the one that threw)
};

CompiledNetwork compile_network(Graph graph, PlatformSpec spec, const CompileOptions& opt);

}  // namespace edgesim
