// Internals of the analytic cost (analytic*.cc) and of l1_footprint (candidate.cc); not a
// public header. Two pieces both need:
//   * the L1 tiles of one dimension, run-length encoded: along a dimension cut into tiles of
//     `t` outputs (the last takes the remainder), consecutive tiles with the same output
//     extent, input window and border pads form one "kind" (first tile with top padding, the
//     body, the last tiles with bottom padding, the remainder). A layer's tiles are the product
//     of its Cout, H and W kinds, so a cost summed over kinds is O(kinds), not O(tiles).
//   * the command shapes of a box copy exactly as the schedule builder emits them
//     (compiler/schedule/build_dma.cc StepEmitter::copy, docs/schedule.md §4.2 "DMA shapes").
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/ir/graph.h"
#include "kernels/dma/cost.h"

namespace edgesim::tune_detail {

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

// Storage-order element strides of a tensor's home (docs/schedule.md §2), in kernel coordinates
// (rank <= 3 conv / pool / add tensors as the 4-D views of the builder when as4d).
Shape home_strides(const Graph& g, int tensor, bool as4d);
// Dense strides of a box stored in the storage order of `like` (an L1 tile, an L2 slab).
Shape packed_like(const Shape& ext, const Shape& like);

// One Dma command of a box copy: count = {rows, lines, bytes}; l1_off = the byte offset of its
// TCDM side from the region start (0 for the first piece).
struct Piece {
  int64_t count[3] = {1, 1, 0};
  int64_t l1_off = 0;
};
// The commands of copying a box of extents `ext` between regions with element strides `src`
// and `dst` (StepEmitter::copy): drop unit dims, nest by descending source stride, merge
// neighbours contiguous on both sides, innermost run = count[2], next two count[1], count[0],
// any further outer dims as separate pieces. `l1_is_dst` says which side's offsets l1_off is.
void copy_pieces(const Shape& ext, const Shape& src, const Shape& dst, int64_t esize, bool l1_is_dst,
                 std::vector<Piece>& out);

// dory_copy_cost (kernels/dma/cost.h) of one Dma command, with the same result, in O(word
// bytes) instead of O(MCHAN commands): a depthwise gather (gather_ch > 0: one command per
// channel) or a per-row copy is a run of identical commands whose TCDM word offsets repeat with
// a period of at most word_bytes, so its transfer is a periodic sum; the issue is the busiest
// core's share (all commands when blocking or single-core). Falls back to the library for
// commands above max_cmd_bytes.
CopyCost fast_copy_cost(const DmaTiming& t, const int64_t count[3], int64_t tcdm_addr, bool to_l1, int64_t gather_ch);

}  // namespace edgesim::tune_detail
