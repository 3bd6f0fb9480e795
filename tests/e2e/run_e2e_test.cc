// End to end through the timed simulator: every network that compiles (the DORY networks, the
// Deeploy CNN tests, models/ incl. the generated MobileNetV1-128) on gap8, gap9 and siracusa
// under the dory and deeploy policies is simulated with data: it completes, its every read-back
// tensor equals the untiled interpreter bit-exactly, and its cycle total is deterministic (a
// second, timing-only run gives the same total). The per-layer split must add up. A table of
// cycle totals is printed. The CLI cases run `edgesim run` with --json/--trace/--report and the
// golden comparison on a DORY network.
#include <filesystem>
#include <fstream>
#include <iostream>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "compiler/schedule/build.h"
#include "compiler/tiler/policy.h"
#include "e2e/e2e_nets.h"
#include "sim/exec/executor.h"
#include "sim/exec/verify.h"
#include "support/tiling.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

struct Tally {
  int verified = 0, infeasible = 0;
};

void simulate_all(const std::vector<test::Net>& nets, const std::string& what, Tally& t) {
  for (const test::Net& n : nets)
    for (const test::Platform& p : test::platforms()) {
      if (p.name != "gap8" && p.name != "gap9" && p.name != "siracusa") continue;
      for (const char* policy : {"dory", "deeploy"}) {
        INFO(n.name << " on " << p.name << " under " << policy);
        Schedule s;
        try {
          s = build_schedule(n.graph, p.spec, test::tile_for(n.graph, p.spec, policy), {});
        } catch (const TilingError&) {
          ++t.infeasible;
          continue;
        }
        SimOutcome got;
        REQUIRE_NOTHROW(got = simulate(n.graph, s, p.spec, n.inputs));
        const VerifyOutcome v = verify_against_interpreter(n.graph, *got.values, n.want);
        INFO(v.message);
        CHECK(v.ok);
        SimOptions timing;
        timing.data = false;
        CHECK(simulate(n.graph, s, p.spec, n.inputs, timing).result.total_cycles == got.result.total_cycles);
        int64_t sum = 0;
        for (const LayerStats& L : got.result.layers) {
          CHECK(L.compute_cycles + L.overhead_cycles + L.dma_wait_cycles == L.cycles);
          sum += L.cycles;
        }
        CHECK(sum == got.result.total_cycles);
        CHECK(got.result.total_cycles > 0);
        t.verified += v.ok;
        std::cout << fmt::format("  run {:<40} {:<9} {:<8} {:>12} cycles  {:>7.2f} MAC/cycle\n", n.name, p.name,
                                 policy, got.result.total_cycles,
                                 static_cast<double>(got.result.total_macs) /
                                     static_cast<double>(std::max<int64_t>(1, got.result.total_cycles)));
      }
    }
  std::cout << fmt::format("run e2e {}: {} simulated bit-exact, {} infeasible (TilingError)\n", what, t.verified,
                           t.infeasible);
}

}  // namespace

TEST_CASE("e2e run: DORY networks simulate bit-exact on gap8, gap9, siracusa", "[e2e][run]") {
  const std::string root = test::shared_networks() + "/dory";
  REQUIRE_DATA(root);
  size_t rejected = 0;
  const auto nets = test::load_nets(test::onnx_below(root), "", rejected);
  Tally t;
  simulate_all(nets, "DORY", t);
  CHECK(t.verified == 9 * 3 * 2);   // all feasible there (compile e2e)
}

TEST_CASE("e2e run: Deeploy CNN tests simulate bit-exact on gap8, gap9, siracusa", "[e2e][run]") {
  const std::string root = test::shared_networks() + "/deeploy";
  REQUIRE_DATA(root);
  size_t rejected = 0;
  const auto nets = test::load_nets(test::onnx_below(root), test::shared_networks(), rejected);
  CHECK(nets.size() == 23);
  Tally t;
  simulate_all(nets, "Deeploy", t);
  CHECK(t.verified + t.infeasible == 23 * 3 * 2);
  CHECK(t.verified > 0);
}

TEST_CASE("e2e run: models/ networks simulate bit-exact on gap8, gap9, siracusa", "[e2e][run][models]") {
  const std::vector<std::string> files = test::model_files();
  size_t rejected = 0;
  const auto nets = test::load_nets(files, "", rejected);
  REQUIRE(nets.size() == 3);
  Tally t;
  simulate_all(nets, "models", t);
  CHECK(t.verified == 3 * 3 * 2);
}

TEST_CASE("edgesim run: report files, golden comparison and errors", "[e2e][run][cli]") {
  const std::string net = test::shared_networks() + "/dory/PenguiNet_32";
  REQUIRE_DATA(net);
  std::string onnx;
  for (const auto& e : fs::directory_iterator(net))
    if (e.path().extension() == ".onnx") onnx = e.path().string();
  REQUIRE(!onnx.empty());
  test::TempDir dir;
  const std::string json = dir.file("r.json"), trace = dir.file("t.json"), html = dir.file("r.html");
  const auto r = test::run_edgesim(fmt::format("run -p '{}/platforms/gap9.yaml' '{}' --expected '{}' --json '{}' "
                                               "--trace '{}' --report '{}'",
                                               test::source_dir(), onnx, net, json, trace, html));
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK_THAT(r.output, Contains("verification: bit-exact: simulator = golden model") && Contains("golden files"));
  const auto j = nlohmann::json::parse(std::ifstream(json));
  CHECK(j.at("verified") == true);
  CHECK(j.at("layers").size() > 5);
  for (const auto& L : j.at("layers"))
    for (const char* k : {"name", "op", "engine", "macs", "cycles", "compute_cycles", "dma_wait_cycles"})
      CHECK(L.contains(k));
  const auto tr = nlohmann::json::parse(std::ifstream(trace));
  CHECK(tr.at("traceEvents").size() > 10);
  std::ifstream h(html);
  const std::string page((std::istreambuf_iterator<char>(h)), std::istreambuf_iterator<char>());
  CHECK_THAT(page, Contains("<svg"));

  // Bad input: one error line, exit 2.
  const auto bad = test::run_edgesim(fmt::format("run -p '{}/platforms/barvinn.yaml' '{}'", test::source_dir(), onnx));
  CHECK(bad.status == 2);
  CHECK_THAT(bad.output, Contains("edgesim: error:") && Contains("barvinn"));
  const auto policy = test::run_edgesim(fmt::format("run '{}' --policy nope", onnx));
  CHECK(policy.status == 2);
}
