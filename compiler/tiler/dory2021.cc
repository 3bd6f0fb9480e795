// Policy `dory-2021`, L2->L1: the 2021 code line behind DORY's published GAP8 results
// (docs/tiling.md "Policy `dory-2021`", "dory-2021's formulas"). Same search and tie-break as
// `dory`, but: κ/λ always two constants with db; depthwise im2col (8·kh·h_in + 3)·mb from the
// tile's rows; standard conv geometry without the padding term; the border-tile feasibility rule on
// every conv dimension; objectives with the memory term in 1/256 B and border terms X mod (x + 1);
// and the "Total L1 occupation" DORY logged, returned as L1Result::reported. Pooling and addition
// use the rules of `dory`.
#include <array>

#include "compiler/tiler/internal.h"

namespace edgesim {

namespace {

constexpr int64_t kBig = int64_t{1} << 60;

// Border-tile rule (docs/tiling.md "dory-2021's formulas") for an input tile of t rows out of n
// with kernel extent ke.
bool border_ok(int64_t t, int64_t n, int64_t ke, int64_t p_lo, int64_t p_hi) {
  const int64_t d = t - ke + 1;
  if (d < 1) return false;
  const int64_t a = std::max<int64_t>(n - t - (d - p_lo), 0) % d;
  const int64_t b = std::max<int64_t>(n - t - (d - p_hi), 0) % d;
  return b == 0 || a >= ke;
}

DimCands filter_border(const DimCands& c, int64_t n, int64_t ke, int64_t p_lo, int64_t p_hi) {
  DimCands r;
  for (size_t i = 0; i < c.size(); ++i)
    if (border_ok(c.in[i], n, ke, p_lo, p_hi)) r.add(c.in[i], c.out[i]);
  return r;
}

// Interior-only geometry: out = (in − ke)/s + 1 (no padding term, full extent included).
DimCands nopad_cands(int64_t n_in, int64_t n_out, int64_t ke, int64_t s) {
  DimCands c;
  for (int64_t i = ke; i <= n_in; ++i)
    if ((i - ke) % s == 0 && (i - ke) / s + 1 <= n_out) c.add(i, (i - ke) / s + 1);
  return c;
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

L1Result dory2021_l1(const LayerGeom& s, const Budgets& b, int64_t mem_pads) {
  if (s.kind == OpKind::Pool || s.rows || s.eltwise() || (s.kind == OpKind::Gemm && !s.weights_const))
    return dory_l1(s, b, mem_pads);
  L1Result r;
  const int64_t db = b.db, mb = min_bits_mb(s);
  const bool dw = s.depthwise;
  const int64_t per_out = dw ? 1 : s.cin / std::max<int64_t>(1, s.groups);
  const int64_t kl = s.n_c > 0 ? 2 : 0;
  const int64_t keh = keff(s.kh, s.dh), kew = keff(s.kw, s.dw);
  auto im2col_of = [&](int64_t n_in, int64_t h_in) -> int64_t {
    if (dw) return (8 * s.kh * h_in + 3) * mb;
    return s.fc ? 0 : 2 * 8 * s.kh * s.kw * n_in;   // DORY 2021 sizes im2col for 8 cores, whatever NUM_CORES
  };
  const int64_t early = fl8(s.cout * per_out * s.kh * s.kw * s.bw) + fl8(s.cout * kl * s.cb) +
                        (s.has_bias ? fl8(s.cout * s.bb) : 0) + fl8(s.cin * s.h_in * s.w_in * s.bx) +
                        fl8(s.cout * s.h_out * s.w_out * s.by) + im2col_of(s.cin, s.h_in);
  const std::vector<int64_t> ch = channel_cands(s.cout, mb);
  DimCands H, W;
  if (!dw) {
    H = nopad_cands(s.h_in, s.h_out, keh, s.sh);
    W = nopad_cands(s.w_in, s.w_out, kew, s.sw);
  } else if (s.h_in <= 32 && s.w_in <= 32) {
    H = whole(s.h_in, s.h_out);
    W = whole(s.w_in, s.w_out);
  } else {
    H = dim_cands(s.h_in, s.h_out, s.kh, s.dh, s.sh, s.pt + s.pb, s.h_in > 32 && s.w_in > 32);
    W = whole(s.w_in, s.w_out);
  }
  H = filter_border(H, s.h_in, keh, s.pt, s.pb);
  W = filter_border(W, s.w_in, kew, s.pl, s.pr);
  // Memory in bytes (constraint) and in 1/256 B (objective: 32 units per element bit + 20).
  auto bits = [&](size_t c, size_t h, size_t w) {
    const int64_t n = ch[c], nin = dw ? n : s.cin;
    const int64_t wt = dw ? db * nin * s.kh * s.kw * s.bw : db * per_out * n * s.kh * s.kw * s.bw;
    return std::array<int64_t, 5>{db * nin * H.in[h] * W.in[w] * s.bx, db * n * H.out[h] * W.out[w] * s.by, wt,
                                  db * n * kl * s.cb, s.has_bias ? db * n * s.bb : 0};
  };
  auto mem = [&](size_t c, size_t h, size_t w) -> int64_t {
    int64_t m = im2col_of(dw ? ch[c] : s.cin, H.in[h]);
    for (int64_t x : bits(c, h, w)) m += fl8(x);
    return m;
  };
  auto units = [&](size_t c, size_t h, size_t w) -> int64_t {
    int64_t u = 256 * im2col_of(dw ? ch[c] : s.cin, H.in[h]) + 20;
    for (int64_t x : bits(c, h, w)) u += 32 * x;
    return u;
  };
  auto ubits = [](int64_t mcap) { return 256 * (mcap + 8) + 20; };
  const int64_t C = s.cout, Ho = s.h_out, Wo = s.w_out;
  std::function<int64_t(size_t, size_t, size_t, int64_t)> obj;
  std::function<int64_t(size_t, int64_t)> ub_c;
  std::function<int64_t(size_t, size_t, int64_t)> ub_h;
  if (!dw) {
    auto jn = [&](size_t c) {
      const int64_t n = ch[c], cm = C % (n + 1);
      return 64 * (1000000 * ((n - 1) % 4) + 10000 * n + 10000 * cm + 10000 * (cm % 4));
    };
    auto jh = [&](size_t h) {
      const int64_t x = H.out[h];
      return 64 * (2000000 * ((x - 1) % 8) + 20000 * ((Ho % (x + 1)) % 8));
    };
    obj = [&, jn, jh](size_t c, size_t h, size_t w, int64_t) {
      const int64_t x = W.out[w];
      return units(c, h, w) + jn(c) + jh(h) +
             64 * (3000000 * ((x - 1) % 2) + 1000000 * (x * H.out[h] >= 16 ? 1 : 0) + 30000 * ((Wo % (x + 1)) % 2));
    };
    const int64_t rest_w = 64 * (3000000 + 1000000 + 30000), rest_h = 64 * (2000000 * 7 + 20000 * 7);
    ub_c = [jn, ubits, rest_w, rest_h](size_t c, int64_t m) { return jn(c) + rest_h + rest_w + ubits(m); };
    ub_h = [jn, jh, ubits, rest_w](size_t c, size_t h, int64_t m) { return jn(c) + jh(h) + rest_w + ubits(m); };
  } else {
    const int64_t mod = 64 / std::max(1, std::min({s.bx, s.by, s.bw}));
    auto jn = [&, mod](size_t c) {
      const int64_t n = ch[c];
      return 32 * 10000 * (n > 7 ? 1 : 0) + 64 * 10000 * ((n - 1) % mod) + 32 * 100 * (C % (n + 1) > 7 ? 1 : 0);
    };
    auto jh = [&](size_t h) {
      const int64_t x = H.out[h], hm = Ho % (x + 1);
      return 32 * 1000 * x + 32 * 10000 * (x % 4 == 0 ? 1 : 0) + 32 * 100 * (hm + hm % 4);
    };
    auto jw = [&](size_t w) { const int64_t x = W.out[w]; return 32 * 1000 * x + 32 * 100 * (Wo % (x + 1)); };
    obj = [&, jn, jh, jw](size_t c, size_t h, size_t w, int64_t) { return units(c, h, w) + jn(c) + jh(h) + jw(w); };
    const int64_t wmax = 32 * 1000 * Wo + 32 * 100 * Wo, hmax = 32 * 1000 * Ho + 32 * 10000 + 32 * 100 * (Ho + 3);
    ub_c = [jn, ubits, wmax, hmax](size_t c, int64_t m) { return jn(c) + hmax + wmax + ubits(m); };
    ub_h = [jn, jh, ubits, wmax](size_t c, size_t h, int64_t m) { return jn(c) + jh(h) + wmax + ubits(m); };
  }
  const bool any = !ch.empty() && H.size() && W.size();
  r.min_budget = std::min(early, any ? mem(0, 0, 0) : kBig);
  auto im2col_rep = [&](int64_t n_in, int64_t h_in) -> int64_t {
    if (dw) return (8 * s.kh * h_in + 3) * mb;
    return s.fc ? 0 : 16 * n_in * s.kh * s.kw;
  };
  if (early <= b.l1) {
    r.tile = whole_tile(s, early);
    r.reported = s.in_bytes() + s.out_bytes() + 16 * s.cout + s.weight_bytes() + im2col_rep(s.cin, s.h_in);
    return r;
  }
  const Pick p = search_max(ch.size(), H, W, b.l1, mem, obj, ub_c, ub_h);
  if (!p.found) return r;
  L1Tiling t = pick_tile(p, ch, H, W, dw ? 0 : s.cin, b.db);
  r.tile = t;
  const int64_t sp = cdiv(Ho, t.h_out) * cdiv(Wo, t.w_out), wt = cdiv(C, t.n_out);
  const int64_t x = fl8(t.n_in * t.h_in * t.w_in * s.bx), y = fl8(t.n_out * t.h_out * t.w_out * s.by);
  const int64_t wb = fl8((dw ? t.n_out : per_out * t.n_out) * s.kh * s.kw * s.bw);
  const int64_t xt = dw ? sp * wt : sp;
  r.reported = x * (1 + (xt > 1)) + y * (1 + (sp * wt > 1)) + 16 * t.n_out + wb * (1 + (wt > 1)) +
               im2col_rep(t.n_in, t.h_in);
  return r;
}

}  // namespace edgesim
