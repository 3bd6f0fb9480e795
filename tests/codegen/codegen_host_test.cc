// Generated programs on the host HAL, for the network x platform x policy combinations the
// suite already simulates or compiles: run e2e (DORY networks, Deeploy CNN tests and models/ on
// gap8, gap9 and siracusa under dory and under deeploy), tune e2e (the DORY networks and
// MobileNetV1-128 on gap8, the Deeploy CNN tests on siracusa, under tuned) and npu e2e (the
// Deeploy CNN tests and models/ with their NPU layers on siracusa and gap9 under dory and
// deeploy; BARVINN's SimpleConv on the MVU array, as the mvu array test). Each program is
// generated from the schedule build_schedule makes (the one the simulator runs), built with the
// host compiler (-Wall -Werror), run, and must print "edgesim-verdict: bit-exact" against the
// interpreter's outputs. One test case per combination set; each prints its tally. The run and
// npu sets generate each network on one of their platforms in turn, a different one under each
// policy (Combo::rotate).
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "codegen/program_harness.h"
#include "compiler/passes/assign_engine.h"
#include "compiler/schedule/build.h"
#include "compiler/schedule/functional.h"
#include "compiler/tiler/policy.h"
#include "e2e/e2e_nets.h"
#include "support/tiling.h"
#include "support/temp_dir.h"

using namespace edgesim;

namespace {

struct Tally {
  int exact = 0, infeasible = 0, failed = 0;
};

struct Combo {
  std::vector<std::string> platforms;
  std::string policy;
  bool engines = false;          // assign the platform's engines (NPU first) before tiling
  // Each network on one of the platforms in turn (network i on platforms[i % n]): every network
  // and every platform is generated, not every pair (the simulator's tests cover the pairs'
  // tilings; a program's code depends on its schedule, not on which platform made it).
  bool rotate = false;
};

void run_set(const std::vector<test::Net>& nets, const Combo& combo, const std::string& what) {
  test::TempDir tmp;
  const test::ProgramHarness h(tmp.path());
  INFO(h.log());
  REQUIRE(h.ok());
  Tally t;
  int index = 0;
  for (size_t i = 0; i < nets.size(); ++i)
    for (const test::Platform& p : test::platforms()) {
      const test::Net& n0 = nets[i];
      const auto at = std::find(combo.platforms.begin(), combo.platforms.end(), p.name);
      if (at == combo.platforms.end()) continue;
      if (combo.rotate && static_cast<size_t>(at - combo.platforms.begin()) != i % combo.platforms.size()) continue;
      Graph g = n0.graph;
      if (combo.engines) assign_engines(g, p.spec);
      Schedule s;
      try {
        s = build_schedule(g, p.spec, test::tile_for(g, p.spec, combo.policy), {});
      } catch (const TilingError&) {
        ++t.infeasible;
        continue;
      }
      s.network = n0.name;
      codegen::ProgramRequest req;
      req.graph = &g;
      req.schedule = &s;
      req.platform = p.name;
      req.n_cores = static_cast<int>(std::max<int64_t>(1, p.spec.cluster.n_cores));
      req.inputs = n0.inputs;
      req.golden = n0.want.outputs;
      const auto out = h.run(fmt::format("p{}", index++), codegen::generate_program(req));
      INFO(n0.name << " on " << p.name << " under " << combo.policy << (combo.engines ? " with engines" : ""));
      INFO(out.output);
      CHECK(out.built);
      CHECK(out.exact);
      (out.exact ? t.exact : t.failed)++;
    }
  std::cout << fmt::format("codegen host {}: {} programs bit-exact, {} infeasible (TilingError), {} failed\n", what,
                           t.exact, t.infeasible, t.failed);
  CHECK(t.exact > 0);
}

std::vector<test::Net> all_nets() {
  size_t rejected = 0;
  auto files = test::onnx_below(test::shared_networks() + "/dory");
  for (const auto& f : test::onnx_below(test::shared_networks() + "/deeploy")) files.push_back(f);
  for (const auto& f : test::model_files()) files.push_back(f);
  return test::load_nets(files, test::shared_networks(), rejected);
}

}  // namespace

TEST_CASE("codegen host: dory tilings of the DORY + Deeploy + models networks on gap8 gap9 siracusa are bit-exact",
          "[codegen][host][heavy]") {
  REQUIRE_DATA(test::shared_networks() + "/dory");
  const auto nets = all_nets();
  CHECK(nets.size() == 9 + 23 + 3);
  run_set(nets, {{"gap8", "gap9", "siracusa"}, "dory", false, true}, "dory");
}

TEST_CASE("codegen host: deeploy tilings of the DORY + Deeploy + models networks on gap8 gap9 siracusa are bit-exact",
          "[codegen][host]") {
  REQUIRE_DATA(test::shared_networks() + "/dory");
  run_set(all_nets(), {{"gap9", "siracusa", "gap8"}, "deeploy", false, true}, "deeploy");   // another platform per network than under dory
}

TEST_CASE("codegen host: tuned tilings of the DORY networks + MobileNetV1-128 on gap8 and Deeploy on siracusa are bit-exact",
          "[codegen][host][heavy]") {
  REQUIRE_DATA(test::shared_networks() + "/dory");
  size_t rejected = 0;
  auto dory = test::onnx_below(test::shared_networks() + "/dory");
  dory.push_back(test::model_files().back());
  run_set(test::load_nets(dory, test::shared_networks(), rejected), {{"gap8"}, "tuned", false}, "tuned gap8");
  run_set(test::load_nets(test::onnx_below(test::shared_networks() + "/deeploy"), test::shared_networks(), rejected),
          {{"siracusa"}, "tuned", false}, "tuned siracusa");
}

TEST_CASE("codegen host: NPU and MVU layers run as their C equivalents bit-exact (Deeploy + models on siracusa gap9)",
          "[codegen][host][npu]") {
  REQUIRE_DATA(test::shared_networks() + "/deeploy");
  size_t rejected = 0;
  auto files = test::onnx_below(test::shared_networks() + "/deeploy");
  for (const auto& f : test::model_files()) files.push_back(f);
  const auto nets = test::load_nets(files, test::shared_networks(), rejected);
  run_set(nets, {{"siracusa", "gap9"}, "dory", true, true}, "npu dory");
  run_set(nets, {{"gap9", "siracusa"}, "deeploy", true, true}, "npu deeploy");
  // BARVINN's SimpleConv on the MVU array (the mvu array test's network).
  run_set(test::load_nets({test::shared_networks() + "/barvinn/SimpleConv.onnx"}, "", rejected),
          {{"barvinn"}, "dory", true}, "mvu");
}
