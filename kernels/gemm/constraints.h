// Tile constraints of the cluster GEMM / linear kernels (docs/tiling.md "Policy `deeploy`",
// from Deeploy's PULPOpen GEMM tile constraint [97]): the reduction dimension K is never split (no
// partial sums), and when the output width N >= n_multiple its tile is a multiple of n_multiple.
#pragma once
#include <cstdint>

namespace edgesim {

struct GemmTileRules {
  bool split_k = false;
  int64_t n_multiple = 16;
};

inline GemmTileRules cluster_gemm_rules() { return {}; }

inline bool gemm_n_tile_ok(const GemmTileRules& r, int64_t n_full, int64_t n) {
  if (n < 1 || n > n_full) return false;
  return n_full < r.n_multiple || n % r.n_multiple == 0;
}

}  // namespace edgesim
