// The tiled step of the analytic cost (analytic.cc states the model): loops over the L2 slabs
// of the step (batch element -> Cout slab -> row slab, as build_layer.cc), and inside a slab over
// tile classes (Cout kind × H kind × W kind, analytic_internal.h), never over single tiles.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <tuple>

#include "compiler/tune/analytic_layer.h"
#include "kernels/cost/cluster_cost.h"

namespace edgesim::tune_detail {

namespace {

using Key = std::array<int64_t, 8>;   // (start, extent) per tile index n, c, h, w of a box

Key box_key(const bool dep[4], int64_t b, int64_t c0, int64_t nc, const Win& h, const Win& w) {
  Key k{};
  if (dep[kN]) k[0] = b, k[1] = 1;
  if (dep[kC]) k[2] = c0, k[3] = nc;
  if (dep[kH]) k[4] = h.start, k[5] = h.n;
  if (dep[kW]) k[6] = w.start, k[7] = w.n;
  return k;
}

// Calls add(ci, hi, wi, count) for the tiles of a slab at which an operand whose box depends on
// the tile indices `dep` is loaded: every tile, or those whose box differs from the previous
// tile's in Cout -> H -> W order; `first`: tile 0 loads (its box differs from the last one).
template <class F>
void for_loads(const DimTiles& c, const DimTiles& h, const DimTiles& w, const bool dep[4], bool every, bool first,
               F&& add) {
  auto cnt = [](const DimTiles& d, size_t i) { return d.kinds[i].count - (i == 0 ? 1 : 0); };
  const size_t nc = c.kinds.size(), nh = h.kinds.size(), nw = w.kinds.size();
  if (every) {
    for (size_t ci = 0; ci < nc; ++ci)
      for (size_t hi = 0; hi < nh; ++hi)
        for (size_t wi = 0; wi < nw; ++wi) add(ci, hi, wi, c.kinds[ci].count * h.kinds[hi].count * w.kinds[wi].count);
    return;
  }
  if (first) add(size_t{0}, size_t{0}, size_t{0}, int64_t{1});
  if (dep[kW] && w.tiles > 1)   // W steps
    for (size_t ci = 0; ci < nc; ++ci)
      for (size_t hi = 0; hi < nh; ++hi)
        for (size_t wi = 0; wi < nw; ++wi)
          if (const int64_t k = c.kinds[ci].count * h.kinds[hi].count * cnt(w, wi)) add(ci, hi, wi, k);
  if (h.tiles > 1 && (dep[kH] || (dep[kW] && w.tiles > 1)))   // H steps (W wraps to 0)
    for (size_t ci = 0; ci < nc; ++ci)
      for (size_t hi = 0; hi < nh; ++hi)
        if (const int64_t k = c.kinds[ci].count * cnt(h, hi)) add(ci, hi, size_t{0}, k);
  if (c.tiles > 1 && (dep[kC] || (dep[kH] && h.tiles > 1) || (dep[kW] && w.tiles > 1)))   // Cout steps
    for (size_t ci = 0; ci < nc; ++ci)
      if (const int64_t k = cnt(c, ci)) add(ci, size_t{0}, size_t{0}, k);
}

int64_t pick(int64_t v, int64_t full) { return v <= 0 ? full : std::min(v, full); }

// The tiles of a step along W (one tile without a W dimension).
DimTiles w_tiles(const Layer& L, const LayerTiling& t) {
  const int64_t tw = t.l1.whole ? L.W : pick(t.l1.w_out, L.W);
  return L.wd < 0 ? plain_tiles(0, 1, 1)
                  : L.windows ? dim_tiles(0, L.W, tw, L.kw, L.sw, L.dw, L.pl, L.win)
                              : plain_tiles(0, L.W, tw);
}

// The tile classes of one L2 slab (Cout kind × H kind × W kind) and per class its kernel job,
// its per-tile loads (pipelined: of the operands loaded at every tile) and its store.
struct SlabClasses {
  const DimTiles& Ct;
  const DimTiles& Ht;
  const DimTiles& Wt;
  size_t nck, nhk, nwk, ncls;
  std::vector<int64_t> kc;
  std::vector<Dma> ld, st;

