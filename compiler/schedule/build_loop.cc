// The network loop around the layers (docs/schedule.md §4.6 "Network loop"):
// how the weights of a layer homed in L3 reach L2 when the layer itself does not stream them
// (its L3 tiling does not split Cout). The loop copies them whole, L3 -> L2, into a buffer of
// their own; the layer then reads them there like any L2 operand.
//
//   dory       DORY's network.c: a blocking read right before the layer (the layer's commands
//              wait for it); the layer's own counter does not bracket it (Command::loop).
//   dory-2020  the paper-era template (network_template.c of DORY 2020-2021): at the start of
//              iteration i the loop issues the read of layer i+1's weights and lets layer i run
//              meanwhile; layer i+1 waits for it. When layer i is itself L3-tiled (its slabs
//              use the uDMA too) the read is waited before layer i starts. Layer 0's weights are
//              read (blocking) before the loop. The buffer of layer i+1's weights is therefore
//              live during layer i (the dory-2021 tiler reserves L2 for it).
//   deeploy    Deeploy's L3 tiling level: the same blocking read, but part of the layer (its
//              code issues it), so counted in the layer's cycles.
// A layer's "previous layer" is the previous layer node (Graph::is_layer) in step order: steps
// in between (reshape, flatten) run while the read is in flight.
// Prefetch (NetTiling::prefetch = d > 0, the tuned flow): whatever the loop, the read of a
// layer's weights is issued at the start of the layer node d layers earlier and its L2 buffer
// lives from there; the layer waits for it (besides the previous step). The read is listed
// with the layer's step (it waits only for what preceded the issuing step), so the steps in
// between run while it is in flight. A layer that streams its weights in Cout slabs gets its
// first slab loads issued that early instead (build_layer.cc).
// DORY's loop skips the wait for layer i's weights when layer i+1 allocates none (a latent race
// in the generated code); edgesim always waits (the data must be there; the read was issued a
// whole layer earlier, so it has normally completed).
#include <algorithm>
#include <stdexcept>

#include "compiler/flows/flow.h"
#include "compiler/schedule/build_internal.h"

namespace edgesim::sched {

std::string resolve_network_loop(const std::string& requested, const std::string& policy) {
  if (requested == "dory" || requested == "dory-2020" || requested == "deeploy") return requested;
  if (requested != "auto")
    throw std::invalid_argument("schedule: unknown network loop '" + requested + "' (known: auto, dory, dory-2020, deeploy)");
  const Flow* f = find_flow(policy);   // a hand-made tiling's label: DORY's loop
  return f ? f->network_loop() : "dory";
}

void plan_network_loop(BuildContext& ctx) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  std::vector<int> layers;   // layer nodes before the current one, in step order
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const int node = static_cast<int>(k);
    const Node& n = g.nodes[k];
    const int issue_prev = layers.empty() ? -1 : layers.back();
    const size_t before = layers.size();
    if (Graph::is_layer(n)) layers.push_back(node);
    const auto t = ctx.tiling_of.find(node);
    if (t == ctx.tiling_of.end() || n.engine == "mvu") continue;
    if (n.kind() != OpKind::Conv && n.kind() != OpKind::Gemm) continue;
    if (n.inputs.size() < 2 || n.outputs.size() != 1 || !g.tensor(n.inputs[1]).is_const()) continue;
    const Placement* p = s.placement_of(n.inputs[1]);
    if (!p || s.buffers.at(static_cast<size_t>(p->buffer)).level != Level::L3) continue;
    // Prefetch: issued at the start of the layer node `prefetch` layers earlier (step 0 when
    // there are fewer). A layer fused into its producer runs in the producer's step: its reads
    // are issued by that step at the latest.
    const int run = ctx.run_step(node);
    const int ahead = t->second->net.prefetch;
    int ahead_step = ahead <= 0 ? run
                     : static_cast<size_t>(ahead) > before ? 0
                                                           : layers[before - static_cast<size_t>(ahead)];
    ahead_step = std::min(ahead_step, run);
    if (ahead_step < run) ctx.ahead[node] = ahead_step;
    if (t->second->l3.weights_in_l3) continue;                // the layer streams its own Cout slabs
    const int issue = ahead_step < run ? ahead_step
                      : ctx.network_loop == "dory-2020" && issue_prev >= 0 && run == node ? issue_prev
                                                                                          : run;
    const int64_t bytes = s.buffers[static_cast<size_t>(p->buffer)].bytes;
    ctx.loop_weights[node] = add_buffer(s, Level::L2, bytes, "w L2 (network loop) " + n.name, issue, run);
    if (ahead_step >= run) ctx.loop_issue[issue].push_back(node);
  }
}

void emit_loop_reads(BuildContext& ctx, int step) {
  const Graph& g = *ctx.g;
  Schedule& s = *ctx.s;
  Step& st = s.steps.at(static_cast<size_t>(step));
  // Whole weights read ahead for the layers this step runs (itself, or a layer fused into it):
  // listed here, waiting only for what preceded the step that issues them; the step waits for
  // them besides the previous step.
  for (const auto& [node, from] : ctx.ahead) {
    if (ctx.run_step(node) != step || !ctx.loop_weights.count(node)) continue;
    const Node& n = g.nodes.at(static_cast<size_t>(node));
    const Region home = home_region(ctx, n.inputs[1], false);
    const Box whole{Shape(home.shape.size(), 0), home.shape};
    StepEmitter em(ctx, st, false);
    em.issue_ahead(ctx.sinks_at.at(static_cast<size_t>(from)));
    const std::vector<int> ids = em.copy(home, packed(ctx.loop_weights.at(node), 0, home, whole), whole, "l3_dma",
                                         "network loop: read w of " + n.name + " (prefetched)");
    ctx.step_sinks.insert(ctx.step_sinks.end(), ids.begin(), ids.end());
  }
  const auto it = ctx.loop_issue.find(step);
  if (it == ctx.loop_issue.end()) return;
  // Under dory-2020 a read issued ahead of its layer blocks the current layer only when that
  // layer is L3-tiled (DORY waits before running it); reads for this very layer always block.
  const auto cur = ctx.tiling_of.find(step);
  const bool cur_l3 = cur != ctx.tiling_of.end() && cur->second->l3.tiled();
  std::vector<int> blocking;
  for (int node : it->second) {
    const Node& n = g.nodes.at(static_cast<size_t>(node));
    const Region home = home_region(ctx, n.inputs[1], false);
    const Box whole{Shape(home.shape.size(), 0), home.shape};
    const Region l2 = packed(ctx.loop_weights.at(node), 0, home, whole);
    StepEmitter em(ctx, st, false);
    const size_t first = st.commands.size();
    const std::vector<int> ids = em.copy(home, l2, whole, "l3_dma", "network loop: read w of " + n.name);
    for (size_t c = first; c < st.commands.size(); ++c) st.commands[c].loop = ctx.network_loop != "deeploy";
    if (ctx.run_step(node) == step || cur_l3) blocking.insert(blocking.end(), ids.begin(), ids.end());
  }
  if (!blocking.empty()) {   // the layer's first commands wait for them (and for what they waited)
    for (int id : ctx.step_sinks)
      if (std::find(blocking.begin(), blocking.end(), id) == blocking.end()) blocking.push_back(id);
    ctx.step_sinks = blocking;
  }
}

}  // namespace edgesim::sched
