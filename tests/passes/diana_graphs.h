// Test-only graphs for DIANA (engine rules, tiler, simulator tests): one conv layer in HTVM's
// relay form — int8 (or a narrower range) input, weights int8 or ternary, int32 bias, the
// requant clamp((acc + bias) >> shift, lo, hi) — on an input tensor whose value range the test
// chooses through a leading Clip node (the producer the rules read the range from).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "kernels/ir/graph.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

namespace edgesim::test {

struct DianaConv {
  int64_t cin = 16, cout = 16, h = 8, w = 8;
  int64_t k = 3, stride = 1, pad = 1;
  int64_t groups = 1;
  bool ternary = false;
  int shift = 6;
  int64_t lo = -128, hi = 127;      // output clamp
  int64_t in_lo = -128, in_hi = 127; // input range (a Clip in front when narrower than int8)
};

inline PlatformSpec diana_platform(const std::vector<std::string>& overrides = {}) {
  return load_platform(source_dir() + "/platforms/diana.yaml", overrides);
}

// Appends conv node `name` reading tensor x; returns its output tensor.
inline int add_diana_conv(Graph& g, std::mt19937_64& r, int x, const DianaConv& s, const std::string& name) {
  auto draw = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); };
  ConvParams p;
  p.kh = p.kw = s.k;
  p.sh = p.sw = s.stride;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = s.pad;
  p.groups = s.groups;
  for (int64_t c = 0; c < s.cout; ++c) p.bias.push_back(draw(-200, 200));
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = s.shift;
  p.rq.lo = s.lo, p.rq.hi = s.hi;
  const Shape& xs = g.tensor(x).shape;
  const int64_t ho = ConvParams::out_size(xs[2], s.k, s.stride, 1, s.pad, s.pad);
  const int64_t wo = ConvParams::out_size(xs[3], s.k, s.stride, 1, s.pad, s.pad);
  const Shape ws{s.cout, xs[1] / s.groups, s.k, s.k};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (auto& v : wv) v = s.ternary ? draw(-1, 1) : draw(-128, 127);
  const int w = g.add_tensor({name + ".w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({name + ".y", dtype_for_range(s.lo, s.hi), {1, s.cout, ho, wo}, std::nullopt, false});
  g.nodes.push_back(Node{name, p, {x, w}, {y}, {"Conv"}});
  return y;
}

// Input [1, cin, h, w] int8, a Clip to [in_lo, in_hi] when narrower, then the conv.
inline Graph diana_conv_graph(const DianaConv& s, unsigned seed = 1) {
  std::mt19937_64 r(seed);
  Graph g;
  g.name = "diana_conv";
  int x = g.add_tensor({"x", DType::I8, {1, s.cin, s.h, s.w}, std::nullopt, false});
  g.inputs = {x};
  if (s.in_lo > -128 || s.in_hi < 127) {
    ClipParams c;
    c.lo = s.in_lo, c.hi = s.in_hi;
    const int xc = g.add_tensor({"xc", DType::I8, {1, s.cin, s.h, s.w}, std::nullopt, false});
    g.nodes.push_back(Node{"clip", c, {x}, {xc}, {"Clip"}});
    x = xc;
  }
  g.outputs = {add_diana_conv(g, r, x, s, "conv")};
  g.validate();
  return g;
}

}  // namespace edgesim::test

namespace edgesim::test {

// Dense 1 x k -> n in relay form: int8 input and weights [n, k] (transB), int32 bias, >> shift.
inline Graph diana_dense_graph(int64_t k, int64_t n, int shift = 8, unsigned seed = 1) {
  std::mt19937_64 r(seed);
  auto draw = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); };
  Graph g;
  g.name = "diana_dense";
  const int x = g.add_tensor({"x", DType::I8, {1, k}, std::nullopt, false});
  std::vector<int64_t> wv(static_cast<size_t>(k * n));
  for (auto& v : wv) v = draw(-128, 127);
  const int w = g.add_tensor({"w", DType::I8, {n, k}, Tensor::from_ints(DType::I8, {n, k}, wv), false});
  const int y = g.add_tensor({"y", DType::I8, {1, n}, std::nullopt, false});
  GemmParams p;
  p.trans_b = true;
  for (int64_t c = 0; c < n; ++c) p.bias.push_back(draw(-500, 500));
  p.bias_shape = {n};
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = shift;
  p.rq.lo = -128, p.rq.hi = 127;
  g.inputs = {x}, g.outputs = {y};
  g.nodes.push_back(Node{"dense", p, {x, w}, {y}, {"Gemm"}});
  g.validate();
  return g;
}

}  // namespace edgesim::test