  size_t idx(size_t ci, size_t hi, size_t wi) const { return (ci * nhk + hi) * nwk + wi; }
  // The cycles of tile class a followed by class b when pipelined: max(K + issue(store) +
  // issue(next load), transfer(next load), issue + transfer of its store (a store is issued only
  // after the previous one's transfer: both write the output's home, so the builder chains
  // them)), the next tile's load running under this tile's kernel.
  int64_t pair(size_t a, size_t b) const {
    return std::max({kc[a] + st[a].issue + ld[b].issue, ld[b].transfer, st[a].sum()});
  }
};

// Per tile P = SlabClasses::pair of its class and its successor's, summed over the pairs
// (tile class -> class of its successor in Cout -> H -> W order) with their counts.
int64_t tile_pair_sum(const SlabClasses& c) {
  int64_t sum_p = 0;
  auto runs = [](const DimTiles& d, auto&& f) {   // f(from kind, to kind, count) inside one pass
    for (size_t k = 0; k < d.kinds.size(); ++k) {
      if (d.kinds[k].count > 1) f(k, k, d.kinds[k].count - 1);
      if (k + 1 < d.kinds.size()) f(k, k + 1, int64_t{1});
    }
  };
  const size_t wl = c.nwk - 1, hl = c.nhk - 1;
  for (size_t ci = 0; ci < c.nck; ++ci)
    for (size_t hi = 0; hi < c.nhk; ++hi)   // W steps inside each row of tiles
      runs(c.Wt, [&](size_t a, size_t b2, int64_t m) {
        sum_p += c.Ct.kinds[ci].count * c.Ht.kinds[hi].count * m * c.pair(c.idx(ci, hi, a), c.idx(ci, hi, b2));
      });
  for (size_t ci = 0; ci < c.nck; ++ci)     // H steps: end of a row -> start of the next
    runs(c.Ht, [&](size_t a, size_t b2, int64_t m) {
      sum_p += c.Ct.kinds[ci].count * m * c.pair(c.idx(ci, a, wl), c.idx(ci, b2, 0));
    });
  runs(c.Ct, [&](size_t a, size_t b2, int64_t m) { sum_p += m * c.pair(c.idx(a, hl, wl), c.idx(b2, 0, 0)); });
  return sum_p;
}

// Loads of the reused operands (weights, constants) when pipelined: per Cout kind one Cout
// change's w + constant loads and how many such changes; tile 0's (the prologue).
struct ReusedLoads {
  std::vector<Dma> reuse;
  std::vector<int64_t> reuse_n;
  Dma pro;
};

// The walk of step_cycles over the L2 slabs of a step: the slab loop's tiles along W, what the
// previous slab and its last tile loaded, the cycles of slab shapes already costed.
struct StepWalk {
  StepWalk(const Layer& layer, const LayerTiling& tiling, Env& env)
      : L(layer), t(tiling), e(env), nin(L.in.size()), slab_c(pick(t.l3.n_out, L.C)), slab_h(pick(t.l3.h_out, L.H)),
        Wt(w_tiles(L, t)), serial(t.l1.db < 2), pipelined(!serial && max_tiles() > 1), prev(nin + 1),
        prev_slab(nin + 1), have(nin + 1, false), have_slab(nin + 1, false), src(nin) {
    for (int bits : L.cvec) cdep[kC] = cdep[kC] || (bits & 1), cdep[kH] = cdep[kH] || (bits & 2);
  }

