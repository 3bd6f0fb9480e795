// Test-only single-layer graphs for the autotuner tests: random small layers (dense, depthwise,
// pointwise and strided convs with border padding, linear layers, adds, max / sum pools; odd
// sizes, channel counts not multiples of 4, fixed seeds), hand-made tilings of them, and
// Kendall's tau of two cycle lists.
#pragma once
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/ir/graph.h"
#include "compiler/tiler/tiling.h"

namespace edgesim::test {

using TuneRng = std::mt19937_64;

inline int64_t draw(TuneRng& r, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); }

inline Tensor const_tensor(TuneRng& r, DType t, const Shape& s) {
  std::vector<int64_t> v(static_cast<size_t>(shape_numel(s)));
  for (auto& x : v) x = draw(r, -100, 100);
  return Tensor::from_ints(t, s, v);
}

inline Requant channel_rq(TuneRng& r, int64_t n, int axis) {
  Requant q;
  q.kind = Requant::Kind::Integer;
  q.axis = axis;
  q.k.clear(), q.lambda.clear();
  for (int64_t c = 0; c < n; ++c) q.k.push_back(draw(r, 1, 9)), q.lambda.push_back(draw(r, -400, 400));
  q.shift = 6;
  q.lo = 0;
  q.hi = 255;
  return q;
}

// kind: 0 conv, 1 depthwise, 2 pointwise, 3 linear, 4 add, 5 max pool, 6 sum pool.
// `scale` multiplies the channel / spatial ranges (1: tiny, 3: MobileNet-like sizes).
inline Graph tune_layer_graph(TuneRng& r, int kind, int64_t scale = 1) {
  Graph g;
  g.name = fmt::format("layer{}", kind);
  const int64_t C = draw(r, 1, 12 * scale), H = draw(r, 1, 10 * scale), W = draw(r, 1, 10 * scale);
  auto input = [&](const char* name, Shape s) { return g.add_tensor({name, DType::U8, std::move(s), std::nullopt, false}); };
  if (kind <= 2) {
    ConvParams p;
    const bool dw = kind == 1;
    const int64_t cout = dw ? C : draw(r, 1, 12 * scale);
    const int64_t k = kind == 2 ? 1 : 3;
    p.kh = std::min(k, H + 2), p.kw = std::min(k, W + 2);
    p.sh = kind == 2 ? 1 : draw(r, 1, 2), p.sw = p.sh;
    if (kind != 2) p.pad_t = p.pad_l = p.pad_b = p.pad_r = draw(r, 0, 1);
    if (H + p.pad_t + p.pad_b < p.kh) p.pad_b = p.kh - H - p.pad_t;
    if (W + p.pad_l + p.pad_r < p.kw) p.pad_r = p.kw - W - p.pad_l;
    p.groups = dw ? C : 1;
    const int64_t ho = ConvParams::out_size(H, p.kh, p.sh, 1, p.pad_t, p.pad_b);
    const int64_t wo = ConvParams::out_size(W, p.kw, p.sw, 1, p.pad_l, p.pad_r);
    if (draw(r, 0, 1))
      for (int64_t c = 0; c < cout; ++c) p.bias.push_back(draw(r, -2000, 2000));
    p.rq = channel_rq(r, cout, 1);
    const int x = input("x", {1, C, H, W});
    const Shape ws{cout, dw ? 1 : C, p.kh, p.kw};
    const int w = g.add_tensor({"w", DType::I8, ws, const_tensor(r, DType::I8, ws), false});
    const int y = g.add_tensor({"y", DType::U8, {1, cout, ho, wo}, std::nullopt, false});
    g.inputs = {x}, g.outputs = {y};
    g.nodes.push_back(Node{"Conv_0", p, {x, w}, {y}, {"Conv"}});
  } else if (kind == 3) {
    GemmParams p;
    const int64_t M = draw(r, 1, 3), K = draw(r, 1, 40 * scale), N = draw(r, 1, 12 * scale);
    for (int64_t n = 0; n < N; ++n) p.bias.push_back(draw(r, -3000, 3000));
    p.bias_shape = {N};
    p.rq = channel_rq(r, N, 1);
    const int a = input("a", {M, K});
    const int b = g.add_tensor({"b", DType::I8, {K, N}, const_tensor(r, DType::I8, {K, N}), false});
    const int y = g.add_tensor({"y", DType::U8, {M, N}, std::nullopt, false});
    g.inputs = {a}, g.outputs = {y};
    g.nodes.push_back(Node{"Gemm_0", p, {a, b}, {y}, {"Gemm"}});
  } else if (kind == 4) {
    AddParams p;
    p.rq.kind = Requant::Kind::Integer;
    p.rq.shift = 1, p.rq.lo = 0, p.rq.hi = 255;
    const int a = input("a", {1, C, H, W});
    const int b = input("b", {1, C, H, W});
    const int y = g.add_tensor({"y", DType::U8, {1, C, H, W}, std::nullopt, false});
    g.inputs = {a, b}, g.outputs = {y};
    g.nodes.push_back(Node{"Add_0", p, {a, b}, {y}, {"Add"}});
  } else {
    PoolParams p;
    p.kind = kind == 5 ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
    p.kh = std::min<int64_t>(draw(r, 1, 3), H), p.kw = std::min<int64_t>(draw(r, 1, 3), W);
    p.sh = draw(r, 1, 2), p.sw = draw(r, 1, 2);
    p.pad_t = draw(r, 0, p.kh - 1), p.pad_l = draw(r, 0, p.kw - 1);
    p.rq.lo = 0, p.rq.hi = 255;
    if (kind == 6) p.rq.kind = Requant::Kind::Integer, p.rq.shift = 2;
    const int64_t ho = (H + p.pad_t - p.kh) / p.sh + 1, wo = (W + p.pad_l - p.kw) / p.sw + 1;
    const int x = input("x", {1, C, H, W});
    const int y = g.add_tensor({"y", DType::U8, {1, C, ho, wo}, std::nullopt, false});
    g.inputs = {x}, g.outputs = {y};
    g.nodes.push_back(Node{"Pool_0", p, {x}, {y}, {"MaxPool"}});
  }
  g.validate();
  return g;
}

// A random L1 tiling of node 0 (output tile extents; 0 = whole dimension).
inline LayerTiling random_tiling(TuneRng& r, const LayerGeom& geom, int db, const std::string& policy = "dory") {
  LayerTiling t;
  t.node = 0;
  t.policy = policy;
  int64_t unit = geom.kind == OpKind::Conv && geom.groups > 1 && !geom.depthwise ? geom.cout / geom.groups : 1;
  t.l1.n_out = draw(r, 1, std::max<int64_t>(1, geom.cout / unit)) * unit;
  t.l1.h_out = draw(r, 1, geom.h_out);
  t.l1.w_out = draw(r, 1, geom.w_out);
  t.l1.n_in = geom.cin;
  t.l1.db = db;
  return t;
}

inline double tau(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  int64_t s = 0, n = static_cast<int64_t>(std::min(a.size(), b.size()));
  if (n < 2) return 1.0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j) {
      const auto x = (a[i] > a[j]) - (a[i] < a[j]), y = (b[i] > b[j]) - (b[i] < b[j]);
      s += x * y;
    }
  return static_cast<double>(s) / (static_cast<double>(n) * static_cast<double>(n - 1) / 2.0);
}

}  // namespace edgesim::test
