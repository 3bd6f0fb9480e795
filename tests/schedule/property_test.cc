// Property test of the back end below the policies: random single-layer graphs (dense,
// depthwise and pointwise convs, linear layers, adds, max and sum pools; odd sizes, strides,
// paddings, channel counts that are not multiples of 4; fixed seed) × random legal tilings
// (LayerTilings built directly with random tile sizes, bypassing every policy; sometimes with
// L3 slabs) × several L1 sizes. Every schedule that builds must pass check_allocation and its
// functional execution must equal the interpreter bit-exactly, also when its commands run in
// another order that their deps allow. A drawn tiling may be too large for a small L1: then
// smaller tiles are drawn, ending with the minimal tile, which must fit.
#include <algorithm>
#include <iostream>
#include <random>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/tiling.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/dep_order.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

using Rng = std::mt19937_64;

int64_t pick(Rng& r, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(r); }

Tensor random_tensor(Rng& r, DType t, const Shape& s, int64_t lo, int64_t hi) {
  std::vector<int64_t> v(static_cast<size_t>(shape_numel(s)));
  for (auto& x : v) x = pick(r, lo, hi);
  return Tensor::from_ints(t, s, v);
}

Requant per_channel_rq(Rng& r, int64_t n, int axis) {
  Requant q;
  q.kind = Requant::Kind::Integer;
  q.axis = axis;
  q.k.clear();
  q.lambda.clear();
  for (int64_t c = 0; c < n; ++c) {
    q.k.push_back(pick(r, 1, 9));
    q.lambda.push_back(pick(r, -400, 400));
  }
  q.shift = static_cast<int>(pick(r, 4, 8));
  q.lo = 0;
  q.hi = 255;
  return q;
}

enum class Kind { Conv, Depthwise, Pointwise, Linear, Add, MaxPool, SumPool };
const char* kind_name(Kind k) {
  static const char* n[] = {"conv", "depthwise", "pointwise", "linear", "add", "maxpool", "sumpool"};
  return n[static_cast<int>(k)];
}

// One-layer graph of the given kind with random odd-ish geometry.
Graph random_layer(Rng& r, Kind kind, int index) {
  Graph g;
  g.name = fmt::format("{}_{}", kind_name(kind), index);
  const int64_t C = pick(r, 1, 21), H = pick(r, 1, 19), W = pick(r, 1, 19);
  auto input = [&](const char* name, Shape s) { return g.add_tensor({name, DType::U8, std::move(s), std::nullopt, false}); };
  switch (kind) {
    case Kind::Conv: case Kind::Depthwise: case Kind::Pointwise: {
      ConvParams p;
      const bool dw = kind == Kind::Depthwise;
      const int64_t Cout = dw ? C : pick(r, 1, 19);
      const int64_t k = kind == Kind::Pointwise ? 1 : std::min<int64_t>(pick(r, 1, 2) * 2 + 1, std::min(H, W) + 2);
      p.kh = std::min(k, H + 2);
      p.kw = std::min(k, W + 2);
      if (kind != Kind::Pointwise && pick(r, 0, 3) == 0) p.kh = std::max<int64_t>(1, p.kh - 1);   // even / non-square
      p.sh = pick(r, 1, 3);
      p.sw = pick(r, 1, 2);
      if (kind != Kind::Pointwise) {
        p.pad_t = pick(r, 0, p.kh - 1);
        p.pad_b = pick(r, 0, p.kh - 1);
        p.pad_l = pick(r, 0, p.kw - 1);
        p.pad_r = pick(r, 0, p.kw - 1);
      }
      if (H + p.pad_t + p.pad_b < p.kh) p.pad_b = p.kh - H - p.pad_t;
      if (W + p.pad_l + p.pad_r < p.kw) p.pad_r = p.kw - W - p.pad_l;
      p.groups = dw ? C : 1;
      const int64_t Ho = ConvParams::out_size(H, p.kh, p.sh, 1, p.pad_t, p.pad_b);
      const int64_t Wo = ConvParams::out_size(W, p.kw, p.sw, 1, p.pad_l, p.pad_r);
      if (pick(r, 0, 1)) {
        for (int64_t c = 0; c < Cout; ++c) p.bias.push_back(pick(r, -2000, 2000));
      }
      p.rq = per_channel_rq(r, Cout, 1);
      const int x = input("x", {1, C, H, W});
      const Shape ws{Cout, dw ? 1 : C, p.kh, p.kw};
      const int w = g.add_tensor({"w", DType::I8, ws, random_tensor(r, DType::I8, ws, -128, 127), false});
      const int y = g.add_tensor({"y", DType::U8, {1, Cout, Ho, Wo}, std::nullopt, false});
      g.inputs = {x};
      g.outputs = {y};
      g.nodes.push_back(Node{"Conv_0", p, {x, w}, {y}, {"Conv"}});
      break;
    }
    case Kind::Linear: {
      GemmParams p;
      const int64_t M = pick(r, 1, 3), K = pick(r, 1, 70), N = pick(r, 1, 21);
      for (int64_t n = 0; n < N; ++n) p.bias.push_back(pick(r, -3000, 3000));
      p.bias_shape = {N};
      p.rq = per_channel_rq(r, N, 1);
      const int a = input("a", {M, K});
      const int b = g.add_tensor({"b", DType::I8, {K, N}, random_tensor(r, DType::I8, {K, N}, -128, 127), false});
      const int y = g.add_tensor({"y", DType::U8, {M, N}, std::nullopt, false});
      g.inputs = {a};
      g.outputs = {y};
      g.nodes.push_back(Node{"Gemm_0", p, {a, b}, {y}, {"Gemm"}});
      break;
    }
    case Kind::Add: {
      AddParams p;
      p.rq.kind = Requant::Kind::Integer;
      p.rq.shift = 1;
      p.rq.lo = 0;
      p.rq.hi = 255;
      const int a = input("a", {1, C, H, W});
      const int b = input("b", {1, C, H, W});
      const int y = g.add_tensor({"y", DType::U8, {1, C, H, W}, std::nullopt, false});
      g.inputs = {a, b};
      g.outputs = {y};
      g.nodes.push_back(Node{"Add_0", p, {a, b}, {y}, {"Add"}});
      break;
    }
    case Kind::MaxPool: case Kind::SumPool: {
      PoolParams p;
      p.kind = kind == Kind::MaxPool ? PoolParams::Kind::Max : PoolParams::Kind::Sum;
      p.kh = std::min<int64_t>(pick(r, 1, 3), H);
      p.kw = std::min<int64_t>(pick(r, 1, 3), W);
      p.sh = pick(r, 1, 2);
      p.sw = pick(r, 1, 3);
      if (kind == Kind::MaxPool) {
        p.pad_t = pick(r, 0, p.kh - 1);
        p.pad_l = pick(r, 0, p.kw - 1);
        p.rq.lo = 0;
        p.rq.hi = 255;
      } else {
        p.rq.kind = Requant::Kind::Integer;
        p.rq.shift = 3;
        p.rq.lo = 0;
        p.rq.hi = 255;
      }
      const int64_t Ho = (H + p.pad_t + p.pad_b - p.kh) / p.sh + 1;
      const int64_t Wo = (W + p.pad_l + p.pad_r - p.kw) / p.sw + 1;
      const int x = input("x", {1, C, H, W});
      const int y = g.add_tensor({"y", DType::U8, {1, C, Ho, Wo}, std::nullopt, false});
      g.inputs = {x};
      g.outputs = {y};
      g.nodes.push_back(Node{"Pool_0", p, {x}, {y}, {"MaxPool"}});
      break;
    }
  }
  g.validate();
  return g;
}

