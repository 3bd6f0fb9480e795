// Deeploy's L2->L1 tile of a dense or depthwise 3×3 or a pointwise NE16 layer ([30] at cdb39fc9:
// Targets/NE16/TileConstraints/NE16DenseConstraint.py, NE16DepthwiseConstraint.py,
// TilingExtension/TilerModel.py), which policy `deeploy` uses on an NE16 (npu.impl ne16) instead
// of edgesim's cycle objective (npu.cc), so that a Deeploy run is tiled as Deeploy tiles it.
//
// Deeploy states the tile as a constraint model: every input channel in every tile (dense), the
// memory of the tile's buffers within the L1 budget, and performance hints tried in priority
// order, each kept only if the model stays feasible with the hints kept before it:
//   priority 2: output channels a multiple of 32 (NE16's TP_OUT);
//   priority 1: input rows whole, then input columns whole.
// Its solver has no objective for the layer (the only objective is the first pattern's) and
// assigns each variable its largest feasible value in declaration order (CHOOSE_FIRST_UNBOUND,
// ASSIGN_MAX_VALUE): input rows, input columns, input channels, then the weights' output
// channels. An input tile that is not whole has no padding, so its output extent is
// (in − k) / s + 1: a non-whole tile of a 32-row input gives at most 29 output rows (s = 1).
// Not modelled: the input-extent-divisible-by-stride constraint (stride-2 layers).
//
// A 1×1 layer (NE16PWConv2DTileConstraint, [57]: at 9d78b4d8, its parent and 375a6329) whose
// extent is the re-shaped one (compiler/passes/ne16_pw_reshape.h; on a graph the pass did not
// re-shape it keeps npu.cc's objective): every input channel in every tile, input
// and output tiles of the same extent, and the hints in priority order — output rows a multiple
// of the alignment a (budgets.deeploy.ne16_pw_align: NE16's 3 × 3 patch from 9d78b4d8 on, 6
// before) when the layer has more than a rows, else whole; then columns likewise; then output
// channels a multiple of 32 when there are more than 32, else whole — each kept while feasible,
// then the largest feasible values in declaration order: rows, columns, output channels. Such a
// hint can split a layer that would fit whole (16 rows at a = 6: 12 + 4). Stride-2 1×1 layers
// keep npu.cc's objective.
#pragma once
#include <optional>

#include "compiler/tiler/internal.h"

namespace edgesim {

// The tile, or nothing when the layer is not a dense / depthwise 3×3 or a stride-1 1×1 conv, or
// no tile fits b.l1.
std::optional<L1Tiling> ne16_deeploy_tile(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                          const Budgets& b);

}  // namespace edgesim
