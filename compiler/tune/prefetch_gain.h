// Cross-layer weight prefetch chosen by its estimated whole-network gain (docs/tune.md "How far
// ahead, which layers give up L2"). PrefetchPlanner::greedy gives every site in turn the deepest
// ring and depth that fit, so the first sites it visits take the L2 whether or not their reads
// are what holds the network up. This planner instead spends L2 where a timeline estimate says
// it saves the most cycles per byte: moves (a site's depth and ring deepened) are ranked by
// estimated cycles saved per byte-layer of L2 they occupy, and the best move that still fits
// L2 (PrefetchPlanner::fits, exact) is taken, until no move that fits saves anything. The plan
// it returns is then simulated like every other plan (network_tune.cc), so the estimate only
// proposes; the simulator decides.
//
// The timeline estimate (PrefetchTimeline) — its assumptions:
//  * layers run one after the other, each taking its compute estimate: analytic_cycles of its
//    tiling with its weights in L2 (no L3 weight slabs) and its constants resident, i.e. its
//    L1 tiles' kernels and L2<->L1 copies (analytic.h); a layer fused into its producer adds
//    its own to the producer's step;
//  * one L3 channel (the uDMA / HyperRAM) serves the weight reads, one per staging buffer (the
//    weights or a slab of them, each staged constant vector), each costing l3_copy_cycles of one
//    line of its bytes; a layer's own slab reads (in issue order) go before reads issued ahead
//    for later layers, which form one chain in the order of the layers they feed, each waiting
//    for the one before it (as the builder chains them, build_loop.cc);
//  * a prefetched site issues its whole weights (or the first `ring` slabs, its staged constants
//    with the first) at the start of the layer `depth` layers earlier; a site not prefetched at
//    its own layer's start; a layer with whole weights starts when they have arrived;
//  * a streaming layer computes its Cout slabs in order, each an equal share of its compute,
//    slab k once it has arrived; slab k + ring is issued when slab k's compute ends (its buffer
//    is free);
//  * activations the plan keeps in L3 and the layers' own L2<->L1 traffic are not on the L3
//    channel in this estimate.
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/tune/prefetch_plan.h"

namespace edgesim {

class PrefetchTimeline {
 public:
  PrefetchTimeline(const Graph& g, const PlatformSpec& spec, const PrefetchPlanner& pp);
  // Estimated cycles of the whole network with depths[i] and rings[i] for pp.sites()[i].
  int64_t estimate(const std::vector<int>& depths, const std::vector<int>& rings) const;
  // Per layer position (PrefetchPlanner::layers()): the compute estimate.
  const std::vector<int64_t>& compute() const { return compute_; }

 private:
  const PrefetchPlanner& pp_;
  std::vector<int64_t> compute_;      // per layer position
  std::vector<size_t> run_pos_;       // per site: the position of the step that runs it
  std::vector<int64_t> slab_cost_, whole_cost_, extra_cost_;   // per site: L3 read cycles
};

// Greedy by estimated gain per byte-layer (above), depths up to max_depth layer nodes ahead and
// rings up to max_ring slab buffers. The plan with the chosen depths and rings.
NetPlan prefetch_by_gain(const Graph& g, const PlatformSpec& spec, const PrefetchPlanner& pp, int max_depth,
                         int max_ring);

}  // namespace edgesim
