// Schedule generation: tiled execution (a test-local executor of docs/schedule.md) equals the
// untiled interpreter bit-exactly for whole-layer, split and L3-slab tilings in single and
// double buffering, also when commands run in the latest-ready-first order their deps allow;
// plus the documented details: border pads, DMA shapes, double-buffer deps, layouts,
// buffering "auto", allocation and overflow errors.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/flows/flow.h"
#include "compiler/tiler/policy.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/check_exact.h"
#include "schedule/sched_util.h"
#include "support/tiling.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec platform(const std::string& name, const std::vector<std::string>& set = {}) {
  return load_platform(test::source_dir() + "/platforms/" + name + ".yaml", set);
}

Graph model(const std::string& name) { return import_onnx(test::source_dir() + "/models/" + name + "/model.onnx"); }

const Step& step_named(const Schedule& s, const std::string& name) {
  for (const Step& st : s.steps)
    if (st.name == name) return st;
  FAIL("no step " << name);
  return s.steps.front();
}

std::vector<const Command*> with_note(const Step& st, const std::string& prefix) {
  std::vector<const Command*> r;
  for (const Command& c : st.commands)
    if (c.note.rfind(prefix, 0) == 0) r.push_back(&c);
  return r;
}

bool depends(const Command& c, int id) { return std::find(c.deps.begin(), c.deps.end(), id) != c.deps.end(); }

}  // namespace

TEST_CASE("schedule: tiny and resnet8 tiled schedules are bit-exact", "[schedule]") {
  const PlatformSpec spec = platform("siracusa");
  for (const std::string net : {"tiny", "resnet8"}) {
    const Graph g = model(net);
    struct Case { int64_t n, h, w; bool whole; };
    for (const Case& c : {Case{0, 0, 0, true}, Case{4, 3, 5, false}, Case{8, 1, 0, false}, Case{3, 7, 2, false}})
      for (const std::string buf : {"single", "double"}) {
        INFO(net << " tile " << c.n << "x" << c.h << "x" << c.w << " " << buf);
        const Schedule s = build_schedule(g, spec, test::fixed_tilings(g, c.n, c.h, c.w, c.whole), {buf});
        CHECK(s.buffering == buf);
        test::check_exact(g, s);
      }
  }
}

TEST_CASE("schedule: a wrong input window breaks bit-exactness (the check can fail)", "[schedule]") {
  const Graph g = model("tiny");
  Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 4, 0), {"single"});
  const auto in = test::random_inputs(g, 3);
  const auto want = interpret(g, in).outputs;
  // Shift the window of conv1's second row tile down by one input row (in bounds).
  int n_loads = 0;
  for (Command& c : s.steps[0].commands)
    if (c.note.rfind("load x tile", 0) == 0 && n_loads++ == 1) c.src.offset -= 16 * 3;
  REQUIRE(n_loads == 4);
  test::MiniExec ex(g, s);
  CHECK_FALSE(ex.run(in, false)[0].same_values(want[0]));
}

TEST_CASE("schedule: border tiles get only their part of the padding", "[schedule]") {
  const Graph g = model("tiny");   // conv1: 3x16x16 -> 8x16x16, 3x3, pads 1
  const Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 8, 0), {"double"});
  const Step& st = step_named(s, "conv1");
  const auto comp = with_note(st, "compute tile");
  REQUIRE(comp.size() == 2);
  const auto& p0 = std::get<ConvParams>(comp[0]->params);
  const auto& p1 = std::get<ConvParams>(comp[1]->params);
  CHECK(p0.pad_t == 1);
  CHECK(p0.pad_b == 0);
  CHECK(p1.pad_t == 0);
  CHECK(p1.pad_b == 1);
  CHECK(p0.pad_l == 1);
  CHECK(p0.pad_r == 1);
  // Output rows 0..7 read input rows 0..8 (9 rows), rows 8..15 read 7..15 (9 rows).
  CHECK(comp[0]->inputs[0].shape == Shape{1, 3, 9, 16});
  CHECK(comp[1]->inputs[0].shape == Shape{1, 3, 9, 16});
  CHECK(comp[0]->outputs[0].shape == Shape{1, 8, 8, 16});
  // HWC strides inside the L1 tile.
  CHECK(comp[0]->inputs[0].strides == Shape{9 * 16 * 3, 1, 16 * 3, 3});
  // Sliced bias (full Cout here) and rq axis kept.
  CHECK(p0.bias.size() == 8);
}

