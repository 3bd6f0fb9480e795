// Policy registry and the whole-graph driver: names -> policies, and tile_graph, which tiles
// the layer nodes in order and threads DORY's only cross-layer coupling (a layer's input is in
// L3 when the previous layer node's output was L3-tiled, docs/tiling.md). `tuned` has no tiler:
// its tilings are the autotuner's plan (compiler/tune/tuned_plan.h), tiled through this driver
// as a plan policy (plan_policy.h). Layers assigned to the NPU keep the policy's L3
// decision and take the NPU's L1 tile (npu.cc; DIANA's digital and analog cores: soma.cc, aimc.cc).
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/ir/layout_domain.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/internal.h"
#include "compiler/tiler/footprint.h"

namespace edgesim {

std::vector<std::string> policy_names() { return {"dory", "dory-2021", "deeploy", "tuned", "untiled"}; }

namespace {

// Policy `untiled` (docs/tiling.md): every layer runs directly from L2, as Deeploy's untiled
// Siracusa flow does (deeployRunner_siracusa.py: "all data is in L2; there is no tiling, and
// cores read and write data directly to/from L2", [60] tutorial). The LayerTiling says so; the
// schedule builds a whole-tensor step for it and the cost models charge the L2 latency.
class UntiledPolicy : public TilingPolicy {
 public:
  std::string name() const override { return "untiled"; }
  LayerTiling tile(const LayerGeom& g, const TilingContext&) const override {
    LayerTiling t;
    t.node = g.node;
    t.policy = name();
    t.l3.n_out = g.cout, t.l3.h_out = g.h_out, t.l3.h_in = g.h_in;
    t.l1.n_out = t.l1.n_in = g.cout, t.l1.h_out = g.h_out, t.l1.h_in = g.h_in;
    t.l1.w_out = g.w_out, t.l1.w_in = g.w_in;
    t.l1.whole = true;
    t.l1.l1_bytes = 0;
    return t;
  }
};

// Layers a policy tiles: a row-wise op on an image tensor has no tiling (whole-tensor step).
bool tiled_layer(const Graph& g, int node, const LayoutDomains& image) {
  const OpKind k = g.nodes[static_cast<size_t>(node)].kind();
  if (k == OpKind::Softmax || k == OpKind::Norm) return is_rows_layer(g, node, image);
  return true;
}

}  // namespace

bool policy_calls_dw3x3_s1(const std::string& policy, const PlatformSpec& spec) {
  return policy == "tuned" && spec.cluster.present && spec.cluster.impl == "pulp_cluster";
}

std::vector<std::string> policy_engines(const std::string& policy, const std::vector<std::string>& requested) {
  if (policy != "untiled") return requested;
  for (const std::string& e : requested)
    if (e != "cluster")
      throw std::invalid_argument("policy untiled runs every layer on the cluster from L2 (Deeploy's untiled "
                                  "flow); engine '" + e + "' needs a tiled policy");
  return {"cluster"};
}

std::unique_ptr<TilingPolicy> make_policy(const std::string& name) {
  if (name == "untiled") return std::make_unique<UntiledPolicy>();
  if (name == "dory") return make_dory_policy(false);
  if (name == "dory-2021") return make_dory_policy(true);
  if (name == "deeploy") return make_deeploy_policy();
  if (name == "tuned")
    throw std::invalid_argument("policy 'tuned' has no tiler of its own: its tilings are the autotuner's network "
                                "plan (compile through compile_network, compiler/pipeline/compile.h)");
  throw std::invalid_argument(fmt::format("unknown tiling policy '{}' (known: {})", name,
                                          fmt::join(policy_names(), ", ")));
}

Budgets policy_budgets(const PlatformSpec& spec, const std::string& policy) {
  if (policy == "dory") return dory_policy_budgets(spec);
  if (policy == "dory-2021") return dory2021_policy_budgets(spec, nullptr, -1);
  if (policy == "deeploy" || policy == "untiled") {
    Budgets b = deeploy_policy_budgets(spec);
    b.layout_ops_in_l1 = policy == "deeploy";   // the untiled runner keeps every op in L2
    return b;
  }
  if (policy.rfind("tuned", 0) == 0) {   // "tuned" and the tuned layers' "tuned-deeploy"
    // tuned may pick either flow's tile: the larger of the two budgets per level, DORY's loop.
    Budgets b = dory_policy_budgets(spec);
    const Budgets d = deeploy_policy_budgets(spec);
    b.l1 = std::max(b.l1, d.l1);
    b.l2 = std::max(b.l2, d.l2);
    b.l3 = std::max(b.l3, d.l3);
    return b;
  }
  make_policy(policy);   // throws the unknown-policy error
  return {};
}

Budgets policy_budgets(const PlatformSpec& spec, const std::string& policy, int buffering) {
  Budgets b = policy_budgets(spec, policy);
  if (policy == "deeploy" && (buffering == 1 || buffering == 2)) b.db = buffering;
  return b;
}

int tiling_buffering(const std::string& schedule_buffering) {
  if (schedule_buffering == "single") return 1;
  if (schedule_buffering == "double") return 2;
  return 0;
}

std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const std::string& policy,
                                    int buffering) {
  return tile_graph(g, spec, *make_policy(policy), buffering);
}

