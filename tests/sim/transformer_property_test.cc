// Property test of the transformer ops end to end: random small graphs of every new op (iSoftmax,
// ITAMax, iRMSNorm, iLayerNorm, iHardswish / iGELU with and without their requant, Mul of two
// activations, per-position requant, float fake-quant chains, IntegerMean, Gather, batched MatMul
// of two activations, constant-weight Gemm (the NPU's 1x1 lowering on siracusa), Transpose,
// Concat, Reshape, and a chain norm -> gemm -> act -> softmax) with odd row lengths and row
// counts that do not divide by the cores (fixed seed) are compiled and simulated with data on
// siracusa and gap9 under deeploy and dory with tiny L1 budgets, and under untiled: every output
// must equal the untiled interpreter bit-exactly, and the runs must include multi-tile layers.
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/golden/golden.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "kernels/reference.h"
#include "passes/npu_graphs.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/tiling.h"

using namespace edgesim;
using test::npu_draw;

namespace {

struct Builder {
  Graph g;
  int tensor(const std::string& name, DType dt, Shape s) {
    TensorDesc d;
    d.name = name;
    d.dtype = dt;
    d.shape = std::move(s);
    return g.add_tensor(std::move(d));
  }
  int input(DType dt, Shape s) {
    const int t = tensor("in" + std::to_string(g.inputs.size()), dt, std::move(s));
    g.inputs.push_back(t);
    return t;
  }
  int constant(const std::string& name, const Tensor& v) {
    TensorDesc d;
    d.name = name;
    d.dtype = v.dtype();
    d.shape = v.shape();
    d.constant = v;
    return g.add_tensor(std::move(d));
  }
  int node(OpParams p, std::vector<int> ins, DType dt, Shape out) {
    Node n;
    n.name = fmt::format("n{}", g.nodes.size());
    n.params = std::move(p);
    n.inputs = std::move(ins);
    n.outputs = {tensor(n.name + "_out", dt, std::move(out))};
    g.nodes.push_back(n);
    return g.nodes.back().outputs[0];
  }
};

Requant scalar_rq(test::NpuRng& r, int shift) {
  Requant q;
  q.kind = Requant::Kind::Integer;
  q.k = {npu_draw(r, 1, 60)};
  q.lambda = {npu_draw(r, -200, 200)};
  q.shift = shift;
  q.round = int64_t{1} << (shift - 1);
  q.lo = -128, q.hi = 127;
  return q;
}

std::vector<int64_t> draws(test::NpuRng& r, int64_t n, int64_t lo, int64_t hi) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(npu_draw(r, lo, hi));
  return v;
}

// A sequence shape [lead..., rows, len] with odd extents most of the time.
Shape seq_shape(test::NpuRng& r, int64_t max_len) {
  Shape s;
  if (npu_draw(r, 0, 2) > 0) s.push_back(1);
  if (npu_draw(r, 0, 2) == 0) s.push_back(npu_draw(r, 2, 3));
  s.push_back(npu_draw(r, 1, 23) | 1);
  s.push_back(npu_draw(r, 2, max_len) | 1);
  return s;
}

