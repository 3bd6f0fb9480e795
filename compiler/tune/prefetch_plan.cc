// PrefetchPlanner (prefetch_plan.h).
#include "compiler/tune/prefetch_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "compiler/schedule/planner.h"
#include "compiler/schedule/build.h"
#include "compiler/tiler/tiling.h"

namespace edgesim {

int64_t tuned_l2_capacity(const PlatformSpec& spec) { return spec.l2.size; }

PrefetchPlanner::PrefetchPlanner(const Graph& g, const PlatformSpec& spec, const NetPlan& plan)
    : plan_(plan), l2_size_(tuned_l2_capacity(spec)) {
  NetPlan flat = plan;
  for (LayerTiling& t : flat) t.net.prefetch = 0;
  s_ = build_schedule(g, spec, flat, {});
  for (size_t k = 0; k < g.nodes.size(); ++k)
    if (Graph::is_layer(g.nodes[k])) layers_.push_back(static_cast<int>(k));
  // A layer fused into its producer (NetTiling::fuse) runs in the producer's step, a sibling
  // (NetTiling::sibling) in the first's.
  std::map<int, int> fused_prev;
  for (const LayerTiling& t : plan)
    if (t.net.sibling && sibling_of(g, t.node) >= 0) fused_prev[sibling_of(g, t.node)] = t.node;
  for (const LayerTiling& t : plan)
    if (t.net.fuse) {
      const int mid = g.nodes.at(static_cast<size_t>(t.node)).outputs.at(0);
      for (size_t k = 0; k < g.nodes.size(); ++k)
        if (!g.nodes[k].inputs.empty() && g.nodes[k].inputs[0] == mid) fused_prev[static_cast<int>(k)] = t.node;
    }
  for (size_t i = 0; i < plan.size(); ++i) {
    const int node = plan[i].node;
    const Node& n = g.nodes.at(static_cast<size_t>(node));
    if ((n.kind() != OpKind::Conv && n.kind() != OpKind::Gemm) || n.inputs.size() < 2) continue;
    const Placement* w = s_.placement_of(n.inputs[1]);
    if (!w || s_.buffers.at(static_cast<size_t>(w->buffer)).level != Level::L3) continue;
    Site site;
    site.node = node;
    site.run = fused_prev.count(node) ? fused_prev.at(node) : node;
    site.tiling = i;
    for (size_t k = 0; k < layers_.size(); ++k)
      if (layers_[k] == node) site.layer = k;
    // Its staging buffers: the destinations of the reads of its weights and of its constant
    // vectors' L3 home, which live until the step that runs it.
    std::set<int> bufs, wbufs;
    for (const Command& c : s_.steps.at(static_cast<size_t>(site.run)).commands) {
      if (c.engine != "l3_dma" || s_.buffers.at(static_cast<size_t>(c.dst.buffer)).last_step != site.run) continue;
      const bool weights = c.src.buffer == w->buffer;
      if (weights || s_.buffers.at(static_cast<size_t>(c.src.buffer)).name == "const " + n.name) bufs.insert(c.dst.buffer);
      if (weights) wbufs.insert(c.dst.buffer);
    }
    for (int b : bufs) {
      site.buffers.push_back(b);
      site.sizes.push_back(s_.buffers.at(static_cast<size_t>(b)).bytes);
      site.bytes += site.sizes.back();
    }
    if (plan[i].l3.weights_in_l3 && !wbufs.empty()) {   // streaming: a ring of slab buffers
      const int64_t cout = layer_geom(g, node).cout, slab = std::max<int64_t>(1, plan[i].l3.n_out);
      site.slab_buffer = *wbufs.rbegin();   // the ring's last buffer
      site.ring = static_cast<int>(wbufs.size());
      site.slabs = static_cast<int>((cout + slab - 1) / slab);
      site.slab_bytes = s_.buffers.at(static_cast<size_t>(site.slab_buffer)).bytes;
      site.max_ring = std::max<int>(site.ring, std::min(site.slabs, kMaxRing));
    }
    if (!site.buffers.empty()) sites_.push_back(std::move(site));
  }
}

int PrefetchPlanner::issue_step(const Site& s, int depth) const {
  if (depth <= 0) return s.run;
  return std::min(s.run, static_cast<size_t>(depth) > s.layer ? 0 : layers_[s.layer - static_cast<size_t>(depth)]);
}

bool PrefetchPlanner::fits(const std::vector<int>& depths, const std::vector<int>& rings) const {
  return l2_high_water(depths, rings) <= l2_size_;
}

int64_t PrefetchPlanner::l2_high_water(const std::vector<int>& depths, const std::vector<int>& rings) const {
  // The buffers as the builder would make them: each site's staging buffers live from the step
  // that issues its reads, and the extra slab buffers of a deeper ring follow its last one (the
  // builder makes a ring's buffers one after the other), so ids and the planner's order match.
  std::vector<int> from(s_.buffers.size(), -1), extra(s_.buffers.size(), 0);
  for (size_t i = 0; i < sites_.size() && i < depths.size(); ++i) {
    const Site& st = sites_[i];
    for (int b : st.buffers) from[static_cast<size_t>(b)] = issue_step(st, depths[i]);
    if (st.slab_buffer >= 0 && i < rings.size()) extra[static_cast<size_t>(st.slab_buffer)] = std::max(0, rings[i] - st.ring);
  }
  std::vector<Buffer> bufs;
  std::vector<int> ids;
  auto add = [&](Buffer b) {
    b.id = static_cast<int>(bufs.size());
    if (b.level == Level::L2) ids.push_back(b.id);
    bufs.push_back(std::move(b));
  };
  for (size_t k = 0; k < s_.buffers.size(); ++k) {
    Buffer b = s_.buffers[k];
    if (from[k] >= 0) b.first_step = from[k];
    for (int e = 0; e <= extra[k]; ++e) add(b);
  }
  return make_planner("first-fit")->place(bufs, ids, 4);
}

NetPlan PrefetchPlanner::greedy(int max_depth, bool backwards, int max_ring) const {
  const size_t n = sites_.size();
  std::vector<int> depths(n, 0), rings(n, 0);
  for (size_t i = 0; i < n; ++i) rings[i] = sites_[i].ring;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = backwards ? n - 1 - k : k;
    for (int r = std::min(sites_[i].max_ring, max_ring); r > sites_[i].ring; --r) {   // the deepest ring that fits, not read ahead
      rings[i] = r;
      if (fits(depths, rings)) break;
      rings[i] = sites_[i].ring;
    }
    for (int d = max_depth; d >= 1; --d) {
      depths[i] = d;
      if (fits(depths, rings)) break;
      depths[i] = 0;
    }
  }
  return with(depths, rings);
}

NetPlan PrefetchPlanner::with(const std::vector<int>& depths, const std::vector<int>& rings) const {
  NetPlan p = plan_;
  for (LayerTiling& t : p) t.net.prefetch = 0;
  for (size_t i = 0; i < sites_.size(); ++i) {
    p[sites_[i].tiling].net.prefetch = depths[i];
    if (sites_[i].slab_buffer >= 0) p[sites_[i].tiling].l3.db_w = rings[i];
  }
  return p;
}

}  // namespace edgesim
