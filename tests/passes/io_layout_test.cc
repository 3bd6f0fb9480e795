// The graph I/O layout pass (compiler/passes/io_layout.h) and its schedule: conversions inserted
// only where Deeploy has them, the NCHW side stored row-major, the conversions tiled through L1 as
// Deeploy's solver tiles a Transpose, with the tile cost worked by hand, and the run bit-exact.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/golden/golden.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/passes/io_layout.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/dma/cost.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8 [1, C, H, W] -> conv (1×1 dense, or 3×3 depthwise pad 1) -> y u8, integer requant.
Graph one_conv(int64_t c, int64_t h, int64_t w, bool depthwise) {
  Graph g;
  g.name = "one_conv";
  const int x = g.add_tensor({"x", DType::U8, {1, c, h, w}, std::nullopt, false});
  const Shape ws = depthwise ? Shape{c, 1, 3, 3} : Shape{c, c, 1, 1};
  std::vector<int64_t> wv(static_cast<size_t>(shape_numel(ws)));
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 29) % 200) - 100;
  const int wt = g.add_tensor({"w", DType::I8, ws, Tensor::from_ints(DType::I8, ws, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, c, h, w}, std::nullopt, false});
  ConvParams p;
  if (depthwise) {
    p.groups = c;
    p.kh = p.kw = 3;
    p.pad_t = p.pad_b = p.pad_l = p.pad_r = 1;
  }
  p.rq.kind = Requant::Kind::Integer;
  p.rq.axis = 1;
  p.rq.k.assign(static_cast<size_t>(c), 3);
  p.rq.lambda.assign(static_cast<size_t>(c), 0);
  p.rq.shift = 7;
  p.rq.lo = 0, p.rq.hi = 255;
  g.inputs = {x}, g.outputs = {y};
  g.nodes.push_back(Node{"Conv_0", p, {x, wt}, {y}, {"Conv"}});
  g.validate();
  return g;
}

}  // namespace

TEST_CASE("io layout: nchw wraps a conv in two conversions, hwc changes nothing", "[passes][io_layout]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  Graph g = one_conv(16, 8, 8, false);
  EngineAssignment ea = assign_engines(g, spec, {"cluster"});
  CHECK(apply_io_layout(g, "hwc", &ea) == 0);
  CHECK(g.nodes.size() == 1);
  REQUIRE(apply_io_layout(g, "nchw", &ea) == 2);
  REQUIRE(g.nodes.size() == 3);
  CHECK(ea.why_not.size() == 3);
  CHECK(g.nodes[0].name == "x_to_hwc");
  CHECK(g.nodes[0].as<TransposeParams>().relayout == "nchw_to_hwc");
  CHECK(g.nodes[2].name == "y_to_nchw");
  CHECK(g.nodes[2].as<TransposeParams>().relayout == "hwc_to_nchw");
  CHECK(g.nodes[0].inputs[0] == g.inputs[0]);    // graph input and output keep their tensors
  CHECK(g.nodes[2].outputs[0] == g.outputs[0]);
  CHECK(g.nodes[1].inputs[0] == g.nodes[0].outputs[0]);
  CHECK(g.nodes[1].outputs[0] == g.nodes[2].inputs[0]);
  CHECK(is_relayout(g.nodes[0]));
  CHECK(!is_relayout(g.nodes[1]));
  CHECK_THROWS_AS(apply_io_layout(g, "nhwc"), std::invalid_argument);

  // A graph input read only by a cluster depthwise conv is not converted (PULP-NN reads CHW).
  Graph d = one_conv(16, 8, 8, true);
  assign_engines(d, spec, {"cluster"});
  CHECK(apply_io_layout(d, "nchw") == 1);
  CHECK(d.nodes.back().as<TransposeParams>().relayout == "hwc_to_nchw");
}

