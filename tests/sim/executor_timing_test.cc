// Timed execution of schedules (sim/exec): exact cycle totals predicted from the pure cost
// functions (kernels/*/cost_cluster, kernels/dma/cost.h) for a DMA-bound layer under single and
// double buffering, the earliest completion of individual DMA copies in the trace, the cycle
// split of every layer, and bit-exact data through the simulated memories.
#include <algorithm>
#include <cmath>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <systemc>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/cost/cluster_cost.h"
#include "kernels/dma/cost.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/core/context.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8[1,256,64,16] -> pointwise conv to 1 channel -> y u8[1,1,64,16]. Per 8-row tile the input
// is 8·16·256 = 32 KiB (4,096 cycles of DMA at 8 B/cycle) while the kernel (one output channel:
// the 1×2 leftover loop, 16 pixels per core) takes about 2,800 cycles: DMA-bound.
Graph pointwise_graph() {
  Graph g;
  g.name = "pw";
  const int64_t cin = 256;
  std::vector<int64_t> wv(static_cast<size_t>(cin));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 29 + 3) % 15) - 7;
  const int x = g.add_tensor({"x", DType::U8, {1, cin, 64, 16}, std::nullopt, false});
  const int w = g.add_tensor({"w", DType::I8, {1, cin, 1, 1}, Tensor::from_ints(DType::I8, {1, cin, 1, 1}, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, 1, 64, 16}, std::nullopt, false});
  g.inputs = {x};
  g.outputs = {y};
  ConvParams cp;
  cp.bias = {100};
  cp.rq.kind = Requant::Kind::Integer;
  cp.rq.axis = 1;
  cp.rq.k = {3};
  cp.rq.lambda = {50};
  cp.rq.shift = 9;
  cp.rq.lo = 0;
  cp.rq.hi = 255;
  g.nodes.push_back(Node{"pw", cp, {x, w}, {y}, {"Conv"}});
  g.validate();
  return g;
}

struct Costs {
  const PlatformSpec& p;
  const Schedule& s;
  DmaTiming t = dma_timing(p);
  int64_t kernel(const Command& c) const {
    std::vector<Shape> in, out;
    for (const BufView& v : c.inputs) in.push_back(v.shape);
    for (const BufView& v : c.outputs) out.push_back(v.shape);
    return cluster_kernel_cost(c.params, in, out, p.cluster).cycles + 3 * p.cluster.cost.t_bar;
  }
  int64_t issue(const Command& c) const { return dory_copy_cost(t, c.count.data(), 0, true, false).issue; }
  bool to_l1(const Command& c) const { return s.buffers[static_cast<size_t>(c.dst.buffer)].level == Level::L1; }
  int64_t transfer(const Command& c) const {
    const Buffer& l1 = s.buffers[static_cast<size_t>(to_l1(c) ? c.dst.buffer : c.src.buffer)];
    const int64_t addr = l1.offset + (to_l1(c) ? c.dst.offset : c.src.offset);
    return dory_copy_cost(t, c.count.data(), addr, to_l1(c), false).transfer;
  }
};

Schedule schedule_for(const Graph& g, const PlatformSpec& p, const std::string& buffering) {
  auto tilings = test::fixed_tilings(g, 0, 8, 0);
  for (auto& t : tilings) t.policy = "dory";
  ScheduleOptions o;
  o.buffering = buffering;
  return build_schedule(g, p, tilings, o);
}

}  // namespace

