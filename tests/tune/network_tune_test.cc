// The network level of the autotuner (compiler/tune/network_tune.h, prefetch_plan.h,
// l3_options.h): the prefetch planner's L2 figure is exactly the builder's, the L3 options list
// only what fits and grows with L2, the chosen plan is never slower than DORY's or Deeploy's on
// the whole network, it runs bit-exact, and a plan from the cache is the same plan.
#include <random>
#include <tuple>

#include <catch2/catch.hpp>

#include "compiler/flows/flow.h"
#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "compiler/tiler/internal.h"
#include "compiler/tune/engine_tune.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/prefetch_plan.h"
#include "compiler/pipeline/compile.h"
#include "compiler/tiler/plan_policy.h"
#include "compiler/tune/cache.h"
#include "support/temp_dir.h"
#include "kernels/interpreter/interpreter.h"
#include "platforms/loader/loader.h"
#include "schedule/sched_util.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "sim/tune/net_sim_evaluator.h"
#include "sim/tune/sim_evaluator.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

PlatformSpec platform(const std::string& name, const std::vector<std::string>& over = {}) {
  return load_platform(test::source_dir() + "/platforms/" + name + ".yaml", over);
}
Graph resnet8() { return import_onnx(test::source_dir() + "/models/resnet8/model.onnx"); }

}  // namespace

TEST_CASE("prefetch planner: its L2 high water is the builder's, for random depths and rings", "[tune][prefetch]") {
  // resnet8 on gap8, every constant homed in L3 (consts_l3), some layers streaming their weights.
  const Graph g = resnet8();
  const PlatformSpec spec = platform("gap8", {"l2.size=192KiB"});
  NetPlan plan = tile_graph(g, spec, "dory");
  for (LayerTiling& t : plan) {
    t.policy = "tuned";
    t.net.consts_l3 = true;
    const LayerGeom geom = layer_geom(g, t.node);
    if (geom.kind == OpKind::Conv && !geom.depthwise && geom.cout >= 16 && !t.l3.tiled()) {
      t.l3.weights_in_l3 = true;   // stream in 4 Cout slabs
      t.l3.n_out = geom.cout / 4;
      t.l3.db_w = 2;
      t.l1.n_out = std::min(t.l1.n_out, t.l3.n_out);
      t.l1.whole = false;
    }
  }
  const PrefetchPlanner pp(g, spec, plan);
  REQUIRE(pp.sites().size() >= 4);
  bool streams = false;
  for (const auto& s : pp.sites()) streams |= s.slab_buffer >= 0;
  REQUIRE(streams);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 25; ++trial) {
    std::vector<int> d, r;
    for (const auto& s : pp.sites()) {
      d.push_back(static_cast<int>(rng() % 5));
      r.push_back(s.slab_buffer >= 0 ? s.ring + static_cast<int>(rng() % (s.max_ring - s.ring + 1)) : 0);
    }
    const NetPlan p = pp.with(d, r);
    ScheduleOptions o;
    Schedule s;
    try {
      s = build_schedule(g, platform("gap8", {"l2.size=4MiB"}), p, o);   // no overflow: compare the figure
    } catch (const std::exception& e) {
      FAIL(e.what());
    }
    INFO("trial " << trial);
    CHECK(pp.l2_high_water(d, r) == s.high_water[static_cast<size_t>(Level::L2)]);
  }
}

