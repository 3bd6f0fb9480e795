// The compile pipeline (compiler/pipeline/compile.h): its stages in order, a stop after a stage,
// the stage that threw, a given plan, and the same schedule whether a command compiles through
// run_flow or calls the pipeline itself.
#include <catch2/catch.hpp>

#include "compiler/frontend/import.h"
#include "compiler/pipeline/compile.h"
#include "compiler/schedule/json.h"
#include "compiler/tiler/policy.h"
#include "platforms/loader/loader.h"
#include "sim/flow/flow.h"
#include "sim/sweep/evaluate.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

std::string resnet8() { return test::source_dir() + "/models/resnet8/model.onnx"; }

PlatformSpec platform(const std::string& name, const std::vector<std::string>& overrides = {}) {
  return load_platform(test::source_dir() + "/platforms/" + name + ".yaml", overrides);
}

}  // namespace

TEST_CASE("pipeline: the stages run in order, each observed once, and a stop after a stage ends the run", "[pipeline]") {
  CompileOptions o;
  std::vector<std::string> seen;
  o.after_stage = [&](CompileStage s, const CompiledNetwork& n) {
    seen.push_back(stage_name(s));
    if (s == CompileStage::engines) CHECK_FALSE(n.engines.preference.empty());
    if (s == CompileStage::tiling) CHECK(n.tilings.size() == n.graph.layer_nodes().size());
  };
  const CompiledNetwork n = compile_network(import_onnx(resnet8()), platform("gap8"), o);
  CHECK(seen == std::vector<std::string>{"platform", "memory", "inputs", "engines", "io_layout", "graph_passes",
                                         "tuned_plan", "tiling", "schedule", "allocation"});
  CHECK_FALSE(n.schedule.steps.empty());

  seen.clear();
  o.last = CompileStage::graph_passes;
  const CompiledNetwork front = compile_network(import_onnx(resnet8()), platform("gap8"), o);
  CHECK(seen.back() == "graph_passes");
  CHECK(front.tilings.empty());
  CHECK(front.schedule.steps.empty());
  CHECK(front.graph.nodes.front().engine == "cluster");
}

TEST_CASE("pipeline: the stage that threw, and the error it threw", "[pipeline]") {
  CompileStage at = CompileStage::platform;
  CompileOptions o;
  o.progress = &at;
  o.engines = {"bogus"};
  CHECK_THROWS_AS(compile_network(import_onnx(resnet8()), platform("gap8"), o), EngineListError);
  CHECK(at == CompileStage::engines);

  o.engines.clear();
  // 3,932 B of DORY L1 budget: layer 5 does not fit.
  CHECK_THROWS_AS(compile_network(import_onnx(resnet8()), platform("gap8", {"l1.size=32KiB"}), o), TilingError);
  CHECK(at == CompileStage::tiling);
}

TEST_CASE("pipeline: a given plan is the schedule it describes, and one not of the network is refused", "[pipeline]") {
  const Graph g = import_onnx(resnet8());
  const CompiledNetwork dory = compile_network(g, platform("gap9"), {});
  GivenPlan plan;
  for (size_t k = 0; k < dory.graph.nodes.size(); ++k) {
    plan.order.push_back(static_cast<int>(k));
    plan.engines.emplace_back(dory.graph.nodes[k].engine, dory.graph.nodes[k].wmem_weights);
  }
  plan.tilings = dory.tilings;
  CompileOptions o;
  o.plan = &plan;
  const CompiledNetwork again = compile_network(g, platform("gap9"), o);
  CHECK(schedule_to_json(again.schedule) == schedule_to_json(dory.schedule));
  CHECK(again.node_order == plan.order);

  plan.order.pop_back();
  CHECK_THROWS_WITH(compile_network(g, platform("gap9"), o), Catch::StartsWith("the plan is not one of this network's"));
}

TEST_CASE("pipeline: run_flow and the pipeline build the same schedule", "[pipeline][flow]") {
  for (const char* policy : {"dory", "deeploy"}) {
    FlowRequest req;
    req.model = resnet8();
    req.platform = test::source_dir() + "/platforms/siracusa.yaml";
    req.policy = policy;
    req.io_layout = "nchw";
    req.simulate = false;
    req.sim.data = false;
    const FlowOutcome f = run_flow(req);
    CompileOptions o;
    o.policy = policy;
    o.io_layout = "nchw";
    o.network = network_label(req.model);
    const CompiledNetwork n = compile_network(import_onnx(req.model), load_platform(req.platform), o);
    CHECK(schedule_to_json(n.schedule).dump() == schedule_to_json(f.schedule).dump());
  }
}

TEST_CASE("pipeline: a sweep point times the schedule run builds, per layer, tuned too", "[pipeline][flow][sweep]") {
  // The same options through run_flow (run, validate, Python) and a sweep point
  // (sim/sweep/evaluate.cc): both compile through compile_network, so the timing-only cycles of
  // every layer agree. No cache file: each side tunes on its own (ctest's EDGESIM_TUNE_CACHE).
  sweep::SweepSpec s;
  s.platform = test::source_dir() + "/platforms/siracusa.yaml";
  s.axes = {sweep::parse_axis("l1.size=256KiB")};
  s.networks = {resnet8()};
  for (const char* policy : {"deeploy", "tuned"}) {
    INFO(policy);
    s.policies = {policy};
    const std::vector<sweep::SweepNetwork> nets = sweep::import_networks(s);
    const sweep::PointRecord point = sweep::evaluate_point(s, nets[0], sweep::PointRef{0, policy, {}, {"256KiB"}});
    REQUIRE(point.status == "ok");
    FlowRequest req;
    req.model = resnet8();
    req.platform = s.platform;
    req.overrides = {"l1.size=256KiB"};
    req.policy = policy;
    req.sim.data = false;
    const FlowOutcome f = run_flow(req);
    CHECK(f.sim.result.total_cycles == point.total_cycles);
    REQUIRE(f.sim.result.layers.size() == point.layers.size());
    for (size_t k = 0; k < point.layers.size(); ++k) CHECK(f.sim.result.layers[k].cycles == point.layers[k].cycles);
  }
}