int64_t in_rows(int64_t out, int64_t k, int64_t s, int64_t d, int64_t full) {
  return std::min((out - 1) * s + (k - 1) * d + 1, full);
}

// A random legal tiling; `scale` in (0, 1] caps the drawn extents (smaller tiles on retries);
// scale 0 gives the minimal tile.
LayerTiling random_tiling(Rng& r, const LayerGeom& g, double scale, bool allow_l3) {
  auto draw = [&](int64_t full) {
    const auto cap = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(full) * scale));
    return scale <= 0 ? 1 : pick(r, 1, cap);
  };
  LayerTiling t;
  t.node = g.node;
  t.policy = "random";
  L3Tiling& l3 = t.l3;
  l3.n_out = g.cout;
  l3.h_out = g.h_out;
  l3.h_in = g.h_in;
  const bool l3_ok = allow_l3 && (g.kind == OpKind::Conv || g.kind == OpKind::Gemm) && g.batch == 1;
  if (l3_ok && pick(r, 0, 2) == 0) {
    // Weights (Cout slabs), rows (input and/or output slabs), or both at once: a combination
    // DORY rejects and edgesim's schedule supports.
    const int what = g.weights_const ? pick(r, 0, 2) : 1;   // 0 weights, 1 rows, 2 both
    if (what != 1) {
      l3.weights_in_l3 = true;
      l3.db_w = 2;
      l3.n_out = pick(r, 1, g.cout);
    }
    if (what != 0) {
      l3.input_in_l3 = pick(r, 0, 1) == 1;
      l3.output_in_l3 = !l3.input_in_l3 || pick(r, 0, 1) == 1;
      l3.db_x = l3.input_in_l3 ? 2 : 1;
      l3.db_o = l3.output_in_l3 ? 2 : 1;
      l3.h_out = pick(r, 1, g.h_out);
      l3.h_in = l3.input_in_l3 ? in_rows(l3.h_out, g.kh, g.sh, g.dh, g.h_in) : g.h_in;
    }
  }
  L1Tiling& l1 = t.l1;
  l1.n_out = draw(l3.n_out);
  l1.h_out = draw(l3.h_out);
  l1.w_out = draw(g.w_out);
  const bool channelwise = g.depthwise || g.kind == OpKind::Pool || g.kind == OpKind::Add;
  l1.n_in = channelwise ? l1.n_out : g.cin;
  if (g.kind == OpKind::Add) {
    l1.h_in = l1.h_out;
    l1.w_in = l1.w_out;
  } else {
    l1.h_in = in_rows(l1.h_out, g.kh, g.sh, g.dh, g.h_in);
    l1.w_in = in_rows(l1.w_out, g.kw, g.sw, g.dw, g.w_in);
  }
  l1.db = static_cast<int>(pick(r, 1, 2));
  l1.whole = l1.n_out == g.cout && l1.h_out == g.h_out && l1.w_out == g.w_out && !l3.tiled();
  const int64_t wt = g.weight_bytes() / std::max<int64_t>(g.cout, 1) * l1.n_out;
  l1.l1_bytes = l1.db * (l1.n_in * l1.h_in * l1.w_in * g.bx / 8 + l1.n_out * l1.h_out * l1.w_out * g.by / 8 + wt);
  return t;
}