TEST_CASE("double buffering hides DMA by the amount the model predicts", "[sim][exec]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  const Graph g = pointwise_graph();
  const std::vector<Tensor> in = test::random_inputs(g, 3);
  InterpreterOptions io;
  io.keep_all = true;
  const InterpreterResult want = interpret(g, in, io);
  const Schedule single = schedule_for(g, p, "single");
  const Schedule dbl = schedule_for(g, p, "double");
  REQUIRE(single.steps.at(0).buffering == 1);
  REQUIRE(dbl.steps.at(0).buffering == 2);

  // Single buffering: every command waits for the previous one, so the layer is the sum of
  // every job: issue + transfer per copy; per kernel the fork (first only), a wake-up after a DMA,
  // the kernel and DORY's 3 extra barriers.
  const Costs cs{p, single};
  int64_t expect_single = 0;
  bool first = true, after_dma = false;
  int64_t max_kernel = 0, load_transfer = 0;
  for (const Command& c : single.steps[0].commands) {
    if (c.kind == Command::Kind::Compute) {
      expect_single += cs.kernel(c) + (first ? p.cluster.cost.t_fork : 0) + (after_dma ? cs.t.wake_cycles : 0);
      max_kernel = std::max(max_kernel, cs.kernel(c));
      first = false;
      after_dma = false;
    } else {
      expect_single += cs.issue(c) + cs.transfer(c);
      if (c.note.rfind("load x", 0) == 0) load_transfer = std::max(load_transfer, cs.transfer(c));
      after_dma = true;
    }
  }
  INFO("kernel " << max_kernel << " vs input load " << load_transfer);
  REQUIRE(load_transfer > max_kernel + cs.t.wake_cycles + 64);   // the layer is DMA-bound

  // Double buffering, DMA-bound: the L2->L1 channel never idles once the first load is issued,
  // so the layer is: issue of the first load + every L2->L1 transfer back to back + the wake-up,
  // kernel and barriers of the last tile + the issue and transfer of its output store.
  const Costs cd{p, dbl};
  int64_t in_transfers = 0, first_issue = -1, last_kernel = 0, last_store = 0;
  for (const Command& c : dbl.steps[0].commands) {
    if (c.kind == Command::Kind::Compute) {
      last_kernel = cd.kernel(c);
    } else if (cd.to_l1(c)) {
      in_transfers += cd.transfer(c);
      if (first_issue < 0) first_issue = cd.issue(c);
    } else {
      last_store = cd.issue(c) + cd.transfer(c);
    }
  }
  const int64_t expect_double = first_issue + in_transfers + cd.t.wake_cycles + last_kernel + last_store;

  SimOptions opt;
  opt.trace = true;
  const SimOutcome rs = simulate(g, single, p, in, opt);
  const SimOutcome rd = simulate(g, dbl, p, in, opt);
  CHECK(rs.result.total_cycles == expect_single);
  CHECK(rd.result.total_cycles == expect_double);
  CHECK(rs.result.total_cycles - rd.result.total_cycles == expect_single - expect_double);
  CHECK(rd.result.total_cycles < rs.result.total_cycles);
  std::cout << fmt::format("double buffering on a DMA-bound pointwise layer (siracusa): single {} cycles, "
                           "double {} cycles, {} hidden\n", rs.result.total_cycles, rd.result.total_cycles,
                           rs.result.total_cycles - rd.result.total_cycles);
  // The split adds up, and the double-buffered layer waits for DMA less.
  for (const SimOutcome* r : {&rs, &rd}) {
    const LayerStats& L = r->result.layers.at(0);
    CHECK(L.compute_cycles + L.overhead_cycles + L.dma_wait_cycles == L.cycles);
    CHECK(verify_against_interpreter(g, *r->values, want).ok);
  }
  CHECK(rd.result.layers[0].dma_wait_cycles < rs.result.layers[0].dma_wait_cycles);
  CHECK(rd.result.layers[0].compute_cycles == rs.result.layers[0].compute_cycles);

  // Earliest completion of the very first copy: issued by the cores at cycle 0 for issue()
  // cycles, then on the L2->L1 channel for exactly its transfer time.
  const Command& c0 = dbl.steps[0].commands.at(0);
  REQUIRE(c0.kind == Command::Kind::Dma);
  const auto it = std::find_if(rd.result.trace.begin(), rd.result.trace.end(),
                               [&](const TraceSlice& t) { return t.track == "dma in" && t.name == c0.note; });
  REQUIRE(it != rd.result.trace.end());
  CHECK(it->start == cd.issue(c0));
  CHECK(it->dur == cd.transfer(c0));
}

TEST_CASE("timing-only runs give the same cycles as runs with data, run after run", "[sim][exec]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = pointwise_graph();
  const Schedule s = schedule_for(g, p, "auto");
  const std::vector<Tensor> in = test::random_inputs(g, 5);
  SimOptions timing;
  timing.data = false;
  const int64_t a = simulate(g, s, p, in).result.total_cycles;
  for (int i = 0; i < 3; ++i) CHECK(simulate(g, s, p, in, timing).result.total_cycles == a);
  CHECK(simulate(g, s, p, in).result.total_cycles == a);
}

TEST_CASE("simulated time that would pass 2^53 cycles is one error, never a wrapped total (issue 36 #7)",
          "[sim][exec]") {
  CHECK(to_cycles(delay_time(5, 10, "x")) == 5);
  CHECK_NOTHROW(delay_time(kMaxSimCycles - 10, 10, "x"));
  CHECK_THROWS_WITH(delay_time(kMaxSimCycles - 9, 10, "a job"),
                    Catch::Matchers::Contains("simulated time overflows: a job of 9007199254740983 cycles at cycle 10"));
  CHECK_THROWS_AS(delay_time(-1, 0, "x"), std::overflow_error);
  // A spec made past the loader's bounds (costs of 10^14 cycles per pixel, call, channel and requantisation): the run stops
  // with that error instead of wrapping SystemC's time.
  PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  for (int64_t* c : {&p.cluster.cost.c_px, &p.cluster.cost.c_call, &p.cluster.cost.c_cp, &p.cluster.cost.c_rq})
    *c = 100'000'000'000'000;
  const Graph g = pointwise_graph();
  const Schedule s = schedule_for(g, p, "auto");
  SimOptions timing;
  timing.data = false;
  CHECK_THROWS_WITH(simulate(g, s, p, {}, timing), Catch::Matchers::Contains("simulated time overflows"));
}

