// `edgesim describe` on platforms: the resolved spec, budgets and implementations on stdout,
// overrides applied, and a bad platform giving a non-zero exit with one "edgesim: error:" line.
#include <catch2/catch.hpp>

#include <string>

#include "platforms/temp_dir.h"
#include "support/run.h"

using edgesim::test::platform_file;
using edgesim::test::run_edgesim;
using edgesim::test::TempDir;

namespace {

int count_lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("describe prints the resolved platform", "[platforms][cli]") {
  const auto r = run_edgesim("describe --platform '" + platform_file("siracusa") + "'");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("platform siracusa") != std::string::npos);
  CHECK(r.output.find("[cluster.dma]") != std::string::npos);
  CHECK(r.output.find("l1.size                            262144 B (256 KiB)") != std::string::npos);
  CHECK(r.output.find("cluster.freq_hz                    360 MHz") != std::string::npos);
  CHECK(r.output.find("Usable budgets") != std::string::npos);
  CHECK(r.output.find("Implementations") != std::string::npos);
  CHECK(r.output.find("cluster.dma          mchan_v7           (known: mchan_v7, simple_dma)") !=
        std::string::npos);
  CHECK(r.output.find("npu                  neureka") != std::string::npos);
}

TEST_CASE("describe applies --set overrides to the budgets", "[platforms][cli]") {
  const auto r = run_edgesim("describe '" + platform_file("gap8") + "' --set l1.size=38836 --set cluster.freq_hz=100MHz");
  INFO(r.output);
  REQUIRE(r.status == 0);
  CHECK(r.output.find("L1          10,000 B") != std::string::npos);
  CHECK(r.output.find("100 MHz                      --set") != std::string::npos);
}

TEST_CASE("describe fails with one error line on a bad platform", "[platforms][cli]") {
  TempDir dir;
  const std::string bad = dir.write("bad.yaml", std::string(edgesim::test::kMinimalPlatform) +
                                                    "clusterr:\n  n_cores: 8\n");
  const auto r = run_edgesim("describe --platform '" + bad + "'");
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK(count_lines(r.output) == 1);
  CHECK(r.output.rfind("edgesim: error: " + bad + ":19: unknown key 'clusterr.n_cores' "
                       "(did you mean 'cluster.n_cores'?)", 0) == 0);

  const auto s = run_edgesim("describe --platform '" + platform_file("gap8") + "' --set l1.banks=6");
  INFO(s.output);
  CHECK(s.status != 0);
  CHECK(count_lines(s.output) == 1);
  CHECK(s.output.find("l1.banks=6: l1.banks must be a power of two (got 6) (from --set)") !=
        std::string::npos);
}

TEST_CASE("describe routes a .onnx argument to the importer", "[platforms][cli]") {
  const auto r = run_edgesim("describe /nonexistent/net.onnx");
  INFO(r.output);
  CHECK(r.status != 0);
  CHECK(count_lines(r.output) == 1);
  CHECK(r.output.rfind("edgesim: error: /nonexistent/net.onnx", 0) == 0);
}

TEST_CASE("describe prints an imported network", "[cli]") {
  const std::string net = edgesim::test::shared_networks() + "/barvinn/SimpleConv.onnx";
  REQUIRE_DATA(net);
  const auto r = run_edgesim("describe '" + net + "'");
  INFO(r.output);
  CHECK(r.status == 0);
  CHECK(r.output.rfind("graph ", 0) == 0);
}
