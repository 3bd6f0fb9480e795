// DIANA in the simulator, to the cycle: SOMA jobs (a conv, a depthwise and a dense tile), the
// analog core's jobs (a reprogramming and a pass that reuses the array, output channels split
// over tiles), a host layer, and the DMA into the digital weight memory — each derived by hand
// from diana.yaml (docs/diana.md) and checked bit-exact against the reference.
#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "passes/diana_graphs.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"

using namespace edgesim;

namespace {

struct Run {
  Schedule s;
  RunResult r;
  bool ok = false;
};

Run run(Graph& g, const PlatformSpec& spec, const std::vector<std::string>& engines = {}) {
  Run out;
  assign_engines(g, spec, engines);
  out.s = build_schedule(g, spec, tile_graph(g, spec, "dory"), {});
  const std::vector<Tensor> in = random_inputs(g, 5);
  SimOptions o;
  o.trace = true;
  SimOutcome sim = simulate(g, out.s, spec, in, o);
  InterpreterOptions io;
  io.keep_all = true;
  out.ok = verify_against_interpreter(g, *sim.values, interpret(g, in, io)).ok;
  out.r = std::move(sim.result);
  return out;
}

std::vector<int64_t> durations(const RunResult& r, const std::string& track) {
  std::vector<int64_t> v;
  for (const TraceSlice& t : r.trace)
    if (t.track == track) v.push_back(t.dur);
  return v;
}

}  // namespace

TEST_CASE("diana sim: SOMA conv, depthwise and dense tiles last their model cycles", "[diana][sim]") {
  const PlatformSpec spec = test::diana_platform();
  test::DianaConv s;   // conv 3x3, 16 -> 32, 16x16, one tile
  s.cout = 32, s.h = s.w = 16;
  Graph g = test::diana_conv_graph(s);
  Run r = run(g, spec);
  CHECK(r.ok);
  CHECK(r.r.layers[0].engine == "digital");
  // ⌈32/16⌉ · ⌈16/16⌉ · 16 rows · 16 ch · 9 = 4608, + cfg 100
  CHECK(durations(r.r, "digital") == std::vector<int64_t>{4708});
  CHECK(r.r.layers[0].compute_cycles == 4608);
  // Weights and bias go to the digital weight memory: 32·9·16 = 4608 B and 32·4 = 128 B, each a
  // simple_dma copy of ⌈bytes/8⌉ + 10 (fidelity.dma_ext_latency); the input 16·16·16 = 4096 B
  int wmem = 0;
  for (const Buffer& b : r.s.buffers) wmem += b.level == Level::WMEM;
  CHECK(wmem == 2);
  const std::vector<int64_t> in = durations(r.r, "dma in");
  CHECK(std::find(in.begin(), in.end(), 4608 / 8 + 10) != in.end());
  CHECK(std::find(in.begin(), in.end(), 128 / 8 + 10) != in.end());
  CHECK(std::find(in.begin(), in.end(), 4096 / 8 + 10) != in.end());
  // the output 32·16·16 = 8192 B back to L2
  CHECK(durations(r.r, "dma out") == std::vector<int64_t>{8192 / 8 + 10});

  s.groups = 16, s.cout = 16;   // depthwise: ⌈16/16⌉ · 1 · 16 · 16 (weights ×16) · 9 = 2304
  g = test::diana_conv_graph(s);
  r = run(g, spec);
  CHECK(r.ok);
  CHECK(durations(r.r, "digital") == std::vector<int64_t>{2404});

  // Dense 64 -> 32: a 1x1 layer takes at most 16 output channels per tile: two jobs of ⌈16/16⌉ · 64
  g = test::diana_dense_graph(64, 32);
  r = run(g, spec);
  CHECK(r.ok);
  CHECK(r.r.layers[0].engine == "digital");
  CHECK(durations(r.r, "digital") == std::vector<int64_t>{164, 164});
}

TEST_CASE("diana sim: the analog core programs its array once per weight tile, reuses it across tiles",
          "[diana][sim]") {
  // 1x1 ternary conv 64 -> 32 on 8x8, inputs [0, 63]; L1 budget 10240 - 6144 reserved = 4096 B
  // at 96 B per output pixel (64 in + 32 out): the most bytes is 6 x 7 (4,032 B), so four tiles
  // 6x7, 6x1, 2x7, 2x1, all with the same weights.
  const PlatformSpec spec = test::diana_platform({"l1.size=10240"});
  test::DianaConv s;
  s.ternary = true, s.in_lo = 0, s.in_hi = 63, s.lo = -32, s.hi = 31, s.shift = 2;
  s.cin = 64, s.cout = 32, s.k = 1, s.pad = 0;
  Graph g = test::diana_conv_graph(s);
  Run r = run(g, spec);
  CHECK(r.ok);
  REQUIRE(r.r.layers.size() == 2);
  CHECK(r.r.layers[1].engine == "analog");
  CHECK(r.r.layers[1].tiles == 4);
  // unroll 4 (4·32 ≤ 512, 64·(1 + 3) = 256 ≤ 1152); tile 1: 6 rows · ⌈7/4⌉ = 12 passes · 32 = 384,
  // programming 256 x 128 cells · 2 bit = 8192 B / 8 + 10 = 1034, + cfg 100 = 1518;
  // the other tiles find their weights in the array: 6 · ⌈1/4⌉ = 6 passes = 192 + 100 = 292,
  // 2 · 2 = 4 passes = 228, 2 · 1 = 2 passes = 164
  CHECK(durations(r.r, "analog") == std::vector<int64_t>{1518, 292, 228, 164});

  // 1x1 ternary 64 -> 1024 on 2x2: two output-channel tiles of 512 (the array's columns), each
  // programmed: unroll 1 (2·512 > 512); 64 x 512 cells = 8192 B -> 1034; 2 · 2 = 4 passes = 128
  s.cout = 1024, s.h = s.w = 2;
  g = test::diana_conv_graph(s);
  r = run(g, test::diana_platform());
  CHECK(r.ok);
  CHECK(r.r.layers[1].engine == "analog");
  CHECK(durations(r.r, "analog") == std::vector<int64_t>{1262, 1262});
}

TEST_CASE("diana sim: a host layer lasts its TVM loop-nest cycles, on whole tensors in L2", "[diana][sim]") {
  const PlatformSpec spec = test::diana_platform();
  test::DianaConv s;   // conv 3x3, 4 -> 8, 6x6 (kernels/host/cost.h test: 129,122 cycles)
  s.cin = 4, s.cout = 8, s.h = s.w = 6;
  Graph g = test::diana_conv_graph(s);
  Run r = run(g, spec, {"host"});
  CHECK(r.ok);
  CHECK(r.r.layers[0].engine == "host");
  CHECK_FALSE(r.s.steps[0].tiled);   // no L1 tiles, no DMA
  CHECK(r.r.layers[0].cycles == 129122);
  CHECK(r.r.layers[0].dma_bytes_in == 0);
}
