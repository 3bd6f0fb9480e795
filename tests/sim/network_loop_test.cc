// The network loop (compiler/schedule/build_loop.cc) timed on the SystemC model, to the cycle on a
// hand-worked two-layer network whose weights live in L3 (docs/schedule.md §4.6):
//   dory       R_A, layer A, R_B, layer B one after another:      R_A + T_A + R_B + T_B
//   dory-2020  R_B is read while layer A runs, layer B waits:     R_A + max(T_A, R_B) + T_B
// R_X = the uDMA read of X's weights (kernels/dma l3_copy_cycles), T_X = layer X alone (every
// command serial under single buffering: DMA issue + transfer per copy, the kernel with its
// barriers, the lead that opens the layer: a fork under dory, a barrier under dory-2020).
// The layers' own counters (accounted cycles) never include the loop reads.
#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "kernels/cost/cluster_cost.h"
#include "kernels/dma/cost.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8[1,cin,8,8] -> 1x1 conv A (cin -> ca) -> 1x1 conv B (ca -> cb) -> y.
Graph two_layers(int64_t cin, int64_t ca, int64_t cb) {
  Graph g;
  g.name = "two";
  auto weights = [&](const std::string& name, int64_t co, int64_t ci) {
    std::vector<int64_t> v(static_cast<size_t>(co * ci));
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 7 + 1) % 9) - 4;
    return g.add_tensor({name, DType::I8, {co, ci, 1, 1}, Tensor::from_ints(DType::I8, {co, ci, 1, 1}, v), false});
  };
  auto conv = [&](const std::string& name, int x, int w, int y, int64_t co) {
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
  };
  const int x = g.add_tensor({"x", DType::U8, {1, cin, 8, 8}, std::nullopt, false});
  const int wa = weights("wa", ca, cin);
  const int a = g.add_tensor({"a", DType::U8, {1, ca, 8, 8}, std::nullopt, false});
  const int wb = weights("wb", cb, ca);
  const int y = g.add_tensor({"y", DType::U8, {1, cb, 8, 8}, std::nullopt, false});
  g.inputs = {x};
  g.outputs = {y};
  conv("A", x, wa, a, ca);
  conv("B", a, wb, y, cb);
  g.validate();
  return g;
}

Schedule build(const Graph& g, const PlatformSpec& p, const std::string& loop) {
  auto tilings = test::fixed_tilings(g, 0, 0, 0);
  for (auto& t : tilings) t.policy = "dory";
  ScheduleOptions o;
  o.buffering = "single";
  o.constants = "l3";
  o.network_loop = loop;
  return build_schedule(g, p, tilings, o);
}

struct Expect {
  int64_t r_a = 0, r_b = 0, t_a = 0, t_b = 0;
};

// Every command of a single-buffered layer step runs after the previous one.
Expect hand_worked(const Graph& g, const Schedule& s, const PlatformSpec& p) {
  const DmaTiming t = dma_timing(p);
  const L3Timing l3 = l3_timing(p);
  const bool fork = s.network_loop != "dory-2020";
  Expect e;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    int64_t layer = 0;
    bool first = true, after_dma = false;
    for (const Command& c : s.steps[st].commands) {
      if (c.engine == "l3_dma") {
        REQUIRE(c.loop);
        const int64_t r = l3_copy_cycles(l3, c.count[0] * c.count[1], c.count[2]);
        (c.note.find("of B") != std::string::npos ? e.r_b : e.r_a) = r;
        continue;
      }
      if (c.kind == Command::Kind::Compute) {
        std::vector<Shape> in, out;
        for (const BufView& v : c.inputs) in.push_back(v.shape);
        for (const BufView& v : c.outputs) out.push_back(v.shape);
        layer += cluster_kernel_cost(c.params, in, out, p.cluster).cycles + 3 * p.cluster.cost.t_bar +
                 (first ? (fork ? p.cluster.cost.t_fork : p.cluster.cost.t_bar) : 0) + (after_dma ? t.wake_cycles : 0);
        first = false;
        after_dma = false;
      } else {
        const bool to_l1 = s.buffers.at(static_cast<size_t>(c.dst.buffer)).level == Level::L1;
        const Buffer& l1 = s.buffers.at(static_cast<size_t>(to_l1 ? c.dst.buffer : c.src.buffer));
        const CopyCost cc = dory_copy_cost(t, c.count.data(), l1.offset + (to_l1 ? c.dst.offset : c.src.offset), to_l1, false);
        layer += cc.issue + cc.transfer;
        after_dma = true;
      }
    }
    (g.nodes[static_cast<size_t>(s.steps[st].node)].name == "A" ? e.t_a : e.t_b) = layer;
  }
  return e;
}

}  // namespace

