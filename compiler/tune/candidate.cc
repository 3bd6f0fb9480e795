// Candidate tilings of one layer (candidate.h): the enumeration of every legal output tile
// around a base L3 decision (their footprint: compiler/tiler/footprint.h).
//
// enumerate_candidates lists output tiles (n_out, h_out, w_out) per dimension — Cout: 1..C
// when C <= 4, else multiples of 4 (of lcm(4, group size) for grouped convs) plus C; H: every
// value <= 16, every divisor, every ⌈Ho/k⌉ (each distinct tile count once) and Ho; W: Wo and its
// halves, quarters, eighths — then db 1 and (when the slab has more than one tile) db 2, keeps
// those whose footprint fits (counting w and c twice when several Cout slabs reload them), and
// orders them largest tile first (volume, then n, h, w, db).
#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

#include "compiler/tiler/internal.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "compiler/tune/candidate.h"

namespace edgesim {

namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

namespace {

std::vector<int64_t> channel_list(int64_t C, int64_t unit) {
  std::set<int64_t> v;
  unit = std::max<int64_t>(unit, 1);
  const int64_t step = C > 4 ? std::lcm<int64_t>(4, unit) : unit;
  for (int64_t n = step; n <= C; n += step) v.insert(n);
  v.insert(C);
  for (auto it = v.begin(); it != v.end();) it = (*it % unit) ? v.erase(it) : std::next(it);
  return {v.rbegin(), v.rend()};
}

std::vector<int64_t> row_list(int64_t H) {
  std::set<int64_t> v;
  for (int64_t h = 1; h <= std::min<int64_t>(H, 16); ++h) v.insert(h);
  for (int64_t k = 1; k <= H; ++k) {
    if (H % k == 0) v.insert(k);
    v.insert(cdiv(H, k));
  }
  return {v.rbegin(), v.rend()};
}

std::vector<int64_t> col_list(int64_t W) {
  std::set<int64_t> v{W};
  for (int64_t d : {2, 4, 8}) v.insert(std::max<int64_t>(1, cdiv(W, d)));
  return {v.rbegin(), v.rend()};
}

}  // namespace

std::vector<Candidate> enumerate_candidates(const Graph& g, int node, const LayerTiling& base, const PlatformSpec& spec,
                                            int64_t l1_budget, size_t max) {
  const LayerGeom geom = layer_geom(g, node);
  const LayerGeom s = slab_geom(geom, base.l3);
  const bool gemm = s.kind == OpKind::Gemm;
  int64_t unit = 1;
  if (s.kind == OpKind::Conv && !s.depthwise && s.groups > 1) unit = s.cout / s.groups;
  const std::vector<int64_t> ns = s.rows ? std::vector<int64_t>{s.cout} : channel_list(s.cout, unit);
  const std::vector<int64_t> hs = row_list(s.h_out);
  const bool cout_slabs = base.l3.n_out > 0 && base.l3.n_out < geom.cout;
  const bool flat = gemm || s.rows;   // [.., rows, cols] tiles: no W
  const std::vector<int64_t> ws = flat ? std::vector<int64_t>{1} : col_list(s.w_out);
  std::vector<Candidate> out;
  for (int64_t n : ns)
    for (int64_t h : hs)
      for (int64_t w : ws) {
        const bool whole = n == s.cout && h == s.h_out && w == (flat ? 1 : s.w_out);
        for (int db : {2, 1}) {
          if (db == 2 && whole) continue;
          Candidate c;
          c.origin = "enum";
          LayerTiling& t = c.tiling;
          t.node = node;
          t.policy = "tuned";
          t.l3 = base.l3;
          t.l1.n_out = n, t.l1.h_out = h, t.l1.w_out = flat ? 1 : w;
          t.l1.n_in = s.cin;
          // Nominal input extent of a tile (the tiler's convention; the builder derives windows itself).
          t.l1.h_in = flat ? h : std::min(s.h_in, (h - 1) * s.sh + (s.kh - 1) * s.dh + 1);
          t.l1.w_in = flat ? 1 : std::min(s.w_in, (w - 1) * s.sw + (s.kw - 1) * s.dw + 1);
          if (s.kind != OpKind::Conv || s.depthwise) t.l1.n_in = gemm ? s.cin : n;
          else if (s.groups > 1) t.l1.n_in = n / unit * (s.cin / s.groups);
          t.l1.db = db;
          t.l1.whole = whole;
          const int64_t fp = l1_footprint(s, t.l1, db, policy_calls_dw3x3_s1("tuned", spec), cout_slabs);   // the tuned flow's
          if (fp > l1_budget) continue;
          t.l1.l1_bytes = fp;
          out.push_back(std::move(c));
        }
      }
  std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
    const L1Tiling& x = a.tiling.l1;
    const L1Tiling& y = b.tiling.l1;
    const int64_t vx = x.n_out * x.h_out * x.w_out, vy = y.n_out * y.h_out * y.w_out;
    return std::tie(vx, x.n_out, x.h_out, x.w_out, x.db) > std::tie(vy, y.n_out, y.h_out, y.w_out, y.db);
  });
  if (max > 0 && out.size() > max) out.resize(max);
  return out;
}

}  // namespace edgesim
