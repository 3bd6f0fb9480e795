// Policy registry and the whole-graph driver: names -> policies, and tile_graph, which tiles
// the layer nodes in order and threads DORY's only cross-layer coupling (a layer's input is in
// L3 when the previous layer node's output was L3-tiled, TILING.md §1.1). `tuned` is the
// autotuner (compiler/tune/tuned_policy.h). Layers assigned to the NPU keep the policy's L3
// decision and take the NPU's L1 tile (npu.cc; DIANA's digital and analog cores: soma.cc, aimc.cc).
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/internal.h"
#include "compiler/tune/tuned_policy.h"

namespace edgesim {

std::vector<std::string> policy_names() { return {"dory", "dory-2021", "deeploy", "tuned"}; }

std::unique_ptr<TilingPolicy> make_policy(const std::string& name) {
  if (name == "dory") return make_dory_policy(false);
  if (name == "dory-2021") return make_dory_policy(true);
  if (name == "deeploy") return make_deeploy_policy();
  if (name == "tuned") return make_tuned_policy();
  throw std::invalid_argument(fmt::format("unknown tiling policy '{}' (known: {})", name,
                                          fmt::join(policy_names(), ", ")));
}

Budgets policy_budgets(const PlatformSpec& spec, const std::string& policy) {
  if (policy == "dory") return dory_policy_budgets(spec);
  if (policy == "dory-2021") return dory2021_policy_budgets(spec, nullptr, -1);
  if (policy == "deeploy") return deeploy_policy_budgets(spec);
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
  const auto p = make_policy(policy);
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &spec;
  ctx.buffering = buffering;
  std::vector<LayerTiling> out;
  for (int node : g.layer_nodes()) {
    if (g.nodes[static_cast<size_t>(node)].engine == "mvu") continue;   // whole-layer MVU steps (build_mvu.cc)
    // A RISC-V host (DIANA) runs its layers on whole tensors in L2, as TVM's C code does.
    if (g.nodes[static_cast<size_t>(node)].engine == "cluster" && spec.cluster.impl == "riscv_host") continue;
    const LayerGeom geom = layer_geom(g, node);
    const std::string& engine = g.nodes[static_cast<size_t>(node)].engine;
    const bool accel = engine == "npu" || engine == "aimc";
    LayerTiling t;
    try {
      t = p->tile(geom, ctx);
    } catch (const TilingError& e) {
      // The policy's cluster L1 rules (im2col, weight tiles) may fail where the NPU's tile fits:
      // keep the whole layer in L2 (the schedule builder checks that it fits) and let the NPU tile.
      if (!accel || e.level() != "L1") throw;
      t = LayerTiling{};
      t.node = node;
      t.policy = p->name();
      t.l3.n_out = geom.cout, t.l3.h_out = geom.h_out, t.l3.h_in = geom.h_in;
    }
    // DIANA's accelerator layers under `tuned` come with the tuner's own choice of their tiles.
    const bool tuned_accel = (engine == "aimc" || !npu_encoded(spec)) && t.policy == "tuned" && t.l1.n_out > 0;
    if (accel && !tuned_accel) {
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
