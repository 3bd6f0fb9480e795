// The deployment flow (sim/flow): ResNet-8 on GAP8 through every stage, timing-only and with
// data (same cycles, the inputs asked for once, values for verification), the stages' own
// errors (engine list, tiling with the caller's hint) and the report label of a network.
#include <catch2/catch.hpp>

#include "compiler/golden/golden.h"
#include "compiler/tiler/policy.h"
#include "sim/flow/flow.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

FlowRequest resnet8_on_gap8() {
  FlowRequest req;
  req.model = test::source_dir() + "/models/resnet8/model.onnx";
  req.platform = test::source_dir() + "/platforms/gap8.yaml";
  req.sim.data = false;
  return req;
}

}  // namespace

TEST_CASE("flow: resnet8 on gap8, timing-only and with data", "[flow][sim]") {
  const FlowOutcome t = run_flow(resnet8_on_gap8());
  CHECK(t.spec.name == "gap8");
  CHECK(t.graph.layer_nodes().size() == t.tilings.size());
  CHECK(t.engines.preference == std::vector<std::string>{"cluster"});
  CHECK(t.inputs.empty());
  CHECK(t.schedule.network == "resnet8");
  CHECK(t.sim.result.network == "resnet8");
  CHECK(t.sim.result.policy == "dory");
  CHECK_FALSE(t.sim.values.has_value());
  CHECK(t.sim.result.total_cycles > 0);
  CHECK(t.sim.result.layers.size() >= t.tilings.size());   // every step: layers and the others

  FlowRequest req = resnet8_on_gap8();
  req.sim.data = true;
  int asked = 0;
  req.inputs = [&](Graph& g) {
    ++asked;
    CHECK(g.nodes.front().engine == "cluster");   // engines are assigned before the inputs are chosen
    return random_inputs(g, 7);
  };
  const FlowOutcome d = run_flow(req);
  CHECK(asked == 1);
  CHECK(d.inputs.size() == d.graph.inputs.size());
  REQUIRE(d.sim.values.has_value());
  CHECK(d.sim.values->outputs.size() == d.graph.outputs.size());
  CHECK(d.sim.result.total_cycles == t.sim.result.total_cycles);   // data does not change timing
  CHECK(d.sim.result.accounted_cycles == t.sim.result.accounted_cycles);

  FlowRequest single = resnet8_on_gap8();
  single.schedule.buffering = "single";
  single.overrides = {"l1.size=64KiB"};
  const FlowOutcome s = run_flow(single);
  CHECK(s.spec.l1.size == 64 * 1024);
  CHECK(s.schedule.buffering == "single");
}

TEST_CASE("flow: stage errors keep their type, the tiling hint is appended", "[flow][sim]") {
  FlowRequest bad_engine = resnet8_on_gap8();
  bad_engine.engines = {"bogus"};
  CHECK_THROWS_AS(run_flow(bad_engine), EngineListError);
  CHECK_THROWS_WITH(run_flow(bad_engine), Catch::Contains("bogus"));

  FlowRequest tiny = resnet8_on_gap8();
  tiny.overrides = {"l1.size=32KiB"};   // 3,932 B of DORY L1 budget: layer 5 does not fit
  CHECK_THROWS_AS(run_flow(tiny), TilingError);
  tiny.tiling_hint = [](const PlatformSpec& spec, const std::string& policy, const TilingError&) {
    return " [hint for " + spec.name + " under " + policy + "]";
  };
  try {
    run_flow(tiny);
    FAIL("no TilingError");
  } catch (const TilingError& e) {
    CHECK_THAT(e.what(), Catch::EndsWith(" [hint for gap8 under dory]"));
    CHECK(e.level() == "L1");
  }

  FlowRequest missing = resnet8_on_gap8();
  missing.model = "no/such/model.onnx";
  CHECK_THROWS_WITH(run_flow(missing), Catch::Contains("no/such/model.onnx"));
}

TEST_CASE("flow: network labels", "[flow]") {
  CHECK(network_label("models/resnet8/model.onnx") == "resnet8");
  CHECK(network_label("deeploy/Tests/miniMobileNet/network.onnx") == "miniMobileNet");
  CHECK(network_label("x/net.onnx") == "net");
  CHECK(network_label("model.onnx") == "model");
}
