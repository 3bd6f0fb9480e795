// Policy `dory`, L2->L1: the rules of docs/tiling.md "DORY's rules in formulas" (L2→L1: conv
// and FC, rules (a) to (g); pooling and addition), applied to one L2 slab, with DORY's objective
// and tie-break (search_max).
//
// Deviations (docs/tiling.md): the column post-processing uses sw, not DORY's sh; dilated
// kernels use the dilated extent in the geometry; a MatMul with a runtime B operand (no DORY
// rule) takes the largest row slabs that fit with all columns (fewer columns only if one row
// does not fit). Every result also carries the minimal L1 budget under the same rules: memory
// is non-decreasing in every variable, so it is the smaller of the early-exit footprint and the
// footprint of the smallest legal tile.
#include "compiler/tiler/internal.h"

namespace edgesim {

constexpr int64_t kBig = int64_t{1} << 60;

std::vector<int64_t> channel_cands(int64_t c, int64_t mult) {
  std::vector<int64_t> v;
  for (int64_t n = mult; n <= c; n += mult) v.push_back(n);
  return v;
}

// Output rows of an input extent `in` under DORY's equalities; -1 if none.
static int64_t out_of(int64_t in, int64_t ke, int64_t s, int64_t pads, bool full, int64_t out_max) {
  const int64_t num = in - ke + s + (full ? pads : 0);
  if (num % s != 0) return -1;
  const int64_t o = full ? out_max : num / s;   // rule (g): a full extent spans all outputs
  if (full && (num / s) != out_max) return -1;
  return o >= 1 && o <= out_max ? o : -1;
}

DimCands dim_cands(int64_t n_in, int64_t n_out, int64_t k, int64_t d, int64_t s, int64_t pads, bool align) {
  DimCands c;
  const int64_t ke = keff(k, d);
  for (int64_t i = ke; i <= n_in; ++i) {
    if (align && (i - ke) % s != 0) continue;
    const int64_t o = out_of(i, ke, s, pads, i == n_in, n_out);
    if (o > 0) c.add(i, o);
  }
  return c;
}

DimCands whole(int64_t in, int64_t out) { DimCands c; c.add(in, out); return c; }

L1Tiling whole_tile(const LayerGeom& s, int64_t bytes) {
  L1Tiling t;
  t.n_out = s.cout; t.h_out = s.h_out; t.w_out = s.w_out;
  t.n_in = s.cin; t.h_in = s.h_in; t.w_in = s.w_in;
  t.db = 1; t.whole = true; t.l1_bytes = bytes;
  return t;
}

L1Tiling pick_tile(const Pick& p, const std::vector<int64_t>& ch, const DimCands& H, const DimCands& W,
                   int64_t n_in, int db) {
  L1Tiling t;
  t.n_out = ch[p.c]; t.n_in = n_in > 0 ? n_in : ch[p.c];
  t.h_in = H.in[p.h]; t.h_out = H.out[p.h]; t.w_in = W.in[p.w]; t.w_out = W.out[p.w];
  t.db = db; t.l1_bytes = p.mem;
  return t;
}

namespace {

void finish(L1Result& r, int64_t early, int64_t min_tile) {
  r.min_budget = std::min(early, min_tile);
  if (r.min_budget >= kBig) r.min_budget = -1;
}

// Rules (a) to (g): standard / grouped convolution, FC, depthwise convolution.
L1Result conv_l1(const LayerGeom& s, const Budgets& b, int64_t pads) {
  L1Result r;
  const int64_t db = b.db, nc = b.nc, mb = min_bits_mb(s);
  const bool dw = s.depthwise;
  const bool subbyte_w = s.bw < 8;
  const int64_t per_out = dw ? 1 : s.cin / std::max<int64_t>(1, s.groups);
  const int64_t bias_l2 = s.has_bias ? (dw ? 16 : 1) * fl8(s.cout * s.bb) : 0;
  // (a) early exit
  int64_t im2col_whole = 0;
  if (dw) im2col_whole = nc * (s.kh * (s.h_in + pads) + s.kh) * mb;
  else if (!s.fc) im2col_whole = fl8(2 * nc * s.kh * s.kw * s.cin * s.bx);
  const int64_t early = fl8(s.cout * per_out * s.kh * s.kw * s.bw) + fl8(s.cout * s.n_c * s.cb) +
                        bias_l2 + fl8(s.cin * s.h_in * s.w_in * s.bx) +
                        fl8(s.cout * s.h_out * s.w_out * s.by) + im2col_whole +
                        (dw && subbyte_w ? 8 * s.kh * s.kw * mb : 0);
  // (b), (c) candidates
  const std::vector<int64_t> ch = channel_cands(s.cout, mb);
  DimCands H, W;
  if (!dw) {
    H = dim_cands(s.h_in, s.h_out, s.kh, s.dh, s.sh, s.pt + s.pb, true);
    W = dim_cands(s.w_in, s.w_out, s.kw, s.dw, s.sw, s.pl + s.pr, false);
  } else if (s.h_in <= 32 && s.w_in <= 32) {
    H = whole(s.h_in, s.h_out);
    W = whole(s.w_in, s.w_out);
  } else {
    H = dim_cands(s.h_in, s.h_out, s.kh, s.dh, s.sh, s.pt + s.pb, s.h_in > 32 && s.w_in > 32);
    W = whole(s.w_in, s.w_out);
  }
  // (d) memory
  const int64_t wfp = dw && subbyte_w ? db * 64 * s.kh * s.kw * mb : 0;
  auto mem = [&](size_t c, size_t h, size_t w) -> int64_t {
    const int64_t n = ch[c], nin = dw ? n : s.cin;
    const int64_t wt = dw ? fl8(db * nin * s.kh * s.kw * s.bw) : fl8(db * per_out * n * s.kh * s.kw * s.bw);
    const int64_t im2col = dw ? nc * (s.kh * (nin + pads) + s.kh) * mb
                              : (s.fc ? 0 : 2 * nc * s.kh * s.kw * nin);
    return bias_l2 + fl8(db * nin * H.in[h] * W.in[w] * s.bx) + fl8(db * n * H.out[h] * W.out[w] * s.by) +
           wt + fl8(db * n * s.n_c * s.cb) + im2col + wfp + 40;
  };
  // (e) objective, split into channel / row / column parts for the bounds
  const int64_t C = s.cout, Ho = s.h_out, Wo = s.w_out;
  std::function<int64_t(size_t, size_t, size_t, int64_t)> obj;
  std::function<int64_t(size_t, int64_t)> ub_c;
  std::function<int64_t(size_t, size_t, int64_t)> ub_h;
  if (!dw) {
    auto jn = [&](size_t c) {
      const int64_t n = ch[c];
      return 1000000 * ((n - 1) % 4) + 100000 * n + 10000 * ((C - 1) % n) + 10000 * (((C - 1) % n) % 4);
    };
    auto jh = [&](size_t h) {
      const int64_t x = H.out[h];
      return 2000000 * ((x - 1) % 8) + 20000 * (((Ho - 1) % x) % 8);
    };
    obj = [&, jn, jh](size_t c, size_t h, size_t w, int64_t m) {
      const int64_t x = W.out[w];
      return jn(c) + jh(h) + 3000000 * ((x - 1) % 2) + 1000000 * (x * H.out[h] >= 16 ? 1 : 0) + m +
             30000 * (((Wo - 1) % x) % 2);
    };
    ub_c = [jn](size_t c, int64_t m) { return jn(c) + 14000000 + 3000000 + 1000000 + m + 140000 + 30000; };
    ub_h = [jn, jh](size_t c, size_t h, int64_t m) { return jn(c) + jh(h) + 3000000 + 1000000 + m + 30000; };
  } else {
    auto jn = [&](size_t c) {
      const int64_t n = ch[c];
      return 10000 * (n > 7 ? 1 : 0) + 20000 * ((n - 1) % 16) + 100 * (((C - 1) % n) > 7 ? 1 : 0);
    };
    auto jh = [&](size_t h) {
      const int64_t x = H.out[h];
      return 10000 * (x % 4 == 0 ? 1 : 0) + 1000 * x + 100 * ((Ho - 1) % x) + 100 * (((Ho - 1) % x) % 4);
    };
    auto jw = [&](size_t w) { const int64_t x = W.out[w]; return 1000 * x + 100 * ((Wo - 1) % x); };
    obj = [jn, jh, jw](size_t c, size_t h, size_t w, int64_t m) { return jn(c) + jh(h) + jw(w) + m; };
    const int64_t wmax = 1000 * Wo + 100 * Wo, hmax = 10000 + 1000 * Ho + 100 * Ho + 300;
    ub_c = [jn, wmax, hmax](size_t c, int64_t m) { return jn(c) + hmax + wmax + m; };
    ub_h = [jn, jh, wmax](size_t c, size_t h, int64_t m) { return jn(c) + jh(h) + wmax + m; };
  }
  const int64_t min_tile = (ch.empty() || H.size() == 0 || W.size() == 0) ? kBig : mem(0, 0, 0);
  finish(r, early, min_tile);
  if (early <= b.l1) { r.tile = whole_tile(s, early); return r; }
  const Pick p = search_max(ch.size(), H, W, b.l1, mem, obj, ub_c, ub_h);
  if (p.found) r.tile = pick_tile(p, ch, H, W, dw ? 0 : s.cin, b.db);
  return r;
}

// Pooling.
L1Result pool_l1(const LayerGeom& s, const Budgets& b) {
  L1Result r;
  const int64_t db = b.db;
  const int64_t early = fl8(s.cout * s.n_c * s.cb) + s.in_bytes() + s.out_bytes();
  const int m = std::min(s.bx, s.by);
  const std::vector<int64_t> ch = channel_cands(s.cout, m >= 8 ? 1 : 8 / m);
  DimCands H, W;
  for (int64_t i = s.kh; i <= s.h_in; ++i)
    if ((i - s.kh) % s.sh == 0 && (i - s.kh) / s.sh + 1 <= s.h_out) H.add(i, (i - s.kh) / s.sh + 1);
  for (int64_t i = s.kw; i <= s.w_in; ++i)
    if ((i - s.kw) % s.sw == 0 && (i - s.kw) / s.sw + 1 <= s.w_out) W.add(i, (i - s.kw) / s.sw + 1);
  auto mem = [&](size_t c, size_t h, size_t w) -> int64_t {
    const int64_t n = ch[c];
    return bits_to_bytes(db * n * H.in[h] * W.in[w], s.bx) + bits_to_bytes(db * n * H.out[h] * W.out[w], s.by) +
           fl8(db * n * s.n_c * s.cb) + 20;
  };
  const int64_t hmax = H.size() ? H.in.back() : 0, wmax = W.size() ? W.in.back() : 0;
  auto obj = [&](size_t c, size_t h, size_t w, int64_t mm) {
    return 10000 * mm + 100 * W.in[w] + H.in[h] + 1000000 * ch[c];
  };
  auto ub_c = [&](size_t c, int64_t mm) { return 10000 * mm + 100 * wmax + hmax + 1000000 * ch[c]; };
  auto ub_h = [&](size_t c, size_t h, int64_t mm) { return 10000 * mm + 100 * wmax + H.in[h] + 1000000 * ch[c]; };
  const int64_t min_tile = (ch.empty() || H.size() == 0 || W.size() == 0) ? kBig : mem(0, 0, 0);
  finish(r, early, min_tile);
  if (early <= b.l1) { r.tile = whole_tile(s, early); return r; }
  const Pick p = search_max(ch.size(), H, W, b.l1, mem, obj, ub_c, ub_h);
  if (p.found) r.tile = pick_tile(p, ch, H, W, 0, b.db);
  return r;
}

// Addition: all channels, full width, as many rows as fit. The same rule tiles every
// element-wise layer (one input: ratio 1) and the rows layers (all of the last axis, as many rows
// as fit, plus the per-position constants and the kernel's scratch; no DORY rule exists).
L1Result add_l1(const LayerGeom& s, const Budgets& b) {
  L1Result r;
  const int64_t ratio = s.inputs() > 1 ? 1 + (s.bx2 + s.bx - 1) / s.bx : 1;   // ⌈1 + b2/b1⌉
  const int64_t fixed = s.rows ? fl8(s.cout * s.n_c * s.cb) + s.transient : 0;
  const int64_t early = fl8(s.cout * s.n_c * s.cb) + s.in_bytes() * ratio + s.out_bytes() + s.transient;
  auto mem = [&](int64_t h) {
    return bits_to_bytes(b.db * s.cout * h * s.w_in, s.bx) * ratio + bits_to_bytes(b.db * s.cout * h * s.w_out, s.by) +
           fixed;
  };
  finish(r, early, mem(1));
  if (early <= b.l1) { r.tile = whole_tile(s, early); return r; }
  for (int64_t h = s.h_out; h >= 1; --h) {
    if (mem(h) > b.l1) continue;
    L1Tiling t = whole_tile(s, mem(h));
    t.h_out = t.h_in = h; t.whole = false; t.db = b.db;
    r.tile = t;
    break;
  }
  return r;
}

// No DORY rule: MatMul of two runtime operands. Largest row slabs with all columns that fit.
L1Result matmul_l1(const LayerGeom& s, const Budgets& b) {
  L1Result r;
  const int64_t consts = (s.has_bias ? fl8(s.cout * s.bb) : 0) + fl8(s.cout * s.n_c * s.cb);
  const int64_t early = s.in_bytes() + s.weight_bytes() + s.out_bytes() + consts;
  auto mem = [&](int64_t h, int64_t n) {
    return b.db * (bits_to_bytes(h * s.cin, s.bx) + bits_to_bytes(s.cin * n, s.bw) + bits_to_bytes(h * n, s.by)) +
           consts + 40;
  };
  finish(r, early, mem(1, 1));
  if (early <= b.l1) { r.tile = whole_tile(s, early); return r; }
  for (int64_t n = s.cout; n >= 1 && !r.tile; --n) {
    for (int64_t h = s.h_out; h >= 1; --h) {
      if (mem(h, n) > b.l1) continue;
      L1Tiling t = whole_tile(s, mem(h, n));
      t.n_out = n; t.h_out = t.h_in = h; t.whole = false; t.db = b.db;
      r.tile = t;
      break;
    }
  }
  return r;
}

}  // namespace

L1Result dory_l1(const LayerGeom& s, const Budgets& b, int64_t mem_pads) {
  const int64_t pads = mem_pads >= 0 ? mem_pads : s.pt + s.pb;
  if (s.rows || s.eltwise()) return add_l1(s, b);
  switch (s.kind) {
    case OpKind::Pool: return pool_l1(s, b);
    case OpKind::Gemm: return s.weights_const ? conv_l1(s, b, pads) : matmul_l1(s, b);
    default: return conv_l1(s, b, pads);
  }
}

}  // namespace edgesim
