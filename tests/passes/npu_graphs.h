// Test-only graphs for the NPU tests (engine assignment, NPU tiler, NPU property test): small
// convolution layers the N-EUREKA / NE16 could run exactly (8-bit unsigned activations without
// zero point, signed 8-bit constant weights, integer per-channel requant k·acc + λ >> 6 with the
// output type's clamp), chains of them, and a one-Add graph. Tests mutate the returned nodes'
// params to make a layer ineligible (stride, kernel, zero point, requant form, clamp).
#pragma once
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "kernels/ir/graph.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

namespace edgesim::test {

using NpuRng = std::mt19937_64;

inline int64_t npu_draw(NpuRng& r, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); }

// One conv layer: input [1, cin, h, w] -> output [1, cout, ho, wo].
struct ConvShape {
  int64_t cin = 8, cout = 8, h = 8, w = 8;
  int64_t k = 3, stride = 1, pad = 1;
  bool dw = false;            // depthwise: groups = cin = cout (cout is ignored)
  bool bias = false;
  DType out = DType::U8;      // U8: clamp [0, 255]; I8: clamp [-128, 127]; I32: no requant (raw accumulators)
};

inline PlatformSpec npu_platform(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_platform(source_dir() + "/platforms/" + name + ".yaml", overrides);
}

// Integer requant of the NPU's form: per-channel k in [1, 9], λ in [-400, 400], shift 6, floor
// or round-half-up (round_half), the clamp of the output type.
inline Requant npu_requant(NpuRng& r, int64_t cout, DType out, bool round_half = false) {
  Requant q;
  q.kind = Requant::Kind::Integer;
  q.axis = 1;
  q.k.clear(), q.lambda.clear();
  for (int64_t c = 0; c < cout; ++c) q.k.push_back(npu_draw(r, 1, 9)), q.lambda.push_back(npu_draw(r, -400, 400));
  q.shift = 6;
  q.round = round_half ? 32 : 0;
  q.lo = out == DType::U8 ? 0 : -128;
  q.hi = out == DType::U8 ? 255 : 127;
  return q;
}

// Appends one conv node reading tensor x (shape [1, s.cin, s.h, s.w]); returns its output id.
inline int add_npu_conv(Graph& g, NpuRng& r, int x, const ConvShape& s, const std::string& name) {
  ConvParams p;
  const int64_t cout = s.dw ? s.cin : s.cout;
  p.kh = p.kw = s.k;
  p.sh = p.sw = s.stride;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = s.pad;
  p.groups = s.dw ? s.cin : 1;
  if (s.bias)
    for (int64_t c = 0; c < cout; ++c) p.bias.push_back(npu_draw(r, -2000, 2000));
  if (s.out != DType::I32) p.rq = npu_requant(r, cout, s.out, npu_draw(r, 0, 1) == 1);
  const int64_t ho = ConvParams::out_size(s.h, s.k, s.stride, 1, s.pad, s.pad);
  const int64_t wo = ConvParams::out_size(s.w, s.k, s.stride, 1, s.pad, s.pad);
  const Shape ws{cout, s.dw ? 1 : s.cin, s.k, s.k};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (auto& v : wv) v = npu_draw(r, -128, 127);
  const int w = g.add_tensor({name + ".w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({name + ".y", s.out, {1, cout, ho, wo}, std::nullopt, false});
  g.nodes.push_back(Node{name, p, {x, w}, {y}, {"Conv"}});
  return y;
}

// A chain of conv layers; layer i's cin / h / w are taken from layer i-1's output.
inline Graph npu_conv_chain(NpuRng& r, std::vector<ConvShape> layers, const std::string& name = "npu_chain") {
  Graph g;
  g.name = name;
  const int x = g.add_tensor({"x", DType::U8, {1, layers.at(0).cin, layers[0].h, layers[0].w}, std::nullopt, false});
  g.inputs = {x};
  int cur = x;
  for (size_t i = 0; i < layers.size(); ++i) {
    if (i > 0) {
      const Shape& s = g.tensor(cur).shape;
      layers[i].cin = s[1], layers[i].h = s[2], layers[i].w = s[3];
    }
    cur = add_npu_conv(g, r, cur, layers[i], fmt::format("Conv_{}", i));
  }
  g.outputs = {cur};
  g.validate();
  return g;
}

inline Graph npu_conv_graph(NpuRng& r, const ConvShape& s, const std::string& name = "npu_conv") {
  return npu_conv_chain(r, {s}, name);
}

// y = requant(a + b), all u8 [1, c, h, w].
inline Graph add_graph(int64_t c, int64_t h, int64_t w) {
  Graph g;
  g.name = "add";
  AddParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 1, p.rq.lo = 0, p.rq.hi = 255;
  const int a = g.add_tensor({"a", DType::U8, {1, c, h, w}, std::nullopt, false});
  const int b = g.add_tensor({"b", DType::U8, {1, c, h, w}, std::nullopt, false});
  const int y = g.add_tensor({"y", DType::U8, {1, c, h, w}, std::nullopt, false});
  g.inputs = {a, b}, g.outputs = {y};
  g.nodes.push_back(Node{"Add_0", p, {a, b}, {y}, {"Add"}});
  g.validate();
  return g;
}

}  // namespace edgesim::test