TEST_CASE("io layout: a transformer's 4-D tensors (a KV cache) are not converted", "[passes][io_layout]") {
  // q [1, 2, 4, 8] x kT [1, 2, 8, 4] -> MatMul -> [1, 2, 4, 4]: sequence tensors, row-major in
  // ONNX order on both sides, so nchw inserts nothing (Deeploy transposes only around convs).
  Graph g;
  g.name = "attention_scores";
  const int q = g.add_tensor({"q", DType::I8, {1, 2, 4, 8}, std::nullopt, false});
  const int k = g.add_tensor({"kT", DType::I8, {1, 2, 8, 4}, std::nullopt, false});
  const int y = g.add_tensor({"s", DType::I8, {1, 2, 4, 4}, std::nullopt, false});
  GemmParams p;
  p.rq.kind = Requant::Kind::Integer;
  p.rq.shift = 4;
  p.rq.lo = -128, p.rq.hi = 127;
  g.nodes.push_back(Node{"MatMul_0", p, {q, k}, {y}, {"MatMul"}});
  g.inputs = {q, k}, g.outputs = {y};
  g.validate();
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  assign_engines(g, spec, {"cluster"});
  CHECK(apply_io_layout(g, "nchw") == 0);
  CHECK(g.nodes.size() == 1);
  // The shipped microLlama64 with its inputs: the same graph under nchw and hwc.
  const std::string dir = test::shared_networks() + "/deeploy/Models/microLlama/INT8/microLlama64";
  REQUIRE_DATA(dir + "/network.onnx");
  for (const char* io : {"hwc", "nchw"}) {
    INFO(io);
    Graph m = import_onnx(dir + "/network.onnx");
    load_inputs(m, dir + "/inputs.npz");
    assign_engines(m, spec, {"cluster"});
    CHECK(apply_io_layout(m, io) == 0);
  }
}

TEST_CASE("io layout: the conversions are tiled as Deeploy's solver tiles a Transpose, timed by hand, bit-exact",
          "[passes][io_layout][sim]") {
  // 16 × 8 × 8 u8 = 1,024 elements. L1 budget 1,100 B, single buffering: a tile's input and
  // output each get ⌊1100 / 2⌋ = 550 B, 544 at edgesim's 8-byte alignment.
  // The input conversion is the network's first node, so Deeploy's solver maximises its tile:
  // over (C, H, W) of the NCHW input from the largest values down, the first tile of the largest
  // product ≤ 544 is 15 × 6 × 6 = 540 (541–544 have no such factorisation; 16 · H · W ≤ 512):
  // 2 × 2 × 2 = 8 tiles, H and W differ between tiles, so the loop's strided index is a runtime
  // value. The output conversion is not the first node: each dimension of its NHWC input in turn
  // takes its largest value, H 8, W 8, C ⌊544 / 64⌋ = 8: 2 tiles whose extents are all equal.
  const PlatformSpec spec =
      load_platform(test::source_dir() + "/platforms/gap9.yaml", {"budgets.deeploy.l1=1100"});
  Graph g = one_conv(16, 8, 8, false);
  EngineAssignment ea = assign_engines(g, spec, {"cluster"});
  apply_io_layout(g, "nchw", &ea);
  ScheduleOptions so;
  so.buffering = "single";
  const Schedule s = build_schedule(g, spec, tile_graph(g, spec, "deeploy"), so);
  // The NCHW sides are row-major, the converted tensors HWC.
  CHECK(s.placement_of(g.inputs[0])->strides == Shape{1024, 64, 8, 1});
  CHECK(s.placement_of(g.nodes[0].outputs[0])->strides == Shape{1024, 1, 128, 16});
  CHECK(s.placement_of(g.outputs[0])->strides == Shape{1024, 64, 8, 1});
  auto computes = [&](int step) {
    std::vector<const Command*> v;
    for (const Command& c : s.steps[static_cast<size_t>(step)].commands)
      if (c.kind == Command::Kind::Compute) v.push_back(&c);
    return v;
  };
  const auto in_tiles = computes(0), out_tiles = computes(2);
  REQUIRE(in_tiles.size() == 8);
  REQUIRE(out_tiles.size() == 2);
  CHECK(in_tiles[0]->outputs[0].shape == Shape{1, 15, 6, 6});
  CHECK(in_tiles[7]->outputs[0].shape == Shape{1, 1, 2, 2});
  CHECK(out_tiles[0]->outputs[0].shape == Shape{1, 8, 8, 8});
  CHECK(std::get<TransposeParams>(in_tiles[0]->params).runtime_index);
  CHECK_FALSE(std::get<TransposeParams>(out_tiles[0]->params).runtime_index);

  const std::vector<Tensor> in = random_inputs(g, 5);
  SimOptions o;
  o.trace = true;
  const SimOutcome out = simulate(g, s, spec, in, o);
  InterpreterOptions io;
  io.keep_all = true;
  CHECK(verify_against_interpreter(g, *out.values, interpret(g, in, io)).ok);
  // A tile's kernel: Deeploy forks per tile and the kernel waited for its load:
  // wake + t_fork + 8 (set-up) + the busiest core's elements · per element + t_bar, operands in
  // L1 (kernels/layout/cost_cluster.h). The split axis is chosen on the whole tensor's loop
  // order: H of the NHWC output [1, 8, 8, 16] towards HWC (the 15 × 6 × 6 tile: 6 rows, one per
  // core, 6 · 15 = 90 elements at c_transpose + c_transpose_idx), C of [1, 16, 8, 8] back (8
  // channels, one per core: 64 elements at c_transpose).
  const ClusterCostSpec& c = spec.cluster.cost;
  const int64_t fixed = dma_timing(spec).wake_cycles + c.t_fork + 8 + c.t_bar;
  int seen_in = 0, seen_out = 0;
  for (const TraceSlice& t : out.result.trace) {
    if (t.name.rfind("compute tile 0/", 0) == 0 && t.step == 0) {
      CHECK(t.dur == fixed + 90 * (c.c_transpose + c.c_transpose_idx));
      ++seen_in;
    }
    if (t.name.rfind("compute tile", 0) == 0 && t.step == 2) {
      CHECK(t.dur == fixed + 64 * c.c_transpose);
      ++seen_out;
    }
  }
  CHECK(seen_in == 1);
  CHECK(seen_out == 2);
}