std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const TilingPolicy& policy,
                                    int buffering) {
  const TilingPolicy* p = &policy;
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  ctx.buffering = buffering;
  std::vector<LayerTiling> out;
  const LayoutDomains image = layout_domains(g);
  for (int node : g.layer_nodes()) {
    if (g.nodes[static_cast<size_t>(node)].engine == "mvu") continue;   // whole-layer MVU steps (build_mvu.cc)
    // A RISC-V host (DIANA) runs its layers on whole tensors in L2, as TVM's C code does.
    if (g.nodes[static_cast<size_t>(node)].engine == "cluster" && spec.cluster.impl == "riscv_host") continue;
    if (!tiled_layer(g, node, image)) continue;
    if (p->name() == "untiled" && g.nodes[static_cast<size_t>(node)].engine != "cluster")
      throw TilingError(fmt::format("node {} '{}' runs on the {}: policy untiled runs every layer on the cluster",
                                    node, g.nodes[static_cast<size_t>(node)].name,
                                    g.nodes[static_cast<size_t>(node)].engine), node);
    const LayerGeom geom = layer_geom(g, node);
    const std::string& engine = g.nodes[static_cast<size_t>(node)].engine;
    const bool accel = engine == "npu" || engine == "aimc";
    LayerTiling t;
    try {
      t = p->tile(geom, ctx);
      // The policy counts its buffers its own way (Deeploy: 4-byte rounding; DORY: its formulas);
      // the allocator places each L1 buffer 8-byte aligned. Where that placement would exceed the
      // budget (a few bytes on tight tiles), re-tile with the excess deducted; where the policy's
      // own count is lower still (so it returns the same tile), the deduction doubles.
      const int64_t l1 = policy_budgets(spec, t.policy, buffering).l1;
      TilingContext tight = ctx;
      const bool own = t.policy == "dory" || t.policy == "dory-2021" || t.policy == "deeploy";
      // as the builder runs it (build.cc parse_buffering: auto = the policy's buffering)
      const int db = buffering == 1 || buffering == 2 ? buffering : policy_budgets(spec, t.policy).db >= 2 ? 2 : 1;
      for (int k = 0; k < 16 && !accel && own; ++k) {
        const int64_t fp = l1_footprint(slab_geom(geom, t.l3), t.l1, db);
        if (fp <= l1) break;
        tight.l1_slack = 2 * tight.l1_slack + (fp - l1);
        t = p->tile(geom, tight);
      }
    } catch (const TilingError& e) {
      // The policy's cluster L1 rules (im2col, weight tiles) may fail where the NPU's tile fits:
      // keep the whole layer in L2 (the schedule builder checks that it fits) and let the NPU tile.
      if (!accel || e.level() != "L1") throw;
      t = LayerTiling{};
      t.node = node;
      t.policy = p->name();
      t.l3.n_out = geom.cout, t.l3.h_out = geom.h_out, t.l3.h_in = geom.h_in;
    }
    // DIANA's accelerator layers under `tuned` come with the tuner's own choice of their tiles;
    // so do NE16's (the tuned policy's NPU tiles, "tuned" and "tuned-deeploy", are NPU tiles already).
    const bool tuned_accel = (engine == "aimc" || !npu_encoded(spec)) && t.policy == "tuned" && t.l1.n_out > 0;
    const bool tuned_npu = engine == "npu" && npu_encoded(spec) && t.policy.rfind("tuned", 0) == 0;
    if (accel && !tuned_accel && !tuned_npu) {
      const Budgets b = policy_budgets(spec, t.policy, buffering);
      if (engine == "aimc") t = aimc_tile(geom, ctx, t, b);
      else if (npu_encoded(spec)) t = npu_tile(geom, ctx, t, b);
      else t = soma_tile(geom, ctx, t, b);
    }
    ctx.input_in_l3 = t.l3.output_in_l3;
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace edgesim