  const Layer& L;
  const LayerTiling& t;
  Env& e;
  const size_t nin;
  const int64_t slab_c, slab_h;
  const DimTiles Wt;
  const bool serial;
  const bool pipelined;          // L1 double buffers
  bool cdep[4] = {false, false, false, false};   // the constant vectors' boxes depend on Cout / H
  std::vector<Key> prev, prev_slab;
  std::vector<bool> have, have_slab;
  int64_t pending_store = 0;     // y slab store of the previous slab (non-serial: overlaps this slab)
  int64_t prev_slab_time = -1;   // L1 time of the previous slab (hides the next slab loads)
  std::vector<Shape> src;        // per input, the strides tiles load from: its home or L2 slab
  Shape ydst;                    // where tiles store y: its home or L2 slab
  std::map<int64_t, DimTiles> h_memo;                                   // row slab start -> H tiles
  std::map<std::tuple<int64_t, int64_t, uint64_t>, int64_t> slab_memo;   // (Cout slab size, row slab, loads of tile 0)

  int64_t max_tiles() const {
    auto cdiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
    return t.l1.whole ? 1
                      : cdiv(slab_c, pick(t.l1.n_out, slab_c)) * cdiv(slab_h, pick(t.l1.h_out, slab_h)) * Wt.tiles;
  }

  // Cycles of the step: per L2 slab its L3 copies and its L1 work, overlapped when double-buffered.
  int64_t cycles() {
    int64_t total = e.deeploy ? 0 : e.fork;   // DORY: one team fork per layer
    for (int64_t b = 0; b < L.nbatch; ++b)
      for (int64_t sc = 0; sc < L.C; sc += slab_c)
        for (int64_t sh = 0; sh < L.H; sh += slab_h) {
          const int64_t nc_s = std::min(slab_c, L.C - sc), nh_s = std::min(slab_h, L.H - sh);
          const int64_t tc = t.l1.whole ? nc_s : pick(t.l1.n_out, nc_s);
          const int64_t th = t.l1.whole ? nh_s : pick(t.l1.h_out, nh_s);
          const DimTiles Ct = plain_tiles(sc, nc_s, tc);
          const DimTiles& Ht = row_tiles(sh, nh_s, th);
          int64_t l3_in = 0, l3_out = 0;
          l3_slab_copies(b, sc, nc_s, Ht, l3_in, l3_out);
          const uint64_t mask = first_tile_loads(b, Ct, Ht);
          const auto memo_key = std::make_tuple(nc_s, sh, mask);
          auto memo_it = slab_memo.find(memo_key);
          const int64_t slab = memo_it != slab_memo.end() ? memo_it->second : slab_cycles(Ct, Ht, mask);
          if (memo_it == slab_memo.end()) slab_memo.emplace(memo_key, slab);
          add_slab(total, l3_in, slab, l3_out);
        }
    return total + pending_store;
  }

  const DimTiles& row_tiles(int64_t sh, int64_t nh_s, int64_t th) {
    auto hit = h_memo.find(sh);
    if (hit == h_memo.end())
      hit = h_memo.emplace(sh, L.windows ? dim_tiles(sh, nh_s, th, L.kh, L.sh, L.dh, L.pt, L.hin)
                                         : plain_tiles(sh, nh_s, th)).first;
    return hit->second;
  }

  // L3 slabs: loads at the start of the slab, the output slab stored after it.
  void l3_slab_copies(int64_t b, int64_t sc, int64_t nc_s, const DimTiles& Ht, int64_t& l3_in, int64_t& l3_out) {
    const Win hu{Ht.first.start, Ht.last.start + Ht.last.n - Ht.first.start, 0, 0};
    const Win wu{Wt.first.start, Wt.last.start + Wt.last.n - Wt.first.start, 0, 0};
    for (size_t k = 0; k < nin; ++k) {
      const Operand& o = L.in[k];
      src[k] = o.home;
      if (!o.l3) continue;
      const Shape ext = slab_ext(L, k, nc_s, Ht, Wt);
      src[k] = packed_like(ext, o.home);
      const Key key = box_key(o.dep, b, sc, nc_s, hu, wu);
      if (!have_slab[k] || key != prev_slab[k]) l3_in += l3_copy(e, ext, o.home, src[k], o.esize);
      have_slab[k] = true, prev_slab[k] = key;
    }
    ydst = L.y.home;
    if (L.y.l3) {
      const Shape ext = slab_ext(L, nin, nc_s, Ht, Wt);
      ydst = packed_like(ext, L.y.home);
      l3_out = l3_copy(e, ext, ydst, L.y.home, L.y.esize);
    }
  }

