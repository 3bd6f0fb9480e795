// Deployment flows as objects: one file per flow (dory.cc, deeploy.cc, untiled.cc, tuned.cc) and
// a registry of one entry per flow (registry.cc). A flow owns what its name used to stand for
// across the tree: its memory budgets, its tiler, the kernel library it links (a patch of the
// platform's cluster costs), the engines it may run, its network loop and buffering, how its
// generated code runs a layer (RuntimeConventions) and what its schedule builder does
// differently. Everything else asks the flow of a name (find_flow / flow_named) for a field;
// nothing outside compiler/flows compares flow names (docs/architecture.md "Deployment flows",
// docs/extending.md "A flow").
//
// A LayerTiling names the flow its layer was tiled under (LayerTiling::policy): a tuned network
// mixes layers of "tuned" (DORY's loop) and "tuned-deeploy" (Deeploy's loop); the latter is a
// flow of layers only, not a --policy value.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"
#include "kernels/ir/graph.h"
#include "platforms/loader/spec.h"

namespace edgesim {

// How a flow's generated code runs a layer on the cluster; the SystemC cluster model
// (sim/cluster/cluster.cc) and the analytic cost (compiler/tune/analytic.cc) read these fields.
struct RuntimeConventions {
  // Deeploy's tiling loop and kernel library: a team fork per kernel call, no barrier beyond the
  // kernel's own, core 0 issues every DMA transfer, Deeploy's kernel calls
  // (kernels/cost/cluster_cost.h ClusterCostOptions::deeploy). Otherwise DORY's: one fork per
  // layer, 3 barriers per tile, DMA issue spread over the cores unless budgets.dory.single_core_dma.
  bool deeploy_loop = false;
  // PULP-NN's pulp_nn_depthwise_3x3_s1 on the depthwise tiles it fits (kernels/conv/cost_dw3x3_s1.h).
  bool dw3x3_s1 = false;
};

// How the schedule builder treats an NE16 pointwise layer's output tiles (build_layer.cc).
enum class Ne16Pointwise {
  own,                       // edgesim's NE16 tile order
  deeploy_unless_reshaped,   // Deeploy's, unless its reshape pass made the layer 1x1-extent
  deeploy,                   // Deeploy's always
};

class Flow {
 public:
  virtual ~Flow() = default;
  virtual std::string name() const = 0;
  // A --policy value (the layer-only "tuned-deeploy" is not).
  virtual bool selectable() const { return true; }
  // The flow a whole network runs under when one of its layers is tiled under this one
  // (Schedule::policy): "tuned" for "tuned-deeploy".
  virtual std::string network_flow() const { return name(); }

  // Network-independent memory budgets (docs/tiling.md "Budgets"); `buffering`: the schedule's
  // L1 buffering (0 auto, 1 single, 2 double), which only Deeploy's tiler sizes its tiles for.
  virtual Budgets budgets(const PlatformSpec& spec, int buffering = 0) const = 0;
  // The tiler of one layer. The tuned flows have none (their tilings are the autotuner's plan,
  // compiler/tune/tuned_plan.h): std::invalid_argument.
  virtual std::unique_ptr<TilingPolicy> tiler() const = 0;
  // The platform as the flow's code runs on it: its kernel library's cluster costs (kernel_library.h).
  virtual PlatformSpec kernel_platform(const PlatformSpec& spec) const = 0;
  // The engine preference it runs with (`requested` empty: the platform's); std::invalid_argument
  // for an engine the flow cannot run.
  virtual std::vector<std::string> engines(const std::vector<std::string>& requested) const { return requested; }
  // Every layer on the cluster: another engine in the graph is the tiler's error.
  virtual bool cluster_only() const { return false; }
  // The network loop `auto` means (compiler/schedule/build_loop.cc): dory, dory-2020 or deeploy.
  virtual std::string network_loop() const { return "dory"; }
  // The L1 buffering `auto` means for the schedule: 1 single, 2 double, 0 each layer its own.
  virtual int auto_buffering(const PlatformSpec& spec) const { return budgets(spec).db >= 2 ? 2 : 1; }
  virtual RuntimeConventions conventions(const PlatformSpec& spec) const = 0;

