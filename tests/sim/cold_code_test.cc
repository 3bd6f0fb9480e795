// A layer's own generated code fetched cold once per inference (cluster.cost.c_layer and
// c_layer_tr, docs/timing.md "Cold code"): on gap9 under Deeploy's flow every cluster layer pays
// it once, on its first kernel, a layout Transpose the smaller c_layer_tr; nothing else moves.
#include <catch2/catch.hpp>

#include <map>

#include "platforms/loader/loader.h"
#include "sim/flow/flow.h"
#include "support/paths.h"

using namespace edgesim;

namespace {

// resnet8 on gap9, cluster only, timing only; under deeploy as its flow runs it (NCHW graph I/O:
// a layout Transpose at the input, single buffering).
FlowOutcome resnet8_on_gap9(const std::string& policy, const std::vector<std::string>& overrides) {
  FlowRequest req;
  req.model = test::source_dir() + "/models/resnet8/model.onnx";
  req.platform = test::source_dir() + "/platforms/gap9.yaml";
  req.policy = policy;
  req.engines = {"cluster"};
  if (policy == "deeploy") {
    req.io_layout = "nchw";
    req.schedule.buffering = "single";
  }
  req.overrides = overrides;
  req.sim.data = false;
  return run_flow(req);
}

}  // namespace

TEST_CASE("cold code: each Deeploy cluster layer on gap9 pays its code's cold fetch once", "[sim][flow]") {
  const PlatformSpec gap9 = load_platform(test::source_dir() + "/platforms/gap9.yaml");
  const int64_t layer = gap9.budgets.deeploy.cost.c_layer, tr = gap9.budgets.deeploy.cost.c_layer_tr;
  REQUIRE(layer > 0);
  REQUIRE(tr > 0);
  REQUIRE(layer != tr);
  const FlowOutcome with = resnet8_on_gap9("deeploy", {});
  const FlowOutcome without =
      resnet8_on_gap9("deeploy", {"budgets.deeploy.cost.c_layer=0", "budgets.deeploy.cost.c_layer_tr=0"});
  const auto& a = with.sim.result.layers;
  const auto& b = without.sim.result.layers;
  REQUIRE(a.size() == b.size());
  std::map<std::string, int> kinds;
  int64_t expected = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    INFO(a[i].name << " (" << a[i].op << ")");
    CHECK(a[i].tiles == b[i].tiles);   // the term moves no tile and no byte
    CHECK(a[i].dma_bytes_in == b[i].dma_bytes_in);
    const bool kernel = a[i].engine == "cluster" && a[i].compute_cycles > 0;
    const int64_t want = !kernel ? 0 : a[i].op == "transpose" ? tr : layer;
    if (kernel) ++kinds[a[i].op == "transpose" ? "transpose" : "kernel"];
    CHECK(a[i].cycles - b[i].cycles == want);
    expected += want;
  }
  CHECK(kinds["transpose"] == 1);   // the NCHW input (the output is [1, 10]: no conversion)
  CHECK(kinds["kernel"] >= 8);      // resnet8's convs, adds, pool and gemm
  CHECK(with.sim.result.total_cycles - without.sim.result.total_cycles == expected);

  // DORY's flow on the same chip: not counted (the preset's 0), the library's keys do not reach it
  CHECK(resnet8_on_gap9("dory", {"budgets.deeploy.cost.c_layer=5000"}).sim.result.total_cycles ==
        resnet8_on_gap9("dory", {}).sim.result.total_cycles);
}