TEST_CASE("a platform the simulator cannot model is one clear error", "[sim][exec]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/barvinn.yaml");
  const Graph g = pointwise_graph();
  const PlatformSpec sira = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  const Schedule s = schedule_for(g, sira, "auto");
  // A cluster schedule on BARVINN (MVU array only): the first command whose engine is missing.
  CHECK_THROWS_WITH(simulate(g, s, p, test::random_inputs(g, 1)),
                    Catch::Matchers::Contains("engine 'cluster_dma' is not simulated on platform barvinn"));
}

TEST_CASE("uDMA: an L3 copy occupies its channel for the software cost plus its lines", "[sim][exec]") {
  // MobileNetV1-128 on GAP8 streams weights from HyperRAM (4.2 MB of weights, 512 KiB of L2).
  const std::string model = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = import_onnx(model);
  const Schedule s = build_schedule(g, p, tile_graph(g, p, "dory"), {});
  SimOptions opt;
  opt.data = false;
  opt.trace = true;
  const SimOutcome r = simulate(g, s, p, {}, opt);
  const L3Timing t = l3_timing(p);
  int checked = 0;
  for (size_t k = 0; k < s.steps.size(); ++k)
    for (const Command& c : s.steps[k].commands) {
      if (c.engine != "l3_dma" || checked >= 20) continue;
      const auto it = std::find_if(r.result.trace.begin(), r.result.trace.end(), [&](const TraceSlice& x) {
        return x.track == "l3 dma" && x.name == c.note && x.step == static_cast<int>(k);
      });
      REQUIRE(it != r.result.trace.end());
      INFO(c.note);
      // Every line is one HyperRAM sub-transfer (the bus is free: the uDMA serves one copy at a
      // time), plus the driver cost once: exactly l3_copy_cycles of the pure model.
      CHECK(it->dur == l3_copy_cycles(t, c.count[0] * c.count[1], c.count[2]));
      ++checked;
    }
  CHECK(checked == 20);
}

TEST_CASE("a corrupted schedule fails verification naming the first differing layer", "[sim][exec]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const Graph g = import_onnx(test::source_dir() + "/models/resnet8/model.onnx");
  Schedule s = build_schedule(g, p, tile_graph(g, p, "dory"), {});
  // Give the first kernel of step 2 (a 3×3 conv) an input zero point: its output, and
  // everything after it, differs; the message must name step 2's layer, not a later one.
  Command* victim = nullptr;
  for (Command& c : s.steps.at(2).commands)
    if (c.kind == Command::Kind::Compute && !victim) victim = &c;
  REQUIRE(victim);
  auto& cp = std::get<ConvParams>(victim->params);
  cp.x_zp += 40;
  const std::vector<Tensor> in = test::random_inputs(g, 1);
  InterpreterOptions io;
  io.keep_all = true;
  const SimOutcome r = simulate(g, s, p, in);
  const VerifyOutcome v = verify_against_interpreter(g, *r.values, interpret(g, in, io));
  CHECK_FALSE(v.ok);
  CHECK_THAT(v.message, Catch::Matchers::StartsWith("layer 2 '" + g.nodes[2].name + "'") &&
                            Catch::Matchers::Contains("first difference at flat index"));
}

TEST_CASE("TCDM bank-conflict mode stretches kernels by the expected wait of their accesses", "[sim][exec]") {
  const PlatformSpec p = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  const PlatformSpec pc = load_platform(test::source_dir() + "/platforms/siracusa.yaml", {"fidelity.l1_conflicts=true"});
  const Graph g = pointwise_graph();
  const Schedule s = schedule_for(g, p, "single");   // no DMA overlaps a kernel
  SimOptions timing;
  timing.data = false;
  const int64_t base = simulate(g, s, p, {}, timing).result.total_cycles;
  const int64_t conflicted = simulate(g, s, pc, {}, timing).result.total_cycles;
  // Each kernel's work W (cost minus its fixed overhead) grows by round(W · f · wait), f = 6/14,
  // wait = others / (2 · 16 banks), others = 7 other workers · f.
  const double f = 6.0 / 14.0, wait = 7.0 * f / 32.0;
  int64_t extra = 0;
  for (const Command& c : s.steps[0].commands) {
    if (c.kind != Command::Kind::Compute) continue;
    std::vector<Shape> in, out;
    for (const BufView& v : c.inputs) in.push_back(v.shape);
    for (const BufView& v : c.outputs) out.push_back(v.shape);
    const KernelCost k = cluster_kernel_cost(c.params, in, out, p.cluster);
    extra += static_cast<int64_t>(std::llround(static_cast<double>(k.cycles - k.overhead) * f * wait));
  }
  CHECK(extra > 0);
  CHECK(conflicted == base + extra);
}