TEST_CASE("schedule: Cout tiles slice bias and requant vectors", "[schedule]") {
  const Graph g = model("resnet8");
  const Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 4, 0, 0), {"double"});
  const Step& st = step_named(s, "L01_s1a");
  const auto comp = with_note(st, "compute tile");
  REQUIRE(comp.size() == 4);
  const ConvParams& full = g.nodes[st.node].as<ConvParams>();
  const auto& p2 = std::get<ConvParams>(comp[2]->params);
  CHECK(p2.rq.axis == 1);
  REQUIRE(p2.rq.k.size() == 4);
  CHECK(p2.rq.k[0] == full.rq.k[8]);
  CHECK(p2.rq.lambda[3] == full.rq.lambda[11]);
  // Weights are loaded once per Cout tile: 4 tiles, 4 weight loads of 4*3*3*16 bytes.
  const auto wl = with_note(st, "load w");
  REQUIRE(wl.size() == 4);
  CHECK(wl[0]->bytes() == 4 * 9 * 16);
  CHECK(wl[0]->count[0] * wl[0]->count[1] == 1);   // one contiguous run
}

TEST_CASE("schedule: DMA commands follow the HWC run structure", "[schedule]") {
  const Graph g = model("resnet8");   // L01_s1a: x 16x32x32 u8 stored HWC
  const Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 4, 8), {"double"});
  const Step& st = step_named(s, "L01_s1a");
  const auto xl = with_note(st, "load x tile");
  REQUIRE(xl.size() == 8 * 4);
  // Tile (h 0, w 0): rows 0..4 (5 rows, top pad 1), cols 0..8 (9 cols): 5 lines of 9*16 bytes.
  CHECK(xl[0]->count == std::array<int64_t, 3>{1, 5, 9 * 16});
  CHECK(xl[0]->src.stride[1] == 32 * 16);
  CHECK(xl[0]->dst.stride[1] == 9 * 16);
  // Output tile of 4 rows x 8 cols with all 16 channels: 4 lines of 128 bytes into the home.
  const auto ys = with_note(st, "store y tile");
  CHECK(ys[0]->count == std::array<int64_t, 3>{1, 4, 8 * 16});
  CHECK(ys[0]->dst.stride[1] == 32 * 16);
  // A channel subset is one line per pixel.
  const Schedule s2 = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 4, 4, 8), {"double"});
  const auto ys2 = with_note(step_named(s2, "L01_s1a"), "store y tile");
  CHECK(ys2[0]->count == std::array<int64_t, 3>{4, 8, 4});
  CHECK(ys2[0]->dst.stride == std::array<int64_t, 2>{32 * 16, 16});
}

