// Reshapes the schedule stores as aliases of their inputs (docs/schedule.md, `is_alias_reshape`):
// the flatten after a global pool moves no byte, as DORY's and Deeploy's code have no layer for
// it; a flatten whose HWC input really reorders its bytes stays a copy step. Both stay bit-exact.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "schedule/check_exact.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec siracusa() { return load_platform(test::source_dir() + "/platforms/siracusa.yaml"); }

}  // namespace

TEST_CASE("schedule: a flatten moves bytes only when the HWC layout reorders them", "[schedule]") {
  // tiny: GlobalAveragePool -> [1, C, 1, 1] -> Flatten -> [1, C] -> Gemm. One pixel in HWC is
  // row-major: the flatten aliases its input (no commands, the same bytes), as DORY's and
  // Deeploy's code have no layer for it.
  const Graph g = import_onnx(test::source_dir() + "/models/tiny/model.onnx");
  const Schedule s = build_schedule(g, siracusa(), tile_graph(g, siracusa(), "dory"), {});
  int flattens = 0;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& n = g.nodes[k];
    if (n.kind() != OpKind::Reshape) continue;
    ++flattens;
    REQUIRE(g.tensor(n.inputs[0]).shape.size() == 4);
    CHECK(g.tensor(n.inputs[0]).shape[2] * g.tensor(n.inputs[0]).shape[3] == 1);
    CHECK(s.steps.at(k).commands.empty());
    const Placement* a = s.placement_of(n.inputs[0]);
    const Placement* b = s.placement_of(n.outputs[0]);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(a->buffer == b->buffer);
    CHECK(a->offset == b->offset);
  }
  CHECK(flattens == 1);
  test::check_exact(g, s);
  // A flatten of a 2 x 2 map reorders the bytes (HWC -> C, H, W order): a copy step, still exact.
  Graph h;
  h.name = "pool_flatten";
  const int x = h.add_tensor({"x", DType::U8, {1, 4, 4, 4}, std::nullopt, false});
  const int p = h.add_tensor({"p", DType::U8, {1, 4, 2, 2}, std::nullopt, false});
  const int f = h.add_tensor({"f", DType::U8, {1, 16}, std::nullopt, false});
  PoolParams pp;
  pp.kh = pp.kw = 2, pp.sh = pp.sw = 2;
  pp.rq.lo = 0, pp.rq.hi = 255;
  h.nodes.push_back(Node{"pool", pp, {x}, {p}, {"MaxPool"}});
  h.nodes.push_back(Node{"flatten", ReshapeParams{}, {p}, {f}, {"Flatten"}});
  h.inputs = {x};
  h.outputs = {f};
  h.validate();
  const Schedule c = build_schedule(h, siracusa(), {}, {});
  CHECK_FALSE(c.steps.at(1).commands.empty());
  CHECK(c.placement_of(p)->buffer != c.placement_of(f)->buffer);
  test::check_exact(h, c);
}
