// Functional executor and allocation check on hand-built schedules (no tiler, no builder):
// a 3×3 convolution with padding split by hand into 2×2 spatial tiles (border tiles carry the
// pads, interior edges none), run through L2 -> L1 DMAs, must equal the interpreter bit-exactly;
// out-of-bounds DMAs and views, missing placements and overlapping live buffers are errors
// naming the step / command / buffers.
#include <catch2/catch.hpp>

#include "compiler/schedule/functional.h"
#include "kernels/interpreter/interpreter.h"

using namespace edgesim;
using Catch::Matchers::Contains;

namespace {

// x u8[1,3,6,6] -> conv 3×3 pad 1, bias, per-channel requant -> y u8[1,4,6,6]
Graph conv_graph() {
  Graph g;
  g.name = "conv6";
  std::vector<int64_t> wv(4 * 3 * 3 * 3);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = static_cast<int64_t>((i * 37 + 11) % 15) - 7;
  const int x = g.add_tensor({"x", DType::U8, {1, 3, 6, 6}, std::nullopt, false});
  const int w = g.add_tensor({"w", DType::I8, {4, 3, 3, 3}, Tensor::from_ints(DType::I8, {4, 3, 3, 3}, wv), false});
  const int y = g.add_tensor({"y", DType::U8, {1, 4, 6, 6}, std::nullopt, false});
  g.inputs = {x};
  g.outputs = {y};
  ConvParams cp;
  cp.kh = cp.kw = 3;
  cp.pad_t = cp.pad_l = cp.pad_b = cp.pad_r = 1;
  cp.bias = {5, -300, 17, 0};
  cp.rq.kind = Requant::Kind::Integer;
  cp.rq.axis = 1;
  cp.rq.k = {3, 1, 2, 5};
  cp.rq.lambda = {0, 100, -50, 7};
  cp.rq.shift = 6;
  cp.rq.lo = 0;
  cp.rq.hi = 255;
  g.nodes.push_back(Node{"Conv_0", cp, {x, w}, {y}, {"Conv"}});
  g.validate();
  return g;
}

Tensor ramp_input() {
  std::vector<int64_t> v(3 * 6 * 6);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int64_t>((i * 53 + 7) % 256);
  return Tensor::from_ints(DType::U8, {1, 3, 6, 6}, v);
}

Buffer buf(int id, Level l, int64_t off, int64_t bytes, const std::string& name, int first = 0, int last = 0) {
  Buffer b;
  b.id = id;
  b.level = l;
  b.offset = off;
  b.bytes = bytes;
  b.name = name;
  b.first_step = first;
  b.last_step = last;
  return b;
}

Command dma(int id, int sb, int64_t so, int64_t ss, int db, int64_t doff, int64_t ds, int64_t rows, int64_t row_bytes,
            const std::string& note) {
  Command c;
  c.id = id;
  c.kind = Command::Kind::Dma;
  c.engine = "cluster_dma";
  c.note = note;
  c.src = {sb, so, {ss, 0}};
  c.dst = {db, doff, {ds, 0}};
  c.count = {rows, 1, row_bytes};
  return c;
}

// Buffers: 0 x (L2, HWC), 1 w (L2, [Cout,kh,kw,Cin]), 2 y (L2, HWC), 3 x tile (L1), 4 w (L1),
// 5 y tile (L1). Output tile (th, tw) covers rows/cols 3·th..3·th+2.
Schedule tiled_conv_schedule(const Graph& g) {
  const int64_t C = 3, H = 6, W = 6, K = 4;
  Schedule s;
  s.network = g.name;
  s.buffers = {buf(0, Level::L2, 0, H * W * C, "x"), buf(1, Level::L2, 112, 108, "w"),
               buf(2, Level::L2, 224, H * W * K, "y"), buf(3, Level::L1, 0, 4 * 4 * C, "x tile"),
               buf(4, Level::L1, 48, 108, "w L1"), buf(5, Level::L1, 160, 3 * 3 * K, "y tile")};
  s.high_water = {0, 224 + 144, 160 + 36, 0};
  s.placements = {{0, 0, 0, {H * W * C, 1, W * C, C}, std::nullopt},
                  {1, 1, 0, {27, 1, 9, 3}, std::nullopt},
                  {2, 2, 0, {H * W * K, 1, W * K, K}, std::nullopt}};
  Step st;
  st.node = 0;
  st.name = "Conv_0";
  st.tiled = true;
  int id = 0;
  st.commands.push_back(dma(id++, 1, 0, 0, 4, 0, 0, 1, 108, "load w"));
  const ConvParams& p = g.nodes[0].as<ConvParams>();
  for (int th = 0; th < 2; ++th)
    for (int tw = 0; tw < 2; ++tw) {
      const int64_t r0 = th == 0 ? 0 : 2, c0 = tw == 0 ? 0 : 2;   // first input row / col
      const int64_t hin = 4, win = 4;
      st.commands.push_back(dma(id++, 0, (r0 * W + c0) * C, W * C, 3, 0, win * C, hin, win * C,
                                "load x tile " + std::to_string(th * 2 + tw)));
      Command c;
      c.id = id++;
      c.kind = Command::Kind::Compute;
      c.engine = "cluster";
      c.note = "compute tile " + std::to_string(th * 2 + tw);
      c.node = 0;
      ConvParams tp = p;
      tp.pad_t = th == 0 ? 1 : 0;
      tp.pad_b = th == 1 ? 1 : 0;
      tp.pad_l = tw == 0 ? 1 : 0;
      tp.pad_r = tw == 1 ? 1 : 0;
      c.params = tp;
      c.inputs = {{3, 0, DType::U8, {1, C, hin, win}, {hin * win * C, 1, win * C, C}},
                  {4, 0, DType::I8, {K, C, 3, 3}, {27, 1, 9, 3}}};
      c.outputs = {{5, 0, DType::U8, {1, K, 3, 3}, {9 * K, 1, 3 * K, K}}};
      c.deps = {id - 2};
      st.commands.push_back(c);
      st.commands.push_back(dma(id++, 5, 0, 3 * K, 2, (3 * th * W + 3 * tw) * K, W * K, 3, 3 * K,
                                "store y tile " + std::to_string(th * 2 + tw)));
    }
  s.steps.push_back(st);
  return s;
}

}  // namespace

