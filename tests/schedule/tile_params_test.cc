// Tile params of a conv (compiler/schedule/build_params.cc): the weight box of a tile is its
// output channels of [Cout, Cin/g, kh, kw], or the whole tensor when the weights are NPU-encoded
// rows [rows, row_bytes] (home_region; the builder then sets the tile's rows). Found by the
// sanitized suite: the conv case read dims 2 and 3 of the two-dimensional encoded shape (ASan:
// heap-buffer-overflow in tile_params, every NE16 / N-EUREKA layer).
#include <catch2/catch.hpp>

#include "compiler/schedule/build_internal.h"
#include "tune/tune_graphs.h"

using namespace edgesim;

TEST_CASE("tile params: a conv tile's weight box has the dims of the weights (NPU-encoded rows too)",
          "[schedule]") {
  test::TuneRng rng(7);
  const Graph g = test::tune_layer_graph(rng, 0);   // a dense conv
  const Node& n = g.nodes.at(0);
  const Shape xs = g.tensor(n.inputs[0]).shape, ws = g.tensor(n.inputs[1]).shape;
  const Shape ys = g.tensor(n.outputs[0]).shape;
  REQUIRE(ws.size() == 4);
  const sched::Box ob{{0, 0, 0, 0}, ys};

  const sched::TileParams dense = sched::tile_params(g, n, {xs, ws}, ys, ob);
  REQUIRE(dense.in_boxes.size() == 2);
  CHECK(dense.in_boxes[1] == sched::Box{{0, 0, 0, 0}, ws});

  const Shape rows{3, 40};   // as home_region gives NPU-encoded weights
  const sched::TileParams npu = sched::tile_params(g, n, {xs, rows}, ys, ob);
  REQUIRE(npu.in_boxes.size() == 2);
  CHECK(npu.in_boxes[1] == sched::Box{{0, 0}, rows});
  CHECK(npu.in_boxes[0] == dense.in_boxes[0]);
}