// Case `kind` of the property (see the file comment for the list).
Graph make_case(test::NpuRng& r, int kind, int i) {
  Builder b;
  b.g.name = fmt::format("tf_case_{}_{}", i, kind);
  b.g.dialect = "deeploy";
  const Shape s = seq_shape(r, 45);
  const int64_t len = s.back();
  int y = -1;
  switch (kind) {
    case 0: case 1: {
      SoftmaxParams p;
      p.kind = kind == 0 ? SoftmaxParams::Kind::ISoftmax : SoftmaxParams::Kind::ITAMax;
      p.coeff_b = npu_draw(r, 1, 90), p.coeff_c = npu_draw(r, 0, 4000), p.log2 = npu_draw(r, 1, 70);
      y = b.node(p, {b.input(DType::I8, s)}, DType::U8, s);
      break;
    }
    case 2: case 3: {
      NormParams p;
      p.kind = kind == 2 ? NormParams::Kind::RMS : NormParams::Kind::Layer;
      p.log2_d = static_cast<int>(npu_draw(r, 6, 14));
      p.weight = draws(r, len, -3000, 3000);
      if (kind == 3) p.bias = draws(r, len, -20000, 20000);
      y = b.node(p, {b.input(DType::I8, s)}, DType::I8, s);
      break;
    }
    case 4: case 5: case 6: {
      ActParams p;
      p.kind = kind == 5 ? ActParams::Kind::GELU : ActParams::Kind::Hardswish;
      p.one_over_six = 42, p.six = npu_draw(r, 100, 340), p.three = p.six / 2;
      p.b = -npu_draw(r, 10, 60), p.one = npu_draw(r, 500, 2000);
      if (kind != 6) p.rq = scalar_rq(r, 18);
      else p.rq.lo = INT32_MIN, p.rq.hi = INT32_MAX;
      y = b.node(p, {b.input(DType::I8, s)}, kind == 6 ? DType::I32 : DType::I8, s);
      break;
    }
    case 7: {   // Mul of two activations (int32), then its RequantShift
      MulParams m;
      m.rq.lo = INT32_MIN, m.rq.hi = INT32_MAX;
      const int prod = b.node(m, {b.input(DType::I8, s), b.input(DType::I8, s)}, DType::I32, s);
      RequantParams q;
      q.rq = scalar_rq(r, 12);
      y = b.node(q, {prod}, DType::I8, s);
      break;
    }
    case 8: {   // requant with one multiplier per position of the last axis
      RequantParams q;
      q.rq = scalar_rq(r, 14);
      q.rq.axis = static_cast<int>(s.size()) - 1;
      q.rq.k = draws(r, len, 1, 90);
      q.rq.lambda = draws(r, len, -500, 500);
      y = b.node(q, {b.input(DType::I32, s)}, DType::I8, s);
      break;
    }
    case 9: {   // float fake-quant: x / s + z, round, clip, then dequantised and requantised
      FloatChainParams p;
      p.steps = {{FloatStep::Op::Div, 0.0078125f}, {FloatStep::Op::Add, 0.f}, {FloatStep::Op::Round},
                 {FloatStep::Op::Clip, 0, false, -128, 127}, {FloatStep::Op::Mul, 0.0666667f},
                 {FloatStep::Op::Div, 0.03125f}, {FloatStep::Op::Round}, {FloatStep::Op::Clip, 0, false, -50, 50}};
      y = b.node(p, {b.input(DType::F32, s)}, DType::I8, s);
      break;
    }
    case 10: {   // batched MatMul of two activations [b, M, K] x [b, K, N]
      const int64_t bt = npu_draw(r, 1, 3), m = npu_draw(r, 1, 19) | 1, k = npu_draw(r, 1, 21), n = npu_draw(r, 1, 37);
      GemmParams p;
      p.rq = scalar_rq(r, 10);
      y = b.node(p, {b.input(DType::I8, {bt, m, k}), b.input(DType::I8, {bt, k, n})}, DType::I8, {bt, m, n});
      break;
    }
    case 11: {   // constant weights [K, N], bias, per-column requant: the NPU's Gemm on siracusa
      const int64_t m = npu_draw(r, 1, 29) | 1, k = npu_draw(r, 3, 70), n = npu_draw(r, 1, 45);
      GemmParams p;
      p.bias = draws(r, n, -3000, 3000);
      p.bias_shape = {n};
      p.rq = scalar_rq(r, 12);
      p.rq.axis = 2;
      p.rq.k = draws(r, n, 1, 40);
      p.rq.lambda = draws(r, n, -300, 300);
      const int w = b.constant("w", Tensor::from_ints(DType::I8, {k, n}, draws(r, k * n, -128, 127)));
      y = b.node(p, {b.input(DType::I8, {1, m, k}), w}, DType::I8, {1, m, n});
      break;
    }
    case 12: {   // Transpose of the last two axes, then Reshape (row-major alias)
      Shape t = s;
      std::swap(t[t.size() - 1], t[t.size() - 2]);
      TransposeParams p;
      for (size_t d = 0; d < s.size(); ++d) p.perm.push_back(static_cast<int64_t>(d));
      std::swap(p.perm[s.size() - 1], p.perm[s.size() - 2]);
      const int tr = b.node(p, {b.input(DType::I8, s)}, DType::I8, t);
      y = b.node(ReshapeParams{}, {tr}, DType::I8, {shape_numel(t)});
      break;
    }
    case 13: {   // Concat along the rows (a KV-cache update)
      Shape a = s, c = s;
      c[c.size() - 2] = npu_draw(r, 1, 3);
      Shape o = s;
      o[o.size() - 2] += c[c.size() - 2];
      y = b.node(ConcatParams{static_cast<int64_t>(s.size()) - 2}, {b.input(DType::I8, a), b.input(DType::I8, c)},
                 DType::I8, o);
      break;
    }
    case 14: {   // IntegerMean over the rows (a power-of-two count or not), then Gather of one index
      MeanParams p;
      p.axes = {static_cast<int64_t>(s.size()) - 2};
      p.keepdims = false;
      const int mean = b.node(p, {b.input(DType::I8, s)}, DType::I8, mean_output_shape(p, s));
      const Shape ms = b.g.tensor(mean).shape;
      GatherParams gp{static_cast<int64_t>(ms.size()) - 1, npu_draw(r, 0, ms.back() - 1)};
      Shape gs = ms;
      gs.erase(gs.end() - 1);
      y = gs.empty() ? mean : b.node(gp, {mean}, DType::I8, gs);
      break;
    }
    default: {   // a chain: iRMSNorm -> Gemm (constant weights) -> iHardswish + rq -> iSoftmax
      const int64_t k = len, n = npu_draw(r, 3, 33) | 1;
      NormParams np;
      np.log2_d = 10;
      np.weight = draws(r, k, -2000, 2000);
      const int x = b.node(np, {b.input(DType::I8, s)}, DType::I8, s);
      GemmParams gp;
      gp.rq = scalar_rq(r, 12);
      Shape os = s;
      os.back() = n;
      const int w = b.constant("w", Tensor::from_ints(DType::I8, {k, n}, draws(r, k * n, -128, 127)));
      const int gm = b.node(gp, {x, w}, DType::I8, os);
      ActParams ap;
      ap.one_over_six = 42, ap.six = 300, ap.three = 150;
      ap.rq = scalar_rq(r, 18);
      const int act = b.node(ap, {gm}, DType::I8, os);
      SoftmaxParams sp;
      sp.coeff_b = 64, sp.coeff_c = 2136, sp.log2 = 47;
      y = b.node(sp, {act}, DType::U8, os);
      break;
    }
  }
  b.g.outputs = {y};
  b.g.validate();
  return b.g;
}

