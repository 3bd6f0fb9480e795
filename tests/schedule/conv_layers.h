// Test support: integer convs added to a graph — with random weights and requantisation (the fused
// and sibling property tests), or fixed ones (the branch order and sibling tests).
#pragma once
#include <random>
#include <string>

#include "kernels/ir/graph.h"

namespace edgesim::test {

using Rng = std::mt19937_64;
inline int64_t pick(Rng& r, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); }

// kind: 0 dense 3x3, 1 depthwise 3x3, 2 pointwise.
// pad < 0: drawn (0 or 1) for 3x3 kernels. The output is u8 or i8 (drawn): DORY's networks keep
// activations unsigned, Deeploy's signed.
inline int add_conv(Graph& g, Rng& r, int x, int kind, int64_t cout, int64_t stride, const std::string& name, int64_t pad = -1) {
  const Shape xs = g.tensor(x).shape;
  const int64_t cin = xs[1];
  ConvParams p;
  const bool dw = kind == 1;
  if (dw) cout = cin;
  p.kh = p.kw = kind == 2 ? 1 : 3;
  p.sh = p.sw = kind == 2 ? 1 : stride;
  if (kind != 2) p.pad_t = p.pad_l = p.pad_b = p.pad_r = pad >= 0 ? pad : pick(r, 0, 1);
  p.groups = dw ? cin : 1;
  const int64_t ho = ConvParams::out_size(xs[2], p.kh, p.sh, 1, p.pad_t, p.pad_b);
  const int64_t wo = ConvParams::out_size(xs[3], p.kw, p.sw, 1, p.pad_l, p.pad_r);
  const Shape ws{cout, dw ? 1 : cin, p.kh, p.kw};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (auto& v : wv) v = pick(r, -9, 9);
  const int w = g.add_tensor({name + "_w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const bool sgn = pick(r, 0, 1) == 1;
  const int y = g.add_tensor({name + "_y", sgn ? DType::I8 : DType::U8, {1, cout, ho, wo}, std::nullopt, false});
  for (int64_t c = 0; c < cout; ++c) p.bias.push_back(pick(r, -50, 50));
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.clear(), p.rq.lambda.clear();
  for (int64_t c = 0; c < cout; ++c) p.rq.k.push_back(pick(r, 1, 5)), p.rq.lambda.push_back(pick(r, -200, 200));
  p.rq.shift = 7;
  p.rq.lo = sgn ? -128 : 0;
  p.rq.hi = sgn ? 127 : 255;
  g.nodes.push_back(Node{name, p, {x, w}, {y}, {"Conv"}});
  return y;
}

// A conv of k x k ("same" padding), `cout` u8 output channels, fixed weights, bias and
// requantisation, reading tensor x; returns its output tensor.
inline int fixed_conv(Graph& g, int x, int64_t cout, int64_t k, const std::string& name) {
  const Shape xs = g.tensor(x).shape;
  ConvParams p;
  p.kh = p.kw = k;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = k / 2;
  const Shape ws{cout, xs[1], k, k};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 5 + static_cast<size_t>(cout)) % 7) - 3;
  const int w = g.add_tensor({name + "_w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({name + "_y", DType::U8, {1, cout, xs[2], xs[3]}, std::nullopt, false});
  p.bias.assign(static_cast<size_t>(cout), 3);
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.assign(static_cast<size_t>(cout), 2);
  p.rq.lambda.assign(static_cast<size_t>(cout), 40);
  p.rq.shift = 7;
  p.rq.lo = 0;
  p.rq.hi = 255;
  g.nodes.push_back(Node{name, p, {x, w}, {y}, {"Conv"}});
  return y;
}

}  // namespace edgesim::test
