// Tile constraints and scratch of the cluster softmax kernels (docs/tiling.md "Layers without a
// DORY rule", Deeploy's iSoftmaxTileConstraint [60]: the last axis is never split, a tile holds
// whole rows).
//   iSoftmax  PULPSoftmax_*: one uint32 buffer of the row length per core (Deeploy sizes it for
//             8 cores: 8·4·L bytes, [60] PULPOpen/Templates/iSoftmaxTemplate.py), kept in L1.
//   ITAMax    no scratch (two passes over the row, the exponentials recomputed).
#pragma once
#include <cstdint>

#include "kernels/softmax/params.h"

namespace edgesim {

inline int64_t softmax_scratch_bytes(const SoftmaxParams& p, int64_t row_len) {
  return p.kind == SoftmaxParams::Kind::ISoftmax ? 8 * 4 * row_len : 0;
}

}  // namespace edgesim