TEST_CASE("functional: a conv split by hand into 2x2 padded tiles equals the interpreter", "[compile][functional]") {
  const Graph g = conv_graph();
  const Schedule s = tiled_conv_schedule(g);
  check_allocation(s);
  const std::vector<Tensor> in = {ramp_input()};
  const auto want = interpret(g, in);
  const auto got = execute_functional(g, s, in);
  REQUIRE(got.outputs.size() == 1);
  CHECK(got.outputs[0].shape() == Shape{1, 4, 6, 6});
  CHECK(got.outputs[0].to_ints() == want.outputs[0].to_ints());
  // Every placed tensor is read back: input, weights and output.
  REQUIRE(got.values.size() == 3);
  for (int t = 0; t < 3; ++t) {
    REQUIRE(got.values[t].has_value());
    CHECK(got.values[t]->to_ints() == want.values[t]->to_ints());
  }
  // The output is not trivially constant (the requant does not saturate everything).
  const auto v = got.outputs[0].to_ints();
  CHECK(std::count(v.begin(), v.end(), v[0]) < static_cast<long>(v.size()));
}

TEST_CASE("functional: wrong border pads are caught by the comparison", "[compile][functional]") {
  const Graph g = conv_graph();
  Schedule s = tiled_conv_schedule(g);
  // Give the interior edge of tile 0 a pad too, and shift its input window: wrong values.
  auto& c = s.steps[0].commands[2];
  REQUIRE(c.kind == Command::Kind::Compute);
  std::get<ConvParams>(c.params).pad_b = 1;
  c.inputs[0].shape[2] = 3;
  const std::vector<Tensor> in = {ramp_input()};
  CHECK(execute_functional(g, s, in).outputs[0].to_ints() != interpret(g, in).outputs[0].to_ints());
}

