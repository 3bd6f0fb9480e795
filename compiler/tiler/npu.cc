// L2->L1 tiles of layers assigned to the NPU (N-EUREKA / NE16), whatever the policy: the policy
// still makes the L3->L2 decision, then the NPU's own rules pick the L1 tile inside each L2 slab.
//
// Rules (docs/npu.md "Tiling NPU layers", Deeploy's Neureka tile constraints [97]):
//  * all input channels in every tile (no partial sums); depthwise: a channel tile is a multiple
//    of the NPU's depthwise block (npu.tp_in_3x3 = 28 on N-EUREKA, tp_in = 16 on NE16) or the
//    whole slab, so a tile's encoded weight rows are its own;
//  * candidates: Cout tiles of 1..tp_out−1 and multiples of tp_out (32), rows and columns of 1..5
//    and multiples of the PE array (6; 3 on NE16), each plus the whole slab;
//  * objective: the fewest estimated cycles for the slab — per tile class (body / remainder
//    along Cout, H, W) the larger of the NPU job's model cycles (kernels/npu, as DORY's NE16
//    tiler uses its latency model, [12] GAP9_NE16/Tiler) and the tile's activation DMA bytes at the
//    cluster DMA's rate, times the class's count, plus each Cout tile's weight and constant bytes
//    at that rate; ties go to the larger tile, then more rows, then more columns.
//  * L1 footprint (npu_footprint.h), ×db (the policy's buffering; a tile equal to its slab is
//    sized once, as the schedule then single-buffers it).
// Policy deeploy on an NE16 tiles 3×3 layers by Deeploy's own rules instead (ne16_deeploy.h).
#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "kernels/npu/cost_ne16.h"
#include "compiler/tiler/internal.h"
#include "compiler/tiler/ne16_deeploy.h"
#include "compiler/tiler/npu_footprint.h"

