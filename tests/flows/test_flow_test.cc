// A flow added from outside compiler/flows (docs/extending.md "A flow"): this file and its one
// registration line (register_flow) are all it takes for `edgesim run --policy test-flow`.
// The test flow tiles as DORY does but runs its code under Deeploy's loop (a fork per kernel
// call, DMA from core 0), so its cycles differ from dory's while its results stay bit-exact.
#include <memory>

#include <catch2/catch.hpp>

#include "compiler/flows/flow.h"
#include "compiler/flows/kernel_library.h"
#include "sim/cli/run_session.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// DORY's tiler, its tilings labelled with this flow's name so that every per-layer question
// (budgets, conventions, schedule choices) comes here.
class RelabelledTiler : public TilingPolicy {
 public:
  std::string name() const override { return "test-flow"; }
  LayerTiling tile(const LayerGeom& g, const TilingContext& ctx) const override {
    LayerTiling t = dory_->tile(g, ctx);
    t.policy = name();
    return t;
  }

 private:
  std::unique_ptr<TilingPolicy> dory_ = make_policy("dory");
};

class TestFlow : public Flow {
 public:
  std::string name() const override { return "test-flow"; }
  Budgets budgets(const PlatformSpec& spec, int buffering) const override { return policy_budgets(spec, "dory", buffering); }
  std::unique_ptr<TilingPolicy> tiler() const override { return std::make_unique<RelabelledTiler>(); }
  PlatformSpec kernel_platform(const PlatformSpec& spec) const override { return dory_kernel_library(spec); }
  RuntimeConventions conventions(const PlatformSpec&) const override { return {true, false}; }
  bool counts_own_l1() const override { return true; }
};

cli::RunSession run(const std::string& policy) {
  cli::RunOptions a;
  a.model = test::source_dir() + "/models/resnet8/model.onnx";
  a.platform = test::source_dir() + "/platforms/gap8.yaml";
  a.policy = policy;
  return cli::run_session(a);
}

}  // namespace

TEST_CASE("flows: a flow registered from a test runs edgesim run end to end, bit-exact", "[flows]") {
  register_flow(std::make_unique<TestFlow>());   // the one registration line
  // Gone when the test ends, so tests after it in the same process see the built-in flows only.
  struct Unregister {
    ~Unregister() { unregister_flow("test-flow"); }
  } const unregister;
  CHECK_THROWS_WITH(register_flow(std::make_unique<TestFlow>()), Catch::Contains("registered already"));
  const cli::RunSession t = run("test-flow");
  const cli::RunSession d = run("dory");
  CHECK(t.flow.sim.result.verified);
  CHECK(t.flow.schedule.policy == "test-flow");
  for (const LayerTiling& l : t.flow.tilings) CHECK(l.policy == "test-flow");
  // The same tiles as dory's, timed under another loop.
  REQUIRE(t.flow.tilings.size() == d.flow.tilings.size());
  for (size_t k = 0; k < t.flow.tilings.size(); ++k) CHECK(t.flow.tilings[k].l1.l1_bytes == d.flow.tilings[k].l1.l1_bytes);
  CHECK(t.flow.sim.result.total_cycles != d.flow.sim.result.total_cycles);
}