TEST_CASE("schedule: double-buffering deps and buffer indices", "[schedule]") {
  const Graph g = model("resnet8");
  const Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 4, 0), {"double"});
  const Step& st = step_named(s, "L02_s1b");
  CHECK(st.buffering == 2);
  const auto xl = with_note(st, "load x tile"), comp = with_note(st, "compute tile"),
             ys = with_note(st, "store y tile");
  REQUIRE(comp.size() == 8);
  REQUIRE(xl.size() == 8);
  REQUIRE(ys.size() == 8);
  for (size_t i = 0; i < 8; ++i) {
    CHECK(depends(*comp[i], xl[i]->id));
    CHECK(depends(*ys[i], comp[i]->id));
    CHECK(xl[i]->dst.buffer == xl[i % 2]->dst.buffer);
    if (i >= 2) {
      CHECK(depends(*xl[i], comp[i - 2]->id));   // load(i) after compute(i-2): buffer free
      CHECK(depends(*comp[i], ys[i - 2]->id));   // compute(i) after store(i-2)
    }
    if (i >= 1) CHECK_FALSE(depends(*xl[i], comp[i - 1]->id));   // load(i) overlaps compute(i-1)
  }
  CHECK(xl[0]->dst.buffer != xl[1]->dst.buffer);
  // Single buffering: a chain.
  const Schedule s1 = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 4, 0), {"single"});
  const Step& st1 = step_named(s1, "L02_s1b");
  for (size_t i = 1; i < st1.commands.size(); ++i)
    CHECK(st1.commands[i].deps == std::vector<int>{st1.commands[i - 1].id});
  // Steps are separated by a barrier: the first command of a step waits for the previous step
  // (the flatten after the global pool is an alias: no commands).
  for (size_t k = 1; k < s.steps.size(); ++k) {
    if (g.nodes[k].kind() == OpKind::Reshape) {
      CHECK(s.steps[k].commands.empty());
      continue;
    }
    REQUIRE_FALSE(s.steps[k].commands.empty());
    const Command& first = s.steps[k].commands.front();
    CHECK(!first.deps.empty());
    CHECK(first.deps.front() < first.id);
  }
}

TEST_CASE("schedule: placements use DORY's layouts", "[schedule]") {
  const Graph g = model("tiny");
  const Schedule s = build_schedule(g, platform("siracusa"), {}, {});
  const Placement* in = s.placement_of(g.inputs[0]);   // u8[1,3,16,16]
  REQUIRE(in);
  CHECK(in->strides == Shape{768, 1, 48, 3});
  const Node& conv = g.nodes[0];                        // w i8[8,3,3,3] -> [Cout,kh,kw,Cin]
  CHECK(s.placement_of(conv.inputs[1])->strides == Shape{27, 1, 9, 3});
  for (const Node& n : g.nodes)
    if (n.kind() == OpKind::Gemm) {   // B [10,16] with trans_b: already [N,K] rows
      CHECK(s.placement_of(n.inputs[1])->strides == Shape{16, 1});
    }
  // No tilings: every step is one whole-tensor compute in L2, but the flatten after the global
  // pool, whose one-pixel HWC input is already in row-major order (an alias, no command).
  for (size_t k = 0; k < s.steps.size(); ++k) {
    const Step& st = s.steps[k];
    CHECK_FALSE(st.tiled);
    if (g.nodes[k].kind() == OpKind::Reshape) {
      CHECK(st.commands.empty());
      continue;
    }
    REQUIRE(st.commands.size() == 1);
    CHECK(st.commands[0].engine == "cluster");
  }
  CHECK(s.high_water[static_cast<size_t>(Level::L1)] == 0);
  test::check_exact(g, s);
}

TEST_CASE("schedule: L3 slabs stream input rows, output rows and weight tiles", "[schedule]") {
  const Graph g = model("resnet8");
  const PlatformSpec spec = platform("siracusa");
  for (const std::string buf : {"single", "double"}) {
    auto t = test::fixed_tilings(g, 8, 3, 0);
    // L02_s1b: input in L3 (slabs of 5 output rows); L04_s2a: output in L3; L05_s2b: weights.
    for (LayerTiling& lt : t) {
      const std::string& name = g.nodes[lt.node].name;
      if (name == "L02_s1b") lt.l3.input_in_l3 = true, lt.l3.h_out = 5, lt.l3.db_x = 2;
      if (name == "L04_s2a") lt.l3.output_in_l3 = true, lt.l3.h_out = 6, lt.l3.db_o = 2;
      if (name == "L05_s2b") lt.l3.weights_in_l3 = true, lt.l3.n_out = 16, lt.l3.db_w = 2;
    }
    const Schedule s = build_schedule(g, spec, t, {buf});
    INFO(buf);
    test::check_exact(g, s, 7);
    CHECK(with_note(step_named(s, "L02_s1b"), "load x slab").size() == 7);   // ceil(32/5)
    CHECK(with_note(step_named(s, "L04_s2a"), "store y slab").size() == 3);  // ceil(16/6)
    CHECK(with_note(step_named(s, "L05_s2b"), "load in1 slab").size() == 2); // 32/16
    for (const Command& c : step_named(s, "L02_s1b").commands)
      if (c.note.rfind("load x slab", 0) == 0) CHECK(c.engine == "l3_dma");
    CHECK(s.high_water[static_cast<size_t>(Level::L3)] > 0);
  }
}

