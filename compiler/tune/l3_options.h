// The L3 -> L2 decisions the autotuner tries for one layer (docs/tune.md "L3 decision"), besides
// the base policy's own (DORY's, with the "input in L3" threaded through the tuned network):
//   in L2      the whole layer in L2 (input, output, weights), when its input is in L2;
//   stream S   its weights streamed from L3 in Cout slabs of about S bytes (S = 8, 16, 32, 64,
//              128 KiB), two slab buffers, input and output whole in L2 — the layer gives up
//              L2 for the weights of later layers (cross-layer prefetch) and overlaps its own
//              weight reads with its compute.
// Every option is listed with its L2 footprint (the layer's own buffers: activations, weight
// slabs or whole weights) and only when that fits the L2 budget given (the tuner gives the larger
// of the tuned flow's budget and the L2 level, tuned_l2_capacity). The list is made
// without looking at the L1 budget, so with more L2 it only grows (monotone in memory).
// weights_elsewhere: the layer's weights live outside L2 (an NPU layer's in the weight memory),
// so they take none of its L2 footprint.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/tiler/tiling.h"
#include "platforms/loader/spec.h"

namespace edgesim {

struct L3Option {
  std::string kind;        // "base", "l2", "stream"
  L3Tiling l3;
  int64_t slab_bytes = 0;  // stream: bytes of one weight slab
  int64_t l2_bytes = 0;    // the layer's own L2 footprint under this option
};

// Slab sizes tried by "stream" options, in bytes.
const std::vector<int64_t>& stream_slab_sizes();

std::vector<L3Option> l3_options(const LayerGeom& geom, const L3Tiling& base, bool input_in_l3, int64_t l2_budget,
                                 bool weights_elsewhere = false);

// A short label of an L3 decision for reports: "-", "L3:y", "w 16x4 KiB", ...
std::string l3_label(const LayerGeom& geom, const L3Tiling& t);

}  // namespace edgesim
