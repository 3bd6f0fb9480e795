// [budget] the memory estimate of a network (compiler/budget/memory.h): what it counts on a hand
// graph, the limit and its message, saturation on absurd shapes, and the schedule term.
#include <catch2/catch.hpp>

#include "compiler/budget/memory.h"
#include "compiler/frontend/import.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// x u8[N,3,8,8] -> conv (w i8[4,3,3,3]) -> y i32[N,4,6,6]
Graph conv_graph(int64_t n) {
  Graph g;
  const int x = g.add_tensor({"x", DType::U8, {n, 3, 8, 8}, std::nullopt, false});
  const int w = g.add_tensor({"w", DType::I8, {4, 3, 3, 3}, Tensor(DType::I8, {4, 3, 3, 3}), false});
  const int y = g.add_tensor({"y", DType::I32, {n, 4, 6, 6}, std::nullopt, false});
  ConvParams p;
  p.kh = p.kw = 3;
  g.inputs = {x};
  g.outputs = {y};
  g.nodes.push_back(Node{"conv", p, {x, w}, {y}, {}});
  return g;
}

struct LimitGuard {
  int64_t saved = memory_limit();
  ~LimitGuard() { memory_limit() = saved; }
};

}  // namespace

TEST_CASE("memory estimate: tensors, inputs and the largest kernel working set", "[budget]") {
  const Graph g = conv_graph(2);
  const MemoryEstimate e = estimate_memory(g, 2);
  CHECK(e.tensors == 2 * 3 * 64 + 4 * 27 + 4 * 2 * 4 * 36);
  CHECK(e.inputs == 8 * 2 * 3 * 64);
  CHECK(e.scratch == 8 * (2 * 3 * 64 + 4 * 27 + 2 * 4 * 36));
  CHECK(e.schedule == 0);
  CHECK(e.total() == 2 * e.tensors + e.inputs + e.scratch);
}

TEST_CASE("memory estimate: the limit refuses with one message naming the batch", "[budget]") {
  LimitGuard guard;
  const Graph g = conv_graph(100000);
  CHECK(memory_limit() == kDefaultMemoryLimit);
  CHECK_NOTHROW(check_memory(estimate_memory(g), g, "net.onnx"));   // 0.5 GB: under 4 GiB
  memory_limit() = int64_t{256} << 20;
  CHECK_THROWS_WITH(check_memory(estimate_memory(g), g, "net.onnx"),
                    Catch::StartsWith("net.onnx: needs an estimated ") && Catch::Contains("above the limit of 256 MiB") &&
                        Catch::Contains("(input 'x' has batch 100000)") && Catch::Contains("--memory-limit"));
  memory_limit() = 0;   // no limit
  CHECK_NOTHROW(check_memory(estimate_memory(g), g, "net.onnx"));
}

TEST_CASE("memory estimate: absurd shapes saturate instead of overflowing", "[budget]") {
  LimitGuard guard;
  const Graph g = conv_graph(int64_t{1} << 60);
  const MemoryEstimate e = estimate_memory(g, 2);
  CHECK(e.total() == INT64_MAX);
  CHECK_THROWS_AS(check_memory(e, g, "net.onnx"), MemoryLimitError);
}

TEST_CASE("memory estimate: the schedule term counts the tiles of every layer", "[budget]") {
  REQUIRE_DATA(test::source_dir() + "/models/tiny/model.onnx");
  const Graph g = import_onnx(test::source_dir() + "/models/tiny/model.onnx");
  const PlatformSpec spec = load_platform(test::source_dir() + "/platforms/gap8.yaml");
  const std::vector<LayerTiling> t = tile_graph(g, spec, "dory");
  MemoryEstimate e = estimate_memory(g);
  add_schedule_estimate(e, g, t);
  int64_t tiles = 0;
  for (const LayerTiling& lt : t) tiles += tile_count(layer_geom(g, lt.node), lt);
  CHECK(tiles > 0);
  CHECK(e.schedule == tiles * kScheduleBytesPerTile + static_cast<int64_t>(t.size()) * kScheduleBytesPerLayer);
}
