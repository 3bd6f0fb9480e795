// The network level of the autotuner (compiler/tune/network_tune.h, prefetch_plan.h,
// l3_options.h): the prefetch planner's L2 figure is exactly the builder's, the L3 options list
// only what fits and grows with L2, the chosen plan is never slower than DORY's or Deeploy's on
// the whole network, it runs bit-exact, and a plan from the cache is the same plan.
#include <random>

#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/json.h"
#include "compiler/tiler/internal.h"
#include "compiler/tune/network_tune.h"
#include "compiler/tune/prefetch_plan.h"
#include "compiler/tune/tuned_policy.h"
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
