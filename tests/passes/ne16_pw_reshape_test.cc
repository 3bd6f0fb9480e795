// Deeploy's NE16 pointwise reshape (compiler/passes/ne16_pw_reshape.h): its choice of extent, the
// graph pass, and the effect on a simulated NE16 pointwise job.
#include <catch2/catch.hpp>

#include "compiler/passes/ne16_pw_reshape.h"
#include "compiler/passes/assign_engine.h"
#include "passes/npu_graphs.h"
#include "kernels/npu/cost_ne16.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

TEST_CASE("ne16 reshape: Deeploy's choice of the pointwise spatial extent", "[tiler][ne16]") {
  using P = std::pair<int64_t, int64_t>;
  // 9 = 3·3: the factor search stops below ⌈√9⌉ = 3, so no split: 9 × 1.
  CHECK(deeploy_ne16_pointwise_reshape(9) == P{9, 1});
  CHECK(deeploy_ne16_pointwise_reshape(25) == P{25, 1});
  // 36 = 2·2·3·3: (6, 6) is the only option with one 6 × 6 subtile.
  CHECK(deeploy_ne16_pointwise_reshape(36) == P{6, 6});
  // 144: four subtiles for (12, 12), (24, 6), (6, 24), ...; the smallest side wins: 24 × 6.
  CHECK(deeploy_ne16_pointwise_reshape(144) == P{24, 6});
  CHECK(deeploy_ne16_pointwise_reshape(576) == P{96, 6});
  CHECK(deeploy_ne16_pointwise_reshape(2304) == P{384, 6});
  CHECK(deeploy_ne16_pointwise_reshape(1024) == P{64, 16});
  CHECK(deeploy_ne16_pointwise_reshape(12) == P{6, 2});
  CHECK(deeploy_ne16_pointwise_reshape(100) == P{20, 5});
  CHECK(deeploy_ne16_pointwise_reshape(3) == P{3, 1});
  CHECK(deeploy_ne16_pointwise_reshape(1) == P{1, 1});
}

TEST_CASE("ne16 reshape: a 3x3 pointwise output runs as three NE16 patches", "[tiler][ne16]") {
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  NpuJob j;
  j.op = NpuOp::Conv1x1;
  j.ki = 128, j.ko = 256, j.ho = 3, j.wo = 3;
  j.quantize = true, j.bias = true;
  const NpuCost square = ne16_job_cost(j, spec.npu);
  j.ho = 9, j.wo = 1;
  const NpuCost flat = ne16_job_cost(j, spec.npu);
  CHECK(square.subtiles == 1);
  CHECK(flat.subtiles == 3);
  CHECK(flat.cycles - spec.npu.cfg_cycles == 3 * (square.cycles - spec.npu.cfg_cycles));
}

TEST_CASE("ne16 reshape pass: NPU 1x1 convs read and write the re-shaped extent through two Reshapes",
          "[passes][ne16]") {
  test::NpuRng r(11);
  // 3x3 (npu) -> 1x1 at 12 x 12 (npu, becomes 24 x 6) -> 1x1 at 12 x 12 on the cluster (untouched)
  test::ConvShape a, b, c;
  a.cin = 16, a.cout = 16, a.h = a.w = 12;
  b.k = 1, b.pad = 0, b.cout = 32;
  c.k = 1, c.pad = 0, c.cout = 8;
  Graph g = test::npu_conv_chain(r, {a, b, c});
  const PlatformSpec spec = test::npu_platform("gap9");
  EngineAssignment ea = assign_engines(g, spec);
  g.nodes[2].engine = "cluster";
  const std::vector<std::string> why = ea.why_not;
  REQUIRE(apply_ne16_pw_reshape(g, &ea) == 1);
  REQUIRE(g.nodes.size() == 5);
  CHECK(ea.why_not.size() == 5);
  CHECK(ea.why_not[2] == why[1]);   // the conv keeps its reason
  CHECK(g.nodes[1].kind() == OpKind::Reshape);
  CHECK(g.nodes[3].kind() == OpKind::Reshape);
  CHECK(g.nodes[1].name == "Conv_1_in_reshape");
  const Node& pw = g.nodes[2];
  CHECK(g.tensor(pw.inputs[0]).shape == Shape{1, 16, 24, 6});
  CHECK(g.tensor(pw.outputs[0]).shape == Shape{1, 32, 24, 6});
  CHECK(g.nodes[1].inputs[0] == g.nodes[0].outputs[0]);     // reads the 3x3 conv's output
  CHECK(g.nodes[4].inputs[0] == g.nodes[3].outputs[0]);     // the cluster conv reads 12 x 12 again
  CHECK(g.tensor(g.nodes[4].inputs[0]).shape == Shape{1, 32, 12, 12});
  CHECK(g.tensor(g.nodes[0].outputs[0]).shape == Shape{1, 16, 12, 12});   // the 3x3 conv unchanged
  // Already in Deeploy's extent: nothing more to do.
  CHECK(apply_ne16_pw_reshape(g, &ea) == 0);
  // 6 x 6 is its own best extent.
  test::ConvShape d;
  d.k = 1, d.pad = 0, d.cin = 8, d.cout = 8, d.h = d.w = 6;
  Graph g6 = test::npu_conv_graph(r, d);
  assign_engines(g6, spec);
  CHECK(apply_ne16_pw_reshape(g6) == 0);
}
