// Sibling steps (NetTiling::sibling, compiler/schedule/build_siblings.cc), hand-worked on gap8: two
// 1x1 convs A (16 -> 8) and B (16 -> 12) read the same 16 x 8 x 8 input; tiles of 4 rows x 8
// columns, all channels, single buffered (2 tiles). Apart, each layer loads the input tiles
// itself: 2 x 2 x 16 x 4 x 8 = 2,048 B L2 -> L1; as siblings the step loads them once, 1,024 B,
// and stores the same 2 x (8 + 12) x 4 x 8 = 1,280 B; B's step is empty; both run bit-exact. The
// pairs the builder refuses are refused with the reason.
#include <iostream>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

int conv(Graph& g, int x, int64_t cout, int64_t k, const std::string& name) {
  const Shape xs = g.tensor(x).shape;
  ConvParams p;
  p.kh = p.kw = k;
  p.pad_t = p.pad_l = p.pad_b = p.pad_r = k / 2;
  const Shape ws{cout, xs[1], k, k};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 7 + cout) % 11) - 5;
  const int w = g.add_tensor({name + "_w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({name + "_y", DType::U8, {1, cout, xs[2], xs[3]}, std::nullopt, false});
  p.bias.assign(static_cast<size_t>(cout), 5);
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.clear(), p.rq.lambda.clear();
  for (int64_t c = 0; c < cout; ++c) p.rq.k.push_back(1 + c % 3), p.rq.lambda.push_back(30 * (c % 4) - 40);
  p.rq.shift = 6;
  p.rq.lo = 0;
  p.rq.hi = 255;
  g.nodes.push_back(Node{name, p, {x, w}, {y}, {"Conv"}});
  return y;
}

// x -> A (1x1, 8) and B (1x1, 12), or B a 3x3 (other windows).
Graph pair(int64_t kb) {
  Graph g;
  g.name = "siblings";
  const int x = g.add_tensor({"x", DType::U8, {1, 16, 8, 8}, std::nullopt, false});
  g.inputs = {x};
  const int a = conv(g, x, 8, 1, "A");
  const int b = conv(g, x, 12, kb, "B");
  g.outputs = {a, b};
  g.validate();
  return g;
}

std::vector<LayerTiling> tiles(const Graph& g, bool siblings) {
  std::vector<LayerTiling> t = test::fixed_tilings(g, 0, 4, 8);
  for (LayerTiling& l : t) {
    l.policy = "tuned";
    l.l1.db = 1;
    l.l1.n_out = g.tensor(g.nodes[static_cast<size_t>(l.node)].outputs[0]).shape[1];
  }
  t.at(0).net.sibling = siblings;
  return t;
}

int64_t dma_bytes(const Schedule& s, const std::string& note_prefix) {
  int64_t b = 0;
  for (const Step& st : s.steps)
    for (const Command& c : st.commands)
      if (c.kind == Command::Kind::Dma && c.note.rfind(note_prefix, 0) == 0) b += c.bytes();
  return b;
}

}  // namespace

TEST_CASE("sibling convs run as one step: each input tile loaded once, bit-exact", "[schedule][siblings]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = pair(1);
  REQUIRE(sibling_of(g, 0) == 1);
  const Schedule apart = build_schedule(g, spec, tiles(g, false), {});
  const Schedule joint = build_schedule(g, spec, tiles(g, true), {});
  CHECK(dma_bytes(apart, "load x tile") == 2 * 2 * 16 * 4 * 8);
  CHECK(dma_bytes(joint, "load x tile") == 2 * 16 * 4 * 8);
  CHECK(dma_bytes(apart, "store y tile") == 2 * (8 + 12) * 4 * 8);
  CHECK(dma_bytes(joint, "store yA tile") + dma_bytes(joint, "store yB tile") == 2 * (8 + 12) * 4 * 8);
  CHECK(joint.steps.at(1).commands.empty());
  size_t computes = 0;
  for (const Command& c : joint.steps.at(0).commands) computes += c.kind == Command::Kind::Compute;
  CHECK(computes == 4);   // 2 tiles x 2 layers

  const auto in = test::random_inputs(g, 3);
  InterpreterOptions io;
  io.keep_all = true;
  const auto want = interpret(g, in, io);
  CHECK(verify_against_interpreter(g, *simulate(g, joint, spec, in, {}).values, want).ok);
  CHECK(verify_against_interpreter(g, *simulate(g, apart, spec, in, {}).values, want).ok);
  SimOptions timing;
  timing.data = false;
  const int64_t t_joint = simulate(g, joint, spec, {}, timing).result.total_cycles;
  const int64_t t_apart = simulate(g, apart, spec, {}, timing).result.total_cycles;
  std::cout << "  siblings: apart " << t_apart << " cycles, one step " << t_joint << "\n";

  // A 3x3 sibling reads other windows: refused, with the reason.
  const Graph other = pair(3);
  CHECK_THROWS_WITH(build_schedule(other, spec, tiles(other, true), {}), Catch::Contains("reads other windows"));
}