TEST_CASE("schedule: buffering auto follows budgets.dory.db", "[schedule]") {
  const Graph g = model("tiny");
  const auto t = test::fixed_tilings(g, 0, 0, 0, true);
  CHECK(build_schedule(g, platform("gap8"), t).buffering == "single");
  CHECK(build_schedule(g, platform("siracusa"), t).buffering == "double");
  CHECK(build_schedule(g, platform("gap9"), t).buffering == "double");
  CHECK(build_schedule(g, platform("barvinn"), t).buffering == "double");   // no budgets: 2
  CHECK_THROWS_WITH(build_schedule(g, platform("gap8"), t, {"triple"}), Catch::Contains("triple"));
}

TEST_CASE("schedule: allocation reuses memory and reports overflows", "[schedule][alloc]") {
  const Graph g = model("resnet8");
  const Schedule s = build_schedule(g, platform("siracusa"), test::fixed_tilings(g, 0, 0, 0, true), {"double"});
  CHECK(test::allocation_problem(s).empty());
  int64_t sum_l1 = 0;
  for (const Buffer& b : s.buffers) {
    if (b.level == Level::L1) {
      sum_l1 += b.bytes;
      CHECK(b.offset % 8 == 0);
      CHECK(b.first_step == b.last_step);
    }
    if (b.level == Level::L2) CHECK(b.offset % 4 == 0);
  }
  CHECK(s.high_water[static_cast<size_t>(Level::L1)] < sum_l1);   // L1 is reused across steps
  // Whole layers of resnet8 need ~35 kB of L1: too much for an 18 kB L1 budget.
  try {
    build_schedule(g, platform("gap8", {"budgets.dory.l1_reserved=20000"}), test::fixed_tilings(g, 0, 0, 0, true));
    FAIL("no overflow reported");
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    CHECK_THAT(m, Catch::Contains("L1 overflows at step"));
    CHECK_THAT(m, Catch::Contains("needs"));
  }
  // The same network with small tiles fits.
  CHECK_NOTHROW(build_schedule(g, platform("gap8", {"budgets.dory.l1_reserved=20000"}),
                               test::fixed_tilings(g, 8, 4, 0)));
}

TEST_CASE("schedule: bad tilings are rejected with the node named", "[schedule]") {
  const Graph g = model("tiny");
  auto t = test::fixed_tilings(g, 0, 0, 0, true);
  t.push_back(t.front());
  CHECK_THROWS_WITH(build_schedule(g, platform("siracusa"), t), Catch::Contains("two LayerTilings"));
  auto t2 = test::fixed_tilings(g, 0, 0, 0, true);
  for (LayerTiling& lt : t2)
    if (g.nodes[lt.node].name == "dw") lt.l1.n_out = 3;   // fixed_tilings keeps groups; force a bad one
  // depthwise: Cout/groups = 1, any Cout tile covers whole groups -> accepted
  CHECK_NOTHROW(build_schedule(g, platform("siracusa"), t2));
  auto t3 = test::fixed_tilings(g, 0, 0, 0, true);
  t3[0].node = 5;   // the flatten node
  CHECK_THROWS_WITH(build_schedule(g, platform("siracusa"), t3), Catch::Contains("not a layer"));
}

TEST_CASE("schedule: a DORY network from the shared set is bit-exact when tiled", "[schedule][shared]") {
  const std::string path = test::shared_networks() + "/dory/TCN_T/TCN.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const Schedule s = build_schedule(g, platform("gap8"), test::fixed_tilings(g, 4, 0, 33), {"double"});
  test::check_exact(g, s, 11);
}

