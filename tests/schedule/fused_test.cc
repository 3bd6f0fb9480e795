// Depth-first fused pairs (NetTiling::fuse, compiler/schedule/build_fused.cc):
//   property  random chains of two or three convs (dense 3x3, depthwise, pointwise; strides 1
//             and 2, border padding, odd sizes, channel counts not multiples of 4; fixed seed),
//             one pair fused with a random tile and buffering: the schedule is bit-exact against
//             the interpreter, functionally (also in another order its deps allow) and timed on
//             the SystemC model; the intermediate has no home and never travels;
//   bytes     a hand-worked depthwise -> pointwise pair moves exactly the predicted bytes: every
//             tile's depthwise input window in, both layers' weights and constant vectors in once,
//             the pointwise output out, nothing of the intermediate;
//   tuner     fused_l1_footprint is the L1 high water the builder reaches.
#include <random>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tune/fusion.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/dep_order.h"
#include "schedule/conv_layers.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;
using edgesim::test::add_conv;
using edgesim::test::pick;
using edgesim::test::Rng;

namespace {

struct Chain {
  Graph g;
  int fused = 0;   // index of the fused producer among the layers
};

Chain random_chain(Rng& r, int i) {
  Chain c;
  Graph& g = c.g;
  g.name = fmt::format("chain{}", i);
  const int64_t C = pick(r, 1, 13), H = pick(r, 4, 17), W = pick(r, 4, 17);
  int x = g.add_tensor({"x", DType::U8, {1, C, H, W}, std::nullopt, false});
  g.inputs = {x};
  const int n = static_cast<int>(pick(r, 2, 3));
  for (int k = 0; k < n; ++k) {
    const Shape s = g.tensor(x).shape;
    const int kind = static_cast<int>(pick(r, 0, 2));
    const int64_t stride = s[2] >= 7 && s[3] >= 7 ? pick(r, 1, 2) : 1;
    // A 3x3 kernel on fewer than 3 rows or columns needs its padding.
    const int64_t pad = kind != 2 && (s[2] < 4 || s[3] < 4) ? 1 : -1;
    x = add_conv(g, r, x, kind, pick(r, 1, 13), stride, fmt::format("L{}", k), pad);
  }
  g.outputs = {x};
  g.validate();
  c.fused = static_cast<int>(pick(r, 0, n - 2));
  return c;
}

}  // namespace

