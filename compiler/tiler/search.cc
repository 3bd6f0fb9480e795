#include <algorithm>
// The exact search all L2->L1 rule sets share, the minimal-budget search, slabs and budgets.
//
// search_max reproduces DORY's constraint-programming search without a solver: DORY explores
// values smallest-first and keeps only strictly better objectives, so its answer is the
// lexicographically smallest assignment among those with the maximal objective. We may visit
// candidates in any order as long as ties resolve to that assignment; visiting large channel
// and row counts first finds a strong incumbent early, and the caller's upper bounds then skip
// almost every subtree (one MobileNet layer: a few thousand evaluations).
#include <tuple>

#include "compiler/tiler/internal.h"
#include "platforms/loader/budgets.h"

namespace edgesim {

Pick search_max(size_t nc, const DimCands& H, const DimCands& W, int64_t budget,
                const std::function<int64_t(size_t, size_t, size_t)>& mem,
                const std::function<int64_t(size_t, size_t, size_t, int64_t)>& obj,
                const std::function<int64_t(size_t, int64_t)>& ub_c,
                const std::function<int64_t(size_t, size_t, int64_t)>& ub_h) {
  Pick best;
  const size_t hn = H.size(), wn = W.size();
  if (nc == 0 || hn == 0 || wn == 0) return best;
  auto better = [&](int64_t J, size_t c, size_t h, size_t w) {
    if (!best.found || J > best.J) return true;
    if (J < best.J) return false;
    return std::tie(c, h, w) < std::tie(best.c, best.h, best.w);
  };
  for (size_t ci = nc; ci-- > 0;) {
    if (mem(ci, 0, 0) > budget) continue;
    const int64_t mcap = std::min(budget, mem(ci, hn - 1, wn - 1));
    if (best.found && ub_c(ci, mcap) < best.J) continue;
    for (size_t hi = hn; hi-- > 0;) {
      if (mem(ci, hi, 0) > budget) continue;
      size_t lo = 0, top = wn - 1;          // largest w index that fits
      while (lo < top) {
        const size_t mid = (lo + top + 1) / 2;
        if (mem(ci, hi, mid) <= budget) lo = mid; else top = mid - 1;
      }
      if (best.found && ub_h(ci, hi, mem(ci, hi, lo)) < best.J) continue;
      for (size_t wi = lo + 1; wi-- > 0;) {
        const int64_t m = mem(ci, hi, wi);
        if (best.found && ub_h(ci, hi, m) < best.J) break;   // smaller w: mem ≤ m
        const int64_t J = obj(ci, hi, wi, m);
        if (better(J, ci, hi, wi)) best = Pick{true, ci, hi, wi, J, m};
      }
    }
  }
  return best;
}

int64_t min_feasible(const std::function<bool(int64_t)>& ok, int64_t lo) {
  if (lo < 1) lo = 1;
  if (ok(lo)) return lo;
  int64_t hi = lo * 2;
  while (!ok(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > (int64_t{1} << 40)) return -1;
  }
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (ok(mid)) hi = mid; else lo = mid;
  }
  return hi;
}

LayerGeom slab_geom(const LayerGeom& g, const L3Tiling& t) {
  LayerGeom s = g;
  if (!t.tiled()) return s;
  if (t.n_out > 0 && t.n_out < g.cout) {
    s.cout = t.n_out;
    if (g.depthwise) s.cin = s.groups = t.n_out;
  }
  if (t.h_out > 0 && t.h_out < g.h_out) {
    s.h_out = t.h_out;
    s.h_in = (t.h_out - 1) * g.sh + keff(g.kh, g.dh);
    s.pt = s.pb = 0;
  }
  return s;
}

static int cores_of(const PlatformSpec& spec, int64_t policy_cores) {
  if (policy_cores > 0) return static_cast<int>(policy_cores);
  if (spec.cluster.present && spec.cluster.n_cores > 0) return static_cast<int>(spec.cluster.n_cores);
  return 8;
}

Budgets dory_policy_budgets(const PlatformSpec& spec) {
  Budgets b;
  const auto& d = spec.budgets.dory;
  if (d.present) {
    const DoryBudgets db = dory_budgets(spec);
    b.l1 = db.l1; b.l2 = db.l2; b.l3 = db.l3;
    b.db = d.db > 0 ? static_cast<int>(d.db) : 2;
  } else {   // no budgets.dory (e.g. BARVINN): the raw memory sizes, double buffering
    b.l1 = spec.l1.size; b.l2 = spec.l2.size; b.l3 = spec.l3.size;
    b.db = 2;
  }
  b.nc = cores_of(spec, d.present ? d.n_cores : 0);
  if (spec.l3.size <= 0) b.l3 = 0;
  return b;
}

