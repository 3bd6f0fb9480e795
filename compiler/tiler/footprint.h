// The L1 bytes a layer's tile takes as the schedule builder allocates it: what a policy checks
// its tiles against (tile_graph's re-tiling, registry.cc) and what the autotuner's candidates
// must fit (compiler/tune/candidate.h).
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/tiler/tiling.h"

namespace edgesim {

// L1 bytes the schedule builder allocates for one step of layer `g` (the L2 slab geometry) with
// tile `t` and L1 buffering `db` (docs/schedule.md §4.2: x, x2, w, c, y buffers sized for the
// largest tile, `db` copies each unless the slab is one tile or the weights one load, 8-byte
// aligned). dw3x3_s1: the tuned flow's schedule, whose pulp_nn_depthwise_3x3_s1 tiles
// (runs_dw3x3_s1) hold Hout + 2 input rows.
// reloads_per_slab: the weights and constants are loaded again for every L2 slab (several Cout
// slabs of an L3-tiled layer), which the slab geometry alone cannot show.
int64_t l1_footprint(const LayerGeom& slab, const L1Tiling& t, int db, bool dw3x3_s1 = false,
                     bool reloads_per_slab = false);

// Whether the layer's tiles of output width tile_w run pulp_nn_depthwise_3x3_s1 in the tuned flow
// (kernels/conv/cost_dw3x3_s1.h: a 3x3 stride-1 depthwise layer with one column of padding each
// side, an even width, whole-width tiles).
bool runs_dw3x3_s1(const LayerGeom& g, int64_t tile_w);

// The high water of L1 buffers that share one lifetime, as the first-fit planner places them:
// largest first, each at an 8-byte aligned offset.
int64_t l1_high_water(std::vector<int64_t> bytes);

}  // namespace edgesim