TEST_CASE("fused pairs: random conv chains run bit-exact, the intermediate never leaves L1", "[schedule][fusion][property]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  Rng r(20240615);
  int built = 0;
  for (int i = 0; i < 60; ++i) {
    const Chain ch = random_chain(r, i);
    const Graph& g = ch.g;
    std::vector<LayerTiling> t = test::fixed_tilings(g, 0, 0, 0);
    for (LayerTiling& x : t) x.policy = "tuned";
    const int p = ch.fused, c = p + 1;
    const Shape ys = g.tensor(g.nodes[static_cast<size_t>(c)].outputs[0]).shape;
    t[static_cast<size_t>(p)].net.fuse = true;
    t[static_cast<size_t>(c)].l1.h_out = pick(r, 1, ys[2]);
    t[static_cast<size_t>(c)].l1.w_out = pick(r, 1, ys[3]);
    t[static_cast<size_t>(c)].l1.db = static_cast<int>(pick(r, 1, 2));
    std::string desc;
    for (const Node& n : g.nodes) {
      const ConvParams& cp = n.as<ConvParams>();
      desc += fmt::format(" [{} {}x{} s{} p{} g{} {}->{}]", n.name, cp.kh, cp.kw, cp.sh, cp.pad_t, cp.groups,
                          fmt::join(g.tensor(n.inputs[0]).shape, "x"), fmt::join(g.tensor(n.outputs[0]).shape, "x"));
    }
    INFO(desc);
    INFO(g.name << ": fused L" << p << " + L" << c << ", tile " << t[static_cast<size_t>(c)].l1.h_out << "x"
                << t[static_cast<size_t>(c)].l1.w_out << " db " << t[static_cast<size_t>(c)].l1.db);
    Schedule s;
    try {
      s = build_schedule(g, spec, t, {});
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    ++built;
    CHECK(s.placement_of(g.nodes[static_cast<size_t>(p)].outputs[0]) == nullptr);
    CHECK(s.steps[static_cast<size_t>(c)].commands.empty());
    for (const Command& cmd : s.steps[static_cast<size_t>(p)].commands)
      if (cmd.kind == Command::Kind::Dma) CHECK(cmd.note.find("mid") == std::string::npos);
    int64_t step_l1 = 0;   // the fused step's L1 high water (its buffers start at offset 0)
    for (const Buffer& b : s.buffers)
      if (b.level == Level::L1 && b.first_step == p) step_l1 = std::max(step_l1, b.offset + b.bytes);
    CHECK(fused_l1_footprint(g, spec, p, c, t[static_cast<size_t>(c)].l1.h_out, t[static_cast<size_t>(c)].l1.w_out,
                             t[static_cast<size_t>(c)].l1.db) == step_l1);
    const auto in = test::random_inputs(g, static_cast<uint32_t>(i));
    const auto want = interpret(g, in);
    const FunctionalResult f = execute_functional(g, s, in);
    CHECK(f.outputs.at(0).same_values(want.outputs.at(0)));
    CHECK(execute_functional(g, test::reorder_by_deps(s), in).outputs.at(0).same_values(want.outputs.at(0)));
    const SimOutcome sim = simulate(g, s, spec, in, {});
    InterpreterOptions io;
    io.keep_all = true;
    CHECK(verify_against_interpreter(g, *sim.values, interpret(g, in, io)).ok);
  }
  CHECK(built == 60);
}

TEST_CASE("a fused depthwise -> pointwise pair moves exactly the predicted bytes", "[schedule][fusion]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  Rng r(7);
  Graph g;
  g.name = "dwpw";
  const int64_t C = 16, H = 8, W = 8, K = 32;
  const int x = g.add_tensor({"x", DType::U8, {1, C, H, W}, std::nullopt, false});
  g.inputs = {x};
  const int mid = add_conv(g, r, x, 1, C, 1, "dw", 1);   // depthwise 3x3, stride 1, pad 1
  const int y = add_conv(g, r, mid, 2, K, 1, "pw");
  g.outputs = {y};
  g.validate();
  std::vector<LayerTiling> t = test::fixed_tilings(g, 0, 0, 0);
  for (LayerTiling& l : t) l.policy = "tuned";
  t[0].net.fuse = true;
  t[1].l1.h_out = 4, t[1].l1.w_out = W, t[1].l1.db = 2;   // two tiles of 4 rows, full width
  const Schedule s = build_schedule(g, spec, t, {});
  SimOptions o;
  o.data = false;
  const RunResult res = simulate(g, s, spec, {}, o).result;
  // Prediction: per tile the depthwise input window — output rows [0,4) read rows [0,5) (the top
  // pad is outside), rows [4,8) read rows [3,8) — all 16 channels and 8 columns; the weights
  // (16·9 + 32·16 B) and the constant vectors (bias, k, λ: 3 x 4 B per channel of each layer)
  // once; out, the 32 x 8 x 8 pointwise output. The 16 x 8 x 8 intermediate never moves.
  const int64_t x_in = 5 * W * C + 5 * W * C;
  const int64_t weights = C * 9 + K * C;
  const int64_t consts = 3 * 4 * C + 3 * 4 * K;
  CHECK(res.layers[0].dma_bytes_in == x_in + weights + consts);
  CHECK(res.layers[0].dma_bytes_out == K * H * W);
  CHECK(res.layers[1].dma_bytes_in == 0);
  CHECK(res.layers[1].dma_bytes_out == 0);
  // Unfused, the intermediate goes out and comes back in: exactly C·H·W bytes each way more
  // than the fused pair on the intermediate, the rest as the layers' own tiles move it.
  t[0].net.fuse = false;
  const RunResult apart = simulate(g, build_schedule(g, spec, t, {}), spec, {}, o).result;
  CHECK(apart.layers[0].dma_bytes_out == C * H * W);
  CHECK(apart.layers[1].dma_bytes_in >= C * H * W);
}