namespace edgesim {

namespace {

// 1..5 (small tiles for tight budgets), multiples of `step` up to `full`, and `full`.
std::vector<int64_t> cands(int64_t full, int64_t step, bool small) {
  std::vector<int64_t> v;
  if (small)
    for (int64_t x = 1; x < std::min<int64_t>(step, full); ++x) v.push_back(x);
  for (int64_t x = step; x < full; x += step) v.push_back(x);
  v.push_back(full);
  return v;
}

}  // namespace

std::vector<NpuTileCandidate> npu_tile_candidates(const LayerGeom& g, const TilingContext& ctx, const LayerTiling& base,
                                                  const Budgets& b, bool all_bufferings, int64_t* min_l1) {
  const PlatformSpec& spec = *ctx.spec;
  const NpuFootprint fp(g, ctx);
  const bool dw = g.depthwise;
  const int64_t slab_n = base.l3.n_out > 0 ? base.l3.n_out : g.cout;
  const int64_t slab_h = base.l3.h_out > 0 ? base.l3.h_out : g.h_out;
  const int64_t W = g.w_out;
  const int64_t dwb = fp.wg.channels_per_row;   // depthwise channel block
  const int64_t tp_out = spec.npu.tp_out > 0 ? spec.npu.tp_out : 32;
  const int64_t pe_h = spec.npu.pe_h > 0 ? spec.npu.pe_h : 6, pe_w = spec.npu.pe_w > 0 ? spec.npu.pe_w : 6;
  const int n_vec = fp.n_vec;
  auto w_bytes = [&](int64_t nc) { return fp.weight_bytes(nc); };
  auto act_bytes = [&](int64_t nc, int64_t h, int64_t w) { return fp.act_bytes(nc, h, w); };
  auto mem = [&](int64_t nc, int64_t h, int64_t w, int64_t db) { return fp.bytes(nc, h, w, db); };

  std::vector<NpuTileCandidate> out;
  auto make = [&](int64_t nc, int64_t h, int64_t w, int64_t db, bool whole, double est) {
    NpuTileCandidate k;
    L1Tiling& l = k.l1;
    l.n_out = nc, l.h_out = h, l.w_out = w;
    l.n_in = dw ? nc : g.cin;
    l.h_in = fp.in_h(h);
    l.w_in = fp.in_w(w);
    l.db = static_cast<int>(db);
    l.whole = whole;
    l.l1_bytes = mem(nc, h, w, db);
    k.estimate = est;
    out.push_back(k);
  };
  const int64_t db = std::max(1, b.db);
  const auto nc = dw ? cands(slab_n, dwb, false) : cands(slab_n, tp_out, true);
  const auto hc = cands(slab_h, pe_h, true), wc = cands(W, pe_w, true);
  // Estimated cycles of the slab under a tile: per tile class (body / remainder along Cout, H,
  // W) the NPU job's model cycles or its DMA bytes at the cluster DMA's rate, whichever is larger
  // (double buffering overlaps the two), times the class's count.
  const double dma_bw = spec.cluster.dma.present && spec.cluster.dma.bytes_per_cycle > 0 ? spec.cluster.dma.bytes_per_cycle : 8.0;
  NpuJob job;
  job.op = fp.wg.op;
  job.stride = g.sh;
  job.w_bits = fp.wg.w_bits;
  job.out_bits = g.by;
  job.per_channel_shift = false;
  job.bias = n_vec > 0;
  job.quantize = g.by == 8;
  auto tile_cycles = [&](int64_t c, int64_t h, int64_t w) {
    job.ki = dw ? c : g.cin, job.ko = c, job.ho = h, job.wo = w;
    const NpuCost k = spec.npu.impl == "ne16" ? ne16_job_cost(job, spec.npu) : neureka_job_cost(job, spec.npu);
    return std::max(static_cast<double>(k.cycles), static_cast<double>(act_bytes(c, h, w)) / dma_bw);
  };
  auto slab_cycles = [&](int64_t c, int64_t h, int64_t w) {
    const int64_t dims[3][2] = {{slab_n / c, slab_n % c}, {slab_h / h, slab_h % h}, {W / w, W % w}};
    const int64_t ext[3][2] = {{c, slab_n % c}, {h, slab_h % h}, {w, W % w}};
    double total = 0;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const int64_t count = (i ? (dims[0][1] > 0) : dims[0][0]) * (j ? (dims[1][1] > 0) : dims[1][0]) *
                                (k ? (dims[2][1] > 0) : dims[2][0]);
          if (count > 0) total += static_cast<double>(count) * tile_cycles(ext[0][i], ext[1][j], ext[2][k]);
        }
    // Weights and constants: loaded once per Cout tile.
    for (int i = 0; i < 2; ++i)
      if (dims[0][i] > 0)
        total += static_cast<double>(i ? 1 : dims[0][0]) * static_cast<double>(w_bytes(ext[0][i]) + n_vec * 4 * ext[0][i]) / dma_bw;
    return total;
  };
  if (min_l1) *min_l1 = mem(dw ? std::min(dwb, slab_n) : 1, 1, 1, db);
  // The slab in one tile (single-buffered) first: npu_tile takes it whenever it fits.
  if (mem(slab_n, slab_h, W, 1) <= b.l1) make(slab_n, slab_h, W, 1, true, slab_cycles(slab_n, slab_h, W));
  std::vector<int64_t> dbs{db};
  if (all_bufferings) dbs = {2, 1};
  for (int64_t c : nc)
    for (int64_t h : hc)
      for (int64_t w : wc)
        for (int64_t d : dbs) {
          if (c == slab_n && h == slab_h && w == W) continue;   // the whole slab: above
          if (mem(c, h, w, d) <= b.l1) make(c, h, w, d, false, slab_cycles(c, h, w));
        }
  return out;
}

LayerTiling npu_tile(const LayerGeom& g, const TilingContext& ctx, LayerTiling base, const Budgets& b) {
  // Policy deeploy on an NE16: Deeploy's own rules for its 3×3 layers (ne16_deeploy.h).
  if (b.ne16_deeploy_rules && ctx.spec->npu.impl == "ne16")
    if (const auto l1 = ne16_deeploy_tile(g, ctx, base, b)) {
      base.l1 = *l1;
      return base;
    }
  int64_t need = 0;
  const std::vector<NpuTileCandidate> cands = npu_tile_candidates(g, ctx, base, b, false, &need);
  if (!cands.empty() && cands.front().l1.whole) {
    base.l1 = cands.front().l1;
    return base;
  }
  // The fewest estimated cycles; ties go to the larger tile, then more rows, then more columns.
  using Key = std::tuple<double, int64_t, int64_t, int64_t>;   // (−cycles, volume, rows, cols): larger wins
  const NpuTileCandidate* best = nullptr;
  Key bk{0, 0, 0, 0};
  for (const NpuTileCandidate& c : cands) {
    const Key k{-c.estimate, c.l1.n_out * c.l1.h_out * c.l1.w_out, c.l1.h_out, c.l1.w_out};
    if (!best || k > bk) best = &c, bk = k;
  }
  if (!best)
    throw TilingError(fmt::format("{}: no NPU L2->L1 tile fits the L1 budget of {} B; needs at least {} B",
                                  layer_label(ctx.graph, g), b.l1, need),
                      g.node, "L1", need);
  base.l1 = best->l1;
  return base;
}

}  // namespace edgesim
