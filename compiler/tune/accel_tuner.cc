// tune_accel_layer (accel_tuner.h).
#include "compiler/flows/flow.h"
#include "compiler/tune/accel_tuner.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "compiler/tiler/internal.h"
#include "kernels/aimc/cost.h"
#include "kernels/soma/cost.h"

namespace edgesim {

namespace {

// One copy of `bytes` at the DMA's rate (simple_dma: setup + ⌈bytes / rate⌉ + L2 latency).
int64_t dma(int64_t bytes, const PlatformSpec& p) {
  const DmaSpec& d = p.cluster.dma;
  const double bpc = d.bytes_per_cycle > 0 ? d.bytes_per_cycle : 8.0;
  return d.setup_cycles + (p.fidelity.dma_ext_latency ? d.l2_latency : 0) +
         static_cast<int64_t>(std::ceil(static_cast<double>(bytes) / bpc));
}

int64_t in_ext(int64_t out, int64_t full_out, int64_t full_in, int64_t k, int64_t s) {
  return out >= full_out ? full_in : std::min(full_in, (out - 1) * s + k);
}

}  // namespace

bool is_diana_accel_layer(const Graph& g, int node, const PlatformSpec& spec) {
  const std::string& e = g.nodes.at(static_cast<size_t>(node)).engine;
  return e == "aimc" || (e == "npu" && spec.npu.present && spec.npu.impl == "soma");
}

int64_t diana_estimate(const LayerGeom& g, const LayerTiling& t, const PlatformSpec& spec, bool aimc) {
  const int64_t N = t.l3.n_out > 0 ? t.l3.n_out : g.cout, H = t.l3.h_out > 0 ? t.l3.h_out : g.h_out, W = g.w_out;
  const int64_t tn = std::min(t.l1.n_out, N), th = std::min(t.l1.h_out, H), tw = std::min(t.l1.w_out, W);
  const bool gemm = g.kind == OpKind::Gemm, chan = g.depthwise || g.kind == OpKind::Add || g.kind == OpKind::Pool;
  // The tiles fall into classes (body / remainder) along each dimension: (extent, count).
  auto classes = [](int64_t full, int64_t t) {
    std::vector<std::pair<int64_t, int64_t>> v{{t, full / t}};
    if (full % t) v.emplace_back(full % t, 1);
    return v;
  };
  auto job = [&](int64_t n, int64_t h, int64_t w, bool program) {
    if (aimc) {
      AimcJob j;
      j.c = g.cin, j.k = n, j.fx = g.kw, j.fy = g.kh, j.stride = g.sw, j.ox = w, j.oy = h, j.program = program;
      return aimc_job_cost(j, spec).cycles;
    }
    SomaJob j;
    j.op = gemm ? SomaOp::Dense : g.kind == OpKind::Add ? SomaOp::Add : g.kind == OpKind::Pool ? SomaOp::Pool
           : g.depthwise ? SomaOp::Depthwise : SomaOp::Conv;
    j.k = n, j.c = chan ? n : g.cin, j.ox = w, j.oy = h, j.fx = g.kw, j.fy = g.kh, j.rows = h;
    j.elements = n * h * w;
    return soma_job_cost(j, spec.npu).cycles;
  };
  int64_t total = 0;
  for (const auto& [n, cn] : classes(N, tn)) {
    int64_t per_block = 0;
    for (const auto& [h, ch] : classes(H, th))
      for (const auto& [w, cw] : classes(W, tw)) {
        const int64_t nin = chan ? n : g.cin;
        const int64_t x = gemm ? h * g.cin : nin * in_ext(h, g.h_out, g.h_in, g.kh, g.sh) * in_ext(w, g.w_out, g.w_in, g.kw, g.sw);
        per_block += ch * cw * (dma(x * (g.kind == OpKind::Add ? 2 : 1), spec) + dma(n * h * w, spec) + job(n, h, w, false));
      }
    if (aimc)   // the first tile of each output-channel block programs the array
      per_block += job(n, th, tw, true) - job(n, th, tw, false);
    else if (g.kind != OpKind::Add && g.kind != OpKind::Pool)   // weights and bias into the weight memory
      per_block += dma(n * (g.depthwise ? 1 : g.cin) * g.kh * g.kw, spec) + dma(4 * n, spec);
    total += cn * per_block;
  }
  return total;
}

LayerTuneResult tune_accel_layer(const Graph& g, int node, const TilingContext& ctx, const PlatformSpec& spec,
                                 const AnalyticContext& actx, const TuneOptions& opt) {
  LayerTuneResult r;
  r.node = node;
  r.name = g.nodes.at(static_cast<size_t>(node)).name;
  const bool aimc = g.nodes.at(static_cast<size_t>(node)).engine == "aimc";
  const LayerGeom geom = layer_geom(g, node);
  LayerTiling base;
  try {   // DORY's L3 decision (DIANA has no L3: the whole layer), as tile_graph takes it
    base = make_policy("dory")->tile(geom, ctx);
  } catch (const TilingError& e) {
    if (e.level() != "L1") throw;
    base = LayerTiling{};
    base.node = node;
    base.l3.n_out = geom.cout, base.l3.h_out = geom.h_out, base.l3.h_in = geom.h_in;
  }
  base.policy = "dory";
  const Budgets b = policy_budgets(spec, "dory");
  r.dory = aimc ? aimc_tile(geom, ctx, base, b) : soma_tile(geom, ctx, base, b);
  r.has_dory = true;
  std::vector<Candidate> cands{{r.dory, "dory"}};
  cands.back().tiling.policy = "tuned";
  for (const L1Tiling& l : aimc ? aimc_candidates(geom, ctx, base, b) : soma_candidates(geom, ctx, base, b)) {
    Candidate c{base, "enum"};
    c.tiling.policy = "tuned";
    c.tiling.l1 = l;
    if (l.n_out == r.dory.l1.n_out && l.h_out == r.dory.l1.h_out && l.w_out == r.dory.l1.w_out) continue;
    cands.push_back(std::move(c));
  }
  std::vector<int64_t> est;
  for (const Candidate& c : cands) est.push_back(diana_estimate(geom, c.tiling, spec, aimc));
  r.ranked = cands.size();
  std::vector<size_t> order(cands.size() - 1);
  std::iota(order.begin(), order.end(), 1);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t c) { return est[a] < est[c]; });
  std::vector<Candidate> batch{{r.dory, "dory"}, cands[0]};   // the reference as run, and as a tuned candidate
  std::vector<int64_t> batch_est{est[0], est[0]};
  for (size_t i = 0; i < order.size() && i < opt.top_k; ++i) batch.push_back(cands[order[i]]), batch_est.push_back(est[order[i]]);
  std::vector<int64_t> cyc = batch_est;
  r.evaluator = "analytic";
  if (opt.simulator) {
    cyc = opt.simulator->cycles(g, node, batch, spec, actx);
    r.evaluator = opt.simulator->name();
  }
  r.simulated = batch.size();
  r.dory_cycles = cyc[0];
  size_t best = 1;
  for (size_t i = 2; i < batch.size(); ++i)
    if (cyc[i] >= 0 && (cyc[best] < 0 || cyc[i] < cyc[best])) best = i;
  r.tau = kendall_tau(std::vector<int64_t>(batch_est.begin() + 1, batch_est.end()),
                      std::vector<int64_t>(cyc.begin() + 1, cyc.end()));
  r.tuned = batch[best].tiling;
  r.tuned_cycles = cyc[best];
  return r;
}

}  // namespace edgesim
