// The L1 tiles of one dimension, run-length encoded: along a dimension cut into tiles of `t`
// outputs (the last takes the remainder), consecutive tiles with the same output extent, input
// window and border pads form one "kind" (first tile with top padding, the body, the last tiles
// with bottom padding, the remainder). A layer's tiles are the product of its Cout, H and W
// kinds, so a cost or a footprint summed over kinds is O(kinds), not O(tiles). The L1 footprint
// (footprint.h) and the analytic cost (compiler/tune/analytic*.cc) walk tiles through it.
#pragma once
#include <cstdint>
#include <vector>

namespace edgesim::tile_walk {

// Input window of output positions [o0, o0+no) along one axis (docs/schedule.md §4.1), as
// compiler/schedule/build_params.cc computes it: clipped to the tensor, pads = the part of the
// original padding the window uses.
struct Win {
  int64_t start = 0, n = 0, pad_lo = 0, pad_hi = 0;
};
inline Win window(int64_t o0, int64_t no, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in) {
  const int64_t is = o0 * s - pad;
  const int64_t ie = (o0 + no - 1) * s - pad + (k - 1) * d + 1;
  const int64_t lo = is > 0 ? is : 0, hi = ie < in ? ie : in;
  return {lo, hi - lo > 0 ? hi - lo : 0, is < 0 ? -is : 0, ie > in ? ie - in : 0};
}

// One run of equal consecutive tiles along a dimension.
struct Kind {
  int64_t n = 0;                 // output extent
  int64_t in_n = 0;              // input window extent
  int64_t pad_lo = 0, pad_hi = 0;
  int64_t count = 0;             // tiles in the run
};

// The tiles of output range [lo, lo + len) in tiles of `t` (t <= 0: one tile), with the window
// geometry (k, s, d, pad, in); `kinds` in tile order. first / last: windows of the first and
// last tile (for "did the box change" between slabs).
struct DimTiles {
  std::vector<Kind> kinds;
  int64_t tiles = 0;
  Win first, last;
  int64_t first_o0 = 0, first_n = 0, last_o0 = 0, last_n = 0;
};
DimTiles dim_tiles(int64_t lo, int64_t len, int64_t t, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in);
// Channel-like dimension (no window): kinds of the body tile and the remainder.
DimTiles plain_tiles(int64_t lo, int64_t len, int64_t t);

}  // namespace edgesim::tile_walk
