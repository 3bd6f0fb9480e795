// Layout ops through L1 (docs/schedule.md "Whole-tensor steps"): under `deeploy` a Concat and a
// Transpose whose operands fit the L1 budget run as one tile — inputs copied L2 -> L1 by the
// cluster DMA, the kernel on L1, the output copied back — as Deeploy's tiled code binds them;
// under `untiled`, or when they do not fit, they run once over their L2 homes. Bit-exact both ways.
#include <catch2/catch.hpp>

#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "schedule/check_exact.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x [1, 4, 8, 4] and a KV-cache row block kv [1, 4, 2, 4] -> Concat (rows) -> Transpose (last
// two axes) -> a Requant layer, so that the graph has a tiling that names the flow.
Graph kv_graph() {
  Graph g;
  g.name = "kv_concat";
  g.dialect = "deeploy";
  const int x = g.add_tensor({"x", DType::I8, {1, 4, 8, 4}, std::nullopt, false});
  const int kv = g.add_tensor({"kv", DType::I8, {1, 4, 2, 4}, std::nullopt, false});
  const int c = g.add_tensor({"c", DType::I8, {1, 4, 10, 4}, std::nullopt, false});
  const int t = g.add_tensor({"t", DType::I8, {1, 4, 4, 10}, std::nullopt, false});
  const int y = g.add_tensor({"y", DType::I8, {1, 4, 4, 10}, std::nullopt, false});
  g.nodes.push_back(Node{"concat", ConcatParams{2}, {x, kv}, {c}, {"Concat"}});
  g.nodes.push_back(Node{"transpose", TransposeParams{{0, 1, 3, 2}, ""}, {c}, {t}, {"Transpose"}});
  RequantParams rp;
  rp.rq.kind = Requant::Kind::Integer;
  rp.rq.mul = 3;
  rp.rq.shift = 2;
  rp.rq.lo = -128;
  rp.rq.hi = 127;
  g.nodes.push_back(Node{"requant", rp, {t}, {y}, {"RequantShift"}});
  g.inputs = {x, kv};
  g.outputs = {y};
  for (Node& n : g.nodes) n.engine = "cluster";
  g.validate();
  return g;
}

// Where the step's compute reads and writes, and how many cluster-DMA copies it has.
struct StepShape {
  Level compute_in = Level::L2, compute_out = Level::L2;
  int cluster_dma = 0;
};

StepShape shape_of(const Schedule& s, size_t step) {
  StepShape r;
  for (const Command& c : s.steps.at(step).commands) {
    if (c.kind == Command::Kind::Compute) {
      r.compute_in = s.buffers.at(static_cast<size_t>(c.inputs.at(0).buffer)).level;
      r.compute_out = s.buffers.at(static_cast<size_t>(c.outputs.at(0).buffer)).level;
    } else if (c.engine == "cluster_dma") {
      ++r.cluster_dma;
    }
  }
  return r;
}

}  // namespace

TEST_CASE("schedule: under deeploy a Concat and a Transpose that fit L1 run through it, else over L2",
          "[schedule]") {
  const Graph g = kv_graph();
  const PlatformSpec sir = load_platform(test::source_dir() + "/platforms/siracusa.yaml");
  REQUIRE(policy_budgets(sir, "deeploy").layout_ops_in_l1);
  REQUIRE_FALSE(policy_budgets(sir, "untiled").layout_ops_in_l1);
  REQUIRE_FALSE(policy_budgets(sir, "dory").layout_ops_in_l1);

  const Schedule d = build_schedule(g, sir, tile_graph(g, sir, "deeploy"), {});
  const StepShape concat = shape_of(d, 0), transpose = shape_of(d, 1);
  CHECK(concat.compute_in == Level::L1);
  CHECK(concat.compute_out == Level::L1);
  CHECK(concat.cluster_dma == 3);   // two inputs in, the output back
  CHECK(transpose.compute_in == Level::L1);
  CHECK(transpose.cluster_dma == 2);
  test::check_exact(g, d);

  // untiled: Deeploy's L2-resident runner keeps them in L2.
  const Schedule u = build_schedule(g, sir, tile_graph(g, sir, "untiled"), {});
  CHECK(shape_of(u, 0).compute_in == Level::L2);
  CHECK(shape_of(u, 0).cluster_dma == 0);
  test::check_exact(g, u);

  // An L1 budget below the Concat's 128 + 32 + 160 B and the Transpose's 160 + 160 B: both over
  // L2, still exact.
  const PlatformSpec small = load_platform(test::source_dir() + "/platforms/siracusa.yaml", {"budgets.deeploy.l1=300"});
  const Schedule t = build_schedule(g, small, tile_graph(g, small, "deeploy"), {});
  CHECK(shape_of(t, 0).compute_in == Level::L2);
  CHECK(shape_of(t, 1).compute_in == Level::L2);
  test::check_exact(g, t);
}