TEST_CASE("schedule: schedules of the real tiling policies are bit-exact", "[schedule][policies]") {
  for (const std::string net : {"tiny", "resnet8"})
    for (const std::string plat : {"gap8", "siracusa"})
      for (const std::string pol : {"dory", "deeploy"}) {
        INFO(net << " on " << plat << " with " << pol);
        const Graph g = model(net);
        const PlatformSpec spec = platform(plat);
        std::vector<LayerTiling> t;
        try {
          t = test::tile_for(g, spec, pol);
        } catch (const TilingError& e) {
          WARN("no tiling: " << e.what());
          continue;
        }
        const Schedule s = build_schedule(g, spec, t);
        int tiled = 0;
        for (const Step& st : s.steps) tiled += st.tiled ? 1 : 0;
        CHECK(tiled == static_cast<int>(g.layer_nodes().size()));
        test::check_exact(g, s, 5);
      }
}

TEST_CASE("schedule: constants move to L3 when they do not fit L2 for the whole run", "[schedule][shared]") {
  const std::string path = test::shared_networks() + "/dory/dronet_complete/model_int.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const PlatformSpec gap8 = platform("gap8");
  const Schedule s = build_schedule(g, gap8, tile_graph(g, gap8, "dory"));
  int in_l3 = 0, staged = 0;
  for (const Placement& p : s.placements)
    if (g.tensor(p.tensor).is_const()) {
      CHECK(s.buffers[p.buffer].level == Level::L3);
      ++in_l3;
    }
  for (const Step& st : s.steps)
    for (const Command& c : st.commands) staged += c.engine == "l3_dma" ? 1 : 0;
  CHECK(in_l3 > 0);
  CHECK(staged >= in_l3);
  CHECK(s.high_water[static_cast<size_t>(Level::L2)] <= gap8.l2.size);
  test::check_exact(g, s, 2);
  // Siracusa's 2 MiB L2 holds everything: constants stay in L2.
  const PlatformSpec sir = platform("siracusa");
  const Schedule t = build_schedule(g, sir, tile_graph(g, sir, "dory"));
  for (const Placement& p : t.placements)
    if (g.tensor(p.tensor).is_const()) CHECK(t.buffers[p.buffer].level == Level::L2);
}

namespace {

// Layer shapes the shipped networks lack: batched MatMul of two activations, Add with a
// broadcast constant, ceil-mode max pool, grouped strided conv with per-channel requant.
Graph synthetic_layers() {
  Graph g;
  g.name = "synthetic";
  g.dialect = "deeploy";
  auto act = [&](const std::string& n, DType t, Shape s) { return g.add_tensor({n, t, s, std::nullopt, false}); };
  const int a = act("a", DType::I8, {2, 3, 5}), b = act("b", DType::I8, {2, 5, 4}), mm = act("mm", DType::I32, {2, 3, 4});
  const int c = act("c", DType::U8, {1, 4, 3, 3}), sum = act("sum", DType::U8, {1, 4, 3, 3});
  std::vector<int64_t> dv{5, 17, 0, 99};
  const int d = g.add_tensor({"d", DType::U8, {1, 4, 1, 1}, Tensor::from_ints(DType::U8, {1, 4, 1, 1}, dv), false});
  const int e = act("e", DType::U8, {1, 2, 5, 5}), mp = act("mp", DType::U8, {1, 2, 3, 3});
  const int x = act("x", DType::U8, {1, 4, 6, 6}), y = act("y", DType::I32, {1, 4, 3, 3});
  std::vector<int64_t> wv;
  for (int i = 0; i < 4 * 2 * 9; ++i) wv.push_back((i * 7) % 11 - 5);
  const int w = g.add_tensor({"w", DType::I8, {4, 2, 3, 3}, Tensor::from_ints(DType::I8, {4, 2, 3, 3}, wv), false});
  g.inputs = {a, b, c, e, x};
  g.outputs = {mm, sum, mp, y};
  GemmParams gp;
  gp.rq.lo = INT32_MIN, gp.rq.hi = INT32_MAX;
  g.nodes.push_back(Node{"mm", gp, {a, b}, {mm}, {"MatMul"}});
  AddParams ap;
  ap.rq.lo = 0, ap.rq.hi = 255;
  g.nodes.push_back(Node{"add", ap, {c, d}, {sum}, {"Add"}});
  PoolParams pp;
  pp.kh = pp.kw = 2, pp.sh = pp.sw = 2, pp.ceil_mode = true;
  pp.rq.lo = 0, pp.rq.hi = 255;
  g.nodes.push_back(Node{"pool", pp, {e}, {mp}, {"MaxPool"}});
  ConvParams cp;
  cp.kh = cp.kw = 3, cp.sh = cp.sw = 2, cp.pad_t = cp.pad_l = cp.pad_b = cp.pad_r = 1, cp.groups = 2;
  cp.bias = {1, -2, 3, -4};
  cp.rq.kind = Requant::Kind::Integer;
  cp.rq.axis = 1;
  cp.rq.k = {1, 2, 3, 4};
  cp.rq.lambda = {0, 10, -10, 5};
  cp.rq.lo = INT32_MIN, cp.rq.hi = INT32_MAX;
  g.nodes.push_back(Node{"gconv", cp, {x, w}, {y}, {"Conv"}});
  g.validate();
  return g;
}

}  // namespace

