// Cross-layer weight prefetch (NetTiling::prefetch, compiler/schedule/build_loop.cc) timed on the
// SystemC model to the cycle, on hand-worked chains of 1x1 convs whose weights live in L3:
//   no prefetch (DORY's loop)   R_A, T_A, R_B, T_B one after another
//   B prefetched 1 layer ahead  R_B runs on the uDMA while A computes: R_A + max(T_A, R_B) + T_B
// so prefetch hides exactly min(T_A, R_B): the whole copy when the previous layer is longer, and
// nothing more than the previous layer when it is shorter. Two layers ahead, C's read starts at
// A's start behind A's and B's on the uDMA. R_X = the uDMA read of X's weights (kernels/dma
// l3_copy_cycles), T_X = layer X alone (every command serial under single buffering).
// The data stays bit-exact: the prefetched buffer lives from the issuing step to its layer.
// The tuned flow's planner by estimated gain (compiler/tune/prefetch_gain.h) is checked on the
// same chains: its estimate of the A -> B case, and where it spends a tight L2.
#include <algorithm>

#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tune/prefetch_gain.h"
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

// The schedule run with data gives the interpreter's output, byte for byte.
bool bit_exact(const Graph& g, const Schedule& s, const PlatformSpec& p) {
  const auto in = test::random_inputs(g, 3);
  InterpreterOptions io;
  const auto want = interpret(g, in, io);
  const auto got = simulate(g, s, p, in, {}).values;
  if (!got.has_value()) return false;
  const Tensor& a = got->outputs.at(0);
  const Tensor& b = want.outputs.at(0);
  return a.nbytes() == b.nbytes() && std::equal(a.data(), a.data() + a.nbytes(), b.data());
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
  CHECK(bit_exact(g, build(g, p, {0, 1, 2}), p));
}

namespace {

// The chain's tilings under the tuned flow: every constant homed in L3, `streaming` layers
// streaming their weights in Cout slabs of `slab` channels (two slab buffers).
NetPlan tuned_chain_plan(const Graph& g, const std::vector<int64_t>& slab) {
  NetPlan plan = test::fixed_tilings(g, 0, 0, 0);
  for (size_t i = 0; i < plan.size(); ++i) {
    LayerTiling& t = plan[i];
    t.policy = "tuned";
    t.net.consts_l3 = true;
    if (slab[i] > 0) {
      t.l3.weights_in_l3 = true;
      t.l3.n_out = slab[i];
      t.l3.h_out = t.l3.h_in = 8;
      t.l3.db_w = 2;
      t.l1.n_out = slab[i];
    }
  }
  return plan;
}

}  // namespace

TEST_CASE("prefetch estimate: prefetching B saves min(compute of A, read of B), hand-worked",
          "[tune][prefetch]") {
  // The estimate (compiler/tune/prefetch_gain.h) of A -> B: R_A + C_A + R_B + C_B without
  // prefetch, R_A + max(C_A, R_B) + C_B with B one layer ahead (A's own read goes first), as the
  // simulator times it (the test above); C = the analytic compute, R = l3_copy_cycles of each
  // staged buffer (B's weights and its three constant vectors).
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  SimOptions timing;
  timing.data = false;
  for (const bool hidden : {true, false}) {
    const Graph g = hidden ? chain({64, 64, 16}) : chain({8, 8, 256});
    const NetPlan plan = tuned_chain_plan(g, {0, 0});
    const PrefetchPlanner pp(g, p, plan);
    REQUIRE(pp.sites().size() == 2);
    const PrefetchTimeline tl(g, p, pp);
    const int64_t c_a = tl.compute()[0], c_b = tl.compute()[1];
    const L3Timing l3 = l3_timing(p);
    auto read = [&](size_t i) {   // one read per staging buffer: the weights, each constant vector
      int64_t r = 0;
      for (int64_t b : pp.sites()[i].sizes) r += l3_copy_cycles(l3, 1, b);
      return r;
    };
    const int64_t r_a = read(0), r_b = read(1);
    INFO("C_A " << c_a << " R_B " << r_b);
    CHECK((hidden ? c_a > r_b : c_a < r_b));
    CHECK(tl.estimate({0, 0}, {0, 0}) == r_a + c_a + r_b + c_b);
    CHECK(tl.estimate({0, 1}, {0, 0}) == r_a + std::max(c_a, r_b) + c_b);
    // The simulator saves what the estimate says to within the analytic compute's error (5 %).
    const int64_t sim0 = simulate(g, build_schedule(g, p, pp.with({0, 0}, {0, 0}), {}), p, {}, timing).result.total_cycles;
    const int64_t sim1 = simulate(g, build_schedule(g, p, pp.with({0, 1}, {0, 0}), {}), p, {}, timing).result.total_cycles;
    const double est_gain = static_cast<double>(std::min(c_a, r_b)), sim_gain = static_cast<double>(sim0 - sim1);
    INFO("simulated saving " << sim_gain << ", estimated " << est_gain);
    CHECK(std::abs(sim_gain - est_gain) <= 0.05 * est_gain);
  }
}

TEST_CASE("prefetch by gain: the L2 goes to the read that is exposed, not to a ring that buys nothing",
          "[tune][prefetch]") {
  // A (64 -> 64) -> B (64 -> 512, streams its weights in 16 slabs of 32 channels, compute-bound)
  // -> C (512 -> 64, 32 KiB of weights read whole). With L2 just large enough for B's two slab
  // buffers and C's weights read during B, PrefetchPlanner::greedy (layer order) gives B the
  // deepest ring first (it fits), and then C's read no longer fits ahead; by gain, C's read
  // (hidden behind B's compute) saves far more per byte than B's deeper ring.
  const Graph g = chain({64, 64, 512, 64});
  NetPlan plan = tuned_chain_plan(g, {0, 32, 0});
  plan[2].l1.n_out = 16, plan[2].l1.h_out = 4;   // C's 32 KiB input and weights in L1 tiles
  const PlatformSpec big = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const PrefetchPlanner probe(g, big, plan);
  REQUIRE(probe.sites().size() == 3);
  REQUIRE(probe.sites()[1].slab_buffer >= 0);
  const int64_t fits_both = probe.l2_high_water({0, 0, 1}, {0, 2, 0});
  const int64_t deep_ring = probe.l2_high_water({0, 0, 1}, {0, 8, 0});
  INFO("L2 with C read ahead: B ring 2 " << fits_both << " B, ring 8 " << deep_ring << " B");
  REQUIRE(deep_ring > fits_both);
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml", {"l2.size=" + std::to_string(fits_both), "budgets.dory.l2_reserved=0", "budgets.dory.l2_code_reserved=0"});
  const PrefetchPlanner pp(g, p, plan);
  const NetPlan greedy = pp.greedy(8, false, 8);
  const NetPlan gain = prefetch_by_gain(g, p, pp, 8, 8);
  CHECK(greedy[1].l3.db_w == 8);
  CHECK(greedy[2].net.prefetch == 0);
  CHECK(gain[2].net.prefetch >= 1);
  SimOptions timing;
  timing.data = false;
  const int64_t t_greedy = simulate(g, build_schedule(g, p, greedy, {}), p, {}, timing).result.total_cycles;
  const int64_t t_gain = simulate(g, build_schedule(g, p, gain, {}), p, {}, timing).result.total_cycles;
  INFO("simulated: greedy " << t_greedy << ", by gain " << t_gain);
  CHECK(t_gain < t_greedy);
  // Bit-exact with the chosen depths and rings.
  CHECK(bit_exact(g, build_schedule(g, p, gain, {}), p));
}
