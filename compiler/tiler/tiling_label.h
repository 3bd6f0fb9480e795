// How a layer's tiling is written in reports: the one wording `compile` and `run` (table, JSON,
// HTML) share.
//   L3->L2 slab  "64x4x32 (9 in rows) L3:x,w"  Cout x rows x cols of one L2 slab, the input rows it
//                reads, and what streams from/to L3 (x input, w weights, y output); "-" when the
//                layer is not L3-tiled
//   L2->L1 tile  "32x8x32 / 64x10x34 db"       Cout x rows x cols of the output tile / of the input
//                tile it reads, "db" when double-buffered
#pragma once
#include <string>

#include "compiler/tiler/tiling.h"

namespace edgesim {

std::string l3_slab_label(const LayerGeom& g, const L3Tiling& t);
std::string l1_tile_label(const L1Tiling& t);
// "x,w" of an L3-tiled layer (see above); "" when nothing streams from/to L3.
std::string l3_streams(const L3Tiling& t);

}  // namespace edgesim