struct Variant {
  std::string name, platform, policy;
  std::vector<std::string> overrides;
};

}  // namespace

TEST_CASE("transformer property: random shapes of every new op simulate bit-exactly, tiny L1 included",
          "[transformer][property]") {
  const std::vector<Variant> vs = {
      {"siracusa deeploy L1 3000", "siracusa", "deeploy", {"budgets.deeploy.l1=3000"}},
      {"siracusa dory l1.size 32KiB", "siracusa", "dory", {"l1.size=32KiB", "budgets.deeploy.l1=auto"}},
      {"siracusa deeploy", "siracusa", "deeploy", {}},
      {"siracusa untiled", "siracusa", "untiled", {}},
      {"gap9 deeploy L1 2500", "gap9", "deeploy", {"budgets.deeploy.l1=2500"}},
      {"gap9 dory", "gap9", "dory", {}},
  };
  std::vector<PlatformSpec> specs;
  for (const Variant& v : vs) specs.push_back(test::npu_platform(v.platform, v.overrides));
  test::NpuRng r(20261201);
  int runs = 0, multi_tile = 0, infeasible = 0, npu_gemms = 0;
  constexpr int kKinds = 16;
  for (int i = 0; i < 3 * kKinds; ++i) {
    const int kind = i % kKinds;
    const Graph g0 = make_case(r, kind, i);
    const std::vector<Tensor> in = random_inputs(g0, static_cast<uint64_t>(i) + 3);
    const InterpreterResult want = interpret(g0, in);
    for (size_t vi = 0; vi < vs.size(); ++vi) {
      Graph g = g0;
      INFO(g.name << " on " << vs[vi].name << ":\n" << print_graph(g));
      assign_engines(g, specs[vi], policy_engines(vs[vi].policy, {}));
      std::vector<LayerTiling> ts;
      try {
        ts = test::tile_for(g, specs[vi], vs[vi].policy);
      } catch (const TilingError& e) {
        // Only the tiny budgets may be too small (a whole row of a long softmax with its scratch).
        INFO(e.what());
        REQUIRE(e.level() == "L1");
        REQUIRE(vs[vi].name.find("L1") != std::string::npos);
        ++infeasible;
        continue;
      }
      for (const LayerTiling& t : ts) multi_tile += tile_count(layer_geom(g, t.node), t) > 1;
      for (const Node& n : g.nodes) npu_gemms += n.kind() == OpKind::Gemm && n.engine == "npu";
      Schedule s;
      REQUIRE_NOTHROW(s = build_schedule(g, specs[vi], ts, {}));
      REQUIRE_NOTHROW(check_allocation(s));
      const SimOutcome out = simulate(g, s, specs[vi], in);
      REQUIRE(out.values.has_value());
      const VerifyOutcome ver = verify_against_interpreter(g, *out.values, want);
      INFO(ver.message);
      CHECK(ver.ok);
      CHECK(execute_functional(g, s, in).outputs.at(0).same_values(want.outputs[0]));
      CHECK(out.result.total_cycles > 0);
      ++runs;
    }
  }
  std::cout << fmt::format("transformer property: {} simulated runs bit-checked, {} multi-tile layers, {} NPU "
                           "Gemm layers, {} infeasible under the tiny L1 budgets\n",
                           runs, multi_tile, npu_gemms, infeasible);
  CHECK(runs >= 3 * kKinds * 4);
  CHECK(multi_tile > 20);
  CHECK(npu_gemms > 0);
}