TEST_CASE("network loops: dory-2020 hides the next layer's weight read behind the layer, dory does not",
          "[sim][loop]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/pulp_open.yaml");
  SimOptions timing;
  timing.data = false;
  // hidden: layer A (64 -> 64, 4 KiB of weights) outlasts the read of B's 1 KiB;
  // exposed: layer A (8 -> 8) is short and B's weights (8 -> 256, 2 KiB) take longer to read.
  for (const bool hidden : {true, false}) {
    const Graph g = hidden ? two_layers(64, 64, 16) : two_layers(8, 8, 256);
    const Schedule s20 = build(g, p, "dory-2020");
    const Schedule sd = build(g, p, "dory");
    REQUIRE(s20.network_loop == "dory-2020");
    REQUIRE(sd.network_loop == "dory");
    // dory-2020 issues both reads in step A (B's ahead of its layer); dory one per layer.
    auto loop_reads = [](const Step& st) {
      int n = 0;
      for (const Command& c : st.commands) n += c.loop ? 1 : 0;
      return n;
    };
    CHECK(loop_reads(s20.steps[0]) == 2);
    CHECK(loop_reads(s20.steps[1]) == 0);
    CHECK(loop_reads(sd.steps[0]) == 1);
    CHECK(loop_reads(sd.steps[1]) == 1);

    const Expect e20 = hand_worked(g, s20, p), ed = hand_worked(g, sd, p);
    INFO("R_A " << e20.r_a << " R_B " << e20.r_b << " T_A " << e20.t_a << " T_B " << e20.t_b);
    REQUIRE(e20.r_b > 0);
    CHECK((hidden ? e20.t_a > e20.r_b : e20.t_a < e20.r_b));

    const RunResult r20 = simulate(g, s20, p, {}, timing).result;
    const RunResult rd = simulate(g, sd, p, {}, timing).result;
    CHECK(r20.total_cycles == e20.r_a + std::max(e20.t_a, e20.r_b) + e20.t_b);
    CHECK(rd.total_cycles == ed.r_a + ed.t_a + ed.r_b + ed.t_b);
    // The layers' own counters: the layer alone, whatever the loop around it does.
    CHECK(r20.layers[0].accounted_cycles == e20.t_a);
    CHECK(r20.layers[1].accounted_cycles == e20.t_b);
    CHECK(r20.accounted_cycles == e20.t_a + e20.t_b);
    CHECK(rd.accounted_cycles == ed.t_a + ed.t_b);
    // One fork for the whole network (a barrier per layer) against one fork per layer.
    CHECK(ed.t_a - e20.t_a == p.cluster.cost.t_fork - p.cluster.cost.t_bar);
  }
}

TEST_CASE("network loop: auto follows the policy, an unknown name is an error", "[sim][loop]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/pulp_open.yaml");
  const Graph g = two_layers(8, 8, 8);
  auto tilings = test::fixed_tilings(g, 0, 0, 0);
  ScheduleOptions o;
  o.constants = "l3";
  for (auto& t : tilings) t.policy = "dory-2021";
  CHECK(build_schedule(g, p, tilings, o).network_loop == "dory-2020");
  for (auto& t : tilings) t.policy = "dory";
  CHECK(build_schedule(g, p, tilings, o).network_loop == "dory");
  for (auto& t : tilings) t.policy = "deeploy";
  const Schedule sdp = build_schedule(g, p, tilings, o);
  CHECK(sdp.network_loop == "deeploy");
  for (const Command& c : sdp.steps[0].commands) CHECK_FALSE(c.loop);   // Deeploy's layer reads them itself
  o.network_loop = "prefetch";
  CHECK_THROWS_WITH(build_schedule(g, p, tilings, o), Catch::Contains("unknown network loop 'prefetch'"));
}
