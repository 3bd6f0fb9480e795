// Cross-layer weight prefetch (NetTiling::prefetch, compiler/schedule/build_loop.cc) timed on the
// SystemC model to the cycle, on hand-worked chains of 1x1 convs whose weights live in L3:
//   no prefetch (DORY's loop)   R_A, T_A, R_B, T_B one after another
//   B prefetched 1 layer ahead  R_B runs on the uDMA while A computes: R_A + max(T_A, R_B) + T_B
// so prefetch hides exactly min(T_A, R_B): the whole copy when the previous layer is longer, and
// nothing more than the previous layer when it is shorter. Two layers ahead, C's read starts at
// A's start behind A's and B's on the uDMA. R_X = the uDMA read of X's weights (kernels/dma
// l3_copy_cycles), T_X = layer X alone (every command serial under single buffering).
// The data stays bit-exact: the prefetched buffer lives from the issuing step to its layer.
#include <algorithm>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "kernels/interpreter/interpreter.h"
#include "kernels/dma/cost.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8[1,c0,8,8] -> 1x1 convs c0 -> c1 -> ... (layers "A", "B", "C", ...).
Graph chain(const std::vector<int64_t>& ch) {
  Graph g;
  g.name = "chain";
  int x = g.add_tensor({"x", DType::U8, {1, ch[0], 8, 8}, std::nullopt, false});
  g.inputs = {x};
  for (size_t i = 1; i < ch.size(); ++i) {
    const int64_t co = ch[i], ci = ch[i - 1];
    std::vector<int64_t> v(static_cast<size_t>(co * ci));
    for (size_t k = 0; k < v.size(); ++k) v[k] = static_cast<int64_t>((k * 7 + i) % 9) - 4;
    const std::string name(1, static_cast<char>('A' + i - 1));
    const int w = g.add_tensor({"w" + name, DType::I8, {co, ci, 1, 1}, Tensor::from_ints(DType::I8, {co, ci, 1, 1}, v), false});
    const int y = g.add_tensor({"y" + name, DType::U8, {1, co, 8, 8}, std::nullopt, false});
    ConvParams cp;
    cp.bias.assign(static_cast<size_t>(co), 10);
    cp.rq.kind = Requant::Kind::Integer;
    cp.rq.axis = 1;
    cp.rq.k.assign(static_cast<size_t>(co), 3);
    cp.rq.lambda.assign(static_cast<size_t>(co), 20);
    cp.rq.shift = 8;
    cp.rq.lo = 0;
    cp.rq.hi = 255;
    g.nodes.push_back(Node{name, cp, {x, w}, {y}, {"Conv"}});
    x = y;
  }
  g.outputs = {x};
  g.validate();
  return g;
}

Schedule build(const Graph& g, const PlatformSpec& p, const std::vector<int>& prefetch) {
  auto tilings = test::fixed_tilings(g, 0, 0, 0);
  for (size_t i = 0; i < tilings.size(); ++i) {
    tilings[i].policy = "dory";
    tilings[i].net.prefetch = prefetch[i];
  }
  ScheduleOptions o;
  o.buffering = "single";
  o.constants = "l3";
  o.network_loop = "dory";
  return build_schedule(g, p, tilings, o);
}

// R (the weight read) and T (the layer's own commands, serial) of every layer, from the
// simulated jobs of the no-prefetch schedule: under DORY's loop each step is its read followed
// by its layer, so the step's accounted cycles are T and the rest of its window is R.
struct Times {
  std::vector<int64_t> r, t;
};
Times times_of(const Schedule& s, const PlatformSpec& p, const RunResult& run) {
  const L3Timing l3 = l3_timing(p);
  Times x;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    int64_t r = 0;
    for (const Command& c : s.steps[st].commands)
      if (c.engine == "l3_dma") r += l3_copy_cycles(l3, c.count[0] * c.count[1], c.count[2]);
    x.r.push_back(r);
    x.t.push_back(run.layers[st].accounted_cycles);
    REQUIRE(run.layers[st].cycles == r + run.layers[st].accounted_cycles);   // serial: read, then layer
  }
  return x;
}

}  // namespace