  // Schedule builder (compiler/schedule): every layer one step on whole tensors in L2.
  virtual bool whole_tensor_steps() const { return false; }
  // Single-buffered steps load their weights and constants again for every tile (Deeploy's loop).
  virtual bool reloads_every_tile() const { return false; }
  virtual Ne16Pointwise ne16_pointwise() const { return Ne16Pointwise::own; }
  // Graph pass: Deeploy's NE16 pointwise reshape (compiler/passes/ne16_pw_reshape.h).
  virtual bool reshapes_ne16_pointwise() const { return false; }

  // Tiler driver (tile_graph): the tiler counts its L1 buffers its own way, so a tile whose
  // 8-byte-aligned placement exceeds the budget is tiled again with the excess deducted.
  virtual bool counts_own_l1() const { return false; }
  // A layer of the autotuner's plan (tuned, tuned-deeploy): its NPU tiles are the tuner's own.
  virtual bool tuned_layer() const { return false; }
  // ... and so are its DIANA accelerator tiles and NE16-less NPU tiles ("tuned" only).
  virtual bool tuned_accel_tiles() const { return false; }
  // The network is planned by the autotuner (branch order, engines, tilings): the compile
  // pipeline's tuned_plan stage runs (compiler/pipeline/compile.h).
  virtual bool plans_network() const { return false; }
  // The analytic cost (compiler/tune/analytic.cc) times the layer with Deeploy's loop: the tiles
  // of Deeploy's own tiler (tuned layers get their loop from AnalyticContext::conventions).
  virtual bool analytic_deeploy_loop() const { return false; }
  // `edgesim compile` can say which `l1.size` a too-small L1 needs: the budget is the L1 size
  // less a fixed overhead (DORY's derived budget).
  virtual bool l1_budget_follows_l1_size(const PlatformSpec&) const { return false; }
  // The tiler reports the L1 bytes its reference code line would print per layer
  // (LayerTiling::reported_l1, dory-2021): `edgesim compile` shows them.
  virtual bool reports_l1_per_layer() const { return false; }
};

// The flow of a name: null when no flow has it (a hand-made tiling's label).
const Flow* find_flow(const std::string& name);
// The same; an unknown name is std::invalid_argument naming it and listing the --policy values.
const Flow& flow_named(const std::string& name);
// The --policy values, in the registry's order.
std::vector<std::string> policy_names();
// Adds a flow after the built-in ones (a test's or an extension's), before anything compiles:
// the registry is not synchronised. A name already registered is std::invalid_argument.
void register_flow(std::unique_ptr<Flow> flow);
// Removes a registered flow (a test's, when it ends); no flow of that name: nothing.
void unregister_flow(const std::string& name);

// Shorthands over the registry, as the tree calls them:
// flow_named(policy).budgets(spec[, buffering]).
Budgets policy_budgets(const PlatformSpec& spec, const std::string& policy, int buffering = 0);
// flow_named(policy).engines(requested).
std::vector<std::string> policy_engines(const std::string& policy, const std::vector<std::string>& requested);
// flow_named(name).tiler().
std::unique_ptr<TilingPolicy> make_policy(const std::string& name);
// The flow's RuntimeConventions::dw3x3_s1 (false for a name no flow has).
bool policy_calls_dw3x3_s1(const std::string& policy, const PlatformSpec& spec);
// The platform as the flow sees it (Flow::kernel_platform); a name no flow has gets DORY's
// kernel-library patch, as every flow but Deeploy's.
PlatformSpec flow_platform(const PlatformSpec& spec, const std::string& policy);

// A layer of the autotuner's plan on Deeploy's loop ("tuned-deeploy").
bool tuned_on_deeploy_loop(const LayerTiling& t);

// The flow's graph passes on g (after engines and I/O layout): Deeploy's NE16 pointwise reshape
// on an NE16 platform (Flow::reshapes_ne16_pointwise). Returns the layers changed.
int run_flow_graph_passes(Graph& g, const PlatformSpec& spec, const std::string& policy, EngineAssignment* ea = nullptr);

// TilingContext::buffering of a schedule option is tiling_buffering (compiler/tiler/policy.h).

// Tiles every layer node of g in order (Graph::layer_nodes) under `policy` (flow_named(policy)'s
// tiler), threading DORY's "input in L3" coupling from one layer to the next (tile_graph.cc).
// Result: one LayerTiling per layer node, same order. `buffering`: TilingContext::buffering.
std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const std::string& policy,
                                    int buffering = 0);
// The same with a tiler object (a plan's tilings, compiler/tiler/plan_policy.h); each layer's
// budgets are those of the flow its tiling names.
std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const TilingPolicy& policy,
                                    int buffering = 0);

}  // namespace edgesim
