// analytic_cycles (analytic.h): the simulator's replay of one layer step (docs/simulator.md
// "Replaying a schedule") without SystemC, summed over tile classes instead of tiles.
//
// Jobs, as sim/cluster/cluster.cc and sim/dma/*.cc charge them:
//   kernel   K = cluster_kernel_cost(tile params, tile views, workers) + wake (every kernel
//            waits on a DMA) + 3·t_bar (DORY) + t_fork (once per step under DORY, per tile under
//            Deeploy); workers = the policy's cores (policy_budgets(...).nc)
//   L2<->L1  issue (cores) + transfer (channel "dma in" / "dma out") of every Dma command of a
//            box copy (dory_copy_cost; depthwise inputs as HWC->CHW gathers; simple_dma:
//            setup + bytes / bytes_per_cycle); TCDM addresses taken as word aligned
//   L3<->L2  l3_copy_cycles per command (uDMA), slabs as compiler/schedule/build_slabs.cc plans
// Which copies exist follows compiler/schedule/build_layer.cc: x (and x2) when its box changes
// (every tile when double-buffered), w and the constant vectors when their box changes (under
// policy deeploy, single-buffered: every operand at every tile), y per tile; L3 slabs when
// their bounding box changes, the output slab after each slab.
//
// Single buffering (t.l1.db == 1: every command depends on the previous one) is the sum of all
// jobs — exact (tests/tune/analytic_test.cc checks equality with the simulator). Double
// buffering (docs/tune.md "Analytic cost": load(i+1) ‖ compute(i) ‖ store(i−1)) is a closed form
// over pairs of consecutive tiles, counted per pair of classes:
//   P(a → b) = max(K_a + issue(store_a) + issue(load_b), transfer(load_b), issue + transfer(store_a))
//   T = fork + prologue + Σ P(i → i+1) + K_last + store_last + Σ_{Cout changes} extra + L3 copies
// (prologue: tile 0's loads, tile 1's input when constant copies chain; Cout change: the w and
// constant loads take the channel slack of the previous Cout tile; L3 slab copies hidden behind
// the neighbouring slab when double-buffered) — an approximation for ranking, see docs/tune.md.
// With a double-buffered request but one tile per slab the single-buffer sum is used (an upper
// bound: issue/transfer overlap inside a tile is ignored).
// Files: analytic_layer.cc (operands, homes, boxes), analytic_step.cc (slabs, classes, sums),
// analytic_copy.cc (copy costs), analytic_tiles.cc (tile runs, command shapes).
#include "compiler/tune/analytic.h"

#include <algorithm>

#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/analytic_layer.h"
#include "kernels/cost/cluster_cost.h"

namespace edgesim {

using namespace tune_detail;



int64_t analytic_cycles(const Graph& g, int node, const LayerTiling& t, const PlatformSpec& spec,
                        const AnalyticContext& ctx) {
  Env e;
  const Flow* f = find_flow(t.policy);
  e.deeploy = ctx.conventions == "deeploy" || (f && f->analytic_deeploy_loop());
  e.every_tile = f && f->reloads_every_tile();   // as compiler/schedule/build_layer.cc
  e.dw3x3_s1 = !e.deeploy && policy_calls_dw3x3_s1(t.policy, spec);   // as sim/cluster/cluster.cc
  const bool known = f && f->selectable();
  const std::string policy = known ? t.policy : (e.deeploy ? "deeploy" : "dory");
  const Layer L = make_layer(g, node, t, spec, ctx, policy);
  e.workers = spec.cluster;
  try {
    e.workers.n_cores = policy_budgets(spec, policy).nc;
  } catch (const std::exception&) {
  }
  e.workers.n_cores = std::max<int64_t>(1, e.workers.n_cores);
  e.tx = dma_timing(spec);
  e.ti = e.tx;
  if (e.deeploy && !e.ti.single_core_dma) e.ti.single_core_dma = true, e.split_issue = true;
  e.gen = timing_generation(e.tx, e.ti);
  e.l3 = l3_timing(spec);
  e.simple = spec.cluster.dma.impl == "simple_dma";
  e.simple_bpc = spec.cluster.dma.bytes_per_cycle > 0 ? spec.cluster.dma.bytes_per_cycle : 1.0;
  e.wake = e.tx.wake_cycles;
  e.bar = e.deeploy ? 0 : 3 * spec.cluster.cost.t_bar;
  e.fork = spec.cluster.cost.t_fork;
  if (!L.tileable) {   // whole-tensor step: one kernel on the home buffers, one fork
    std::vector<Shape> out{g.tensor(g.nodes[static_cast<size_t>(node)].outputs[0]).shape};
    return e.fork + cluster_kernel_cost(L.lean, L.whole_in, out, e.workers, {0, e.deeploy, e.dw3x3_s1}).cycles;
  }
  return step_cycles(L, t, e);
}

}  // namespace edgesim
