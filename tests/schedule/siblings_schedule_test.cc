// Sibling steps (NetTiling::sibling, compiler/schedule/build_siblings.cc), hand-worked on gap8: two
// 1x1 convs A (16 -> 8) and B (16 -> 12) read the same 16 x 8 x 8 input; tiles of 4 rows x 8
// columns, all channels, single buffered (2 tiles). Apart, each layer loads the input tiles
// itself: 2 x 2 x 16 x 4 x 8 = 2,048 B L2 -> L1; as siblings the step loads them once, 1,024 B,
// and stores the same 2 x (8 + 12) x 4 x 8 = 1,280 B; B's step is empty; both run bit-exact. The
// pairs the builder refuses are refused with the reason. And a property test over random pairs.
#include <iostream>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tune/siblings.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/dep_order.h"
#include "schedule/conv_layers.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {


// x -> A (1x1, 8) and B (1x1, 12), or B a 3x3 (other windows).
Graph pair(int64_t kb) {
  Graph g;
  g.name = "siblings";
  const int x = g.add_tensor({"x", DType::U8, {1, 16, 8, 8}, std::nullopt, false});
  g.inputs = {x};
  const int a = test::fixed_conv(g, x, 8, 1, "A");
  const int b = test::fixed_conv(g, x, 12, kb, "B");
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

TEST_CASE("sibling pairs: random pairs run bit-exact, each input tile loaded once", "[schedule][siblings][property]") {
  // x -> A and B of one window geometry (3x3 dense or depthwise, or 1x1; stride 1 or 2; padding
  // 0 or 1), u8 or i8 outputs, odd sizes; half the time a consumer of A sits between A and B in
  // the node order (B then runs before it, in A's step). A random tile and buffering (fixed seed).
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  test::Rng r(20261127);
  for (int i = 0; i < 40; ++i) {
    Graph g;
    g.name = "siblings" + std::to_string(i);
    const int64_t C = test::pick(r, 1, 13), H = test::pick(r, 4, 17), W = test::pick(r, 4, 17);
    const int x = g.add_tensor({"x", DType::U8, {1, C, H, W}, std::nullopt, false});
    g.inputs = {x};
    const bool k3 = test::pick(r, 0, 1) == 1;
    const int64_t stride = k3 && H >= 7 && W >= 7 ? test::pick(r, 1, 2) : 1, pad = k3 ? test::pick(r, 0, 1) : 0;
    auto kind = [&] { return k3 ? static_cast<int>(test::pick(r, 0, 1)) : 2; };
    const int a = test::add_conv(g, r, x, kind(), test::pick(r, 1, 13), stride, "A", pad);
    const bool between = test::pick(r, 0, 1) == 1;
    const int a2 = between ? test::add_conv(g, r, a, 2, test::pick(r, 1, 9), 1, "A2") : -1;
    const int b = test::add_conv(g, r, x, kind(), test::pick(r, 1, 13), stride, "B", pad);
    g.outputs = {between ? a2 : a, b};
    g.validate();
    const int bn = between ? 2 : 1;
    REQUIRE(sibling_of(g, 0) == bn);
    std::vector<LayerTiling> t = test::fixed_tilings(g, 0, 0, 0);
    for (LayerTiling& l : t) l.policy = "tuned";
    const Shape ys = g.tensor(g.nodes[0].outputs[0]).shape;
    t[0].net.sibling = true;
    t[0].l1.h_out = test::pick(r, 1, ys[2]);
    t[0].l1.w_out = test::pick(r, 1, ys[3]);
    t[0].l1.db = static_cast<int>(test::pick(r, 1, 2));
    INFO(g.name << ": C " << C << " H " << H << " W " << W << " k3 " << k3 << " s" << stride << " p" << pad << " between "
                << between << ", tile " << t[0].l1.h_out << "x" << t[0].l1.w_out << " db " << t[0].l1.db);
    Schedule s;
    try {
      s = build_schedule(g, spec, t, {});
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    CHECK(s.steps[static_cast<size_t>(bn)].commands.empty());
    int64_t step_l1 = 0;
    for (const Buffer& buf : s.buffers)
      if (buf.level == Level::L1 && buf.first_step == 0) step_l1 = std::max(step_l1, buf.offset + buf.bytes);
    CHECK(sibling_l1_footprint(g, 0, bn, t[0].l1.h_out, t[0].l1.w_out, t[0].l1.db) == step_l1);
    const auto in = test::random_inputs(g, static_cast<uint32_t>(i));
    InterpreterOptions io;
    io.keep_all = true;
    const auto want = interpret(g, in, io);
    const FunctionalResult f = execute_functional(g, s, in);
    for (size_t o = 0; o < g.outputs.size(); ++o) CHECK(f.outputs.at(o).same_values(want.outputs.at(o)));
    const FunctionalResult fr = execute_functional(g, test::reorder_by_deps(s), in);
    for (size_t o = 0; o < g.outputs.size(); ++o) CHECK(fr.outputs.at(o).same_values(want.outputs.at(o)));
    CHECK(verify_against_interpreter(g, *simulate(g, s, spec, in, {}).values, want).ok);
  }
}