  // Whether each reused operand (and the constants) loads at tile 0: its box differs from
  // the one the previous slab's last tile used.
  uint64_t first_tile_loads(int64_t b, const DimTiles& Ct, const DimTiles& Ht) {
    uint64_t mask = 0;
    for (size_t k = 0; k <= nin; ++k) {
      const bool consts = k == nin;
      if (consts && L.cvec.empty()) continue;
      const bool* dep = consts ? cdep : L.in[k].dep;
      const Win hf = consts || !L.windows ? Win{Ht.first_o0, Ht.first_n, 0, 0} : Ht.first;
      const Win hl = consts || !L.windows ? Win{Ht.last_o0, Ht.last_n, 0, 0} : Ht.last;
      const Key kf = box_key(dep, b, Ct.first_o0, Ct.first_n, hf, Wt.first);
      if (!have[k] || kf != prev[k]) mask |= uint64_t{1} << std::min<size_t>(k, 63);
      have[k] = true, prev[k] = box_key(dep, b, Ct.last_o0, Ct.last_n, hl, Wt.last);
    }
    return mask;
  }

  void add_slab(int64_t& total, int64_t l3_in, int64_t slab, int64_t l3_out) {
    if (serial) {
      total += l3_in + slab + l3_out;
    } else {   // slab copies overlap the neighbouring slabs' L1 work when double-buffered
      const bool pre = std::any_of(L.in.begin(), L.in.end(), [](const Operand& o) { return o.l3 && o.slab_db >= 2; });
      total += (pre && prev_slab_time >= 0 ? std::max<int64_t>(0, l3_in - prev_slab_time) : l3_in) + slab;
      prev_slab_time = slab;
      total += std::max<int64_t>(0, pending_store - slab);
      pending_store = L.y.slab_db >= 2 ? l3_out : 0;
      if (L.y.slab_db < 2) total += l3_out;
    }
  }

  // The L1 work of one slab.
  int64_t slab_cycles(const DimTiles& Ct, const DimTiles& Ht, uint64_t mask) {
    const SlabClasses c = class_costs(Ct, Ht);
    ReusedLoads r;
    const int64_t slab = reused_loads(c, mask, r);
    return pipelined ? pipelined_slab(c, r, mask, slab) : serial_slab(c, slab);
  }

  Dma load_cost(const SlabClasses& c, size_t k, size_t ci, size_t hi, size_t wi) {
    const Operand& o = L.in[k];
    const Shape ext = tile_ext(L, k, c.Ct.kinds[ci].n, c.Ht.kinds[hi], c.Wt.kinds[wi]);
    const int64_t gather = o.gather ? ext[1] : 0;
    return l1_copy(e, ext, src[k], packed_like(ext, o.home), o.esize, true, 0, gather);
  }

  Dma const_cost(const SlabClasses& c, size_t ci, size_t hi) {
    Dma r;
    int64_t off = 0;
    for (size_t v = 0; v < L.cvec.size(); ++v) {
      const int bits = L.cvec[v];
      const int64_t nc = bits & 1 ? c.Ct.kinds[ci].n : 1, nh = bits & 2 ? c.Ht.kinds[hi].n : 1;
      const Shape ext = bits == 3 ? Shape{nh, nc} : Shape{nc * nh};
      const Shape s = bits == 3 ? Shape{L.C, 1} : Shape{1};
      const Shape d = bits == 3 ? Shape{nc, 1} : Shape{1};
      const Dma cp = l1_copy(e, ext, s, d, 4, true, off, 0);
      r.issue += cp.issue, r.transfer += cp.transfer;
      off += nc * nh * 4;
    }
    return r;
  }

