// Cross-layer weight prefetch planning (NetTiling::prefetch; docs/tune.md "Prefetch"): how far
// ahead each layer's L3-homed weights may be read while L2 still fits.
// A layer that streams its weights in Cout slabs may also get a deeper ring of slab buffers
// (L3Tiling::db_w up to kMaxRing): all of them are read ahead, so more of its weights arrive early.
// A plan's schedule is built once without prefetch. Prefetching a layer d layer nodes ahead only
// moves the start of the lifetime of its staging buffers in L2 (the network loop's buffer of its
// whole weights, or its weight slab buffers, and its staged constant vectors) back to the step
// that issues the read
// (compiler/schedule/build_loop.cc); so whether a set of depths fits is decided exactly by
// running the first-fit planner again on those L2 buffers with the moved lifetimes (and, for a
// deeper ring, copies of its slab buffers, as the builder adds them).
#pragma once
#include <vector>

#include "compiler/schedule/schedule.h"
#include "compiler/tune/net_evaluator.h"

namespace edgesim {

// The L2 bytes the tuned flow's whole schedule may fill when it adds cross-layer buffers: the
// level's size, the capacity build_schedule checks every flow's schedule against (the code DORY
// reserves in L2, budgets.dory.l2_code_reserved, is a budget of its tiler, which no flow's
// schedule models). Prefetch never grows L2 past it.
int64_t tuned_l2_capacity(const PlatformSpec& spec);

class PrefetchPlanner {
 public:
  // Throws what build_schedule throws when the plan does not fit without prefetch.
  PrefetchPlanner(const Graph& g, const PlatformSpec& spec, const NetPlan& plan);

  struct Site {
    int node = -1;                 // layer node whose weights are read from L3
    int run = -1;                  // the step that runs it (its own, or its fused producer's)
    size_t tiling = 0;             // index of its LayerTiling in the plan
    size_t layer = 0;              // position among the layer nodes (step order)
    std::vector<int> buffers;      // its L2 staging buffers
    std::vector<int64_t> sizes;    // their bytes (one L3 read each)
    int64_t bytes = 0;             // weight bytes read ahead at most (the staging buffers)
    int slab_buffer = -1;          // streaming: the last of its weight slab buffers (-1: whole weights)
    int ring = 0, max_ring = 0;    // streaming: slab buffers in the plan, at most (slab loads, kMaxRing)
    int slabs = 0;                 // streaming: its weight slab loads
    int64_t slab_bytes = 0;        // streaming: bytes of one slab buffer
  };
  // Slab buffers of a ring at most (the schedule builder's kMaxSlabBuffers).
  static constexpr int kMaxRing = 64;
  const std::vector<Site>& sites() const { return sites_; }
  // The layer nodes in step order (Site::layer indexes it) and the plan without prefetch.
  const std::vector<int>& layers() const { return layers_; }
  const NetPlan& plan() const { return plan_; }

  // Whether L2 fits (tuned_l2_capacity) with depths[i] and rings[i] for sites()[i] (depth 0:
  // not prefetched; ring: the streaming site's slab buffers).
  bool fits(const std::vector<int>& depths, const std::vector<int>& rings) const;
  // The L2 high water of the plan's schedule with those depths and rings (what build_schedule's
  // allocation reaches).
  int64_t l2_high_water(const std::vector<int>& depths, const std::vector<int>& rings) const;
  // The plan with those depths and rings.
  NetPlan with(const std::vector<int>& depths, const std::vector<int>& rings) const;
  // Greedy: the sites visited in layer order (or from the last backwards), each given the
  // deepest ring and then the deepest depth <= max_depth that still fit with what the sites
  // before got. The plan with those depths and rings.
  NetPlan greedy(int max_depth, bool backwards, int max_ring = 8) const;

 private:
  int issue_step(const Site& s, int depth) const;
  const NetPlan plan_;
  Schedule s_;
  std::vector<int> layers_;       // layer nodes in step order
  int64_t l2_size_ = 0;
  std::vector<Site> sites_;
};

}  // namespace edgesim
