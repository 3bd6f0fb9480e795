// The whole-graph tiling driver (flow.h tile_graph): tiles the layer nodes in order and threads
// DORY's only cross-layer coupling (a layer's input is in L3 when the previous layer node's output
// was L3-tiled, docs/tiling.md). Layers assigned to the NPU keep the flow's L3 decision and take
// the NPU's L1 tile (compiler/tiler/npu.cc; DIANA's digital and analog cores: soma.cc, aimc.cc),
// unless the autotuner planned them. Each layer's budgets are those of the flow its tiling names.
#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "compiler/flows/flow.h"
#include "compiler/ir/layout_domain.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/tiler/footprint.h"
#include "compiler/tiler/internal.h"

namespace edgesim {
namespace {

// Layers a policy tiles: a row-wise op on an image tensor has no tiling (whole-tensor step).
bool tiled_layer(const Graph& g, int node, const LayoutDomains& image) {
  const OpKind k = g.nodes[static_cast<size_t>(node)].kind();
  if (k == OpKind::Softmax || k == OpKind::Norm) return is_rows_layer(g, node, image);
  return true;
}

}  // namespace

std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const std::string& policy,
                                    int buffering) {
  return tile_graph(g, spec, *flow_named(policy).tiler(), buffering);
}

std::vector<LayerTiling> tile_graph(const Graph& g, const PlatformSpec& spec, const TilingPolicy& policy,
                                    int buffering) {
  const TilingPolicy* p = &policy;
  const Flow* driver = find_flow(p->name());
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
    if (driver && driver->cluster_only() && g.nodes[static_cast<size_t>(node)].engine != "cluster")
      throw TilingError(fmt::format("node {} '{}' runs on the {}: policy {} runs every layer on the cluster",
                                    node, g.nodes[static_cast<size_t>(node)].name,
                                    g.nodes[static_cast<size_t>(node)].engine, driver->name()), node);
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
      const Flow& f = flow_named(t.policy);
      const int64_t l1 = f.budgets(spec, buffering).l1;
      TilingContext tight = ctx;
      const bool own = f.counts_own_l1();
      // as the builder runs it (build.cc parse_buffering: auto = the policy's buffering)
      const int db = buffering == 1 || buffering == 2 ? buffering : f.budgets(spec).db >= 2 ? 2 : 1;
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
    const Flow& lf = flow_named(t.policy);
    const bool tuned_accel = (engine == "aimc" || !npu_encoded(spec)) && lf.tuned_accel_tiles() && t.l1.n_out > 0;
    const bool tuned_npu = engine == "npu" && npu_encoded(spec) && lf.tuned_layer();
    if (accel && !tuned_accel && !tuned_npu) {
      const Budgets b = lf.budgets(spec, buffering);
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