TEST_CASE("L3 options: the base decision first, only what fits L2, more with a larger L2", "[tune]") {
  const Graph g = import_onnx(std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx");
  for (int node : g.layer_nodes()) {
    const LayerGeom geom = layer_geom(g, node);
    L3Tiling base;
    base.n_out = geom.cout, base.h_out = geom.h_out, base.h_in = geom.h_in;
    const auto small = l3_options(geom, base, false, 200000);
    const auto large = l3_options(geom, base, false, 400000);
    REQUIRE(!small.empty());
    CHECK(small.front().kind == "base");
    for (const L3Option& o : small) {
      if (o.kind != "base") CHECK(o.l2_bytes <= 200000);
      if (o.kind == "stream") {
        CHECK(o.l3.weights_in_l3);
        CHECK(o.l3.n_out % 4 == 0);
        CHECK(2 * o.l3.n_out <= geom.cout);
        CHECK_FALSE(o.l3.output_in_l3);
      }
      bool in_large = false;
      for (const L3Option& p : large) in_large |= p.l3.n_out == o.l3.n_out && p.l3.weights_in_l3 == o.l3.weights_in_l3;
      CHECK(in_large);
    }
    CHECK(large.size() >= small.size());
  }
}

TEST_CASE("network tune: never slower than DORY or Deeploy on the whole network, bit-exact, cached", "[tune]") {
  const Graph g = resnet8();
  for (const char* name : {"gap8", "siracusa"}) {
    const PlatformSpec spec = platform(name);
    SimulatingEvaluator sim(1);
    NetSimEvaluator net(2);
    TuneOptions opt;
    opt.top_k = 4;
    opt.simulator = &sim;
    TuneCache cache("");
    const NetworkTuneResult r = tune_network(g, spec, opt, &net, cache);
    INFO(name << ": dory " << r.dory << " deeploy " << r.deeploy << " tuned " << r.tuned << " isolated " << r.isolated);
    REQUIRE(r.tuned > 0);
    if (r.dory > 0) CHECK(r.tuned <= r.dory);
    if (r.deeploy > 0) CHECK(r.tuned <= r.deeploy);
    CHECK(r.tuned <= r.isolated);
    CHECK(r.plans >= 3);
    // The plan as `run --policy tuned` schedules it (on its graph: branch order and engines):
    // the evaluator's cycles, verified bit-exact.
    Graph gt = g;
    apply_network(gt, r);
    const Schedule s = build_schedule(gt, spec, r.tilings, {});
    const auto in = test::random_inputs(g, 4);
    const SimOutcome out = simulate(gt, s, spec, in, {});
    CHECK(out.result.total_cycles == r.tuned);
    InterpreterOptions io;
    io.keep_all = true;
    CHECK(verify_against_interpreter(gt, *out.values, interpret(g, in, io)).ok);
    // The same plan from the cache.
    const NetworkTuneResult again = tune_network(g, spec, opt, &net, cache);
    CHECK(again.cached);
    CHECK(again.tuned == r.tuned);
    REQUIRE(again.tilings.size() == r.tilings.size());
    for (size_t i = 0; i < r.tilings.size(); ++i) CHECK(tiling_to_json(again.tilings[i]) == tiling_to_json(r.tilings[i]));
  }
}

TEST_CASE("L3 options: DORY decisions at smaller L1 sizes stay options with more L1", "[tune][monotone]") {
  // MobileNetV1-128's L10_pw on gap8 with 256 KiB of L2, its input in L3: DORY's L2 slab is 2
  // rows at 96 KiB of L1 and 1 row at 112 KiB (its L3 search weighs whether the L1 tiling fits);
  // the tuned layer took 2,499,599 cycles with the 2-row slab and 4,661,791 without it.
  const Graph g = import_onnx(std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx");
  int node = -1;
  for (int n : g.layer_nodes())
    if (g.nodes[static_cast<size_t>(n)].name == "L10_pw") node = n;
  REQUIRE(node >= 0);
  const LayerGeom geom = layer_geom(g, node);
  auto dory_at = [&](const PlatformSpec& spec) {
    TilingContext ctx;
    ctx.graph = &g;
    ctx.spec = &spec;
    ctx.input_in_l3 = true;
    return make_policy("dory")->tile(geom, ctx).l3;
  };
  const PlatformSpec small = platform("gap8", {"l1.size=96KiB", "l2.size=256KiB"});
  const PlatformSpec large = platform("gap8", {"l1.size=112KiB", "l2.size=256KiB"});
  const L3Tiling at96 = dory_at(small), at112 = dory_at(large);
  auto key = [](const L3Tiling& t) {
    return std::tuple{t.input_in_l3, t.output_in_l3, t.weights_in_l3, t.n_out, t.h_out, t.h_in, t.db_x, t.db_w, t.db_o};
  };
  INFO("96 KiB: h_in " << at96.h_in << " h_out " << at96.h_out << " n_out " << at96.n_out << "; 112 KiB: h_in "
                       << at112.h_in << " h_out " << at112.h_out << " n_out " << at112.n_out);
  REQUIRE(key(at96) != key(at112));   // the precondition: DORY's decision moves with L1
  TilingContext ctx;
  ctx.graph = &g;
  ctx.spec = &large;
  ctx.input_in_l3 = true;
  TuneOptions opt;
  opt.top_k = 2;   // analytic evaluator: the options are what matters here
  const LayerTuneResult r = tune_layer(g, node, ctx, large, network_context(g, large), opt);
  bool has96 = false, has112 = false;
  for (const TunedOption& o : r.options) {
    has96 |= key(o.option.l3) == key(at96);
    has112 |= key(o.option.l3) == key(at112);
  }
  CHECK(has96);
  CHECK(has112);
}

TEST_CASE("tuned plan: the tune context is the compile's own, the plan is tiled as given", "[tune]") {
  // Two compiles in one process with two contexts: each plan goes to its own cache file and
  // nothing is shared through process-wide settings (compiler/tune/context.h).
  const PlatformSpec spec = platform("gap8");
  test::TempDir dir;
  CompileOptions a, b;
  a.policy = b.policy = "tuned";
  a.tune.cache_path = dir.file("a.json");
  b.tune.cache_path = dir.file("b.json");
  b.tune.top_k = 2;
  const CompiledNetwork na = compile_network(resnet8(), spec, a);
  const CompiledNetwork nb = compile_network(import_onnx(test::source_dir() + "/models/tiny/model.onnx"), spec, b);
  CHECK(TuneCache(dir.file("a.json")).size() > 0);
  CHECK(TuneCache(dir.file("b.json")).size() > 0);
  CHECK(na.tilings.size() != nb.tilings.size());
  // The plan's tilings are what the layers get: a plan policy returns them and names a layer it
  // does not tile.
  const auto plan = make_plan_policy("tuned", na.tilings);
  TilingContext ctx;
  ctx.graph = &na.graph;
  ctx.spec = &na.spec;
  for (const LayerTiling& t : na.tilings)
    CHECK(tiling_to_json(plan->tile(layer_geom(na.graph, t.node), ctx)) == tiling_to_json(t));
  const auto none = make_plan_policy("tuned", {});
  const int first = na.tilings.front().node;
  CHECK_THROWS_WITH(none->tile(layer_geom(na.graph, first), ctx),
                    Catch::Matchers::Contains("layer " + std::to_string(first) + ": not in the tuned network plan"));
}

TEST_CASE("weight memory share-out: the layers left out lose the fewest cycles in all", "[tune]") {
  // MobileNetV1-128 on siracusa in miniature: the classifier (1,024,000 B, saves 43,712 cycles),
  // a pointwise layer (131,072 B, saves 2,020) and a small one (8,192 B, saves 159) with 7,424 B
  // too many. By cycles saved per byte (0.043, 0.019, 0.015) a greedy fill leaves the 131,072 B
  // layer out (2,020 cycles lost); the least loss is to leave out the 8,192 B one (159).
  const std::vector<WmemItem> mini{{131072, 2020}, {8192, 159}, {1024000, 43712}};
  const int64_t budget = 131072 + 8192 + 1024000 - 7424;
  CHECK(wmem_keep(mini, budget) == std::vector<bool>{true, false, true});
  CHECK(wmem_keep(mini, budget + 7424) == std::vector<bool>{true, true, true});   // all fit
  // A layer that does not gain never gets the weight memory, even when it fits.
  CHECK(wmem_keep({{64, 0}, {64, -5}, {64, 3}}, 1000) == std::vector<bool>{false, false, true});
  // Random cases against every subset: what is kept fits and leaves out the least gain.
  std::mt19937 rng(15);
  for (int round = 0; round < 200; ++round) {
    const size_t n = 1 + rng() % 8;
    std::vector<WmemItem> items;
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      items.push_back({4 * static_cast<int64_t>(1 + rng() % 2000), static_cast<int64_t>(rng() % 3000) - 300});
      if (items.back().gain > 0) total += items.back().bytes;
    }
    const int64_t budget = static_cast<int64_t>(rng() % static_cast<uint32_t>(total + 100));
    const std::vector<bool> keep = wmem_keep(items, budget);
    int64_t bytes = 0, lost = 0, best = -1;
    for (size_t i = 0; i < n; ++i) {
      if (keep[i]) {
        bytes += items[i].bytes;
        CHECK(items[i].gain > 0);
      } else if (items[i].gain > 0) lost += items[i].gain;
    }
    CHECK(bytes <= budget);
    for (uint32_t m = 0; m < (1u << n); ++m) {   // every subset kept
      int64_t b = 0, l = 0;
      bool ok = true;
      for (size_t i = 0; i < n; ++i) {
        if (m >> i & 1) ok &= items[i].gain > 0, b += items[i].bytes;
        else if (items[i].gain > 0) l += items[i].gain;
      }
      if (ok && b <= budget && (best < 0 || l < best)) best = l;
    }
    INFO("round " << round);
    CHECK(lost == best);
  }
}