// x u8 [1, 16, 8, 8] -> 1×1 conv -> 3×3 depthwise (pad 1) -> y: with the depthwise on the cluster,
// nchw also routes the depthwise's input through a HWC -> NCHW conversion (Deeploy's PULP
// depthwise reads CHW, [30] `_PULP_NCHWtoNHWC_dw_fun`), stored row-major, and the depthwise then
// loads it as a plain copy: no DORY gather commands. With the depthwise on the NPU nothing is
// added (NE16 reads HWC).
TEST_CASE("io layout: a cluster depthwise conv reads its input through a CHW conversion", "[passes][io_layout][sim]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  auto two_convs = [] {
    Graph g = one_conv(16, 8, 8, false);
    Graph d = one_conv(16, 8, 8, true);
    const int mid = g.outputs[0];
    const Node& dn = d.nodes[0];
    const int wt = g.add_tensor(d.tensor(dn.inputs[1]));
    const int y = g.add_tensor({"y2", DType::U8, {1, 16, 8, 8}, std::nullopt, false});
    g.nodes.push_back(Node{"Conv_1", dn.params, {mid, wt}, {y}, {"Conv"}});
    g.outputs = {y};
    g.validate();
    return g;
  };
  Graph g = two_convs();
  EngineAssignment ea = assign_engines(g, spec, {"cluster"});
  REQUIRE(apply_io_layout(g, "nchw", &ea) == 3);
  REQUIRE(g.nodes.size() == 5);
  CHECK(ea.why_not.size() == 5);
  CHECK(g.nodes[2].name == "Conv_1_in_to_chw");
  CHECK(g.nodes[2].as<TransposeParams>().relayout == "hwc_to_nchw");
  CHECK(g.nodes[2].inputs[0] == g.nodes[1].outputs[0]);
  CHECK(g.nodes[3].inputs[0] == g.nodes[2].outputs[0]);

  ScheduleOptions so;
  so.buffering = "single";
  const Schedule s = build_schedule(g, spec, tile_graph(g, spec, "deeploy", 1), so);
  CHECK(s.placement_of(g.nodes[3].inputs[0])->strides == Shape{1024, 64, 8, 1});
  const std::vector<Tensor> in = random_inputs(g, 3);
  const SimOutcome out = simulate(g, s, spec, in, {});
  InterpreterOptions io;
  io.keep_all = true;
  CHECK(verify_against_interpreter(g, *out.values, interpret(g, in, io)).ok);
  // The depthwise's input load is one plain copy: its DMA wait is that of 1,024 contiguous bytes,
  // far below the 16 per-channel gather commands of 64 one-byte lines of the same layer in HWC.
  Graph h = two_convs();
  assign_engines(h, spec, {"cluster"});
  const Schedule sh = build_schedule(h, spec, tile_graph(h, spec, "deeploy", 1), so);
  const SimOutcome gathered = simulate(h, sh, spec, random_inputs(h, 3), {});
  const LayerStats& plain = out.result.layers.at(3);
  const LayerStats& gather = gathered.result.layers.at(1);
  REQUIRE(plain.name == "Conv_1");
  REQUIRE(gather.name == "Conv_1");
  CHECK(plain.dma_bytes_in == gather.dma_bytes_in);
  CHECK(2 * plain.dma_wait_cycles < gather.dma_wait_cycles);

  Graph n = two_convs();
  const PlatformSpec npu = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  assign_engines(n, npu, {"npu", "cluster"});
  CHECK(apply_io_layout(n, "nchw") == 2);
}