PlatformSpec platform_with_l1(int64_t l1) {
  return load_platform(test::source_dir() + "/platforms/gap9.yaml",
                       {"l1.size=" + std::to_string(l1), "budgets.deeploy.l1=auto", "budgets.dory.l1_reserved=0",
                        "budgets.dory.l1_stack_core0=0", "budgets.dory.l1_stack_other=0"});
}

}  // namespace

TEST_CASE("property: random layers x random legal tilings x L1 sizes are bit-exact", "[compile][property]") {
  const std::vector<int64_t> l1_sizes = {2048, 8192, 131072};
  std::vector<PlatformSpec> specs;
  for (int64_t s : l1_sizes) specs.push_back(platform_with_l1(s));
  Rng rng(20261122);
  const Kind kinds[] = {Kind::Conv, Kind::Depthwise, Kind::Pointwise, Kind::Linear, Kind::Add, Kind::MaxPool,
                        Kind::SumPool};
  int schedules = 0, retries = 0, multi_tile = 0, l3_slabs = 0, l3_both = 0, infeasible = 0;
  for (int i = 0; i < 210; ++i) {
    const Kind kind = kinds[i % 7];
    const Graph g = random_layer(rng, kind, i);
    const LayerGeom geom = layer_geom(g, 0);
    const std::vector<Tensor> in = random_inputs(g, static_cast<uint64_t>(i) + 1);
    const InterpreterResult want = interpret(g, in);
    for (size_t li = 0; li < specs.size(); ++li) {
      const bool largest = li + 1 == specs.size();
      std::string last_error;
      bool built = false;
      for (int attempt = 0; attempt < 8 && !built; ++attempt) {
        const double scale = attempt == 7 ? 0.0 : 1.0 / (1 << attempt);
        const LayerTiling t = random_tiling(rng, geom, scale, true);
        INFO(g.name << " " << shape_str(g.tensor(g.inputs[0]).shape) << " -> "
                    << shape_str(g.tensor(g.outputs[0]).shape) << ", L1 " << l1_sizes[li] << ", tile "
                    << t.l1.n_out << "x" << t.l1.h_out << "x" << t.l1.w_out << " (in " << t.l1.n_in << "x"
                    << t.l1.h_in << "x" << t.l1.w_in << ") db " << t.l1.db << ", L3 slab " << t.l3.n_out << "x"
                    << t.l3.h_out << (t.l3.tiled() ? " tiled" : ""));
        Schedule s;
        try {
          s = build_schedule(g, specs[li], {t});
        } catch (const std::runtime_error& e) {
          last_error = e.what();
          ++retries;
          // Only a too-small memory is an acceptable reason, and never with the largest L1.
          const bool overflow = last_error.find("L1") != std::string::npos && !largest;
          if (!overflow) FAIL("build_schedule: " << last_error);
          continue;
        }
        built = true;
        ++schedules;
        multi_tile += tile_count(geom, t) > 1;
        l3_slabs += t.l3.tiled();
        l3_both += t.l3.weights_in_l3 && (t.l3.input_in_l3 || t.l3.output_in_l3);
        REQUIRE_NOTHROW(check_allocation(s));
        const FunctionalResult got = execute_functional(g, s, in);
        REQUIRE(got.outputs.size() == 1);
        CHECK(got.outputs[0].to_ints() == want.outputs[0].to_ints());
        // Any order the deps allow computes the same (here: the furthest from list order).
        CHECK(execute_functional(g, test::reorder_by_deps(s), in).outputs.at(0).to_ints() ==
              want.outputs[0].to_ints());
      }
      // A small L1 may be too small even for 1x1x1 tiles (e.g. one weight row of a wide conv);
      // the largest L1 must always work.
      INFO(g.name << " with L1 " << l1_sizes[li] << ": " << last_error);
      if (largest) CHECK(built);
      infeasible += !built;
    }
  }
  std::cout << fmt::format("property: {} schedules bit-checked ({} multi-tile, {} with L3 slabs, {} of them weights and "
                           "rows at once), {} tilings rejected for a small L1, {} layer/L1 pairs infeasible\n",
                           schedules, multi_tile, l3_slabs, l3_both, retries, infeasible);
  CHECK(l3_both > 0);
  CHECK(multi_tile > schedules / 2);
}