  // Per class: kernel job, per-tile loads, store.
  SlabClasses class_costs(const DimTiles& Ct, const DimTiles& Ht) {
    const size_t nck = Ct.kinds.size(), nhk = Ht.kinds.size(), nwk = Wt.kinds.size();
    const size_t ncls = nck * nhk * nwk;
    SlabClasses c{Ct, Ht, Wt, nck, nhk, nwk, ncls, std::vector<int64_t>(ncls), std::vector<Dma>(ncls),
                  std::vector<Dma>(ncls)};
    for (size_t ci = 0; ci < nck; ++ci)
      for (size_t hi = 0; hi < nhk; ++hi)
        for (size_t wi = 0; wi < nwk; ++wi) {
          const Kind& ck = Ct.kinds[ci];
          const Kind& hk = Ht.kinds[hi];
          const Kind& wk = Wt.kinds[wi];
          std::vector<Shape> ins, outs{tile_ext(L, nin, ck.n, hk, wk)};
          for (size_t k = 0; k < nin; ++k) ins.push_back(tile_ext(L, k, ck.n, hk, wk));
          const size_t i = c.idx(ci, hi, wi);
          c.kc[i] = cluster_kernel_cost(tile_params(L, ck.n, hk, wk), ins, outs, e.workers, {0, e.deeploy, e.dw3x3_s1}).cycles + e.wake + e.bar +
                    (e.deeploy ? e.fork : 0);
          c.st[i] = l1_copy(e, outs[0], packed_like(outs[0], L.y.home), ydst, L.y.esize, false, 0, 0);
          if (pipelined)
            for (size_t k = 0; k < nin; ++k)
              if (!L.in[k].reuse) {
                const Dma d = load_cost(c, k, ci, hi, wi);
                c.ld[i].issue += d.issue, c.ld[i].transfer += d.transfer;
              }
        }
    return c;
  }

  // Loads of reused operands (weights, constants; every operand when not pipelined): returns
  // their cycles in the slab (not pipelined: all of them; pipelined: the issue of the rows of a
  // Gemm's per-row constants); pipelined, the Cout changes' and tile 0's loads go to `r`.
  int64_t reused_loads(const SlabClasses& c, uint64_t mask, ReusedLoads& r) {
    r.reuse.assign(c.nck, Dma{});   // pipelined: one Cout change's w + constant loads, per kind
    r.reuse_n.assign(c.nck, 0);
    int64_t slab = 0;
    for (size_t k = 0; k <= nin; ++k) {
      const bool consts = k == nin;
      if (consts && L.cvec.empty()) continue;
      if (!consts && pipelined && !L.in[k].reuse) continue;
      const bool* dep = consts ? cdep : L.in[k].dep;
      const bool first = (mask >> std::min<size_t>(k, 63)) & 1;
      auto cost = [&](size_t ci, size_t hi, size_t wi) { return consts ? const_cost(c, ci, hi) : load_cost(c, k, ci, hi, wi); };
      if (pipelined && first) {   // tile 0's reused loads (prologue)
        const Dma d = cost(0, 0, 0);
        r.pro.issue += d.issue, r.pro.transfer += d.transfer;
      }
      for_loads(c.Ct, c.Ht, c.Wt, dep, e.every_tile && !pipelined, first && !pipelined, [&](size_t ci, size_t hi, size_t wi, int64_t n) {
        const Dma d = cost(ci, hi, wi);
        if (!pipelined) {
          slab += n * d.sum();
        } else if (hi == 0 && wi == 0) {   // a Cout change
          r.reuse[ci].issue += d.issue, r.reuse[ci].transfer += d.transfer;
          r.reuse_n[ci] = n;
        } else {                           // rows of a Gemm's per-row constants: issue only
          slab += n * d.issue;
        }
      });
    }
    return slab;
  }

  // Single-buffered: every tile's kernel and store one after the other.
  int64_t serial_slab(const SlabClasses& c, int64_t slab) const {
    for (size_t i = 0; i < c.ncls; ++i) {
      const size_t ci = i / (c.nhk * c.nwk), hi = (i / c.nwk) % c.nhk, wi = i % c.nwk;
      const int64_t n = c.Ct.kinds[ci].count * c.Ht.kinds[hi].count * c.Wt.kinds[wi].count;
      slab += n * (c.kc[i] + c.st[i].sum());
    }
    return slab;
  }

