// PrefetchTimeline and prefetch_by_gain (prefetch_gain.h).
#include "compiler/flows/flow.h"
#include "compiler/tune/prefetch_gain.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "compiler/tiler/tiling.h"
#include "compiler/tune/analytic.h"
#include "kernels/dma/cost.h"

namespace edgesim {

namespace {

// The layer's compute estimate: its tiling with the weights in L2 (analytic.h).
int64_t compute_of(const Graph& g, const PlatformSpec& spec, const LayerTiling& t) {
  LayerTiling w = t;
  w.l3.weights_in_l3 = false;
  w.net = {};
  AnalyticContext ctx;
  ctx.conventions = tuned_on_deeploy_loop(t) ? "deeploy" : "dory";
  try {
    w.l3.n_out = layer_geom(g, t.node).cout;
    return analytic_cycles(g, t.node, w, spec, ctx);
  } catch (const std::exception&) {   // a tiling the analytic model does not cover (e.g. fused)
    return 0;
  }
}

}  // namespace

PrefetchTimeline::PrefetchTimeline(const Graph& g, const PlatformSpec& spec, const PrefetchPlanner& pp) : pp_(pp) {
  std::map<int, size_t> pos;
  for (size_t k = 0; k < pp.layers().size(); ++k) pos[pp.layers()[k]] = k;
  compute_.assign(pp.layers().size(), 0);
  // A layer fused into its producer runs in the producer's step.
  std::map<int, int> run;
  for (const LayerTiling& t : pp.plan())
    if (t.net.fuse) {
      const int mid = g.nodes.at(static_cast<size_t>(t.node)).outputs.at(0);
      for (size_t k = 0; k < g.nodes.size(); ++k)
        if (!g.nodes[k].inputs.empty() && g.nodes[k].inputs[0] == mid) run[static_cast<int>(k)] = t.node;
    }
  // Compute alone: an L2 large enough that the analytic model homes no operand in L3.
  PlatformSpec big = spec;
  big.l2.size = std::max<int64_t>(spec.l2.size, int64_t{1} << 40);
  for (const LayerTiling& t : pp.plan()) {
    const int at = run.count(t.node) ? run.at(t.node) : t.node;
    if (pos.count(at)) compute_[pos.at(at)] += compute_of(g, big, t);
  }
  const L3Timing lt = l3_timing(spec);
  auto read = [&](int64_t bytes) { return lt.present && bytes > 0 ? l3_copy_cycles(lt, 1, bytes) : 0; };
  for (const PrefetchPlanner::Site& s : pp.sites()) {
    run_pos_.push_back(pos.count(s.run) ? pos.at(s.run) : s.layer);
    // One read per staging buffer (the weights, each staged constant vector).
    int64_t whole = 0, extra = 0;
    for (size_t b = 0; b < s.buffers.size(); ++b) {
      whole += read(s.sizes[b]);
      const bool ring = s.slab_buffer >= 0 && s.buffers[b] > s.slab_buffer - s.ring && s.buffers[b] <= s.slab_buffer;
      if (!ring) extra += read(s.sizes[b]);
    }
    whole_cost_.push_back(whole);
    slab_cost_.push_back(read(s.slab_bytes));
    extra_cost_.push_back(s.slab_buffer >= 0 ? extra : 0);
  }
}

int64_t PrefetchTimeline::estimate(const std::vector<int>& depths, const std::vector<int>& rings) const {
  const std::vector<PrefetchPlanner::Site>& sites = pp_.sites();
  const size_t n_layers = compute_.size();
  std::vector<std::vector<size_t>> own_at(n_layers);
  std::vector<bool> ahead(sites.size(), false);
  std::vector<size_t> issue_pos(sites.size(), 0);
  for (size_t i = 0; i < sites.size(); ++i) {
    const size_t run = run_pos_[i];
    const int d = i < depths.size() ? depths[i] : 0;
    const size_t issue = d <= 0 ? run : std::min(run, static_cast<size_t>(d) > sites[i].layer ? 0 : sites[i].layer - static_cast<size_t>(d));
    own_at[run].push_back(i);
    if (issue < run) issue_pos[i] = issue, ahead[i] = true;
  }
  // The L3 channel: a layer's own reads (in issue order) before the reads issued ahead, which
  // form one chain in the order of the layers they feed (build_loop.cc): each waits for the one
  // before it, and for the start of the layer that issues it (issue < 0: not started yet).
  struct Read {
    int64_t issue = 0, cost = 0, arrive = -1;
  };
  std::vector<Read> reads;
  std::vector<size_t> own_q, ahead_q;
  std::vector<std::vector<size_t>> issued_at(n_layers);   // ahead reads issued at each layer's start
  size_t oh = 0, ah = 0;
  int64_t free = 0;
  auto push = [&](bool is_ahead, int64_t at, int64_t cost) {
    reads.push_back({at, cost, -1});
    (is_ahead ? ahead_q : own_q).push_back(reads.size() - 1);
    return reads.size() - 1;
  };
  auto arrive = [&](size_t idx) {
    while (reads[idx].arrive < 0) {
      const bool ho = oh < own_q.size(), ha = ah < ahead_q.size() && reads[ahead_q[ah]].issue >= 0;
      if (!ho && !ha) break;
      bool own;
      if (ho && reads[own_q[oh]].issue <= free) own = true;
      else if (ha && reads[ahead_q[ah]].issue <= free) own = false;
      else own = ho && (!ha || reads[own_q[oh]].issue <= reads[ahead_q[ah]].issue);
      Read& r = reads[own ? own_q[oh++] : ahead_q[ah++]];
      free = std::max(free, r.issue) + r.cost;
      r.arrive = free;
    }
    return std::max<int64_t>(reads[idx].arrive, 0);
  };
  auto ring_of = [&](size_t i) {
    return std::clamp(i < rings.size() ? rings[i] : sites[i].ring, 1, std::max(1, sites[i].slabs));
  };
  std::vector<std::vector<size_t>> slab_reads(sites.size());   // per site: read per slab (pushed so far)
  auto issue_first = [&](size_t i, bool is_ahead, int64_t at) {
    if (sites[i].slab_buffer < 0) {
      slab_reads[i].push_back(push(is_ahead, at, whole_cost_[i]));
      return;
    }
    for (int k = 0; k < ring_of(i); ++k) slab_reads[i].push_back(push(is_ahead, at, slab_cost_[i] + (k == 0 ? extra_cost_[i] : 0)));
  };
  for (size_t i = 0; i < sites.size(); ++i)   // the chain, in the order of the layers fed
    if (ahead[i]) {
      issue_first(i, true, -1);
      issued_at[issue_pos[i]].insert(issued_at[issue_pos[i]].end(), slab_reads[i].begin(), slab_reads[i].end());
    }
  int64_t t = 0;
  for (size_t j = 0; j < n_layers; ++j) {
    for (size_t r : issued_at[j]) reads[r].issue = t;
    std::vector<size_t> streaming;
    for (size_t i : own_at[j]) {
      if (!ahead[i]) issue_first(i, false, t);
      if (sites[i].slab_buffer >= 0) streaming.push_back(i);
    }
    for (size_t i : own_at[j])   // whole weights: the layer starts once they are in
      if (sites[i].slab_buffer < 0) t = std::max(t, arrive(slab_reads[i].front()));
    if (streaming.empty()) {
      t += compute_[j];
      continue;
    }
    const int64_t share = compute_[j] / static_cast<int64_t>(streaming.size());
    for (size_t i : streaming) {
      const int slabs = std::max(1, sites[i].slabs), ring = ring_of(i);
      for (int k = 0; k < slabs; ++k) {
        t = std::max(t, arrive(slab_reads[i].at(static_cast<size_t>(k)))) + share / slabs;
        if (k + ring < slabs) slab_reads[i].push_back(push(false, t, slab_cost_[i]));
      }
    }
  }
  return t;
}

NetPlan prefetch_by_gain(const Graph& g, const PlatformSpec& spec, const PrefetchPlanner& pp, int max_depth,
                         int max_ring) {
  const PrefetchTimeline tl(g, spec, pp);
  const std::vector<PrefetchPlanner::Site>& sites = pp.sites();
  const size_t n = sites.size();
  std::vector<int> depths(n, 0), rings(n, 0);
  for (size_t i = 0; i < n; ++i) rings[i] = sites[i].ring;
  // L2 a site occupies: its staging bytes times the layers they live through.
  auto occupancy = [&](size_t i, int d, int r) {
    const PrefetchPlanner::Site& s = sites[i];
    const int64_t bytes = s.slab_buffer < 0 ? s.bytes : s.bytes + static_cast<int64_t>(r - s.ring) * s.slab_bytes;
    return static_cast<double>(bytes) * (d + 1);
  };
  std::vector<std::vector<std::pair<int, int>>> no_fit(n);   // per site: (depth, ring) that did not fit
  int64_t best = tl.estimate(depths, rings);
  struct Move {
    size_t i;
    int d, r;
    double score;
    int64_t t;
  };
  for (;;) {
    std::vector<Move> moves;
    for (size_t i = 0; i < n; ++i) {
      const int d0 = depths[i], r0 = rings[i];
      std::vector<int> ds{d0, d0 + 1, d0 + 2, d0 + 4, max_depth}, rs{r0};
      const int top = sites[i].slab_buffer < 0 ? r0 : std::max(r0, std::min({sites[i].max_ring, max_ring, sites[i].slabs}));
      if (top > r0) rs.insert(rs.end(), {r0 + 1, r0 + 2, r0 + 4, 2 * r0, top});
      for (int d : ds)
        for (int r : rs) {
          if (d > max_depth || r > top || (d == d0 && r == r0) || d < d0 || r < r0) continue;
          bool blocked = false;
          for (const auto& [fd, fr] : no_fit[i]) blocked |= d >= fd && r >= fr;
          if (blocked) continue;
          depths[i] = d, rings[i] = r;
          const int64_t e = tl.estimate(depths, rings);
          depths[i] = d0, rings[i] = r0;
          if (e >= best) continue;
          const double cost = std::max(1.0, occupancy(i, d, r) - occupancy(i, d0, r0));
          moves.push_back({i, d, r, static_cast<double>(best - e) / cost, e});
        }
    }
    std::sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
      return a.score != b.score ? a.score > b.score : a.t < b.t;
    });
    bool taken = false;
    for (const Move& m : moves) {
      const int d0 = depths[m.i], r0 = rings[m.i];
      depths[m.i] = m.d, rings[m.i] = m.r;
      if (pp.fits(depths, rings)) {
        best = m.t;
        taken = true;
        break;
      }
      depths[m.i] = d0, rings[m.i] = r0;
      no_fit[m.i].push_back({m.d, m.r});
    }
    if (!taken) break;
  }
  return pp.with(depths, rings);
}

}  // namespace edgesim
