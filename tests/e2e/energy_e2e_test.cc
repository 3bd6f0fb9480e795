// Energy and platform changes as a researcher sees them (issue 17): energy per layer and per block
// of MobileNetV1-128 on gap8, gap9 and siracusa with and without its weight memory, summing to the
// total; the energy in `run`'s table, JSON and HTML; `describe` saying what each --set changed;
// `sweep --objective` and its Pareto front. Timing-only runs.
#include <cmath>
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/flow/flow.h"
#include "support/paths.h"
#include "support/run.h"
#include "support/temp_dir.h"

using namespace edgesim;
using Catch::Matchers::Contains;

namespace {

std::string src(const std::string& rel) { return test::source_dir() + "/" + rel; }
std::string mnv1() { return std::string(EDGESIM_BUILD_DIR) + "/models/mobilenetv1_128/model.onnx"; }
std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

double sum(const std::map<std::string, double>& m) {
  double t = 0;
  for (const auto& [k, v] : m) t += v;
  return t;
}

}  // namespace

TEST_CASE("MobileNetV1-128: energy per layer and per block sums to the total on gap8, gap9, siracusa", "[e2e][energy]") {
  if (!test::have_data(mnv1())) return;
  struct Config {
    std::string platform;
    std::vector<std::string> set;
    bool npu, wmem;
  };
  for (const Config& c : {Config{"gap8", {}, false, false}, Config{"gap9", {}, true, false},
                          Config{"siracusa", {}, true, true}, Config{"siracusa", {"npu.weight_source=l1"}, true, false}}) {
    INFO(c.platform << (c.set.empty() ? "" : " " + c.set[0]));
    FlowRequest req;
    req.model = mnv1();
    req.platform = src("platforms/" + c.platform + ".yaml");
    req.overrides = c.set;
    req.sim.data = false;
    const RunResult r = run_flow(req).sim.result;
    REQUIRE(r.energy_modelled);
    const double total = r.energy.total_pj();
    CHECK(total > 0);
    double layers = 0;
    std::map<std::string, double> blocks;
    for (const LayerStats& l : r.layers) {
      layers += l.energy.total_pj();
      CHECK(sum(l.energy.by_block()) == Approx(l.energy.total_pj()).epsilon(1e-12));
      for (const auto& [b, v] : l.energy.by_block()) {
        CHECK(v >= 0);
        blocks[b] += v;
      }
    }
    CHECK(layers == Approx(total).epsilon(1e-9));
    CHECK(sum(r.energy.by_block()) == Approx(total).epsilon(1e-9));
    for (const auto& [b, v] : blocks) CHECK(v == Approx(r.energy.block_pj(b)).epsilon(1e-9));
    CHECK((r.energy.dynamic_pj.count("npu") && r.energy.dynamic_pj.at("npu") > 0) == c.npu);
    CHECK((r.energy.dynamic_pj.count("wmem") && r.energy.dynamic_pj.at("wmem") > 0) == c.wmem);
    CHECK(r.energy.dynamic_pj.at("cluster") > 0);
    CHECK(r.energy.dynamic_pj.at("l2") > 0);
  }
}

TEST_CASE("run reports energy in the table, the JSON and the HTML", "[e2e][energy]") {
  test::TempDir dir;
  const std::string json = (dir.path() / "r.json").string(), html = (dir.path() / "r.html").string();
  const test::RunResult r =
      test::run_edgesim("run -p gap9 " + src("models/resnet8/model.onnx") + " --timing-only --json " + json + " --report " + html);
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("pJ/MAC, avg power") && Contains("EDP") && Contains("by block:     cluster"));
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  REQUIRE(j["total_energy_pj"].is_number());
  double layers = 0;
  for (const auto& l : j["layers"]) layers += l["energy_pj"].get<double>();
  CHECK(layers == Approx(j["total_energy_pj"].get<double>()).epsilon(1e-9));
  CHECK(j["energy_by_block"].contains("cluster"));
  CHECK(j["avg_power_w"].get<double>() > 0);
  CHECK(j["edp_j_s"].get<double>() > 0);
  const std::string page = slurp(html);
  CHECK_THAT(page, Contains("aria-label=\"energy per layer\"") && Contains("energy-delay product") &&
                       Contains("Where the cycles and the energy go"));
  // A platform without an energy model says nothing about energy.
  const test::RunResult p = test::run_edgesim("run -p pulp_open " + src("models/tiny/model.onnx") + " --timing-only");
  REQUIRE(p.status == 0);
  CHECK(p.output.find("pJ/MAC") == std::string::npos);
}

TEST_CASE("describe says what each --set changed", "[e2e][energy]") {
  const test::RunResult r = test::run_edgesim("describe siracusa --set cluster.n_cores=16 --set cluster.dma.l2_latency=40");
  REQUIRE(r.status == 0);
  CHECK_THAT(r.output, Contains("Overrides (what each --set changed, in order)") && Contains("dory worker cores") &&
                           Contains("16 (auto = cluster.n_cores)") &&
                           Contains("warning: --set cluster.dma.l2_latency: no effect on the run"));
}

TEST_CASE("sweep --objective energy picks the least-energy point and draws the Pareto front", "[e2e][energy]") {
  test::TempDir dir;
  const std::string csv = (dir.path() / "s.csv").string(), html = (dir.path() / "s.html").string();
  const test::RunResult r = test::run_edgesim("sweep -p gap9 " + src("models/resnet8/model.onnx") +
                                              " --set l1.size=64KiB,128KiB --set cluster.n_cores=2,8 --objective energy -o " +
                                              csv + " --report " + html);
  REQUIRE(r.status == 0);
  CHECK_THAT(slurp(csv), Contains(",energy_uj,reason"));
  const std::string page = slurp(html);
  CHECK_THAT(page, Contains("Cycles and energy: the Pareto front") && Contains("least energy at") &&
                       Contains("aria-label=\"cycles and energy of the points\""));
  const test::RunResult none = test::run_edgesim("sweep -p pulp_open " + src("models/tiny/model.onnx") +
                                                 " --set l1.size=64KiB,128KiB --objective edp");
  CHECK(none.status == 2);
  CHECK_THAT(none.output, Contains("edgesim: error: sweep --objective edp: platform 'pulp_open' has no energy model"));
}