  // Double-buffered: the tiles' pipeline (tile_pair_sum), the Cout changes' loads under the
  // previous Cout tile, the prologue and the last tile's kernel and store.
  int64_t pipelined_slab(const SlabClasses& c, const ReusedLoads& r, uint64_t mask, int64_t slab) {
    int64_t sum_p = tile_pair_sum(c);
    std::vector<int64_t> sp(c.nck, 0), sx(c.nck, 0);
    for (size_t i = 0; i < c.ncls; ++i) {
      const size_t ci = i / (c.nhk * c.nwk), hi = (i / c.nwk) % c.nhk, wi = i % c.nwk;
      const int64_t per = c.Ht.kinds[hi].count * c.Wt.kinds[wi].count;
      sp[ci] += per * c.pair(i, i);
      sx[ci] += per * c.ld[i].transfer;
    }
    // A Cout change loads w / constants into the free buffer during the previous Cout
    // tile: its issue occupies the cluster, its transfer the channel's slack.
    for (size_t ci = 0; ci < c.nck; ++ci) {
      if (r.reuse_n[ci] == 0) continue;
      const Dma& ru = r.reuse[ci];
      const int64_t after_same = c.Ct.kinds[ci].count - 1;   // preceded by a tile of the same kind
      slab += after_same * std::max(ru.issue, sx[ci] + ru.transfer - sp[ci]);
      if (ci > 0) slab += std::max(ru.issue, sx[ci - 1] + ru.transfer - sp[ci - 1]);
    }
    const size_t last = c.ncls - 1;
    // Tile 1's input load is ready at the start too (its buffer is unused). With several
    // constant vectors, the second one's copy waits for the first one's transfer (they
    // share the c buffer), so tile 1's input transfer lands before tile 0 can start.
    const size_t second = c.Wt.tiles > 1   ? c.idx(0, 0, c.Wt.kinds[0].count > 1 ? 0 : 1)
                          : c.Ht.tiles > 1 ? c.idx(0, c.Ht.kinds[0].count > 1 ? 0 : 1, 0)
                                           : c.idx(c.Ct.kinds[0].count > 1 ? 0 : std::min<size_t>(1, c.nck - 1), 0, 0);
    const bool chained = L.cvec.size() > 1 && (mask >> std::min<size_t>(nin, 63) & 1);
    int64_t prologue = std::max(r.pro.issue + 2 * c.ld[0].issue, c.ld[0].issue + c.ld[0].transfer + r.pro.transfer);
    if (chained) {
      // ... and so do the next Cout tile's w and constants (their buffers are free), the
      // constant copies of both chained: one issue after each earlier transfer.
      const size_t nxt = c.Ct.kinds[0].count > 1 ? 0 : std::min<size_t>(1, c.nck - 1);
      const bool next_c = c.Ct.tiles > 1 && r.reuse_n[nxt] > 0;
      const int64_t vec_issue = const_cost(c, 0, 0).issue / static_cast<int64_t>(L.cvec.size());
      prologue += c.ld[second].transfer + (next_c ? r.reuse[nxt].transfer : 0) +
                  static_cast<int64_t>(L.cvec.size() - 1) * vec_issue * (next_c ? 2 : 1);
      if (next_c) slab -= std::max(r.reuse[nxt].issue, sx[0] + r.reuse[nxt].transfer - sp[0]);
      sum_p += std::max(c.kc[0] + c.st[0].issue + c.ld[second].issue, c.st[0].sum()) - c.pair(0, second);
    }
    slab += prologue + sum_p + c.kc[last] + c.st[last].sum();
    return slab;
  }
};

}  // namespace

int64_t step_cycles(const Layer& L, const LayerTiling& t, Env& e) {
  StepWalk walk(L, t, e);
  return walk.cycles();
}

}  // namespace edgesim::tune_detail