TEST_CASE("functional: an out-of-bounds DMA names the step and command and buffer", "[compile][functional]") {
  const Graph g = conv_graph();
  Schedule s = tiled_conv_schedule(g);
  s.steps[0].commands[1].count[0] = 5;   // one input row too many for the 4-row L1 tile
  const std::vector<Tensor> in = {ramp_input()};
  REQUIRE_THROWS_WITH(execute_functional(g, s, in),
                      Contains("step 0 'Conv_0' command 1 (load x tile 0)") && Contains("dma dst") &&
                          Contains("'x tile'"));
  s = tiled_conv_schedule(g);
  s.steps[0].commands.back().dst.offset = 200;   // store beyond y
  REQUIRE_THROWS_WITH(execute_functional(g, s, in), Contains("store y tile 3") && Contains("'y'"));
}

TEST_CASE("functional: an out-of-bounds compute view and missing placements are errors", "[compile][functional]") {
  const Graph g = conv_graph();
  const std::vector<Tensor> in = {ramp_input()};
  Schedule s = tiled_conv_schedule(g);
  s.steps[0].commands[2].outputs[0].offset = 8;
  REQUIRE_THROWS_WITH(execute_functional(g, s, in), Contains("compute tile 0") && Contains("output 0"));
  s = tiled_conv_schedule(g);
  s.placements.pop_back();
  REQUIRE_THROWS_WITH(execute_functional(g, s, in), Contains("graph output 0 'y' has no placement"));
  s = tiled_conv_schedule(g);
  s.high_water[static_cast<int>(Level::L1)] = 100;
  REQUIRE_THROWS_WITH(execute_functional(g, s, in), Contains("'w L1'") && Contains("high water"));
}

TEST_CASE("check_allocation: overlapping live buffers and high-water overflow name the buffers", "[compile][functional]") {
  const Graph g = conv_graph();
  Schedule s = tiled_conv_schedule(g);
  REQUIRE_NOTHROW(check_allocation(s));
  s.buffers[4].offset = 40;   // w L1 overlaps the x tile by 8 bytes
  REQUIRE_THROWS_WITH(check_allocation(s), Contains("'x tile'") && Contains("'w L1'") && Contains("overlap"));
  // Disjoint lifetimes may share bytes.
  s.buffers[3].last_step = 0;
  s.buffers[4].first_step = s.buffers[4].last_step = 1;
  CHECK_NOTHROW(check_allocation(s));
  s = tiled_conv_schedule(g);
  s.buffers[2].bytes += 1;   // y ends past the L2 high water
  REQUIRE_THROWS_WITH(check_allocation(s), Contains("'y'") && Contains("L2 high water 368"));
  s = tiled_conv_schedule(g);
  s.buffers[0].offset = -1;
  REQUIRE_THROWS_WITH(check_allocation(s), Contains("'x'") && Contains("never allocated"));
}

TEST_CASE("functional: a tensor snapshot is taken before its buffer is reused", "[compile][functional]") {
  // A second step overwrites y's bytes after y's lifetime (step 0) has ended, as buffer reuse
  // would: the placed value of y is read back at the end of step 0 and is still right, while
  // the graph output, read after the run, shows the overwrite.
  const Graph g = conv_graph();
  Schedule s = tiled_conv_schedule(g);
  Step clobber;
  clobber.node = -1;
  clobber.name = "clobber";
  clobber.commands.push_back(dma(100, 0, 0, 0, 2, 0, 0, 1, 108, "overwrite y with x"));
  s.steps.push_back(clobber);
  const std::vector<Tensor> in = {ramp_input()};
  const auto want = interpret(g, in);
  const auto got = execute_functional(g, s, in);
  CHECK(got.values[2]->to_ints() == want.values[2]->to_ints());   // snapshot at step 0
  CHECK(got.outputs[0].to_ints() != want.outputs[0].to_ints());   // graph output read at the end
}
