// build_schedule(): one step per graph node, in graph order. Layer nodes with a LayerTiling
// become tiled steps (build_layer.cc), everything else one whole-tensor Compute in L2
// (build_whole.cc). Then every level is allocated with the first-fit planner and checked
// against its capacity: L1 against the tiling policy's usable budget (dory and dory-2021:
// budgets.dory, deeploy: budgets.deeploy; l1.size on platforms without
// budgets, e.g. BARVINN), L2 / L3 / WMEM against the level size. When constants resident in L2
// for the whole run overflow L2 and the platform has an L3, the schedule is rebuilt with every
// constant homed in L3 and staged per step (DORY's network loop, build_loop.cc: blocking reads
// before each layer, or the paper-era prefetch of the next layer's weights). Buffering "auto"
// takes the tiling policy's buffering: budgets.dory.db (2 when absent), dory-2021 always 2.
#include <algorithm>
#include <stdexcept>

#include "compiler/schedule/planner.h"
#include "compiler/ir/layout_domain.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/passes/io_layout.h"
#include "compiler/schedule/build_internal.h"
#include "platforms/loader/budgets.h"

namespace edgesim {

namespace {

// The buffering the flow sizes its tiles for (Flow::auto_buffering: dory and deeploy their
// budgets' db; dory-2021 double, as DORY's 2021 templates generate on every target; tuned 0, each
// layer its own); auto_buffering for tilings made by hand under a name no flow has.
int policy_buffering(const PlatformSpec& spec, const std::string& policy) {
  const Flow* f = find_flow(policy);
  return f ? f->auto_buffering(spec) : auto_buffering(spec);
}

// The flow builds every layer as one step on whole tensors in L2 (Flow::whole_tensor_steps).
bool whole_tensor_steps(const std::string& policy) {
  const Flow* f = find_flow(policy);
  return f && f->whole_tensor_steps();
}

// 1 single, 2 double, 0 per layer (each tiled step as its LayerTiling's l1.db).
int parse_buffering(const std::string& b, const PlatformSpec& spec, const std::vector<LayerTiling>& tilings) {
  if (b == "single") return 1;
  if (b == "double") return 2;
  if (b == "per-layer") return 0;
  if (b == "auto" && !tilings.empty()) return policy_buffering(spec, tilings.front().policy);
  if (b == "auto") return auto_buffering(spec);
  throw std::invalid_argument("schedule: unknown buffering '" + b + "' (known: auto, single, double, per-layer)");
}

struct Overflow {
  bool any = false;
  Level level = Level::L2;
  std::string message;
  int node = -1;
  int64_t needed = 0;
};

// L2/L3 overflowing is an infeasible deployment of this network on this platform (like a layer
// without a tiling): a TilingError naming the level and the bytes it needs. An L1 overflow
// means the tiles do not fit the buffering the options forced (or a tiler/builder mismatch).
[[noreturn]] void throw_overflow(const Overflow& o) {
  if (o.level == Level::L1) throw std::runtime_error(o.message);
  throw TilingError(o.message, o.node, level_name(o.level), o.needed);
}

Overflow allocate(Schedule& s, const sched::BuildContext& ctx, const PlatformSpec& spec, const std::string& l1_what) {
  const auto planner = make_planner("first-fit");
  const Level levels[] = {Level::L3, Level::L2, Level::L1, Level::WMEM};
  for (Level lv : levels) {
    std::vector<int> ids;
    for (const Buffer& b : s.buffers)
      if (b.level == lv) ids.push_back(b.id);
    const int64_t align = lv == Level::L1 ? 8 : 4;
    const int64_t hw = planner->place(s.buffers, ids, align);
    s.high_water[static_cast<size_t>(lv)] = hw;
    int64_t cap = 0;
    std::string what;
    switch (lv) {
      case Level::L1: cap = ctx.l1_budget, what = l1_what; break;
      case Level::L2: cap = spec.l2.size, what = "l2.size"; break;
      case Level::L3: cap = spec.l3.size, what = "l3.size"; break;
      case Level::WMEM:   // Siracusa's weight memory, or DIANA's digital weight memory
        cap = spec.wmem.present ? spec.wmem.size : spec.l1_wdig.size;
        what = spec.wmem.present ? "wmem.size" : "l1_wdig.size";
        break;
    }
    if (hw <= cap) continue;
    // The first step at which the level's live buffers reach the high-water mark.
    int at = 0;
    for (size_t st = 0; st < s.steps.size(); ++st) {
      int64_t end = 0;
      for (int id : ids) {
        const Buffer& b = s.buffers[id];
        if (b.first_step <= static_cast<int>(st) && static_cast<int>(st) <= b.last_step)
          end = std::max(end, b.offset + b.bytes);
      }
      if (end == hw) {
        at = static_cast<int>(st);
        break;
      }
    }
    const std::string step = s.steps.empty() ? "-" : std::to_string(at) + " '" + s.steps[at].name + "'";
    std::string hint;
    if (lv == Level::L1 && !s.steps.empty() && s.steps[at].tiled && s.steps[at].tiling.l1.db < s.steps[at].buffering)
      hint = "; its tiles were sized for single buffering but the schedule double-buffers them";
    if (lv == Level::L2 && spec.l3.size == 0) hint = "; the platform has no L3 to hold constants";
    return {true, lv,
            "schedule: " + std::string(level_name(lv)) + " overflows at step " + step + ": needs " +
                std::to_string(hw) + " B, capacity " + std::to_string(cap) + " B (" + what + ")" + hint,
            s.steps.empty() ? -1 : s.steps[at].node, hw};
  }
  return {};
}

Schedule build_one(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& tilings,
                   const ScheduleOptions& opt, bool consts_in_l3, Overflow& over) {
  Schedule s;
  s.network = g.name;
  s.platform = spec.name;
  // A tuned network's layers say "tuned" (DORY's loop) or "tuned-deeploy" (Deeploy's loop).
  const Flow* first = tilings.empty() ? nullptr : find_flow(tilings.front().policy);
  s.policy = tilings.empty() ? "" : first ? first->network_flow() : tilings.front().policy;
  sched::BuildContext ctx;
  ctx.g = &g;
  ctx.spec = &spec;
  ctx.s = &s;
  ctx.consts_in_l3 = consts_in_l3;
  ctx.buffering = parse_buffering(opt.buffering, spec, tilings);
  s.buffering = ctx.buffering == 2 ? "double" : ctx.buffering == 1 ? "single" : "per-layer";
  // The policy's budgets (compiler/tiler/policy.h); tilings made outside a named policy (tests,
  // hand-written tilings) are checked against the dory budgets.
  const Flow* sf = find_flow(s.policy);
  const bool known = sf && sf->selectable();
  const Budgets bud = policy_budgets(spec, known ? s.policy : "dory");
  const std::string l1_what = (known ? s.policy : std::string("dory")) + " L1 budget";
  ctx.l1_budget = bud.l1;
  ctx.layout_ops_in_l1 = bud.layout_ops_in_l1;
  ctx.l2_budget = bud.l2;
  ctx.last_step = std::max<int>(0, static_cast<int>(g.nodes.size()) - 1);
  ctx.domains = layout_domains(g);
  for (const LayerTiling& t : tilings) {
    if (t.node < 0 || static_cast<size_t>(t.node) >= g.nodes.size())
      throw std::runtime_error("schedule: LayerTiling for node " + std::to_string(t.node) + " out of range");
    if (!Graph::is_layer(g.nodes[t.node]))
      throw std::runtime_error("schedule: LayerTiling for " + sched::node_label(g, t.node) + ", which is not a layer");
    if (!ctx.tiling_of.emplace(t.node, &t).second)
      throw std::runtime_error("schedule: two LayerTilings for " + sched::node_label(g, t.node));
  }
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    Step st;
    st.node = static_cast<int>(k);
    st.name = g.nodes[k].name;
    s.steps.push_back(st);
  }
  // Fused pairs (NetTiling::fuse): the producer's step runs both; the intermediate has no home.
  for (const LayerTiling& t : tilings) {
    if (!t.net.fuse) continue;
    const std::string why = sched::check_fusion(g, t.node, ctx.tiling_of);
    if (!why.empty()) throw std::runtime_error("schedule: cannot fuse " + sched::node_label(g, t.node) + ": " + why);
    const int c = sched::fused_consumer(g, t.node);
    if (ctx.fused_prev.count(t.node)) throw std::runtime_error("schedule: " + sched::node_label(g, t.node) + " is fused twice");
    ctx.fused_next[t.node] = c;
    ctx.fused_prev[c] = t.node;
    ctx.unplaced.insert(g.nodes[static_cast<size_t>(t.node)].outputs[0]);
  }
  // Sibling pairs (NetTiling::sibling): the first's step runs both.
  for (const LayerTiling& t : tilings) {
    if (!t.net.sibling) continue;
    const std::string why = check_siblings(g, t.node, ctx.tiling_of);
    if (!why.empty())
      throw std::runtime_error("schedule: cannot run " + sched::node_label(g, t.node) + " with its sibling: " + why);
    const int b = sibling_of(g, t.node);
    for (const int n : {t.node, b})
      if (ctx.fused_prev.count(n) || ctx.fused_next.count(n) || ctx.sibling_prev.count(n) || ctx.sibling_next.count(n))
        throw std::runtime_error("schedule: " + sched::node_label(g, n) + " is fused twice");
    ctx.sibling_next[t.node] = b;
    ctx.sibling_prev[b] = t.node;
  }
  sched::place_tensors(ctx);
  ctx.network_loop = sched::resolve_network_loop(opt.network_loop, s.policy);
  s.network_loop = ctx.network_loop;
  sched::plan_network_loop(ctx);
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const int node = static_cast<int>(k);
    ctx.sinks_at.push_back(ctx.step_sinks);
    sched::emit_loop_reads(ctx, node);
    auto it = ctx.tiling_of.find(node);
    if (ctx.fused_prev.count(node) || ctx.sibling_prev.count(node)) continue;   // runs in another step (empty of it)
    if (const auto f = ctx.fused_next.find(node); f != ctx.fused_next.end()) {
      sched::build_fused_step(ctx, node, *it->second, f->second, *ctx.tiling_of.at(f->second));
      continue;
    }
    if (const auto f = ctx.sibling_next.find(node); f != ctx.sibling_next.end()) {
      sched::build_sibling_step(ctx, node, *it->second, f->second, *ctx.tiling_of.at(f->second));
      continue;
    }
    if (sched::is_alias_reshape(ctx, node))
      continue;   // the output aliases the input's bytes: nothing to do
    if (g.nodes[k].engine == "mvu")
      sched::build_mvu_step(ctx, node);
    else if (is_relayout(g.nodes[k]) && !tilings.empty() && sched::build_relayout_step(ctx, node))
      continue;
    else if (it == ctx.tiling_of.end() || whole_tensor_steps(it->second->policy) ||
             !sched::build_layer_step(ctx, node, *it->second))
      sched::build_whole_step(ctx, node);
  }
  over = allocate(s, ctx, spec, l1_what);
  return s;
}

}  // namespace

int auto_buffering(const PlatformSpec& spec) {
  if (spec.budgets.dory.present && spec.budgets.dory.db > 0) return spec.budgets.dory.db >= 2 ? 2 : 1;
  return 2;
}

Schedule build_schedule(const Graph& g, const PlatformSpec& spec, const std::vector<LayerTiling>& tilings,
                        const ScheduleOptions& opt) {
  Overflow over;
  Schedule s = build_one(g, spec, tilings, opt, opt.constants == "l3" && spec.l3.size > 0, over);
  if (opt.constants != "auto" && opt.constants != "l3")
    throw std::invalid_argument("schedule: unknown constants placement '" + opt.constants + "' (known: auto, l3)");
  // Constants resident in L2 for the whole run do not fit: keep them in L3 and stage each
  // layer's constants into L2 for its step, as DORY's network loop does (docs/timing.md).
  if (over.any && over.level == Level::L2 && spec.l3.size > 0 && opt.constants == "auto") {
    Overflow again;
    Schedule t = build_one(g, spec, tilings, opt, true, again);
    if (!again.any) return t;
    throw_overflow(again);   // the better plan's problem
  }
  if (over.any) throw_overflow(over);
  return s;
}

}  // namespace edgesim
