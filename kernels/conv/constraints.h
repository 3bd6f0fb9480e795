// Tile constraints of the cluster (PULP-NN-style) convolution kernels: what a tile handed to
// the kernel must satisfy, independent of any tiling policy's objective. The tiler reads these
// beside the policy's own rules (docs/tiling.md "Policy `deeploy`", from Deeploy's PULPOpen tile
// constraints [97]).
#pragma once
#include <algorithm>
#include <cstdint>

namespace edgesim {

struct ConvTileRules {
  // Partial sums over input-channel tiles: the kernels requantise every output they produce,
  // so a standard conv tile always holds all input channels.
  bool split_cin = false;
  // If Cout >= min_cout_tile, every Cout tile, including the last (remainder) one, holds at
  // least min_cout_tile channels (4x2 MatMul register blocking).
  int64_t min_cout_tile = 8;
  // Depthwise: output tile extent >= 1 + the largest pad of that dimension (or the whole dim).
  int64_t dw_min_extent_over_pad = 1;
  // Depthwise with the input in L3: channel tiles are multiples of this (word alignment).
  int64_t dw_l3_channel_multiple = 4;
};

inline ConvTileRules cluster_conv_rules() { return {}; }

// Is a Cout tile of n channels legal for a layer with cout channels?
inline bool conv_cout_tile_ok(const ConvTileRules& r, int64_t cout, int64_t n) {
  if (cout < r.min_cout_tile) return n >= 1 && n <= cout;
  return n >= r.min_cout_tile && n <= cout && (cout % n == 0 || cout % n >= r.min_cout_tile);
}

// Smallest legal output extent of a depthwise tile along a dimension of `full` outputs.
inline int64_t dw_min_extent(const ConvTileRules& r, int64_t full, int64_t pad_begin, int64_t pad_end) {
  return std::min(full, r.dw_min_extent_over_pad + std::max(pad_begin, pad_end));
}

}  // namespace edgesim