TEST_CASE("schedule: batched MatMul, broadcast Add, ceil pool and grouped conv tiles are exact", "[schedule]") {
  const Graph g = synthetic_layers();
  const PlatformSpec spec = platform("siracusa");
  for (const std::string buf : {"single", "double"}) {
    INFO(buf);
    const Schedule s = build_schedule(g, spec, test::fixed_tilings(g, 2, 1, 2), {buf});
    test::check_exact(g, s, 9);
    // MatMul: 2 batches x 2 column tiles x 3 row tiles.
    CHECK(with_note(s.steps[0], "compute tile").size() == 12);
    // The runtime B operand is re-loaded only when its column tile (or batch) changes.
    CHECK(with_note(s.steps[0], "load w").size() == 4);
    // Grouped conv: Cout tiles of 2 = one group each, reading that group's 2 input channels.
    const auto gc = with_note(s.steps[3], "compute tile");
    CHECK(std::get<ConvParams>(gc[0]->params).groups == 1);
    CHECK(gc[0]->inputs[0].shape[1] == 2);
    CHECK(std::get<ConvParams>(gc[0]->params).rq.k == std::vector<int64_t>{1, 2});
  }
  // A Cout tile that splits a group is rejected.
  auto bad = test::fixed_tilings(g, 2, 1, 2);
  bad[3].l1.n_out = 3;
  CHECK_THROWS_WITH(build_schedule(g, spec, bad), Catch::Contains("whole groups"));
}

TEST_CASE("schedule: L3-sliced layers whose slabs are single L1 tiles are not double-buffered in L1",
          "[schedule][policies]") {
  const std::string path = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const PlatformSpec gap9 = platform("gap9", {"budgets.dory.l1=38000"});
  // dory-2021 streams the weights of the last pointwise layers from L3 in Cout slabs that are
  // each one L1 tile sized without the double-buffer factor (38,000 B budget).
  const Schedule s = build_schedule(g, gap9, tile_graph(g, gap9, "dory-2021"));
  int whole_multi = 0;
  for (const Step& st : s.steps) {
    if (!st.tiled || !st.tiling.l1.whole) continue;
    CHECK(st.buffering == 1);
    if (with_note(st, "compute tile").size() > 1) ++whole_multi;
  }
  CHECK(whole_multi > 0);
  CHECK(s.high_water[static_cast<size_t>(Level::L1)] <= 38000);
  test::check_exact(g, s, 4);
}