TEST_CASE("prefetch hides exactly the weight copy when the previous layer is longer, and nothing more",
          "[sim][loop][prefetch]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  SimOptions timing;
  timing.data = false;
  // hidden: A (64 -> 64) outlasts the read of B's 1 KiB; exposed: A (8 -> 8) is short and B's
  // weights (8 -> 256, 2 KiB) take longer to read.
  for (const bool hidden : {true, false}) {
    const Graph g = hidden ? chain({64, 64, 16}) : chain({8, 8, 256});
    const Schedule base = build(g, p, {0, 0});
    const Schedule pf = build(g, p, {0, 1});
    const RunResult rb = simulate(g, base, p, {}, timing).result;
    const RunResult rp = simulate(g, pf, p, {}, timing).result;
    const Times x = times_of(base, p, rb);
    INFO("R_A " << x.r[0] << " T_A " << x.t[0] << " R_B " << x.r[1] << " T_B " << x.t[1]);
    REQUIRE(x.r[1] > 0);
    CHECK((hidden ? x.t[0] > x.r[1] : x.t[0] < x.r[1]));
    CHECK(rb.total_cycles == x.r[0] + x.t[0] + x.r[1] + x.t[1]);
    CHECK(rp.total_cycles == x.r[0] + std::max(x.t[0], x.r[1]) + x.t[1]);
    CHECK(rb.total_cycles - rp.total_cycles == std::min(x.t[0], x.r[1]));
    // The read is listed with B's step, issued at A's start, and B's buffer lives from A's step.
    int ahead = 0;
    for (const Command& c : pf.steps[1].commands)
      if (c.engine == "l3_dma") {
        CHECK(c.loop);
        CHECK(c.deps.empty());   // nothing precedes step 0
        ++ahead;
      }
    CHECK(ahead == 1);
    bool live_from_a = false;
    for (const Buffer& b : pf.buffers)
      if (b.name.find("network loop") != std::string::npos && b.name.find(" B") != std::string::npos)
        live_from_a = b.first_step == 0 && b.last_step == 1;
    CHECK(live_from_a);
    // The layers' own counters do not change.
    CHECK(rp.layers[0].accounted_cycles == x.t[0]);
    CHECK(rp.layers[1].accounted_cycles == x.t[1]);
  }
}

TEST_CASE("prefetch two layers ahead queues behind the nearer reads on the uDMA", "[sim][loop][prefetch]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  SimOptions timing;
  timing.data = false;
  const Graph g = chain({32, 32, 8, 256});   // C's 2 KiB read outlasts B
  const Schedule base = build(g, p, {0, 0, 0});
  const Times x = times_of(base, p, simulate(g, base, p, {}, timing).result);
  // B one layer ahead and C two layers ahead: all three reads start at 0, in layer order.
  const RunResult r = simulate(g, build(g, p, {0, 1, 2}), p, {}, timing).result;
  const int64_t a_end = x.r[0] + x.t[0];
  const int64_t b_end = std::max(a_end, x.r[0] + x.r[1]) + x.t[1];
  const int64_t c_start = std::max(b_end, x.r[0] + x.r[1] + x.r[2]);
  INFO("R " << x.r[0] << " " << x.r[1] << " " << x.r[2] << " T " << x.t[0] << " " << x.t[1] << " " << x.t[2]);
  CHECK(r.total_cycles == c_start + x.t[2]);
  // The same run with data is bit-exact against the interpreter.
  const auto in = test::random_inputs(g, 3);
  InterpreterOptions io;
  const auto want = interpret(g, in, io);
  const auto got = simulate(g, build(g, p, {0, 1, 2}), p, in, {}).values;
  REQUIRE(got.has_value());
  const Tensor& a = got->outputs.at(0);
  const Tensor& b = want.outputs.at(0);
  REQUIRE(a.nbytes() == b.nbytes());
  CHECK(std::equal(a.data(), a.data() + a.nbytes(), b.data()));
}
