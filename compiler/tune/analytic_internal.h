// Internals of the analytic cost (analytic*.cc); not a public header. It needs:
//   * the L1 tiles of one dimension, run-length encoded (compiler/tiler/tile_walk.h);
//   * the command shapes of a box copy exactly as the schedule builder emits them
//     (compiler/schedule/build_dma.cc StepEmitter::copy, docs/schedule.md §4.2 "DMA shapes").
#pragma once
#include <cstdint>
#include <vector>

#include "compiler/tiler/tile_walk.h"
#include "kernels/ir/graph.h"
#include "kernels/dma/cost.h"

namespace edgesim::tune_detail {

// The tile walk of one dimension (compiler/tiler/tile_walk.h), shared with l1_footprint and the
// schedule builder's geometry.
using tile_walk::DimTiles;
using tile_walk::Kind;
using tile_walk::Win;
using tile_walk::dim_tiles;
using tile_walk::plain_tiles;
using tile_walk::window;

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