TEST_CASE("schedule: dory-2021 depthwise layers run as one chain, with the double buffers they were sized for",
          "[schedule][policies]") {
  const std::string path = std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx";
  REQUIRE_DATA(path);
  const Graph g = import_onnx(path);
  const PlatformSpec po = platform("pulp_open", {"budgets.dory.l1=38000"});
  // DORY's 2021 template waits for every transfer of a depthwise layer (Budgets::dw_blocking):
  // each command of the step depends on the one before it; pointwise layers still overlap.
  const Schedule s = build_schedule(g, po, tile_graph(g, po, "dory-2021"));
  const Step& dw = step_named(s, "L05_dw");
  REQUIRE(with_note(dw, "compute tile").size() > 1);
  CHECK(dw.buffering == 2);
  const auto xl = with_note(dw, "load x tile");
  REQUIRE(xl.size() > 1);
  CHECK(xl[0]->dst.buffer != xl[1]->dst.buffer);   // both L1 input buffers are used
  // The network loop's read of the next layer's weights (a loop command) runs beside the layer.
  std::vector<const Command*> own;
  for (const Command& c : dw.commands)
    if (!c.loop) own.push_back(&c);
  REQUIRE(own.size() > 2);
  for (size_t i = 1; i < own.size(); ++i) CHECK(own[i]->deps == std::vector<int>{own[i - 1]->id});
  const Step& pw = step_named(s, "L04_pw");
  const auto pl = with_note(pw, "load x tile"), pc = with_note(pw, "compute tile");
  REQUIRE(pc.size() > 1);
  CHECK_FALSE(depends(*pl[1], pc[0]->id));
  // Policy dory (DORY's current templates) overlaps the same layer's transfers.
  const Schedule d = build_schedule(g, po, tile_graph(g, po, "dory"));
  const Step& ddw = step_named(d, "L05_dw");
  const auto dl = with_note(ddw, "load x tile"), dc = with_note(ddw, "compute tile");
  REQUIRE(dc.size() > 1);
  CHECK_FALSE(depends(*dl[1], dc[0]->id));
}

TEST_CASE("schedule: under deeploy, single-buffered tiles load every input at every tile", "[schedule]") {
  // tiny's first conv in Cout tiles of 4 with whole rows and columns: every tile reads the same
  // input window. DORY's loop (and any other policy) loads it once; Deeploy's tiling loop has no
  // reuse test and loads it at every tile (docs/schedule.md §5), and likewise its weights and
  // constants; results stay bit-exact either way.
  const Graph g = model("tiny");
  const PlatformSpec spec = platform("siracusa");
  const std::vector<LayerTiling> base = test::fixed_tilings(g, 4, 0, 0);
  std::vector<LayerTiling> deeploy = base;
  for (LayerTiling& t : deeploy) t.policy = "deeploy";
  const Schedule s_other = build_schedule(g, spec, base, {"single"});
  const Schedule s_deeploy = build_schedule(g, spec, deeploy, {"single"});
  const Step& a = s_other.steps.at(static_cast<size_t>(g.layer_nodes().front()));
  const Step& b = s_deeploy.steps.at(static_cast<size_t>(g.layer_nodes().front()));
  const size_t tiles = with_note(b, "compute tile").size();
  REQUIRE(tiles > 1);
  CHECK(with_note(a, "load x tile").size() == 1);
  CHECK(with_note(b, "load x tile").size() == tiles);
  CHECK(with_note(b, "load w tile").size() == tiles);
  test::check_exact(g, s_deeploy);
  // Double-buffered, every policy already loads x at every tile; the rule changes nothing there.
  const Schedule d_other = build_schedule(g, spec, base, {"double"});
  const Schedule d_deeploy = build_schedule(g, spec, deeploy, {"double"});
  CHECK(with_note(d_other.steps.at(static_cast<size_t>(g.layer_nodes().front())), "load w tile").size() ==
        with_note(d_deeploy.steps.at(static_cast<size_t>(g.layer_nodes().front())), "load w tile").size());
}
