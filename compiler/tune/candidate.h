// Candidates of the autotuner (stage 5 of ARCHITECTURE.md, `compiler/tune`): the tilings one
// layer may get. The chain is: enumerate (this file) -> rank with the analytic cost
// (analytic.h) -> simulate the best K through an Evaluator (evaluator.h) -> keep the fastest
// (tuner.h). The L3 -> L2 decision is taken from a base policy and kept; candidates differ in
// the L2 -> L1 tile and the L1 buffering.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "compiler/tiler/policy.h"
#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct Candidate {
  LayerTiling tiling;            // tiling.l1.db: 1 = single-buffered step, 2 = double-buffered
  std::string origin;            // "dory", "deeploy" (a policy's own choice) or "enum"
};

// L1 bytes the schedule builder allocates for one step of layer `g` (the L2 slab geometry) with
// tile `t` and L1 buffering `db` (docs/schedule.md §4.2: x, x2, w, c, y buffers sized for the
// largest tile, `db` copies each unless the slab is one tile or the weights one load, 8-byte
// aligned). dw3x3_s1: the tuned flow's schedule, whose pulp_nn_depthwise_3x3_s1 tiles
// (runs_dw3x3_s1) hold Hout + 2 input rows.
int64_t l1_footprint(const LayerGeom& slab, const L1Tiling& t, int db, bool dw3x3_s1 = false);

// Whether the layer's tiles of output width tile_w run pulp_nn_depthwise_3x3_s1 in the tuned flow
// (kernels/conv/cost_dw3x3_s1.h: a 3x3 stride-1 depthwise layer with one column of padding each
// side, an even width, whole-width tiles).
bool runs_dw3x3_s1(const LayerGeom& g, int64_t tile_w);

// The high water of L1 buffers that share one lifetime, as the first-fit planner places them:
// largest first, each at an 8-byte aligned offset.
int64_t l1_high_water(std::vector<int64_t> bytes);

// Every legal L2 -> L1 tiling of layer `node` with the L3 decision of `base`: output tiles
// (n_out, h_out, w_out) from per-dimension candidate lists, db 1 and 2, whose l1_footprint fits
// the budget `l1_budget`; partial-sum tilings are never produced (the kernels requantise every
// output). At most `max` candidates (0 = no limit), the largest tiles first.
std::vector<Candidate> enumerate_candidates(const Graph& g, int node, const LayerTiling& base,
                                            const PlatformSpec& spec, int64_t l1_budget, size_t max = 0);

}  // namespace edgesim
