// Helpers shared by the kernel tests: deterministic pseudo-random tensors and a "tile" view
// that places a tensor inside a larger zero-filled buffer with padding strides, to check that
// the reference kernels give identical results on strided views.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/core/tensor.h"

namespace edgesim::test {

// Deterministic values in [lo, hi] (64-bit LCG; no <random> distribution differences).
inline std::vector<int64_t> pseudo_random(int64_t n, int64_t lo, int64_t hi, uint64_t seed) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& e : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    e = lo + static_cast<int64_t>((s >> 33) % static_cast<uint64_t>(hi - lo + 1));
  }
  return v;
}

inline Tensor random_tensor(DType t, Shape s, int64_t lo, int64_t hi, uint64_t seed) {
  return Tensor::from_ints(t, s, pseudo_random(shape_numel(s), lo, hi, seed));
}

// A buffer holding `t` as a tile: every dim is enlarged by `margin` before and after, and
// the returned view (shape of t, strides of the big buffer) points at the tile's origin.
struct TileBuffer {
  Tensor big;
  View tile;
};
inline TileBuffer as_tile(const Tensor& t, int64_t margin, int64_t fill) {
  Shape bs = t.shape();
  for (auto& d : bs) d += 2 * margin;
  TileBuffer r{Tensor::from_ints(t.dtype(), bs, std::vector<int64_t>(shape_numel(bs), fill)), {}};
  View v = r.big.view();
  int64_t origin = 0;
  for (size_t d = 0; d < bs.size(); ++d) origin += margin * v.strides[d];
  v.base = v.ptr(origin);
  v.shape = t.shape();
  r.tile = v;
  r.tile.from_ints(t.to_ints());
  return r;
}

}  // namespace edgesim::test