// DORY's 2021 network-level L2 rule (c7cca89 Model_deployment.py): the L2 buffer of layer i
// loses the weights + κ/λ of layer i+1 (prefetched during layer i) when layer i+1 — the very next
// DORY layer, so a pooling layer in between reserves nothing — is a conv or FC; weights larger than
// half the buffer reserve exactly half, and layer i+1 must then tile its weights from L3 so that
// its (double-buffered) weight slabs fit that half (w_cap).
Budgets dory2021_policy_budgets(const PlatformSpec& spec, const Graph* g, int node) {
  Budgets b = dory_policy_budgets(spec);   // L1: DORY's --l1_buffer_size is budgets.dory.l1
  b.db = 2;
  b.v2021 = true;
  b.dw_blocking = true;
  const int64_t half = b.l2 / 2;
  // The weight bytes DORY compares with half the buffer, and what it reserves when they fit.
  auto reservation = [&](int n, bool* capped) -> int64_t {
    *capped = false;
    if (n < 0) return 0;
    const OpKind k = g->nodes[static_cast<size_t>(n)].kind();
    if (k != OpKind::Conv && k != OpKind::Gemm) return 0;
    const LayerGeom next = layer_geom(*g, n);
    if (next.weight_bytes() > half) {
      *capped = true;
      return half;
    }
    return next.weight_bytes() + bits_to_bytes(int64_t{next.n_c} * next.cout, next.cb);
  };
  if (g) {
    const std::vector<int> layers = g->layer_nodes();
    const auto at = std::find(layers.begin(), layers.end(), node);
    if (at != layers.end()) {
      bool capped = false;
      b.l2 -= reservation(at + 1 != layers.end() ? *(at + 1) : -1, &capped);
      bool prev_capped = false;
      if (at != layers.begin()) reservation(node, &prev_capped);   // what the previous layer reserved for this one
      if (prev_capped) b.w_cap = half;
      // Input from L3 (used only when the tiler says so): the previous layer's buffer minus its
      // reservation for this layer, its input and its weights + κ/λ is what this layer's input
      // slabs may take; the rest of this layer's own budget holds its output slabs and weights.
      if (at != layers.begin()) {
        const int prev = *(at - 1);
        const LayerGeom pg = layer_geom(*g, prev);
        bool unused = false;
        const int64_t prev_w = g->nodes[static_cast<size_t>(prev)].kind() == OpKind::Conv ||
                                       g->nodes[static_cast<size_t>(prev)].kind() == OpKind::Gemm
                                   ? pg.weight_bytes() + bits_to_bytes(int64_t{pg.n_c} * pg.cout, pg.cb)
                                   : 0;
        const int64_t full = dory_policy_budgets(spec).l2;
        b.l3_in_cap = std::max<int64_t>(1, full - reservation(node, &unused) - pg.in_bytes() - prev_w);
        b.l3_ow_cap = std::max<int64_t>(1, b.l2 - b.l3_in_cap);
      }
    }
  }
  if (b.l2 < 0) b.l2 = 0;
  return b;
}

Budgets deeploy_policy_budgets(const PlatformSpec& spec) {
  Budgets b;
  const auto& d = spec.budgets.deeploy;
  if (d.present) {
    const DeeployBudgets db = deeploy_budgets(spec);
    b.l1 = db.l1; b.l2 = db.l2; b.l3 = db.l3;
    b.nc = cores_of(spec, d.n_cores);
  } else if (spec.budgets.dory.present) {   // no budgets.deeploy: DORY's usable budgets
    const DoryBudgets db = dory_budgets(spec);
    b.l1 = db.l1; b.l2 = db.l2; b.l3 = db.l3;
    b.nc = cores_of(spec, spec.budgets.dory.n_cores);
  } else {                                   // no budgets at all: the memory sizes
    b.l1 = spec.l1.size; b.l2 = spec.l2.size; b.l3 = spec.l3.size;
    b.nc = cores_of(spec, 0);
  }
  if (spec.l3.size <= 0) b.l3 = 0;
  // Deeploy's coefficient 2 (double-buffer loop), unless the platform's DMA only allows single
  // buffering (budgets.dory.db = 1, GAP8's blocking transfers): then Deeploy's single-buffer
  // coefficients (all 1). This is also the buffering the schedule builder uses.
  b.db = spec.budgets.dory.present && spec.budgets.dory.db == 1 ? 1 : 2;
  return b;
}

Budgets deeploy_tiler_budgets(const PlatformSpec& spec, int buffering) {
  Budgets b = deeploy_policy_budgets(spec);
  b.layout_ops_in_l1 = true;   // Concat and Transpose through L1, as every op (flow untiled: none)
  if (buffering == 1 || buffering == 2) b.db = buffering;
  return b;
}

}  // namespace edgesim
