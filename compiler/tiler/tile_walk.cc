// The tile walk of one dimension (tile_walk.h).
#include "compiler/tiler/tile_walk.h"

#include <algorithm>

namespace edgesim::tile_walk {

namespace {

void push_kind(DimTiles& d, int64_t n, const Win& w) {
  if (!d.kinds.empty()) {
    Kind& k = d.kinds.back();
    if (k.n == n && k.in_n == w.n && k.pad_lo == w.pad_lo && k.pad_hi == w.pad_hi) {
      ++k.count;
      return;
    }
  }
  d.kinds.push_back(Kind{n, w.n, w.pad_lo, w.pad_hi, 1});
}

}  // namespace

DimTiles dim_tiles(int64_t lo, int64_t len, int64_t t, int64_t k, int64_t s, int64_t d, int64_t pad, int64_t in) {
  DimTiles r;
  if (len <= 0) return r;
  if (t <= 0 || t > len) t = len;
  for (int64_t o = lo; o < lo + len; o += t) {
    const int64_t n = std::min(t, lo + len - o);
    const Win w = window(o, n, k, s, d, pad, in);
    if (r.tiles == 0) r.first = w, r.first_o0 = o, r.first_n = n;
    r.last = w, r.last_o0 = o, r.last_n = n;
    ++r.tiles;
    push_kind(r, n, w);
  }
  return r;
}

DimTiles plain_tiles(int64_t lo, int64_t len, int64_t t) {
  DimTiles r;
  if (len <= 0) return r;
  if (t <= 0 || t > len) t = len;
  const int64_t full = len / t, rem = len % t;
  r.tiles = full + (rem ? 1 : 0);
  if (full) r.kinds.push_back(Kind{t, t, 0, 0, full});
  if (rem) r.kinds.push_back(Kind{rem, rem, 0, 0, 1});
  r.first = Win{lo, std::min(t, len), 0, 0};
  r.first_o0 = lo, r.first_n = r.first.n;
  r.last_o0 = lo + (r.tiles - 1) * t, r.last_n = lo + len - r.last_o0;
  r.last = Win{r.last_o0, r.last_n, 0, 0};
  return r;
}

}  // namespace edgesim::tile_walk
